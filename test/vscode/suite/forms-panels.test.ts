// In-host tests of the form panels against the sandbox started in the extension host. Each form is
// opened through its command, so the panel, its real webview page and its controller are wired exactly
// as for a user. The page's own messages (its "ready") come from the real webview; the messages a user's
// clicks would send are handed to the same controller through the test seam (deliverToForm in
// helpers.ts, over src/extension/testSeam.ts), because an in-host test cannot reach into a webview.
// What reached the service is read from the sandbox's control endpoint.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { UpdateBurnAlertRequest } from '../../../src/api/schemas/burnAlert';
import type { TestSeam } from '../../../src/extension/testSeam';
import { rowsFromDefinitions } from '../../../src/webview/protocol/datasetDefinitionsForm';
import { VIEW_TYPES } from '../../../src/webview/protocol/messages';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { DEMO } from '../../../src/sandbox/demoData';
import type { RecordedRequest } from '../../../src/sandbox/types';
import { suite, test } from './harness';
import { deliverToForm, obsSeam, openFormKeys, waitFor } from './helpers';

const CONNECTION = 'sandbox';

interface Sandbox {
  readonly seam: TestSeam;
  readonly baseUrl: string;
}

async function startSandbox(): Promise<Sandbox> {
  const seam = await obsSeam();
  const baseUrl = await vscode.commands.executeCommand<string | undefined>('obs.sandbox.start');
  assert.ok(baseUrl, 'obs.sandbox.start answered no base URL');
  return { seam, baseUrl };
}

/** Each test starts its own sandbox (fresh demo data) and stops it at the end. */
async function stopSandbox(): Promise<void> {
  await vscode.commands.executeCommand('obs.sandbox.stop');
}

/** What the sandbox received, from its control endpoint (docs/SANDBOX.md). */
async function recordedRequests(baseUrl: string): Promise<RecordedRequest[]> {
  const token = (await obsSeam()).sandbox.running?.info.controlToken ?? '';
  const res = await fetch(`${baseUrl}/__sandbox/requests`, { headers: { 'X-Sandbox-Token': token } });
  assert.equal(res.status, 200, 'GET /__sandbox/requests');
  return (await res.json()) as RecordedRequest[];
}

/** Requests received after the first `skip` ones that match `method` and a path prefix. */
async function requestsSince(
  baseUrl: string,
  skip: number,
  method: string,
  pathStart: string,
): Promise<RecordedRequest[]> {
  return (await recordedRequests(baseUrl))
    .slice(skip)
    .filter((r) => r.method === method && r.path.startsWith(pathStart));
}

async function waitForForm(seam: TestSeam, key: string): Promise<void> {
  await waitFor(`the form ${key} to open`, () => openFormKeys(seam).includes(key) || undefined);
}

async function deliver(seam: TestSeam, key: string, message: unknown): Promise<void> {
  assert.equal(await deliverToForm(seam, key, message), true, `form ${key} is open`);
}

/** Closes the editor tab of every open panel of `viewType` (no-op when there is none). */
async function closePanels(viewType: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(viewType));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

/** Everything the extension wrote to its log files (the Observability output channel among them). */
async function logText(seam: TestSeam): Promise<string> {
  const dir = seam.context.logUri;
  const entries = await vscode.workspace.fs.readDirectory(dir).then(undefined, () => [] as [string, vscode.FileType][]);
  const texts = await Promise.all(
    entries
      .filter(([name, type]) => type === vscode.FileType.File && name.endsWith('.log'))
      .map(async ([name]) =>
        new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(dir, name))),
      ),
  );
  return texts.join('\n');
}

/** How often the log holds `line`. */
const timesLogged = async (seam: TestSeam, line: string): Promise<number> =>
  (await logText(seam)).split(line).length - 1;

/**
 * Waits until the form logs that it shows what it loaded once more than `before`: its own load is done (the
 * requests it makes are no sign, since drift may make the same ones for the workspace's files).
 */
