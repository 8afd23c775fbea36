// The host side of the three forms (vscode-free controllers) against the local sandbox: what is sent,
// what comes back to the page, and what must never happen (a stale secret, a lost field, a blind
// overwrite, a malformed message acted on).
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import type { BurnAlert } from '../../src/api/schemas';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { MemoryMemento } from '../../scripts/memoryMemento';
import { ApiKeyFormController } from '../../src/extension/forms/apiKeyController';
import { BurnAlertFormController, type ReviewSide } from '../../src/extension/forms/burnAlertController';
import { DatasetDefinitionsFormController } from '../../src/extension/forms/datasetDefinitionsController';
import { namedRecipientOptions } from '../../src/extension/forms/recipientChoices';
import { buildBurnAlertUpdate } from '../../src/webview/protocol/burnAlertForm';
import { rowsFromDefinitions } from '../../src/webview/protocol/datasetDefinitionsForm';

let sandbox: SandboxHandle;
let client: ServiceClient;
let clock = Date.parse('2025-01-01T00:00:00.000Z');

before(async () => {
  // Every sandbox timestamp is a second later than the last, so each write changes updated_at.
  sandbox = await startSandbox({ rateLimit: 100_000, clock: () => (clock += 1000) });
  client = new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    managementKey: sandbox.info.managementKey,
  });
});
afterEach(() => sandbox.faults.clear());
after(async () => {
  await client.close();
  await sandbox.close();
});

interface Recorder {
  posted: Record<string, unknown>[];
  logs: string[];
  post: (m: unknown) => void;
  log: { info(m: string): void; warn(m: string): void; error(m: string): void };
  ofType(type: string): Record<string, unknown>[];
}

function recorder(): Recorder {
  const posted: Record<string, unknown>[] = [];
  const logs: string[] = [];
  return {
    posted,
    logs,
    post: (m) => posted.push(structuredClone(m) as Record<string, unknown>),
    log: {
      info: (m) => logs.push(`info ${m}`),
      warn: (m) => logs.push(`warn ${m}`),
      error: (m) => logs.push(`error ${m}`),
    },
    ofType: (type) => posted.filter((m) => m.type === type),
  };
}

function requests(method: string, pathStart: string) {
  return sandbox.requests.filter((r) => r.method === method && r.path.startsWith(pathStart));
}

// --- API keys ------------------------------------------------------------------------------------------

