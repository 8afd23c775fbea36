// The service lists recipients with their credentials (PagerDuty integration keys, webhook URLs, signing
// secrets, header values: RECIPIENT_SECRETS in the sandbox's demo data). None of them may reach anything
// the extension or the CLI makes observable: log lines, tree items (labels, descriptions, tooltips), hover
// and completion items, diagnostics, drift texts, the burn alert form's messages to its page, or files
// (pulled trigger files, SARIF and JSON reports, saved plans). Everything is gathered, then searched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { Limiter } from '../../src/api/limiter';
import { lint } from '../../src/lint';
import { runMain } from '../../src/cli/main';
import { DEMO, RECIPIENT_SECRETS, startSandbox, type SandboxHandle } from '../../src/sandbox/index';
import { formatRequestLog } from '../../src/extension/connections/requestLog';
import { AccountRecipients } from '../../src/extension/core/accountRecipients';
import { recipientName, recipientShortName, type RecipientDirectory } from '../../src/extension/core/recipients';
import { tooltipMarkdown } from '../../src/extension/core/text';
import { recipientCompletions, recipientHoverMarkdown } from '../../src/extension/diagnostics/recipientItems';
import { BurnAlertFormController } from '../../src/extension/forms/burnAlertController';
import { differenceItems, lensesOf } from '../../src/extension/sync/driftPresentation';
import { DatasetTreeModel } from '../../src/extension/tree/datasetTree';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import type { TreeNode } from '../../src/extension/tree/nodes';
import { present } from '../../src/extension/tree/presentation';
import { RememberedItems } from '../../src/extension/tree/rememberedItems';
import { MemoryMemento } from '../../scripts/memoryMemento';
import { trigger } from './lint-helpers';

const SECRETS = Object.values(RECIPIENT_SECRETS);
/** Parts of a secret that would betray it even when cut or escaped (the URLs' tokens). */
const FRAGMENTS = ['SECRET', 'pd-integration-key', 'webhook-signing-secret', 'webhook-header-token'];

let sandbox: SandboxHandle;
let client: ServiceClient;
let dir: string;
/** Every text that could be observed. */
const seen: { where: string; text: string }[] = [];
const observe = (where: string, value: unknown): void => {
  seen.push({ where, text: typeof value === 'string' ? value : JSON.stringify(value) });
};

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 100_000 });
  client = new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    onLog: (e) => {
      observe('request log entry', e);
      observe('request log line', formatRequestLog('Sandbox', e));
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'obs-recipient-secrets-'));
});

