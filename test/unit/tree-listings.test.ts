// The Datasets view over what the account holds: the datasets the service lists (one GET /1/datasets per
// connection until Refresh), the SLOs of a dataset by name (one GET /1/slos/<dataset> when it is opened),
// and, where a key may not list them (401, 403, 404, 405), one line saying so and today's fallback; where the
// service does not know the key at all (401 to the spec's calls too), one row saying so, with Edit Connection.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { Limiter } from '../../src/api/limiter';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox/index';
import type { ConnectionProfile } from '../../src/extension/connections/profiles';
import { DatasetTreeModel } from '../../src/extension/tree/datasetTree';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { RememberedItems } from '../../src/extension/tree/rememberedItems';
import { present } from '../../src/extension/tree/presentation';
import type { DatasetNode, GroupNode, SloNode, TreeNode } from '../../src/extension/tree/nodes';
import { MemoryMemento } from '../../scripts/memoryMemento';

let sandbox: SandboxHandle;
let client: ServiceClient;
let profile: ConnectionProfile;

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 100_000 });
  const info = sandbox.info;
  client = new ServiceClient({ baseUrl: info.baseUrl, configKey: info.configKey, retry: { maxAttempts: 1 } });
  profile = {
    id: 'conn-listings',
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

function setup(api: ServiceClient = client): {
  model: DatasetTreeModel;
  remembered: RememberedItems;
  failures: string[];
  paths: () => string[];
} {
  const memento = new MemoryMemento();
  const remembered = new RememberedItems(memento);
  const failures: string[] = [];
  const model = new DatasetTreeModel({
    connection: async () => ({ profile, api }),
    remembered,
    keys: new KeyRegistry(memento),
    metricsDatasets: () => [],
    limiter: new Limiter({ concurrency: 4 }),
    onFailure: (f) => failures.push(`${f.operation}: ${f.message}`),
  });
  const from = sandbox.requests.length;
  return { model, remembered, failures, paths: () => sandbox.requests.slice(from).map((r) => r.path) };
}

const labels = (nodes: TreeNode[]): string[] => nodes.map((n) => present(n).label);
const group = (dataset: string, g: GroupNode['group']): GroupNode => ({
  kind: 'group',
  connectionId: profile.id,
  dataset,
  group: g,
});
const datasetNode = (nodes: TreeNode[], slug: string): DatasetNode | undefined =>
  nodes.find((n): n is DatasetNode => n.kind === 'dataset' && n.slug === slug);
/** A known item count as the view hands it to present(). */
const count = (n: number | undefined) => (n === undefined ? undefined : { visible: n, total: n });
const ALL_DATASETS = [
  DEMO.datasets.gateway,
  DEMO.datasets.wide,
  DEMO.datasets.checkout,
  DEMO.datasets.empty,
  DEMO.datasets.metrics,
  DEMO.datasets.hostile,
];

describe('datasets listed by the service', () => {
  test('the root lists every dataset of the environment, sorted, from one GET /1/datasets and nothing else', async () => {
    const { model, paths } = setup();
    const root = await model.getChildren();
    assert.deepEqual(labels(root), ['Environment-wide', ...[...ALL_DATASETS].sort(), 'API keys']);
    assert.deepEqual(paths(), ['/1/datasets']);
  });

  test('a dataset that never received data is dimmed and says "no data yet"; one that did is not', async () => {
    const { model } = setup();
    const root = await model.getChildren();
    const empty = present(datasetNode(root, DEMO.datasets.empty) as TreeNode);
    assert.deepEqual([empty.description, empty.icon], ['no data yet', { id: 'database', color: 'disabledForeground' }]);
    const gateway = present(datasetNode(root, DEMO.datasets.gateway) as TreeNode);
    assert.deepEqual([gateway.description, gateway.icon], ['', { id: 'database' }]);
  });

  test('datasets the user added are merged with the listed ones, each once; an added slug the service does not list stays', async () => {
    const { model, remembered } = setup();
    await remembered.addDatasets(profile.id, [DEMO.datasets.gateway, 'typed-by-hand']);
    const root = await model.getChildren();
    assert.deepEqual(labels(root), ['Environment-wide', ...[...ALL_DATASETS, 'typed-by-hand'].sort(), 'API keys']);
    const gateway = datasetNode(root, DEMO.datasets.gateway);
    assert.deepEqual([gateway?.added, gateway?.listed?.name], [true, 'API gateway (traced)']);
    assert.deepEqual(datasetNode(root, 'typed-by-hand')?.listed, undefined);
  });

  test('a hidden listed dataset leaves the root with a "show" hint', async () => {
    const { model, remembered } = setup();
    await remembered.hideDataset(profile.id, DEMO.datasets.wide);
    const root = await model.getChildren();
    assert.deepEqual(labels(root).slice(-2), ['1 hidden dataset (show)', 'API keys']);
    assert.equal(datasetNode(root, DEMO.datasets.wide), undefined);
  });

  test('the filter finds a listed dataset by its name', async () => {
    const { model } = setup();
    await model.getChildren();
    model.setFilter('Host metrics');
    assert.deepEqual(labels(await model.getChildren()), [DEMO.datasets.metrics]);
  });

  test('the list is read once per connection: loads of the tree reuse it until Refresh reads it again', async () => {
    const { model, paths } = setup();
    await model.getChildren();
    model.refresh();
    await model.getChildren();
    assert.deepEqual(paths(), ['/1/datasets']);
    model.reloadAccount();
    await model.getChildren();
    assert.deepEqual(paths(), ['/1/datasets', '/1/datasets']);
    assert.deepEqual(model.listedDatasets(profile.id).sort(), [...ALL_DATASETS].sort());
  });

  test('a failed list (HTTP 500) shows an error with Retry above the fallback; the next load asks again', async () => {
    const { model, failures, paths } = setup();
    sandbox.faults.nextStatus(500, 1, 'auto', { match: { path: '/1/datasets' } });
    const root = await model.getChildren();
    assert.equal(present(root[0] as TreeNode).label, 'Could not list the datasets');
    assert.deepEqual(labels(root.slice(1)), [
      'Environment-wide',
      DEMO.datasets.gateway,
      DEMO.datasets.checkout,
      DEMO.datasets.metrics,
      DEMO.datasets.hostile,
      'API keys',
    ]);
    assert.equal(failures.length, 1);
    model.refresh();
    assert.deepEqual(labels(await model.getChildren()), ['Environment-wide', ...[...ALL_DATASETS].sort(), 'API keys']);
    assert.deepEqual(paths(), ['/1/datasets', '/1/triggers/__all__', '/1/datasets']);
  });
});

describe('SLOs listed by the service', () => {
  test('opening a dataset lists its SLOs with one GET /1/slos/<dataset>, by name with target and period; their alerts wait until an SLO is opened', async () => {
    const { model, paths } = setup();
    const groups = await model.getChildren({
      kind: 'dataset',
      connectionId: profile.id,
      slug: DEMO.datasets.gateway,
      added: false,
      discovered: false,
      metrics: false,
    });
    const slos = await model.getChildren(groups[2]);
    assert.deepEqual(
      slos.map((n) => [present(n).label, present(n).description]),
      [['Gateway availability', '99.9% · 30 days']],
    );
    assert.deepEqual(
      paths().filter((p) => p.startsWith('/1/slos') || p.startsWith('/1/burn_alerts')),
      [`/1/slos/${DEMO.datasets.gateway}`],
    );
    assert.equal(present(groups[2] as TreeNode, { slos: model.sloCount(groups[2] as TreeNode) }).description, '1 SLO');
    const alerts = await model.getChildren(slos[0]);
    assert.deepEqual(labels(alerts), ['Budget rate: drop of 10000 per million in 60 min', 'Exhaustion in 240 min']);
    assert.deepEqual(
      paths().filter((p) => p.startsWith('/1/burn_alerts')),
      [`/1/burn_alerts/${DEMO.datasets.gateway}`],
    );
  });

  test('the Burn alerts group counts in the same words before and after an SLO is opened: "1 SLO", then "1 SLO · 2 alerts"', async () => {
    const { model } = setup();
    const burnAlerts = group(DEMO.datasets.gateway, 'burnAlerts');
    const description = () =>
      present(burnAlerts, { slos: model.sloCount(burnAlerts), counts: count(model.itemCount(burnAlerts)) }).description;
    const slos = await model.getChildren(burnAlerts);
    assert.equal(description(), '1 SLO');
    await model.getChildren(slos[0]);
    assert.equal(description(), '1 SLO · 2 alerts');
  });

  test("Environment-wide lists the environment's SLOs (GET /1/slos/__all__) and their alerts", async () => {
    const { model, paths } = setup();
    const slos = await model.getChildren(group('__all__', 'burnAlerts'));
    assert.deepEqual(
      slos.map((n) => [present(n).label, present(n).description]),
      [['Environment uptime', '99.95% · 28 days']],
    );
    assert.deepEqual(paths(), ['/1/slos/__all__']);
    assert.equal((await model.getChildren(slos[0])).length, 2);
  });

  test('an SLO id the user added is merged with the listed SLO of that id, and one the service does not list is shown by id', async () => {
    const { model, remembered } = setup();
    await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability, 'slo_typed']);
    const slos = (await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'))) as SloNode[];
    assert.deepEqual(
      slos.map((n) => [n.sloId, n.added, present(n).label, present(n).contextValue]),
      [
        [DEMO.slos.gwAvailability, true, 'Gateway availability', 'obs:slo'],
        ['slo_typed', true, 'slo_typed', 'obs:slo'],
      ],
    );
  });

  test('a listed SLO the user did not add cannot be removed from the tree (no obs:slo context)', async () => {
    const { model } = setup();
    const slos = await model.getChildren(group(DEMO.datasets.checkout, 'burnAlerts'));
    assert.deepEqual(
      slos.map((n) => present(n).contextValue),
      ['obs:slo:listed'],
    );
  });
});