describe('API key forms', () => {
  /** `answer` picks from the choices of a modal question (undefined: Cancel); by default the second, "without copying". */
  function createForm(opts: { answer?: (choices: readonly string[]) => string | undefined } = {}) {
    const rec = recorder();
    const asked: { message: string; detail: string; choices: readonly string[] }[] = [];
    const memento = new MemoryMemento();
    const keys = new KeyRegistry(memento);
    const clipboard: string[] = [];
    let closed = false;
    const form = new ApiKeyFormController({
      mode: 'create',
      client: async () => client,
      team: sandbox.info.team,
      connectionId: 'conn-1',
      connectionName: 'Sandbox',
      environmentId: sandbox.info.environmentId,
      keys,
      post: rec.post,
      log: rec.log,
      copy: async (text) => {
        clipboard.push(text);
      },
      ask: async (message, detail, choices) => {
        asked.push({ message, detail, choices });
        return opts.answer ? opts.answer(choices) : choices[1];
      },
      close: () => {
        closed = true;
      },
    });
    return { form, rec, keys, memento, clipboard, asked, isClosed: () => closed };
  }

  const values = (name: string) => ({
    name,
    keyType: 'ingest' as const,
    disabled: false,
    createDatasets: true,
    environmentId: sandbox.info.environmentId,
  });

  test('ready answers with the create form, the environment defaulting to the connection', async () => {
    const { form, rec } = createForm();
    await form.receive({ type: 'ready' });
    assert.deepEqual(rec.posted, [
      {
        type: 'init',
        mode: 'create',
        connectionId: 'conn-1',
        connectionName: 'Sandbox',
        values: {
          name: '',
          keyType: 'ingest',
          disabled: false,
          createDatasets: false,
          environmentId: sandbox.info.environmentId,
        },
      },
    ]);
  });

  test('create sends the 4.1 body, shows the secret once and remembers only id and name', async () => {
    const { form, rec, keys, memento } = createForm();
    const before = requests('POST', '/2/').length;
    await form.receive({ type: 'submitCreate', values: values('forms host key') });
    const sent = requests('POST', '/2/').slice(before);
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0]?.body, {
      data: {
        type: 'api-keys',
        attributes: {
          key_type: 'ingest',
          name: 'forms host key',
          disabled: false,
          permissions: { create_datasets: true },
        },
        relationships: { environment: { data: { id: sandbox.info.environmentId, type: 'environments' } } },
      },
    });
    const created = rec.ofType('created');
    assert.equal(created.length, 1);
    const key = created[0]?.key as { id: string; name: string; secret: string };
    assert.match(key.secret, /^[0-9a-f]{32}$/);
    assert.deepEqual(
      keys.list('conn-1').map((k) => [k.id, k.name, k.disabled, k.keyType]),
      [[key.id, 'forms host key', false, 'ingest']],
    );
    // The secret is nowhere but in the one 'created' message: not in the registry, not in a log line.
    assert.ok(!JSON.stringify([...memento.data.values()]).includes(key.secret));
    assert.ok(!rec.logs.join('\n').includes(key.secret));
    assert.ok(!JSON.stringify(rec.posted.filter((m) => m.type !== 'created')).includes(key.secret));
  });

  test('copy writes id:secret or the secret alone to the clipboard, through the host', async () => {
    const { form, rec, clipboard } = createForm();
    await form.receive({ type: 'submitCreate', values: values('forms copy key') });
    const key = rec.ofType('created')[0]?.key as { id: string; secret: string };
    await form.receive({ type: 'copy', what: 'idAndSecret' });
    await form.receive({ type: 'copy', what: 'secret' });
    assert.deepEqual(clipboard, [`${key.id}:${key.secret}`, key.secret]);
    assert.deepEqual(rec.ofType('copied'), [
      { type: 'copied', what: 'idAndSecret' },
      { type: 'copied', what: 'secret' },
    ]);
    assert.equal(form.uncopiedKey(), undefined);
  });

  test('a failed create never shows a stale secret', async () => {
    const { form, rec, clipboard } = createForm();
    await form.receive({ type: 'submitCreate', values: values('forms stale key') });
    assert.equal(rec.ofType('created').length, 1);
    rec.posted.length = 0;
    // A live key with the same name is refused by the service (409, pointer /data/attributes/name).
    await form.receive({ type: 'submitCreate', values: values('forms stale key') });
    assert.deepEqual(rec.ofType('created'), []);
    assert.deepEqual(
      rec.posted.map((m) => m.type),
      ['busy', 'problems', 'busy'],
    );
    assert.equal(form.uncopiedKey(), undefined);
    await form.receive({ type: 'copy', what: 'secret' });
    assert.deepEqual(clipboard, []);
    assert.equal(rec.ofType('status')[0]?.failed, true);
  });

  test('a refused name lands on the name field (JSON:API source.pointer)', async () => {
    const { form, rec } = createForm();
    await form.receive({ type: 'submitCreate', values: values('forms duplicate') });
    await form.receive({ type: 'submitCreate', values: values('forms duplicate') });
    const problems = rec.ofType('problems')[0]?.problems as { fields: Record<string, string[]>; form: string[] };
    assert.deepEqual(Object.keys(problems.fields), ['name']);
    assert.match(problems.fields.name?.[0] ?? '', /already exists/);
  });

  test('values breaking the schema are refused before any request, on the field they name', async () => {
    const { form, rec } = createForm();
    const before = sandbox.requests.length;
    await form.receive({ type: 'submitCreate', values: values('   ') });
    assert.equal(sandbox.requests.length, before);
    assert.deepEqual(rec.posted, [
      { type: 'problems', problems: { fields: { name: ['Name is required.'] }, form: [] } },
    ]);
  });

  test('a second submit while the first runs is refused by the host', async () => {
    const { form, rec } = createForm();
    sandbox.faults.latency(150);
    const before = requests('POST', '/2/').length;
    await Promise.all([
      form.receive({ type: 'submitCreate', values: values('forms twice A') }),
      form.receive({ type: 'submitCreate', values: values('forms twice B') }),
    ]);
    assert.equal(requests('POST', '/2/').length - before, 1);
    assert.equal(rec.ofType('created').length, 1);
    assert.ok(rec.logs.some((l) => l.startsWith('warn') && l.includes('another request is running')));
  });

  test('malformed messages are refused and logged, never acted on', async () => {
    const { form, rec } = createForm();
    const before = sandbox.requests.length;
    for (const bad of [
      null,
      'submitCreate',
      { type: 'submitCreate' },
      { type: 'submitCreate', values: { ...values('x'), name: 42 } },
      { type: 'submitCreate', values: { ...values('x'), extra: true } },
      { type: 'copy', what: 'everything' },
      { type: 'deleteAllKeys' },
    ]) {
      await form.receive(bad);
    }
    assert.equal(sandbox.requests.length, before);
    assert.deepEqual(rec.posted, []);
    assert.equal(rec.logs.filter((l) => l.startsWith('warn') && l.includes('refused a malformed message')).length, 7);
  });

  test('closing before copying asks first, the safe choice first; Cancel keeps the panel and the secret', async () => {
    const { form, rec, asked, isClosed } = createForm({ answer: () => undefined });
    await form.receive({ type: 'submitCreate', values: values('forms close key') });
    await form.receive({ type: 'close' });
    assert.deepEqual(asked, [
      {
        message: 'The secret of the new API key "forms close key" was not copied.',
        detail: 'It cannot be retrieved again. Copy it now, or disable the key later and create a new one.',
        choices: ['Copy id:secret', 'Close Without Copying'],
      },
    ]);
    assert.equal(isClosed(), false);
    assert.equal(form.uncopiedKey()?.name, 'forms close key');
    await form.receive({ type: 'copy', what: 'secret' });
    await form.receive({ type: 'close' });
    assert.equal(isClosed(), true);
    assert.equal(asked.length, 1, 'a copied secret closes without asking');
    assert.equal(rec.ofType('created').length, 1);
  });

  test('the default choice (Enter) of "close" copies id:secret and keeps the panel open', async () => {
    const { form, rec, asked, clipboard, isClosed } = createForm({ answer: (choices) => choices[0] });
    await form.receive({ type: 'submitCreate', values: values('forms enter key') });
    const key = rec.ofType('created')[0]?.key as { id: string; secret: string };
    await form.receive({ type: 'close' });
    assert.deepEqual(clipboard, [`${key.id}:${key.secret}`]);
    assert.equal(isClosed(), false);
    assert.deepEqual(rec.ofType('copied'), [{ type: 'copied', what: 'idAndSecret' }]);
    await form.receive({ type: 'close' });
    assert.equal(isClosed(), true);
    assert.equal(asked.length, 1);
  });

  test('"Create another key" before copying asks the same way; its default copies, the second choice starts over', async () => {
    const { form, rec, asked, clipboard } = createForm({ answer: (choices) => choices[0] });
    await form.receive({ type: 'submitCreate', values: values('forms another key') });
    await form.receive({ type: 'createAnother' });
    assert.deepEqual(
      asked.map((a) => a.choices),
      [['Copy id:secret', 'Start a New Key Without Copying']],
    );
    assert.equal(clipboard.length, 1);
    assert.equal(rec.ofType('secretCleared').length, 0, 'the secret is still shown');
    const second = createForm();
    await second.form.receive({ type: 'submitCreate', values: values('forms another key 2') });
    await second.form.receive({ type: 'createAnother' });
    assert.equal(second.rec.ofType('secretCleared').length, 1);
    assert.equal(second.form.uncopiedKey(), undefined);
  });

  test('the question names a long key by its first 39 characters', async () => {
    const { form, asked } = createForm({ answer: () => undefined });
    await form.receive({ type: 'submitCreate', values: values(`${'k'.repeat(60)}${'z'.repeat(40)}`) });
    await form.receive({ type: 'close' });
    assert.equal(asked[0]?.message, `The secret of the new API key "${'k'.repeat(39)}\u2026" was not copied.`);
  });

  test('showing the panel again brings the secret back from memory, not from state', async () => {
    const { form, rec } = createForm();
    await form.receive({ type: 'submitCreate', values: values('forms reshow key') });
    const key = rec.ofType('created')[0]?.key;
    rec.posted.length = 0;
    await form.receive({ type: 'ready' });
    assert.deepEqual(
      rec.posted.map((m) => m.type),
      ['init', 'created'],
    );
    assert.deepEqual(rec.posted[1]?.key, key);
  });

  test('update by id sends the 4.2 body and remembers a key it did not know', async () => {
    const rec = recorder();
    const keys = new KeyRegistry(new MemoryMemento());
    const form = new ApiKeyFormController({
      mode: 'update',
      client: async () => client,
      team: sandbox.info.team,
      connectionId: 'conn-1',
      connectionName: 'Sandbox',
      environmentId: sandbox.info.environmentId,
      keys,
      post: rec.post,
      log: rec.log,
      copy: async () => undefined,
      ask: async () => undefined,
      close: () => undefined,
    });
    const before = requests('PATCH', '/2/').length;
    await form.receive({
      type: 'submitUpdate',
      values: { id: DEMO.apiKeys.ingest, name: 'Renamed by form', disabled: true },
    });
    const sent = requests('PATCH', '/2/').slice(before);
    assert.deepEqual(
      sent.map((r) => [r.path, r.body]),
      [
        [
          `/2/teams/${sandbox.info.team}/api-keys/${DEMO.apiKeys.ingest}`,
          {
            data: {
              id: DEMO.apiKeys.ingest,
              type: 'api-keys',
              attributes: { name: 'Renamed by form', disabled: true },
            },
          },
        ],
      ],
    );
    assert.deepEqual(rec.ofType('updated'), [
      { type: 'updated', key: { id: DEMO.apiKeys.ingest, name: 'Renamed by form', disabled: true } },
    ]);
    assert.deepEqual(
      keys.list('conn-1').map((k) => [k.id, k.name, k.disabled]),
      [[DEMO.apiKeys.ingest, 'Renamed by form', true]],
    );
  });

  /** An update form by id (no known key), on `team`. */
  function updateForm(team = sandbox.info.team) {
    const rec = recorder();
    const form = new ApiKeyFormController({
      mode: 'update',
      client: async () => client,
      team,
      connectionId: 'conn-1',
      connectionName: 'Sandbox',
      environmentId: sandbox.info.environmentId,
      keys: new KeyRegistry(new MemoryMemento()),
      post: rec.post,
      log: rec.log,
      copy: async () => undefined,
      ask: async () => undefined,
      close: () => undefined,
    });
    return { form, rec };
  }

  test('a key id the service does not know is said once, on the id field, in plain words', async () => {
    const { form, rec } = updateForm();
    await form.receive({ type: 'submitUpdate', values: { id: 'hcxik_nosuch', name: 'x', disabled: false } });
    assert.deepEqual(
      rec.ofType('problems').map((m) => m.problems),
      [
        {
          fields: { id: [`The service has no API key with the ID "hcxik_nosuch" in the team "${sandbox.info.team}".`] },
          form: [],
        },
      ],
    );
  });

  test('a team the service does not know is said once, at the top, naming the connection to check', async () => {
    const { form, rec } = updateForm('no-such-team');
    await form.receive({ type: 'submitUpdate', values: { id: DEMO.apiKeys.ingest, name: 'x', disabled: false } });
    assert.deepEqual(
      rec.ofType('problems').map((m) => m.problems),
      [
        {
          fields: {},
          form: ['The service has no team "no-such-team": check the team slug of the connection Sandbox.'],
        },
      ],
    );
  });

  test('an environment the service does not know is said once, on the environment field', async () => {
    const { form, rec } = createForm();
    const typed = { ...values('no such environment'), environmentId: 'env_nosuch' };
    await form.receive({ type: 'submitCreate', values: typed });
    assert.deepEqual(
      rec.ofType('problems').map((m) => m.problems),
      [
        {
          fields: { environmentId: ['The service has no environment with the ID "env_nosuch" in this team.'] },
          form: [],
        },
      ],
    );
  });

  test("a 404 that is not the service's (no error body of it) says the address does not answer like the service", async () => {
    const { form, rec } = updateForm();
    sandbox.faults.nextStatus(404, 1, 'empty');
    await form.receive({ type: 'submitUpdate', values: { id: DEMO.apiKeys.ingest, name: 'x', disabled: false } });
    assert.deepEqual(
      rec.ofType('problems').map((m) => m.problems),
      [
        {
          fields: {},
          form: [
            'The address of the connection Sandbox answered "not found" the way a web server does, not the service: check that it is the address of the service\'s API.',
          ],
        },
      ],
    );
  });

  test('a form opened for a known key says its id is fixed, refuses a submit for another id and names the saved key', async () => {
    const rec = recorder();
    const renamed: string[] = [];
    const form = new ApiKeyFormController({
      mode: 'update',
      client: async () => client,
      team: sandbox.info.team,
      connectionId: 'conn-1',
      connectionName: 'Sandbox',
      environmentId: sandbox.info.environmentId,
      initialUpdate: { id: DEMO.apiKeys.disabled, name: 'Retired ingest key', disabled: true },
      idFixed: true,
      keys: new KeyRegistry(new MemoryMemento()),
      post: rec.post,
      log: rec.log,
      copy: async () => undefined,
      ask: async () => undefined,
      close: () => undefined,
      renamed: (name) => renamed.push(name),
    });
    await form.receive({ type: 'ready' });
    assert.deepEqual(rec.ofType('init'), [
      {
        type: 'init',
        mode: 'update',
        connectionId: 'conn-1',
        connectionName: 'Sandbox',
        values: { id: DEMO.apiKeys.disabled, name: 'Retired ingest key', disabled: true },
        idFixed: true,
      },
    ]);
    const before = requests('PATCH', '/2/').length;
    await form.receive({
      type: 'submitUpdate',
      values: { id: DEMO.apiKeys.ingest, name: 'Not this one', disabled: false },
    });
    assert.equal(requests('PATCH', '/2/').length, before, 'nothing was sent');
    assert.ok(rec.logs.some((l) => l.startsWith('warn') && l.includes('refused "submitUpdate for another key id"')));
    await form.receive({
      type: 'submitUpdate',
      values: { id: DEMO.apiKeys.disabled, name: 'Retired key (renamed)', disabled: true },
    });
    assert.equal(requests('PATCH', '/2/').length, before + 1);
    assert.deepEqual(renamed, ['Retired key (renamed)']);
  });
});

