// The Datasets tree model against the real sandbox, without VS Code.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { DEMO, HOSTILE, startSandbox, type SandboxHandle } from '../../src/sandbox/index';
import type { ConnectionProfile } from '../../src/extension/connections/profiles';
import { DatasetTreeModel } from '../../src/extension/tree/datasetTree';
import type { TreeApi, TreeConnection } from '../../src/extension/tree/treeSources';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { Limiter } from '../../src/api/limiter';
import { MemoryMemento } from '../../scripts/memoryMemento';
import { present } from '../../src/extension/tree/presentation';
import { RememberedItems } from '../../src/extension/tree/rememberedItems';
import { findColumn, noColumnMessage } from '../../src/extension/tree/findColumn';
import { formatRequestLog } from '../../src/extension/connections/requestLog';
import { tooltipMarkdown } from '../../src/extension/core/text';
import {
  nodeId,
  type ColumnNode,
  type DatasetNode,
  type ErrorNode,
  type GroupNode,
  type TreeNode,
} from '../../src/extension/tree/nodes';

let sandbox: SandboxHandle;
let client: ServiceClient;
let profile: ConnectionProfile;

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 100_000 });
  const info = sandbox.info;
  // One attempt: the tests inject faults and want to see them, not the client's retries.
  client = new ServiceClient({ baseUrl: info.baseUrl, configKey: info.configKey, retry: { maxAttempts: 1 } });
  profile = {
    id: 'conn-test',
    name: 'Sandbox',
    baseUrl: info.baseUrl,
    uiUrl: info.uiUrl,
    team: info.team,
    environmentId: info.environmentId,
  };
});

after(async () => {
  await client.close();
  await sandbox.close();
});

beforeEach(() => sandbox.faults.clear());

interface Setup {
  model: DatasetTreeModel;
  remembered: RememberedItems;
  keys: KeyRegistry;
  limiter: Limiter;
  failures: string[];
}

/**
 * The sandbox as a service that does not offer the account's listings (405 on GET /1/datasets and
 * GET /1/slos): the tree falls back to the datasets environment-wide triggers name and the SLO ids the user added.
 */
function withoutListings(api: TreeApi): TreeApi {
  const refused = (): Promise<never> =>
    Promise.reject(
      Object.assign(new Error('list failed: HTTP 405'), {
        name: 'ServiceError',
        kind: 'http',
        operation: 'list',
        status: 405,
      }),
    );
  return {
    listColumns: (...a) => api.listColumns(...a),
    listTriggers: (...a) => api.listTriggers(...a),
    listBurnAlerts: (...a) => api.listBurnAlerts(...a),
    listDatasets: refused,
    listSlos: refused,
  };
}
const NOT_LISTED = 'Datasets are not listed: the service does not offer this list. Add them by slug.';

function setup(
  o: {
    connection?: () => Promise<TreeConnection | undefined>;
    concurrency?: number;
    metrics?: string[];
    listings?: boolean;
  } = {},
): Setup {
  const memento = new MemoryMemento();
  const remembered = new RememberedItems(memento);
  const keys = new KeyRegistry(memento);
  const limiter = new Limiter({ concurrency: o.concurrency ?? 4 });
  const failures: string[] = [];
  const model = new DatasetTreeModel({
    connection:
      o.connection ?? (async () => ({ profile, api: o.listings === false ? withoutListings(client) : client })),
    remembered,
    keys,
    metricsDatasets: () => o.metrics ?? [],
    limiter,
    onFailure: (f) => failures.push(`${f.operation}: ${f.message}`),
  });
  return { model, remembered, keys, limiter, failures };
}

const dataset = (slug: string): DatasetNode => ({
  kind: 'dataset',
  connectionId: profile.id,
  slug,
  added: true,
  discovered: true,
  metrics: false,
});
const group = (slug: string, g: GroupNode['group']): GroupNode => ({
  kind: 'group',
  connectionId: profile.id,
  dataset: slug,
  group: g,
});
const labels = (nodes: TreeNode[]): string[] => nodes.map((n) => present(n).label);