describe('a listing the key may not use: said once, in words, and the fallback works', () => {
  const REASONS: Record<number, string> = {
    401: 'the service did not accept the key',
    403: 'the key lacks the permission to list them',
    404: 'the service does not offer this list',
    405: 'the service does not offer this list',
  };
  for (const status of [401, 403, 404, 405]) {
    test(`datasets refused with ${status}: one hint row, then the discovered and the added datasets`, async () => {
      const { model, remembered, failures } = setup();
      await remembered.addDatasets(profile.id, ['typed-by-hand']);
      sandbox.faults.nextStatus(status, 1, 'auto', { match: { path: '/1/datasets' } });
      const root = await model.getChildren();
      assert.deepEqual(labels(root), [
        `Datasets are not listed: ${REASONS[status]}. Add them by slug.`,
        'Environment-wide',
        DEMO.datasets.gateway,
        DEMO.datasets.checkout,
        DEMO.datasets.metrics,
        'typed-by-hand',
        DEMO.datasets.hostile,
        'API keys',
      ]);
      assert.deepEqual(present(root[0] as TreeNode).command?.id, 'obs.dataset.add');
      assert.deepEqual(failures, [], 'a refusal is not a failure');
    });

    test(`datasets refused with ${status} are not asked for again until Refresh`, async () => {
      const { model, paths } = setup();
      sandbox.faults.nextStatus(status, 1, 'auto', { match: { path: '/1/datasets' } });
      await model.getChildren();
      model.refresh();
      const again = await model.getChildren();
      assert.equal(labels(again).filter((l) => l.startsWith('Datasets are not listed')).length, 1);
      assert.deepEqual(
        paths().filter((p) => p === '/1/datasets'),
        ['/1/datasets'],
      );
    });

    test(`SLOs refused with ${status}: said in the first Burn alerts group only; other datasets are not asked; added SLO ids still show`, async () => {
      const { model, remembered, paths } = setup();
      await model.getChildren();
      await remembered.addSlos(profile.id, DEMO.datasets.checkout, [DEMO.slos.coLatency]);
      sandbox.faults.nextStatus(status, 1, 'auto', { match: { path: '/1/slos/' } });
      const first = await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'));
      assert.deepEqual(labels(first), [`SLOs are not listed: ${REASONS[status]}. Add them by id.`]);
      assert.equal(present(first[0] as TreeNode).command?.id, 'obs.slo.add');
      const second = await model.getChildren(group(DEMO.datasets.checkout, 'burnAlerts'));
      assert.deepEqual(labels(second), [DEMO.slos.coLatency]);
      assert.equal((await model.getChildren(second[0])).length, 2, 'the added SLO lists its burn alerts');
      assert.deepEqual(labels(await model.getChildren(group(DEMO.datasets.metrics, 'burnAlerts'))), ['Add SLO...']);
      assert.deepEqual(
        paths().filter((p) => p.startsWith('/1/slos')),
        [`/1/slos/${DEMO.datasets.gateway}`],
      );
    });
  }

  test('a 404 for the SLOs of a dataset the service does not list speaks of that dataset, and SLOs stay listed for the others', async () => {
    const { model, remembered } = setup();
    await remembered.addDatasets(profile.id, ['typed-by-hand']);
    await model.getChildren();
    assert.deepEqual(labels(await model.getChildren(group('typed-by-hand', 'burnAlerts'))), [
      'The service lists no SLOs of typed-by-hand: it may not know the dataset. Add them by id.',
    ]);
    assert.deepEqual(labels(await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'))), [
      'Gateway availability',
    ]);
  });

  test('a failed SLO list (HTTP 500) shows an error with Retry beside the added SLO ids', async () => {
    const { model, remembered } = setup();
    await remembered.addSlos(profile.id, DEMO.datasets.gateway, [DEMO.slos.gwAvailability]);
    sandbox.faults.nextStatus(500, 1, 'auto', { match: { path: '/1/slos/' } });
    const nodes = await model.getChildren(group(DEMO.datasets.gateway, 'burnAlerts'));
    assert.deepEqual(labels(nodes), [`Could not list SLOs of ${DEMO.datasets.gateway}`, DEMO.slos.gwAvailability]);
  });
});