after(async () => {
  await client.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

async function recipientsRead(): Promise<RecipientDirectory> {
  const recipients = new AccountRecipients({
    connection: () => 'c1',
    client: async () => client,
    log: (m) => observe('account log', m),
  });
  const directory = await recipients.directory();
  assert.ok(directory);
  observe('recipients as kept', directory.list);
  return directory;
}

/** Every node of the tree, loaded through the filter's load-all (datasets, groups, SLOs, alerts). */
async function allNodes(model: DatasetTreeModel): Promise<TreeNode[]> {
  await model.loadAll();
  const out: TreeNode[] = [];
  const walk = (nodes: TreeNode[] | undefined): void => {
    for (const n of nodes ?? []) {
      out.push(n);
      walk(model.cachedChildren(n));
    }
  };
  walk(model.cachedChildren(undefined));
  return out;
}

test('the recipients the service lists carry credentials (the scan below would find them)', async () => {
  const res = await fetch(`${sandbox.info.baseUrl}/1/recipients`, {
    headers: { 'X-Service-Team': sandbox.info.configKey },
  });
  const raw = await res.text();
  for (const secret of SECRETS) assert.ok(raw.includes(secret), secret);
});

test('no recipient credential reaches a log, a tree item, a hover, a completion, a diagnostic, a drift text, a form message or a file', async () => {
  const directory = await recipientsRead();
  assert.equal(directory.list.length, Object.keys(DEMO.recipients).length);

  // The tree: every item as drawn and as its tooltip renders, with the recipients named.
  const memento = new MemoryMemento();
  const model = new DatasetTreeModel({
    connection: async () => ({
      profile: {
        id: 'c1',
        name: 'Sandbox',
        baseUrl: sandbox.info.baseUrl,
        uiUrl: sandbox.info.uiUrl,
        team: sandbox.info.team,
        environmentId: sandbox.info.environmentId,
      },
      api: client,
    }),
    remembered: new RememberedItems(memento),
    keys: new KeyRegistry(memento),
    metricsDatasets: () => [],
    limiter: new Limiter({ concurrency: 4 }),
    onFailure: (f) => observe('tree failure', f),
  });
  const nodes = await allNodes(model);
  assert.ok(nodes.some((n) => n.kind === 'burnAlert') && nodes.some((n) => n.kind === 'trigger'));
  for (const node of nodes) {
    const p = present(node, { recipients: directory, now: Date.now() });
    observe('tree item', {
      node,
      label: p.label,
      description: p.description,
      tooltip: p.tooltip,
      markdown: p.tooltip && tooltipMarkdown(p.tooltip),
    });
  }
  // Burn alerts as the one-alert GET returns them (with recipients), as the tree would show them.
  for (const alert of sandbox.state.burnAlerts) {
    const one = await client.getBurnAlert(
      alert.slo_id.startsWith('slo_env')
        ? '__all__'
        : (sandbox.state.slos.find((s) => s.id === alert.slo_id)?.dataset ?? ''),
      alert.id,
    );
    const p = present(
      { kind: 'burnAlert', connectionId: 'c1', dataset: 'x', sloId: alert.slo_id, alert: one.data },
      { recipients: directory },
    );
    observe('burn alert tooltip', p.tooltip && tooltipMarkdown(p.tooltip));
  }

  // The editor: completion and hover of every recipient, diagnostics naming them.
  observe('completion', recipientCompletions(directory, { kind: 'empty' }));
  for (const r of directory.list) observe('hover', recipientHoverMarkdown(r));
  const known = directory.list.map((r) => ({ id: r.id, name: recipientName(r), shortName: recipientShortName(r) }));
  const typos = directory.list.map((r) => ({ id: `${r.id}x` }));
  observe('diagnostics', lint(trigger(`"recipients": ${JSON.stringify(typos)}`), { recipients: known }));

  // Drift: a difference in each recipient id, named.
  const differences = directory.list.map((r, i) => ({
    path: `recipients[${i}].id`,
    member: 'recipients',
    service: r.id,
    local: 'rcp_other',
  }));
  const drift = {
    file: 'file:///w/t.trigger.json',
    status: 'differs' as const,
    triggers: [{ status: 'differs' as const, index: -1, differences }],
  };
  observe('drift lens', lensesOf(drift, 'Sandbox', 'ready', directory));
  observe('drift rows', differenceItems(drift, directory));

  // The burn alert form: every message its host sends to the page.
  const posted: unknown[] = [];
  const form = new BurnAlertFormController({
    client: () => Promise.resolve(client),
    context: {
      connectionId: 'c1',
      dataset: DEMO.datasets.gateway,
      sloId: DEMO.slos.gwAvailability,
      alertId: DEMO.burnAlerts.gwBudgetRate,
    },
    connectionName: 'Sandbox',
    post: (m) => posted.push(structuredClone(m)),
    log: {
      info: (m) => observe('form log', m),
      warn: (m) => observe('form log', m),
      error: (m) => observe('form log', m),
    },
    openDiff: async (left, right) => observe('form diff', { left, right }),
  });
  await form.receive({ type: 'ready' });
  assert.ok(posted.length > 0);
  observe('form messages', posted);

  // Files: the CLI pulls every trigger, lints them to SARIF and JSON, and saves a plan.
  const env = { OBS_BASE_URL: sandbox.info.baseUrl, OBS_CONFIG_KEY: sandbox.info.configKey };
  const cli = async (...argv: string[]) => {
    let out = '';
    const code = await runMain(argv, { cwd: dir, env, stdout: (t) => (out += t), stderr: (t) => (out += t) });
    observe(`obs ${argv.join(' ')}`, out);
    return code;
  };
  assert.equal(await cli('pull', '--all', ...Object.values(DEMO.datasets).flatMap((d) => ['--dataset', d])), 0);
  await cli('lint', '--format', 'sarif', 'triggers/**/*.trigger.json');
  await cli('lint', '--format', 'json', 'triggers/**/*.trigger.json');
  await cli('plan', '--format', 'json', '--out', 'plan.json', 'triggers');
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(dir, f)).isFile());
  assert.ok(files.filter((f) => f.endsWith('.trigger.json')).length >= 10, files.join(', '));
  for (const f of files) observe(`file ${f}`, readFileSync(join(dir, f), 'utf8'));

  const leaks = seen.flatMap(({ where, text }) =>
    [...SECRETS, ...FRAGMENTS].filter((s) => text.includes(s)).map((s) => `${where}: ${s}`),
  );
  assert.deepEqual(leaks, []);
  // And the recipients were shown by name where they appear.
  assert.ok(seen.some(({ where, text }) => where === 'tree item' && text.includes('Primary on-call (PagerDuty)')));
});