test('where datasets are not listed, the root lists Environment-wide, datasets discovered from __all__ triggers (not "all"), and API keys', async () => {
  const { model } = setup({ listings: false });
  const root = await model.getChildren();
  assert.deepEqual(labels(root), [
    NOT_LISTED,
    'Environment-wide',
    DEMO.datasets.gateway,
    DEMO.datasets.checkout,
    DEMO.datasets.metrics,
    DEMO.datasets.hostile,
    'API keys',
  ]);
  const gw = root.find((n): n is DatasetNode => n.kind === 'dataset' && n.slug === DEMO.datasets.gateway);
  assert.deepEqual(gw && { added: gw.added, discovered: gw.discovered }, { added: false, discovered: true });
  assert.equal(present(root[2] as TreeNode).description, 'discovered');
});

test('where datasets are not listed, those the user added join the discovered ones; hidden ones leave with a "show" hint', async () => {
  const { model, remembered } = setup({ listings: false });
  await remembered.addDatasets(profile.id, [DEMO.datasets.empty, DEMO.datasets.gateway]);
  await remembered.hideDataset(profile.id, DEMO.datasets.checkout);
  const root = await model.getChildren();
  assert.deepEqual(labels(root), [
    NOT_LISTED,
    'Environment-wide',
    DEMO.datasets.gateway,
    DEMO.datasets.empty,
    DEMO.datasets.metrics,
    DEMO.datasets.hostile,
    '1 hidden dataset (show)',
    'API keys',
  ]);
});

test('removing a hand-added dataset that is also discovered keeps it in the tree with its SLOs', async () => {
  const { model, remembered } = setup({ listings: false });
  await remembered.addDatasets(profile.id, [DEMO.datasets.gateway]);
  await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability]);
  await remembered.removeDataset(profile.id, DEMO.datasets.gateway);
  const root = await model.getChildren();
  const gateway = root.find((n) => n.kind === 'dataset' && n.slug === DEMO.datasets.gateway);
  assert.deepEqual(gateway, {
    kind: 'dataset',
    connectionId: profile.id,
    slug: DEMO.datasets.gateway,
    added: false,
    discovered: true,
    metrics: false,
  });
  assert.deepEqual(
    labels((await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'))).filter((n) => n.kind === 'slo')),
    [DEMO.slos.gwAvailability],
  );
});

test('a dataset has Columns, Triggers and Burn alerts; columns are sorted with icons by type', async () => {
  const { model } = setup();
  const groups = await model.getChildren(dataset(DEMO.datasets.gateway));
  assert.deepEqual(labels(groups), ['Columns', 'Triggers', 'Burn alerts']);
  const columns = (await model.getChildren(group(DEMO.datasets.gateway, 'columns'))) as ColumnNode[];
  const names = columns.map((c) => c.column.key_name);
  assert.deepEqual(names, [...names].sort());
  const icon = (key: string) => present(columns.find((c) => c.column.key_name === key) as TreeNode).icon;
  assert.deepEqual(icon('duration_ms'), { id: 'symbol-number' });
  assert.deepEqual(icon('trace.trace_id'), { id: 'symbol-string' });
  assert.deepEqual(icon(DEMO.columns.hidden), { id: 'symbol-string', color: 'disabledForeground' });
  assert.equal(
    present(columns.find((c) => c.column.key_name === DEMO.columns.hidden) as TreeNode).description,
    'string · hidden',
  );
  const metrics = (await model.getChildren(group(DEMO.datasets.metrics, 'columns'))) as ColumnNode[];
  assert.deepEqual(present(metrics.find((c) => c.column.key_name === DEMO.columns.histogram) as TreeNode).icon, {
    id: 'graph',
  });
  assert.deepEqual(present(metrics.find((c) => c.column.type === 'boolean') as TreeNode).icon, {
    id: 'symbol-boolean',
  });
});

test('hostile column names show as text: bidi controls neutralised in labels, markdown escaped in tooltips', async () => {
  const { model } = setup();
  const columns = (await model.getChildren(group(DEMO.datasets.hostile, 'columns'))) as ColumnNode[];
  const rtl = present(columns.find((c) => c.column.key_name === DEMO.columns.rtl) as TreeNode);
  assert.equal(rtl.label, 'user\uFFFDgnp.exe');
  const img = present(columns.find((c) => c.column.key_name === HOSTILE.img) as TreeNode);
  assert.equal(img.label, HOSTILE.img, 'a tree label is plain text, shown as is');
  const md = tooltipMarkdown(img.tooltip ?? { title: '', rows: [] });
  assert.ok(md.startsWith('**\\<img src\\=x onerror\\=alert\\(1\\)\\>**'), md);
});