// --- Burn alerts ------------------------------------------------------------------------------------------

describe('burn alert form', () => {
  const gw = DEMO.datasets.gateway;
  const slo = DEMO.slos.gwAvailability;

  async function listed(id: string): Promise<BurnAlert> {
    const alert = (await client.listBurnAlerts(gw, slo)).data.find((a) => a.id === id);
    assert.ok(alert, `alert ${id} is listed`);
    return alert;
  }

  function open(alertId: string, loaded?: BurnAlert) {
    const rec = recorder();
    const diffs: { left: ReviewSide; right: ReviewSide; title: string }[] = [];
    const form = new BurnAlertFormController({
      client: async () => client,
      context: { connectionId: 'conn-1', dataset: gw, sloId: slo, alertId },
      connectionName: 'Sandbox',
      loaded,
      post: rec.post,
      log: rec.log,
      openDiff: async (left, right, title) => {
        diffs.push({ left, right, title });
      },
    });
    return { form, rec, diffs };
  }

  test('ready loads the alert and offers the recipients the environment uses, by id', async () => {
    const { form, rec } = open(DEMO.burnAlerts.gwExhaustion);
    await form.receive({ type: 'ready' });
    const init = rec.ofType('init')[0];
    assert.equal((init?.loaded as BurnAlert).id, DEMO.burnAlerts.gwExhaustion);
    const ids = (init?.recipientOptions as { id: string }[]).map((o) => o.id);
    assert.ok(ids.includes(DEMO.recipients.emailOncall), `options: ${ids.join(', ')}`);
    assert.ok(ids.includes(DEMO.recipients.pagerdutyPrimary), `options: ${ids.join(', ')}`);
  });

  test("the picker offers the team's recipients by type and name, those no alert or trigger uses included", async () => {
    const { form, rec } = open(DEMO.burnAlerts.gwExhaustion);
    await form.receive({ type: 'ready' });
    const options = rec.ofType('init')[0]?.recipientOptions as { id: string; label: string }[];
    const label = (id: string) => options.find((o) => o.id === id)?.label;
    assert.equal(label(DEMO.recipients.slackIncidents), '#incidents (Slack)');
    assert.equal(label(DEMO.recipients.pagerdutyPrimary), 'Primary on-call (PagerDuty)');
    assert.equal(label(DEMO.recipients.emailOncall), 'oncall@example.com (email)');
    // Sorted by the type's words, then name: email, Microsoft Teams workflow, Microsoft Teams (deprecated), PagerDuty, Slack, webhook.
    assert.deepEqual(
      options.map((o) => o.id),
      [
        DEMO.recipients.emailOncall,
        DEMO.recipients.emailTeam,
        DEMO.recipients.msteamsWorkflow,
        DEMO.recipients.msteamsLegacy,
        DEMO.recipients.pagerdutyPrimary,
        DEMO.recipients.slackIncidents,
        DEMO.recipients.webhookOps,
      ],
    );
  });

  test("the page is told which ids the team's list holds, so an id typed in that it lacks can be said to be missing from it", async () => {
    const { form, rec } = open(DEMO.burnAlerts.gwExhaustion);
    await form.receive({ type: 'ready' });
    const init = rec.ofType('init')[0];
    const team = (await client.listRecipients()).data.map((r) => r.id);
    assert.deepEqual(init?.listedRecipientIds, team);
    assert.ok(team.includes(DEMO.recipients.slackIncidents));
  });

  test("where the team's recipients cannot be listed (403), the picker offers the ids in use as before, and says why in the log", async () => {
    const refusing = new Proxy(client, {
      get: (target, key) =>
        key === 'listRecipients'
          ? () => Promise.reject(new Error('list recipients: 403 forbidden'))
          : (Reflect.get(target, key, target) as unknown),
    });
    const rec = recorder();
    const form = new BurnAlertFormController({
      client: async () => refusing,
      context: { connectionId: 'conn-1', dataset: gw, sloId: slo, alertId: DEMO.burnAlerts.gwExhaustion },
      connectionName: 'Sandbox',
      post: rec.post,
      log: rec.log,
      openDiff: async () => undefined,
    });
    await form.receive({ type: 'ready' });
    const options = rec.ofType('init')[0]?.recipientOptions as { id: string; label: string }[];
    assert.equal(
      options.find((o) => o.id === DEMO.recipients.emailOncall)?.label,
      `email: oncall@example.com (${DEMO.recipients.emailOncall})`,
    );
    assert.equal(
      options.some((o) => o.id === DEMO.recipients.slackIncidents),
      false,
    );
    assert.equal(
      'listedRecipientIds' in (rec.ofType('init')[0] ?? {}),
      false,
      'no list read: no id is said to be missing from it',
    );
    assert.ok(
      rec.logs.some(
        (l) =>
          l.startsWith('warn') && l.includes("could not list the team's recipients: list recipients: 403 forbidden"),
      ),
    );
  });

  test('two team recipients of the same type and name are told apart by id', () => {
    const twin = (id: string) => ({ id, type: 'email', details: { email_address: 'ops@example.com' } });
    assert.deepEqual(
      namedRecipientOptions(
        [twin('rcp_b'), twin('rcp_a')],
        [{ id: 'rcp_old', label: 'email: old@example.com (rcp_old)' }],
      ),
      [
        { id: 'rcp_a', label: 'ops@example.com (email), id rcp_a' },
        { id: 'rcp_b', label: 'ops@example.com (email), id rcp_b' },
        { id: 'rcp_old', label: 'email: old@example.com (rcp_old)' },
      ],
    );
  });

  test('a round trip loses nothing: the PUT carries every writable field plus the edit', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwExhaustion);
    const { form, rec } = open(loaded.id, loaded);
    await form.receive({ type: 'ready' });
    const before = requests('PUT', '/1/burn_alerts/').length;
    const recipients = [{ id: DEMO.recipients.emailOncall }];
    await form.receive({ type: 'submit', edits: { description: 'Edited by the form', recipients } });
    assert.equal(rec.ofType('conflict').length, 0);
    const first = requests('PUT', '/1/burn_alerts/').slice(before);
    assert.deepEqual(
      first.map((r) => r.body),
      [
        {
          alert_type: 'exhaustion_time',
          exhaustion_minutes: loaded.exhaustion_minutes,
          recipients,
          description: 'Edited by the form',
        },
      ],
    );
    // A second edit keeps the first one and the recipients the service answered with.
    await form.receive({ type: 'submit', edits: { exhaustion_minutes: 30 } });
    const second = requests('PUT', '/1/burn_alerts/').slice(before + 1);
    assert.equal(second.length, 1);
    const body = second[0]?.body as Record<string, unknown>;
    assert.equal(body.exhaustion_minutes, 30);
    assert.equal(body.description, 'Edited by the form');
    assert.deepEqual(
      (body.recipients as { id?: string }[]).map((r) => r.id),
      [DEMO.recipients.emailOncall],
    );
    assert.equal(rec.ofType('saved').length, 2);
    const after = await listed(loaded.id);
    assert.equal(after.exhaustion_minutes, 30);
    assert.equal(after.description, 'Edited by the form');
  });

  test('a budget_rate alert keeps its budget fields and never sends exhaustion_minutes', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwBudgetRate);
    const { form } = open(loaded.id, loaded);
    const before = requests('PUT', '/1/burn_alerts/').length;
    await form.receive({
      type: 'submit',
      edits: { description: 'only the text', recipients: [{ id: DEMO.recipients.pagerdutyPrimary }] },
    });
    const [sent] = requests('PUT', '/1/burn_alerts/').slice(before);
    assert.deepEqual(sent?.body, {
      alert_type: 'budget_rate',
      budget_rate_window_minutes: loaded.budget_rate_window_minutes,
      budget_rate_decrease_threshold_per_million: loaded.budget_rate_decrease_threshold_per_million,
      recipients: [{ id: DEMO.recipients.pagerdutyPrimary }],
      description: 'only the text',
    });
  });

  test('a concurrent change is detected before sending, and nothing is sent until the user chooses', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwExhaustion);
    const { form, rec, diffs } = open(loaded.id, loaded);
    await form.receive({ type: 'ready' });
    // Someone else changes the alert after the form opened.
    const theirs = buildBurnAlertUpdate(loaded, {
      description: 'their change',
      recipients: [{ id: DEMO.recipients.emailTeam }],
    });
    await client.updateBurnAlert(gw, loaded.id, theirs);
    const before = requests('PUT', '/1/burn_alerts/').length;
    const mine = { description: 'my change', recipients: [{ id: DEMO.recipients.emailOncall }] };
    await form.receive({ type: 'submit', edits: mine });
    assert.equal(requests('PUT', '/1/burn_alerts/').length, before);
    const conflict = rec.ofType('conflict')[0];
    assert.equal((conflict?.current as BurnAlert).description, 'their change');
    assert.equal((conflict?.mine as { description: string }).description, 'my change');

    await form.receive({ type: 'reviewConflict' });
    assert.equal((diffs[0]?.left.value as { description: string }).description, 'their change');
    assert.equal((diffs[0]?.right.value as { description: string }).description, 'my change');

    await form.receive({ type: 'resolveConflict', choice: 'overwrite' });
    const sent = requests('PUT', '/1/burn_alerts/').slice(before);
    assert.deepEqual(
      sent.map((r) => (r.body as { description: string }).description),
      ['my change'],
    );
    assert.equal((await listed(loaded.id)).description, 'my change');
  });

  test('choosing reload replaces the form with the version on the service and drops the edits', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwExhaustion);
    const { form, rec } = open(loaded.id, loaded);
    await client.updateBurnAlert(
      gw,
      loaded.id,
      buildBurnAlertUpdate(loaded, {
        description: 'changed elsewhere',
        recipients: [{ id: DEMO.recipients.emailTeam }],
      }),
    );
    const before = requests('PUT', '/1/burn_alerts/').length;
    await form.receive({
      type: 'submit',
      edits: { description: 'mine', recipients: [{ id: DEMO.recipients.emailOncall }] },
    });
    await form.receive({ type: 'resolveConflict', choice: 'reload' });
    assert.equal(requests('PUT', '/1/burn_alerts/').length, before);
    const init = rec.ofType('init').at(-1);
    assert.equal(init?.discardEdits, true);
    assert.equal((init?.loaded as BurnAlert).description, 'changed elsewhere');
  });

  test('choosing cancel sends nothing and a conflict choice without a conflict is ignored', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwExhaustion);
    const { form, rec } = open(loaded.id, loaded);
    await client.updateBurnAlert(
      gw,
      loaded.id,
      buildBurnAlertUpdate(loaded, { description: 'changed again', recipients: [{ id: DEMO.recipients.emailTeam }] }),
    );
    const before = requests('PUT', '/1/burn_alerts/').length;
    await form.receive({ type: 'submit', edits: { recipients: [{ id: DEMO.recipients.emailOncall }] } });
    await form.receive({ type: 'resolveConflict', choice: 'cancel' });
    await form.receive({ type: 'resolveConflict', choice: 'overwrite' });
    assert.equal(requests('PUT', '/1/burn_alerts/').length, before);
    assert.ok(rec.logs.some((l) => l.includes('no conflict open')));
  });

  test('review opens a diff of the alert as loaded (with its recipients) and the body the edits would send', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwBudgetRate);
    const { form, diffs, rec } = open(loaded.id, loaded);
    await form.receive({ type: 'ready' });
    // What the form shows: the alert as the page was given it.
    const current = rec.ofType('init').at(-1)?.loaded as BurnAlert | undefined;
    assert.ok(current?.recipients !== undefined && current.recipients.length > 0, 'read with its recipients');
    const before = sandbox.requests.length;
    await form.receive({ type: 'review', edits: { budget_rate_window_minutes: 90 } });
    assert.equal(sandbox.requests.length, before);
    assert.deepEqual(diffs[0]?.left.value, buildBurnAlertUpdate(current, {}));
    assert.deepEqual(diffs[0]?.right.value, buildBurnAlertUpdate(current, { budget_rate_window_minutes: 90 }));
  });

  test('a field the service refuses lands on that field (422 type_detail)', async () => {
    const loaded = await listed(DEMO.burnAlerts.gwExhaustion);
    const { form, rec } = open(loaded.id, loaded);
    await form.receive({ type: 'submit', edits: { recipients: [{ id: 'rcp_does_not_exist' }] } });
    const problems = rec.ofType('problems')[0]?.problems as { fields: Record<string, string[]> };
    assert.deepEqual(Object.keys(problems.fields), ['recipients']);
    assert.match(problems.fields.recipients?.[0] ?? '', /rcp_does_not_exist/);
  });

  test('malformed messages are refused and logged', async () => {
    const { form, rec } = open(DEMO.burnAlerts.gwExhaustion);
    const before = sandbox.requests.length;
    await form.receive({ type: 'submit', edits: { exhaustion_minutes: '30' } });
    await form.receive({ type: 'submit', edits: { slo: { id: 'x' } } });
    await form.receive({ type: 'resolveConflict', choice: 'merge' });
    assert.equal(sandbox.requests.length, before);
    assert.deepEqual(rec.posted, []);
    assert.equal(rec.logs.filter((l) => l.includes('refused a malformed message')).length, 3);
  });
});