async function waitForShown(seam: TestSeam, line: string, before: number): Promise<void> {
  await waitFor(
    'the form to show what it loaded',
    async () => (await timesLogged(seam, line)) > before || undefined,
    30_000,
  );
}

function globalStateText(seam: TestSeam): string {
  const state = seam.context.globalState;
  return JSON.stringify(state.keys().map((k) => [k, state.get(k)]));
}

suite('forms', () => {
  test(
    'the create API key form creates the key at the sandbox, and the tree remembers it without its secret',
    async () => {
      const { seam, baseUrl } = await startSandbox();
      const info = seam.sandbox.running?.info;
      assert.ok(info, 'the sandbox runs');
      const key = `create:${CONNECTION}`;
      const name = `in-host key ${Date.now()}`;
      const skip = (await recordedRequests(baseUrl)).length;
      let createdId: string | undefined;
      try {
        await vscode.commands.executeCommand('obs.apiKey.create', { kind: 'apiKeys', connectionId: CONNECTION });
        await waitForForm(seam, key);
        await deliver(seam, key, {
          type: 'submitCreate',
          values: {
            name,
            keyType: 'ingest',
            disabled: false,
            createDatasets: false,
            environmentId: info.environmentId,
          },
        });

        const posts = await requestsSince(baseUrl, skip, 'POST', `/2/teams/${info.team}/api-keys`);
        assert.equal(posts.length, 1, 'one create request');
        assert.deepEqual(posts[0]?.body, {
          data: {
            type: 'api-keys',
            attributes: { key_type: 'ingest', name, disabled: false, permissions: { create_datasets: false } },
            relationships: { environment: { data: { id: info.environmentId, type: 'environments' } } },
          },
        });
        createdId = seam.sandbox.running?.state.apiKeys.find((k) => k.name === name)?.id;
        assert.ok(createdId, 'the sandbox holds the new key');

        // Remembered by id, name, state, type and time only.
        const remembered = seam.keys.list(CONNECTION).find((k) => k.id === createdId);
        assert.ok(remembered, 'the key registry remembers the new key');
        const { createdAt, ...rest } = remembered;
        assert.deepEqual(rest, { id: createdId, name, disabled: false, keyType: 'ingest' });
        assert.match(createdAt ?? '', /^\d{4}-\d\d-\d\dT/, 'createdAt is a timestamp');
        const id = createdId;
        await waitFor('the new key in the tree', async () => {
          const keys = await seam.tree.getChildren({ kind: 'apiKeys', connectionId: CONNECTION });
          return keys.some((n) => n.kind === 'apiKey' && n.key.id === id) || undefined;
        });

        // The secret itself cannot be read back here (the clipboard's read waits on a browser permission
        // prompt that a headless page never answers), so look for its shape: 32 hex digits, the sandbox's.
        const secretShape = /\b[0-9a-f]{32}\b/;
        assert.doesNotMatch(globalStateText(seam), secretShape, 'a secret in globalState');
        assert.doesNotMatch(
          JSON.stringify(vscode.workspace.getConfiguration()),
          secretShape,
          'a secret in the settings',
        );
        const logged = `created API key ${createdId}`;
        const log = await waitFor('the create in the log', async () => {
          const text = await logText(seam);
          return text.includes(logged) ? text : undefined;
        });
        assert.doesNotMatch(log, secretShape, 'a secret in the log');

        // "Copy Secret Only", then the form's Close button: the secret was copied, so it closes without asking.
        await deliver(seam, key, { type: 'copy', what: 'secret' });
        await deliver(seam, key, { type: 'close' });
        await waitFor('the form to close', () => !openFormKeys(seam).includes(key) || undefined);
      } finally {
        // A secret never copied would hold the panel open behind a modal question: copy it, then overwrite it.
        if (openFormKeys(seam).includes(key)) await deliverToForm(seam, key, { type: 'copy', what: 'secret' });
        await vscode.env.clipboard.writeText('');
        if (createdId !== undefined) await seam.keys.forget(CONNECTION, createdId);
        await closePanels(VIEW_TYPES.createApiKey);
        await stopSandbox();
      }
    },
    { timeoutMs: 30_000 },
  );

  test(
    'the burn alert form PUTs every writable field of the alert, the edited ones and the untouched ones',
    async () => {
      const { seam, baseUrl } = await startSandbox();
      const dataset = DEMO.datasets.gateway;
      const slo: TreeNode = { kind: 'slo', connectionId: CONNECTION, dataset, sloId: DEMO.slos.gwAvailability };
      const node = (await seam.tree.getChildren(slo)).find(
        (n) => n.kind === 'burnAlert' && n.alert.id === DEMO.burnAlerts.gwBudgetRate,
      );
      assert.ok(node?.kind === 'burnAlert', 'the budget_rate burn alert is in the tree');
      const loaded = node.alert;
      assert.equal(loaded.alert_type, 'budget_rate');
      const key = `burnAlert:${CONNECTION}:${dataset}:${loaded.id}`;
      const skip = (await recordedRequests(baseUrl)).length;
      const shown = `burn alert form: showing ${loaded.id} of ${dataset}`;
      const before = await timesLogged(seam, shown);
      try {
        await vscode.commands.executeCommand('obs.burnAlert.edit', node);
        await waitForForm(seam, key);
        // The page says "ready"; the host reads the one alert for its recipients (the list carries none, spec
        // 4.3) and gathers the recipients in use, then shows the form.
        await waitForShown(seam, shown, before);
        assert.ok(
          (await requestsSince(baseUrl, skip, 'GET', `/1/burn_alerts/${dataset}/${loaded.id}`)).length > 0,
          'the one alert was read',
        );
        const realRecipients = seam.sandbox.running?.state.burnAlerts.find((a) => a.id === loaded.id)?.recipients;
        assert.ok(realRecipients && realRecipients.length > 0, 'the alert has recipients on the service');
        // Only the description is edited: the recipients it already has are sent back, not replaced.
        const edits = { description: 'Edited in the extension host' };
        await deliver(seam, key, { type: 'submit', edits });

        const puts = await requestsSince(baseUrl, skip, 'PUT', `/1/burn_alerts/${dataset}/${loaded.id}`);
        assert.equal(puts.length, 1, 'one PUT');
        const body = puts[0]?.body as Record<string, unknown>;
        // Every member of the request schema that a budget_rate alert may carry (exhaustion_minutes may not).
        const writable = Object.keys(UpdateBurnAlertRequest.shape).filter((f) => f !== 'exhaustion_minutes');
        assert.deepEqual(Object.keys(body).sort(), writable.sort());
        assert.deepEqual(body, {
          alert_type: 'budget_rate',
          recipients: realRecipients,
          budget_rate_window_minutes: loaded.budget_rate_window_minutes,
          budget_rate_decrease_threshold_per_million: loaded.budget_rate_decrease_threshold_per_million,
          description: edits.description,
        });
        // The tree is refreshed and shows the alert as saved.
        await waitFor('the saved description in the tree', async () => {
          const alerts = await seam.tree.getChildren(slo);
          return (
            alerts.some(
              (n) => n.kind === 'burnAlert' && n.alert.id === loaded.id && n.alert.description === edits.description,
            ) || undefined
          );
        });
        await closePanels(VIEW_TYPES.burnAlert);
        await waitFor('the form to close', () => !openFormKeys(seam).includes(key) || undefined);
      } finally {
        await closePanels(VIEW_TYPES.burnAlert);
        await stopSandbox();
      }
    },
    { timeoutMs: 30_000 },
  );

  test(
    'the dataset definitions form loads through its page and PATCHes only the changed types',
    async () => {
      const { seam, baseUrl } = await startSandbox();
      const dataset = DEMO.datasets.gateway;
      const active = await seam.connections.getActive();
      assert.ok(active, 'the sandbox is the active connection');
      const loaded = (await active.client.updateDatasetDefinitions(dataset, {})).data;
      assert.equal(loaded.route?.name, 'http.route');
      assert.equal(loaded.user?.name, 'user.id');
      const key = `definitions:${CONNECTION}:${dataset}`;
      const path = `/1/dataset_definitions/${dataset}`;
      const shown = `dataset definitions form: showing the definitions of ${dataset}`;
      const before = await timesLogged(seam, shown);
      try {
        await vscode.commands.executeCommand('obs.datasetDefinitions.edit', {
          kind: 'dataset',
          connectionId: CONNECTION,
          slug: dataset,
        });
        await waitForForm(seam, key);
        // The page itself says "ready" and the host reads the map (PATCH {}): the webview round-trip.
        await waitForShown(seam, shown, before);
        const skip = (await recordedRequests(baseUrl)).length;

        // The page sends every row; two differ from the map as loaded.
        const rows = { ...rowsFromDefinitions(loaded), route: { name: 'dc.route_group' }, user: { name: '' } };
        await deliver(seam, key, { type: 'submit', rows });

        const patches = await requestsSince(baseUrl, skip, 'PATCH', path);
        assert.deepEqual(
          patches.map((r) => r.body),
          [{ route: { name: 'dc.route_group' }, user: { name: '' } }],
          'one save of only the changed types',
        );
        const after = (await active.client.updateDatasetDefinitions(dataset, {})).data;
        assert.equal(after.route?.name, 'dc.route_group');
        assert.equal(after.user, null);
        assert.equal(after.trace_id?.name, loaded.trace_id?.name, 'an unchanged type is kept');
        await closePanels(VIEW_TYPES.datasetDefinitions);
        await waitFor('the form to close', () => !openFormKeys(seam).includes(key) || undefined);
      } finally {
        await closePanels(VIEW_TYPES.datasetDefinitions);
        await stopSandbox();
      }
    },
    { timeoutMs: 45_000 },
  );

  test(
    'a malformed message to a form is refused and logged without its content, and nothing is sent',
    async () => {
      const { seam, baseUrl } = await startSandbox();
      const dataset = DEMO.datasets.checkout;
      const key = `definitions:${CONNECTION}:${dataset}`;
      const marker = `malformed-probe-${Date.now()}`;
      try {
        await vscode.commands.executeCommand('obs.datasetDefinitions.edit', {
          kind: 'dataset',
          connectionId: CONNECTION,
          slug: dataset,
        });
        await waitForForm(seam, key);
        const skip = (await recordedRequests(baseUrl)).length;
        const refusal = 'dataset definitions form: refused a malformed message (';
        const refusalsBefore = (await logText(seam)).split(refusal).length - 1;
        // A column name that is not a string, and a member no form message has.
        await deliver(seam, key, { type: 'submit', rows: { duration_ms: { name: 42 } }, note: marker });
        await deliver(seam, key, marker);

        const log = await waitFor('two more refusals in the log', async () => {
          const text = await logText(seam);
          return text.split(refusal).length - 1 === refusalsBefore + 2 ? text : undefined;
        });
        assert.ok(!log.includes(marker), 'the message content was logged');
        const sent = (await recordedRequests(baseUrl))
          .slice(skip)
          .filter((r) => r.method !== 'GET' && r.path.startsWith('/1/dataset_definitions/'));
        assert.deepEqual(
          sent.filter((r) => JSON.stringify(r.body) !== '{}').map((r) => r.body),
          [],
          'no definitions were written',
        );
      } finally {
        await closePanels(VIEW_TYPES.datasetDefinitions);
        await stopSandbox();
      }
    },
    { timeoutMs: 30_000 },
  );
});