test('triggers show state icons, alert type and frequency; hostile descriptions stay escaped', async () => {
  const { model } = setup();
  const triggers = await model.getChildren(group(DEMO.datasets.gateway, 'triggers'));
  const byName = new Map(triggers.map((t) => [t.kind === 'trigger' ? t.trigger.id : '', present(t)]));
  assert.deepEqual(byName.get(DEMO.triggers.gwLatencyDisabled)?.icon, {
    id: 'bell-slash',
    color: 'disabledForeground',
  });
  const saved = byName.get(DEMO.triggers.gwSavedQuery);
  assert.equal(saved?.contextValue, 'obs:trigger:query');
  const hostileTriggers = await model.getChildren(group(DEMO.datasets.hostile, 'triggers'));
  const hostile = hostileTriggers.map((t) => present(t)).find((p) => p.label === HOSTILE.img);
  assert.ok(hostile, 'the trigger named <img src=x onerror=alert(1)> of the hostile strings');
  assert.doesNotMatch(tooltipMarkdown(hostile?.tooltip ?? { title: '', rows: [] }), /(^|[^\\])[<[]/);
  const triggered = [...byName.values()].filter((p) => p.icon?.id === 'bell-dot');
  assert.ok(
    triggered.length > 0 &&
      triggered.every((p) => p.icon?.color === 'errorForeground' && p.description?.startsWith('triggered')),
  );
});

test("where SLOs are not listed, burn alerts are grouped under remembered SLOs, with each alert type's fields", async () => {
  const { model, remembered } = setup({ listings: false });
  assert.deepEqual(labels(await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'))), [
    'SLOs are not listed: the service does not offer this list. Add them by id.',
  ]);
  await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability]);
  model.refresh(group(DEMO.datasets.gateway, 'burnAlerts'));
  const slos = await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'));
  assert.deepEqual(labels(slos), [
    'SLOs are not listed: the service does not offer this list. Add them by id.',
    DEMO.slos.gwAvailability,
  ]);
  const alerts = await model.getChildren(slos[1]);
  assert.deepEqual(labels(alerts), ['Budget rate: drop of 10000 per million in 60 min', 'Exhaustion in 240 min']);
  const exhaustion = present(alerts[1] as TreeNode);
  assert.deepEqual(exhaustion.icon, { id: 'flame', color: 'errorForeground' });
  // The hostile strings' alert: its description's markdown link is escaped in the tooltip.
  await remembered.addSlos(profile.id, DEMO.datasets.hostile, [DEMO.slos.hsHostile]);
  const hostileSlo = (await model.getChildren(group(DEMO.datasets.hostile, 'burnAlerts'))).find(
    (n) => n.kind === 'slo',
  );
  assert.ok(hostileSlo);
  const hostile = (await model.getChildren(hostileSlo)).find(
    (n) => n.kind === 'burnAlert' && n.alert.id === DEMO.burnAlerts.hsBudgetRate,
  );
  const md = tooltipMarkdown(present(hostile as TreeNode).tooltip ?? { title: '', rows: [] });
  assert.match(md, /\\\[click\\\]\\\(https\\:\\\/\\\/evil\\\.example\\\)/);
  assert.doesNotMatch(md, /\]\(/);
});

test("a dataset loads its groups' lists and its added SLOs' alerts before it answers: counts are known when drawn, and nothing is redrawn", async () => {
  // VS Code forgets the children of a node it redraws until it fetches them again: a child being expanded
  // then stays empty, a command on a child gets no argument. So no load ever names a node afterwards.
  const { model, remembered } = setup({ listings: false });
  await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability]);
  const changed: string[] = [];
  model.onDidChange((n) => changed.push(nodeId(n)));
  const groups = await model.getChildren(dataset(DEMO.datasets.gateway));
  assert.equal(model.loading, false, 'nothing left loading once the dataset answered');
  const [columns, triggers, burnAlerts] = groups;
  assert.ok(columns && triggers && burnAlerts);
  assert.equal(model.itemCount(columns), (await client.listColumns(DEMO.datasets.gateway)).data.length);
  assert.equal(model.itemCount(triggers), (await client.listTriggers(DEMO.datasets.gateway)).data.length);
  assert.equal(model.itemCount(burnAlerts), 2);
  const slo = model.cachedChildren(burnAlerts)?.find((n) => n.kind === 'slo');
  assert.ok(slo);
  assert.deepEqual(labels(model.cachedChildren(slo) ?? []), [
    'Budget rate: drop of 10000 per million in 60 min',
    'Exhaustion in 240 min',
  ]);
  await model.getChildren(burnAlerts);
  await model.getChildren(slo);
  await settled(model);
  assert.deepEqual(changed, []);
});