describe('a configuration key the service does not know (saved anyway after a failed check)', () => {
  let wrongKey: ServiceClient;
  before(() => {
    wrongKey = new ServiceClient({
      baseUrl: sandbox.info.baseUrl,
      configKey: 'not-a-key-of-this-service',
      retry: { maxAttempts: 1 },
    });
  });
  after(() => wrongKey.close());

  test('the root says the key is unknown, offers Edit Connection, and gives no "add them by slug" advice', async () => {
    const { model, remembered } = setup(wrongKey);
    await remembered.addDatasets(profile.id, ['typed-by-hand']);
    const root = await model.getChildren();
    assert.deepEqual(labels(root), [
      'Could not use the configuration key of "Sandbox"',
      'Environment-wide',
      'typed-by-hand',
      'API keys',
    ]);
    assert.equal(
      present(root[0] as TreeNode).description,
      'the service does not know it: it is mistyped, revoked, or a key of another account',
    );
    const actions = await model.getChildren(root[0]);
    assert.deepEqual(labels(actions), ['Edit Connection...', 'Retry', 'Show Logs']);
    assert.deepEqual(present(actions[0] as TreeNode).command, {
      id: 'obs.connection.edit',
      title: 'Edit Connection...',
      args: [profile.id],
    });
  });

  test('a list that fails with 401 when opened offers Edit Connection before Retry; another failure does not', async () => {
    const { model } = setup(wrongKey);
    const [error] = await model.getChildren(group(DEMO.datasets.gateway, 'columns'));
    assert.equal(present(error as TreeNode).label, `Could not list columns of ${DEMO.datasets.gateway}`);
    assert.deepEqual(labels(await model.getChildren(error)), ['Edit Connection...', 'Retry', 'Show Logs']);
    sandbox.faults.nextStatus(403, 1, 'auto', { match: { path: `/1/columns/${DEMO.datasets.checkout}` } });
    const other = setup().model;
    const [forbidden] = await other.getChildren(group(DEMO.datasets.checkout, 'columns'));
    assert.deepEqual(labels(await other.getChildren(forbidden)), ['Retry', 'Show Logs']);
  });
});
