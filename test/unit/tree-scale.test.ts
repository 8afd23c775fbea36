// A large account: 1,000 datasets, 500 SLOs (on one dataset) and 1,000 recipients. Opening the Datasets
// view costs one list call per kind, whatever the size; a dataset costs calls only when it is opened, and
// its SLOs' burn alerts only when an SLO is opened. Counted at the sandbox, never timed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { Limiter } from '../../src/api/limiter';
import { addWideDataset, startSandbox, type SandboxHandle } from '../../src/sandbox/index';
import type { ConnectionProfile } from '../../src/extension/connections/profiles';
import { AccountRecipients } from '../../src/extension/core/accountRecipients';
import { DatasetTreeModel } from '../../src/extension/tree/datasetTree';
import type { TreeApi } from '../../src/extension/tree/treeSources';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { RememberedItems } from '../../src/extension/tree/rememberedItems';
import type { DatasetNode, GroupNode } from '../../src/extension/tree/nodes';
import { MemoryMemento } from '../../scripts/memoryMemento';

const DATASETS = 1000;
const SLOS = 500;
const RECIPIENTS = 1000;
const slug = (i: number) => `ds-${String(i).padStart(4, '0')}`;
const WITH_SLOS = slug(7);
const AT = '2024-03-01T10:00:00.000Z';

let sandbox: SandboxHandle;
let client: ServiceClient;
let profile: ConnectionProfile;

before(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: 100_000, demo: false });
  const state = sandbox.state;
  for (let i = 0; i < DATASETS; i++) addWideDataset(state, slug(i), i % 2);
  for (let i = 0; i < SLOS; i++) {
    state.slos.push({
      id: `slo_${i}`,
      dataset: WITH_SLOS,
      name: `SLO ${String(i).padStart(3, '0')}`,
      description: '',
      time_period_days: 30,
      target_per_million: 999_000,
      sli_alias: 'sli',
      tags: [],
      reset_at: null,
      dataset_slugs: [],
      created_at: AT,
      updated_at: AT,
    });
  }
  for (let i = 0; i < RECIPIENTS; i++) {
    state.recipients.push({
      id: `rcp_${i}`,
      type: 'email',
      target: `r${i}@example.com`,
      settings: { email_address: `r${i}@example.com` },
      created_at: AT,
      updated_at: AT,
    });
  }
  const info = sandbox.info;
  client = new ServiceClient({ baseUrl: info.baseUrl, configKey: info.configKey, retry: { maxAttempts: 1 } });
  profile = {
    id: 'conn-scale',
    name: 'Large',
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

/** The client, counting how many of its calls run at once. */
function countingCalls(): { api: TreeApi; peak: () => number } {
  let running = 0;
  let peak = 0;
  const wrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      running++;
      peak = Math.max(peak, running);
      try {
        return await f(...a);
      } finally {
        running--;
      }
    };
  return {
    api: {
      listColumns: wrap((...a: Parameters<TreeApi['listColumns']>) => client.listColumns(...a)),
      listTriggers: wrap((...a: Parameters<TreeApi['listTriggers']>) => client.listTriggers(...a)),
      listBurnAlerts: wrap((...a: Parameters<TreeApi['listBurnAlerts']>) => client.listBurnAlerts(...a)),
      listDatasets: wrap((...a: Parameters<TreeApi['listDatasets']>) => client.listDatasets(...a)),
      listSlos: wrap((...a: Parameters<TreeApi['listSlos']>) => client.listSlos(...a)),
    },
    peak: () => peak,
  };
}

function setup(api: TreeApi = client) {
  const memento = new MemoryMemento();
  const recipients = new AccountRecipients({ connection: () => profile.id, client: async () => client });
  const model = new DatasetTreeModel({
    connection: async () => ({ profile, api }),
    remembered: new RememberedItems(memento),
    keys: new KeyRegistry(memento),
    metricsDatasets: () => [],
    limiter: new Limiter({ concurrency: 4 }),
    // As the extension wires it: the tooltips' recipients are read with the root.
    onRootLoad: () => recipients.want(),
  });
  const from = sandbox.requests.length;
  const paths = () => sandbox.requests.slice(from).map((r) => r.path);
  return { model, recipients, paths };
}

test('opening the view on 1,000 datasets and 1,000 recipients costs one list call each, and no call per dataset', async () => {
  const { model, recipients, paths } = setup();
  const root = await model.getChildren();
  const directory = await recipients.directory();
  assert.equal(root.filter((n) => n.kind === 'dataset').length, DATASETS + 1, 'the datasets and Environment-wide');
  assert.equal(directory?.list.length, RECIPIENTS);
  assert.deepEqual(paths().sort(), ['/1/datasets', '/1/recipients']);
});

test('the lists are kept: loading the view again and asking for the recipients again call nothing', async () => {
  const { model, recipients, paths } = setup();
  await model.getChildren();
  await recipients.directory();
  const before = paths().length;
  model.refresh();
  await model.getChildren();
  for (let i = 0; i < 10; i++) recipients.want();
  await recipients.directory();
  assert.equal(paths().length, before);
});

test('opening the dataset of 500 SLOs lists them with one call and no burn alert call; an SLO opened costs one more', async () => {
  const { model, paths } = setup();
  const root = await model.getChildren();
  const dataset = root.find((n): n is DatasetNode => n.kind === 'dataset' && n.slug === WITH_SLOS);
  assert.ok(dataset);
  const groups = (await model.getChildren(dataset)) as GroupNode[];
  const slos = await model.getChildren(groups[2]);
  assert.equal(slos.filter((n) => n.kind === 'slo').length, SLOS);
  assert.deepEqual(paths().sort(), [
    '/1/columns/ds-0007',
    '/1/datasets',
    '/1/recipients',
    '/1/slos/ds-0007',
    '/1/triggers/ds-0007',
  ]);
  await model.getChildren(slos[0]);
  assert.deepEqual(
    paths().filter((p) => p.startsWith('/1/burn_alerts')),
    [`/1/burn_alerts/${WITH_SLOS}`],
  );
});

test('opening 100 datasets at once runs at most as many calls at a time as the limiter allows', async () => {
  const counting = countingCalls();
  const { model, paths } = setup(counting.api);
  const root = await model.getChildren();
  const datasets = root.filter((n) => n.kind === 'dataset').slice(1, 101);
  await Promise.all(datasets.map((d) => model.getChildren(d)));
  assert.equal(counting.peak(), 4);
  assert.equal(
    paths().length,
    2 + 3 * datasets.length,
    'the datasets and the recipients, then columns, triggers and SLOs of each',
  );
});