/** Resolves once no load of the model runs (background loads included). */
async function settled(model: DatasetTreeModel): Promise<void> {
  for (;;) {
    await new Promise((r) => setImmediate(r));
    if (!model.loading) return;
    await new Promise<void>((r) => {
      const sub = model.onDidChangeLoading((loading) => {
        if (loading) return;
        sub.dispose();
        r();
      });
    });
  }
}

test('expanding a dataset counts its columns, triggers and the burn alerts of added SLOs without expanding each group', async () => {
  const { model, remembered } = setup({ listings: false });
  await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability]);
  const groups = await model.getChildren(dataset(DEMO.datasets.gateway));
  await settled(model);
  const [columns, triggers, burnAlerts] = groups;
  assert.ok(columns && triggers && burnAlerts);
  const columnCount = (await client.listColumns(DEMO.datasets.gateway)).data.length;
  const triggerCount = (await client.listTriggers(DEMO.datasets.gateway)).data.length;
  assert.equal(model.itemCount(columns), columnCount);
  assert.equal(model.itemCount(triggers), triggerCount);
  assert.equal(model.itemCount(burnAlerts), 2, 'both alerts of the one SLO');
  assert.equal(
    present(columns, { counts: { visible: columnCount, total: columnCount } }).description,
    String(columnCount),
  );
  const slo = (await model.getChildren(burnAlerts)).find((n) => n.kind === 'slo');
  assert.ok(slo);
  assert.equal(present(slo, { counts: { visible: 2, total: 2 } }).description, 'SLO · 2 alerts');
});

test('a count stays in sight after a refresh and after a failed reload', async () => {
  const { model } = setup();
  const columns = group(DEMO.datasets.gateway, 'columns');
  const count = (await model.getChildren(columns)).length;
  model.refresh();
  assert.equal(model.itemCount(columns), count, 'the last count while nothing is loaded');
  sandbox.faults.nextStatus(500, 1, 'auto', { match: { path: `/1/columns/${DEMO.datasets.gateway}` } });
  const again = await model.getChildren(columns);
  assert.equal(again[0]?.kind, 'error');
  assert.equal(model.itemCount(columns), count, 'a failure does not turn the count into 0');
});

test('without any load a group has no count', () => {
  const { model } = setup();
  assert.equal(model.itemCount(group(DEMO.datasets.gateway, 'triggers')), undefined);
  assert.equal(model.itemCount(group(DEMO.datasets.gateway, 'burnAlerts')), undefined, 'the SLOs are not listed yet');
});

test('a failed load becomes an error node naming the operation, with Retry and Show Logs', async () => {
  const { model, failures } = setup();
  sandbox.faults.nextStatus(500, 1, 'auto', { match: { path: `/1/columns/${DEMO.datasets.checkout}` } });
  const children = await model.getChildren(group(DEMO.datasets.checkout, 'columns'));
  assert.equal(children.length, 1);
  const error = children[0] as ErrorNode;
  assert.equal(error.kind, 'error');
  assert.equal(error.operation, `list columns of ${DEMO.datasets.checkout}`);
  assert.match(error.message, /^list columns failed: the service failed\. .* Try again later\.$/);
  assert.equal(present(error).label, `Could not list columns of ${DEMO.datasets.checkout}`);
  assert.deepEqual(labels(await model.getChildren(error)), ['Retry', 'Show Logs']);
  assert.equal(failures.length, 1);
  // Retry (refresh of the parent) loads the columns now that the fault is used up.
  model.refreshId(error.parentId);
  const again = await model.getChildren(group(DEMO.datasets.checkout, 'columns'));
  assert.ok(again.length > 1 && again.every((n) => n.kind === 'column'));
});