// --- Dataset definitions ------------------------------------------------------------------------------------

describe('dataset definitions form', () => {
  function open(dataset: string) {
    const rec = recorder();
    const form = new DatasetDefinitionsFormController({
      client: async () => client,
      context: { connectionId: 'conn-1', dataset },
      connectionName: 'Sandbox',
      post: rec.post,
      log: rec.log,
    });
    return { form, rec };
  }

  test('the current map is read with PATCH {} and offered with the dataset columns', async () => {
    const { form, rec } = open(DEMO.datasets.gateway);
    const before = sandbox.requests.length;
    await form.receive({ type: 'ready' });
    const sent = sandbox.requests.slice(before).filter((r) => r.path.startsWith('/1/dataset_definitions/'));
    assert.deepEqual(
      sent.map((r) => [r.method, r.body]),
      [['PATCH', {}]],
    );
    const init = rec.ofType('init')[0];
    assert.deepEqual((init?.loaded as Record<string, unknown>).trace_id, {
      name: 'trace.trace_id',
      column_type: 'column',
    });
    assert.ok((init?.columns as { name: string }[]).some((c) => c.name === 'duration_ms'));
  });

  test('only changed definitions are sent; Clear sends name ""', async () => {
    const { form, rec } = open(DEMO.datasets.gateway);
    await form.receive({ type: 'ready' });
    const loaded = rec.ofType('init')[0]?.loaded as Parameters<typeof rowsFromDefinitions>[0];
    const rows = rowsFromDefinitions(loaded);
    rows.route = { name: 'http.method', column_type: 'column' };
    rows.user = { name: '' };
    const before = requests('PATCH', '/1/dataset_definitions/').length;
    await form.receive({ type: 'submit', rows });
    const sent = requests('PATCH', '/1/dataset_definitions/').slice(before);
    assert.deepEqual(
      sent.map((r) => r.body),
      [{ route: { name: 'http.method', column_type: 'column' }, user: { name: '' } }],
    );
    const saved = rec.ofType('saved')[0];
    assert.deepEqual(saved?.sent, ['route', 'user']);
    assert.equal((saved?.loaded as Record<string, unknown>).user, null);
  });

  test('a 422 naming unknown columns in its text lands on the definitions that named them; nothing changes', async () => {
    const { form, rec } = open(DEMO.datasets.gateway);
    await form.receive({ type: 'ready' });
    const loaded = rec.ofType('init')[0]?.loaded as Parameters<typeof rowsFromDefinitions>[0];
    const rows = rowsFromDefinitions(loaded);
    rows.log_message = { name: 'no.such.column' };
    rows.route = { name: 'http.method' };
    await form.receive({ type: 'submit', rows });
    const problems = rec.ofType('problems')[0]?.problems as { fields: Record<string, string[]>; form: string[] };
    assert.deepEqual(problems.fields, { log_message: ['The service refused the column "no.such.column".'] });
    assert.deepEqual(problems.form, [], 'one problem for one column: the raw text is in the log');
    assert.match(
      rec.logs.join('\n'),
      /the service refused the values sent\. .*unknown column\(s\) for dataset api-gateway: log_message -> "no\.such\.column"/,
    );
    assert.equal(rec.ofType('saved').length, 0);
  });

  test('three unknown columns of the longest kind (255 characters): three field problems and nothing else, though the answer was cut short', async () => {
    const { form, rec } = open(DEMO.datasets.gateway);
    await form.receive({ type: 'ready' });
    const [a, b, c] = ['a', 'b', 'c'].map((ch) => `${ch}.${'x'.repeat(253)}`);
    await form.receive({
      type: 'submit',
      rows: { route: { name: a as string }, user: { name: b as string }, log_message: { name: c as string } },
    });
    const problems = rec.ofType('problems')[0]?.problems as { fields: Record<string, string[]>; form: string[] };
    assert.deepEqual(Object.keys(problems.fields).sort(), ['log_message', 'route', 'user']);
    assert.deepEqual(problems.fields.route, [`The service refused the column "${a}".`]);
    assert.match(
      problems.fields.user?.[0] ?? '',
      /is not a column of this dataset: the service most likely refused it too/,
    );
    assert.deepEqual(problems.form, []);
    assert.equal(rec.ofType('saved').length, 0);
  });

  test('saving with nothing changed sends no request', async () => {
    const { form, rec } = open(DEMO.datasets.gateway);
    await form.receive({ type: 'ready' });
    const rows = rowsFromDefinitions(rec.ofType('init')[0]?.loaded as Parameters<typeof rowsFromDefinitions>[0]);
    const before = sandbox.requests.length;
    await form.receive({ type: 'submit', rows });
    assert.equal(sandbox.requests.length, before);
    assert.match(String(rec.ofType('status')[0]?.message), /Nothing to save/);
  });

  test('an unknown column refused by the service is shown on its definition', async () => {
    const { form, rec } = open(DEMO.datasets.checkout);
    await form.receive({ type: 'ready' });
    await form.receive({ type: 'submit', rows: { span_id: { name: 'no.such.column' } } });
    const problems = rec.ofType('problems')[0]?.problems as { fields: Record<string, string[]>; form: string[] };
    assert.deepEqual(problems, { fields: { span_id: ['The service refused the column "no.such.column".'] }, form: [] });
  });

  test('the environment-wide __all__ is refused without a request', async () => {
    const { form, rec } = open('__all__');
    const before = sandbox.requests.length;
    await form.receive({ type: 'ready' });
    assert.equal(sandbox.requests.length, before);
    assert.equal(rec.ofType('status')[0]?.failed, true);
    assert.match(String(rec.ofType('status')[0]?.message), /__all__/);
  });

  test('malformed messages are refused and logged', async () => {
    const { form, rec } = open(DEMO.datasets.gateway);
    const before = sandbox.requests.length;
    await form.receive({ type: 'submit', rows: { not_a_type: { name: 'x' } } });
    await form.receive({ type: 'submit', rows: { span_id: { name: 'x', column_type: 'table' } } });
    assert.equal(sandbox.requests.length, before);
    assert.deepEqual(rec.posted, []);
    assert.equal(rec.logs.filter((l) => l.includes('refused a malformed message')).length, 2);
  });
});