test('where datasets are not listed and discovery fails, the root still shows an error node and the added datasets', async () => {
  const { model, remembered } = setup({ listings: false });
  await remembered.addDatasets(profile.id, [DEMO.datasets.empty]);
  sandbox.faults.nextStatus(403, 1, 'auto', { match: { path: '/1/triggers/__all__' } });
  const root = await model.getChildren();
  assert.equal(root[0]?.kind, 'error');
  assert.equal((root[0] as ErrorNode).operation, 'discover datasets from environment-wide triggers');
  assert.deepEqual(labels(root.slice(1)), [NOT_LISTED, 'Environment-wide', DEMO.datasets.empty, 'API keys']);
});

test('a missing configuration key shows as an error node, not an empty tree', async () => {
  const noKey = new ServiceClient({ baseUrl: sandbox.info.baseUrl });
  const { model } = setup({ connection: async () => ({ profile, api: noKey }) });
  const root = await model.getChildren();
  assert.equal(root[0]?.kind, 'error');
  assert.match((root[0] as ErrorNode).message, /no configuration key is set/);
  await noKey.close();
});

test('a root load whose connection stopped being current (sandbox stopped) ends cancelled, logging nothing', async () => {
  const noKey = new ServiceClient({ baseUrl: sandbox.info.baseUrl });
  let current = true;
  const api: TreeApi = {
    listColumns: (...args) => noKey.listColumns(...args),
    listBurnAlerts: (...args) => noKey.listBurnAlerts(...args),
    listTriggers: (...args) => noKey.listTriggers(...args),
    listSlos: (...args) => noKey.listSlos(...args),
    listDatasets: (...args) => {
      current = false; // the sandbox is stopped while the request is in flight
      return noKey.listDatasets(...args);
    },
  };
  const { model, failures } = setup({ connection: async () => ({ profile, api, isCurrent: () => current }) });
  const root = await model.getChildren();
  assert.deepEqual(failures, []);
  assert.equal(root.length, 1);
  assert.equal((root[0] as ErrorNode).cancelled, true);
  await noKey.close();
});

test('a group load that fails once its connection is no longer current ends cancelled, logging nothing', async () => {
  const { model, failures } = setup({ connection: async () => ({ profile, api: client, isCurrent: () => false }) });
  sandbox.faults.nextStatus(500, 1, 'auto');
  const children = await model.getChildren(group(DEMO.datasets.checkout, 'columns'));
  assert.deepEqual(failures, []);
  assert.equal((children[0] as ErrorNode).cancelled, true);
});

test('a load whose connection was removed before its client was built ends cancelled, logging nothing', async () => {
  const gone = Object.assign(new Error('The connection of this item was removed'), { kind: 'connection-gone' });
  const { model, failures } = setup({ connection: () => Promise.reject(gone) });
  const root = await model.getChildren();
  assert.deepEqual(failures, []);
  assert.equal((root[0] as ErrorNode).cancelled, true);
});

test('a failure while the connection is still current is still an error', async () => {
  const noKey = new ServiceClient({ baseUrl: sandbox.info.baseUrl });
  const { model, failures } = setup({ connection: async () => ({ profile, api: noKey, isCurrent: () => true }) });
  const root = await model.getChildren();
  assert.equal((root[0] as ErrorNode).cancelled, false);
  assert.match(failures[0] ?? '', /^list the datasets: .*no configuration key is set/);
  await noKey.close();
});

test('without a connection the root is empty (the welcome view shows)', async () => {
  const { model } = setup({ connection: async () => undefined });
  assert.deepEqual(await model.getChildren(), []);
});

test('cancelling aborts a load in flight and leaves a "cancelled" node with Retry', { timeout: 60_000 }, async () => {
  const { model } = setup();
  // Every answer is held for ten minutes: only the cancel can end this load before the test's timeout.
  sandbox.faults.latency(600_000);
  const before = sandbox.requests.length;
  const pending = model.getChildren(group(DEMO.datasets.gateway, 'triggers'));
  // Cancel once the request is at the sandbox, so what is cancelled is a request in flight.
  while (sandbox.requests.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
  model.cancelLoading();
  const children = await pending;
  sandbox.faults.latency(0);
  assert.equal(children.length, 1);
  assert.equal((children[0] as ErrorNode).cancelled, true);
  assert.equal(present(children[0] as TreeNode).label, `Cancelled: list triggers of ${DEMO.datasets.gateway}`);
  assert.deepEqual(
    sandbox.requests.slice(before).map((r) => r.path),
    [`/1/triggers/${DEMO.datasets.gateway}`],
    'one request, not retried',
  );
  assert.equal(model.loading, false);
});

test('children are cached until refresh', async () => {
  const { model } = setup();
  const g = group(DEMO.datasets.metrics, 'columns');
  await model.getChildren(g);
  const before = sandbox.requests.length;
  await model.getChildren(g);
  assert.equal(sandbox.requests.length, before, 'no request for cached children');
  model.refresh(g);
  await model.getChildren(g);
  assert.equal(sandbox.requests.length, before + 1);
});

test('refreshing by id reloads the children of that node and then names the very node object the view was given, once', async () => {
  const { model } = setup();
  const root = await model.getChildren();
  const dataset = root.find((n): n is DatasetNode => n.kind === 'dataset' && n.slug === DEMO.datasets.metrics);
  assert.ok(dataset);
  const groups = await model.getChildren(dataset);
  const columns = groups.find((n) => n.kind === 'group' && n.group === 'columns');
  assert.ok(columns);
  await model.getChildren(columns);
  const changed: (TreeNode | undefined)[] = [];
  model.onDidChange((n) => changed.push(n));
  const before = sandbox.requests.length;
  model.refreshId(nodeId(columns));
  assert.deepEqual(changed, [], 'nothing is redrawn before the new children are in');
  await settled(model);
  assert.equal(changed.length, 1);
  assert.equal(changed[0], columns, 'the loaded object itself, not a copy');
  assert.equal(sandbox.requests.length, before + 1, 'the columns were listed again');
});

test('Retry on an added SLO whose alerts failed reloads its Burn alerts group, which is redrawn with the new total', async () => {
  const { model, remembered } = setup({ listings: false });
  await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability]);
  const burnAlerts = group(DEMO.datasets.gateway, 'burnAlerts');
  sandbox.faults.nextStatus(500, 1, 'auto', { match: { path: `/1/burn_alerts/${DEMO.datasets.gateway}` } });
  const slo = (await model.getChildren(burnAlerts)).find((n) => n.kind === 'slo');
  assert.ok(slo);
  const failed = (await model.getChildren(slo))[0];
  assert.equal(failed?.kind, 'error');
  assert.equal(model.itemCount(burnAlerts), undefined, 'no count while an SLO failed');
  const changed: string[] = [];
  model.onDidChange((n) => changed.push(nodeId(n)));
  model.refreshId(failed.kind === 'error' ? failed.parentId : '');
  await settled(model);
  assert.deepEqual(changed, [nodeId(burnAlerts)]);
  assert.equal(model.itemCount(burnAlerts), 2);
});

test('two refreshes of a node in a row redraw it once, when the second reload is in', async () => {
  const { model } = setup();
  const columns = group(DEMO.datasets.gateway, 'columns');
  await model.getChildren(columns);
  const changed: string[] = [];
  model.onDidChange((n) => changed.push(nodeId(n)));
  const before = sandbox.requests.length;
  model.refresh(columns);
  model.refresh(columns);
  await settled(model);
  assert.deepEqual(changed, [nodeId(columns)]);
  assert.equal(
    sandbox.requests.length,
    before + 1,
    'the first reload was cancelled by the second before it sent anything',
  );
});

test('refreshing an id the tree never loaded redraws the whole tree', async () => {
  const { model } = setup();
  const changed: (TreeNode | undefined)[] = [];
  model.onDidChange((n) => changed.push(n));
  model.refreshId('root/nowhere/d/none');
  assert.deepEqual(changed, [undefined]);
});

/** The client, counting how many of its calls run at once. */
function countingCalls(api: ServiceClient): { api: ServiceClient; peak: () => number } {
  let running = 0;
  let peak = 0;
  const counted = new Proxy(api, {
    get(target, member, receiver) {
      const value: unknown = Reflect.get(target, member, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        running++;
        peak = Math.max(peak, running);
        return Promise.resolve(Reflect.apply(value, target, args)).finally(() => running--);
      };
    },
  });
  return { api: counted, peak: () => peak };
}

test('loading every dataset runs with bounded concurrency and lets the filter find columns', async () => {
  const counting = countingCalls(client);
  const { model } = setup({ concurrency: 2, connection: async () => ({ profile, api: counting.api }) });
  await model.loadAll();
  assert.equal(counting.peak(), 2);
  model.setFilter('PAYMENT');
  const root = await model.getChildren();
  assert.deepEqual(labels(root), ['Environment-wide', DEMO.datasets.checkout]);
  const coGroups = await model.getChildren(root[1]);
  assert.deepEqual(labels(coGroups), ['Columns']);
  const cols = await model.getChildren(coGroups[0]);
  assert.deepEqual(
    cols.map((c) => (c.kind === 'column' ? c.column.key_name : '')),
    ['payment.amount', 'payment.status'],
  );
  const counts = model.countVisible(coGroups[0] as TreeNode);
  assert.ok(counts && counts.visible === cols.length && counts.total > counts.visible);
  model.setFilter(undefined);
  assert.equal((await model.getChildren()).length, 8, 'Environment-wide, six datasets, API keys');
});

test('the API keys group lists the key registry of the connection', async () => {
  const { model, keys } = setup();
  const apiKeys = { kind: 'apiKeys', connectionId: profile.id } as const;
  assert.deepEqual(labels(await model.getChildren(apiKeys)), ['Create API Key...']);
  await keys.remember(profile.id, { id: 'hcxik_1', name: 'ingest for CI', disabled: true, keyType: 'ingest' });
  model.refresh(apiKeys);
  const nodes = await model.getChildren(apiKeys);
  assert.deepEqual(labels(nodes), ['ingest for CI']);
  assert.equal(present(nodes[0] as TreeNode).description, 'ingest · disabled');
});

test('a dataset marked as metrics says so', async () => {
  const { model } = setup({ metrics: [DEMO.datasets.metrics] });
  const root = await model.getChildren();
  const metrics = root.find((n) => n.kind === 'dataset' && n.slug === DEMO.datasets.metrics) as TreeNode;
  assert.equal(present(metrics).description, 'metrics');
  assert.equal(present(metrics).contextValue, 'obs:dataset:metrics');
});

test('the log gets one line per request, naming the operation, never a key', async () => {
  const lines: string[] = [];
  const logged = new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    managementKey: sandbox.info.managementKey,
    onLog: (e) => lines.push(formatRequestLog('Sandbox', e)),
  });
  await logged.listColumns(DEMO.datasets.checkout);
  await logged.listTriggers(DEMO.datasets.checkout);
  await logged.close();
  assert.equal(lines.length, 2);
  assert.match(lines[0] ?? '', /^Sandbox: GET \/1\/columns\/checkout-service 200 [\d.]+ ms \[list columns\]$/);
  assert.match(lines[1] ?? '', /^Sandbox: GET \/1\/triggers\/checkout-service 200 [\d.]+ ms \[list triggers\]$/);
  for (const secret of [sandbox.info.configKey, sandbox.info.managementKey.split(':')[1] ?? '']) {
    assert.ok(!lines.join('\n').includes(secret));
  }
});

test('Find Column answers the column, or null for a 404 ("No column named ..."), and throws other failures', async () => {
  const found = await findColumn(client, DEMO.datasets.gateway, 'duration_ms');
  assert.equal(found?.key_name, 'duration_ms');
  assert.equal(await findColumn(client, DEMO.datasets.gateway, 'no_such_column'), null);
  assert.equal(
    noColumnMessage('no_such\u202Ecolumn', DEMO.datasets.gateway, (t) => t.replace(/\u202E/g, '\uFFFD')),
    `No column named "no_such\uFFFDcolumn" in ${DEMO.datasets.gateway}.`,
  );
  sandbox.faults.nextStatus(500, 1, 'auto', { match: { path: `/1/columns/${DEMO.datasets.gateway}` } });
  await assert.rejects(
    findColumn(client, DEMO.datasets.gateway, 'duration_ms'),
    (err: Error) => err.name === 'ServiceError' && (err as Error & { status?: number }).status === 500,
  );
});
