// Round trip: right after a pull, drift is empty and so is the plan. For every demo trigger of the sandbox (pulled into a
// temporary folder through the real client), for every trigger body of the fixture corpus (shaped like
// the service's own), and as a property: the canonical form of a trigger is stable under every rewrite
// the service makes (service-rewrites.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api';
import { DEMO } from '../../src/sandbox';
import {
  applyPull,
  collectTriggers,
  compareTriggers,
  datasetsOfFiles,
  driftOfFile,
  keyFingerprint,
  listDatasets,
  makePlan,
  normalize,
  onlyOnService,
  PacedPool,
  planPull,
  readTriggerFile,
  scanExisting,
  ServiceIndex,
  triggerFileText,
  type ServiceTrigger,
} from '../../src/triggerFiles';
import { nodeFileSystem } from '../../src/triggerFiles/nodeFs';
import { lint } from '../../src/lint';
import { asServiceLists, rewrites, writtenTrigger } from './service-rewrites';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

let sandbox: TestSandbox;
let client: ServiceClient;
let dir = '';

before(async () => {
  sandbox = await startTestSandbox();
  client = new ServiceClient({ baseUrl: sandbox.base, configKey: sandbox.handle.info.configKey });
  dir = mkdtempSync(join(tmpdir(), 'obs-roundtrip-'));
});
after(async () => {
  await client.close();
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

test('every demo trigger pulled from the sandbox is in sync right after the pull, and none is only on the service', async () => {
  const pool = new PacedPool({ concurrency: 4 });
  const { items, failures } = await collectTriggers(client, { datasets: [], everything: true }, pool);
  assert.deepEqual(failures, []);
  assert.equal(items.length, Object.keys(DEMO.triggers).length);
  const plan = planPull(items, await scanExisting(nodeFileSystem, dir, items));
  const report = await applyPull(nodeFileSystem, dir, plan, { approve: () => Promise.resolve(new Set()) });
  assert.equal(report.created.length, items.length);

  const files = filesUnder(dir).map((f) => ({ f, read: readTriggerFile(readFileSync(f, 'utf8')) }));
  const index = new ServiceIndex();
  for (const [dataset, listing] of await listDatasets(client, [...datasetsOfFiles(files.map((x) => x.read))], pool))
    index.add(dataset, listing);
  const drift = files.map(({ f, read }) => driftOfFile(f, read, index));
  assert.deepEqual(
    drift.filter((d) => d.status !== 'in-sync').map((d) => [d.file, d.status, d.triggers.map((t) => t.differences)]),
    [],
  );
  assert.deepEqual(onlyOnService(drift, index), []);
  // The plan is made from the same comparison: nothing to create, update or delete (with --prune), nothing blocked.
  const planFiles = files.map(({ f, read }) => ({ file: f, text: readFileSync(f, 'utf8'), read }));
  const applyPlan = makePlan({
    files: planFiles,
    index,
    target: { baseUrl: sandbox.base, key: keyFingerprint('k', 's') },
    inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
    now: new Date(),
  });
  assert.deepEqual([applyPlan.changes, applyPlan.blocked, applyPlan.unchanged], [[], [], items.length]);

  // A second pull finds every file unchanged and writes nothing.
  const again = await applyPull(nodeFileSystem, dir, planPull(items, await scanExisting(nodeFileSystem, dir, items)), {
    approve: () => Promise.resolve(new Set()),
  });
  assert.deepEqual([again.created.length, again.updated.length, again.unchanged.length], [0, 0, items.length]);
});

test('every trigger body of the fixture corpus round-trips through its canonical file', () => {
  const corpus = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'service', 'triggers-listed.json'), 'utf8'),
  ) as { body: ServiceTrigger[] };
  for (const listed of corpus.body) {
    const pulled = JSON.parse(triggerFileText(listed)) as unknown;
    assert.deepEqual(compareTriggers(pulled, listed), [], listed.id);
    assert.deepEqual(normalize(pulled), pulled, `${listed.id}: the file is canonical`);
  }
  // Pulled as files and planned against the same lists (deletes asked for): nothing to change.
  const index = new ServiceIndex();
  const datasets = [...new Set(corpus.body.map((t) => String(t.dataset_slug)))];
  for (const d of datasets)
    index.add(d, { state: 'listed', triggers: corpus.body.filter((t) => t.dataset_slug === d) });
  const files = corpus.body.map((t, i) => {
    const text = triggerFileText(t);
    return { file: `corpus-${i}.trigger.json`, text, read: readTriggerFile(text) };
  });
  const plan = makePlan({
    files,
    index,
    target: { baseUrl: 'https://api.example.com', key: keyFingerprint('k', 's') },
    inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
    now: new Date(),
  });
  assert.deepEqual([plan.changes, plan.blocked, plan.unchanged], [[], [], corpus.body.length]);
});

test('a pulled demo trigger file draws no lint error (the canonical form is a valid write, id included)', async () => {
  const { items } = await collectTriggers(
    client,
    { datasets: [], everything: true },
    new PacedPool({ concurrency: 2 }),
  );
  for (const { trigger } of items) {
    const errors = lint(triggerFileText(trigger), { metricsDatasets: [DEMO.datasets.metrics] }).filter(
      (d) => d.severity === 'error',
    );
    assert.deepEqual(
      errors.map((d) => `${d.rule}: ${d.message}`),
      [],
      trigger.id,
    );
  }
});

test('a paging recipient the service answers by id with target "" is pulled without the empty target, lints clean and is in sync', () => {
  const listed: ServiceTrigger = {
    id: 'trig_pd',
    dataset_slug: 'api',
    name: 'Paged',
    threshold: { op: '>', value: 1, exceeded_limit: 1 },
    recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: '', details: { pagerduty_severity: 'warning' } }],
    query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    query_id: 'q_made_inline',
  };
  const text = triggerFileText(listed);
  assert.deepEqual((JSON.parse(text) as { recipients: unknown }).recipients, [
    { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_severity: 'warning' } },
  ]);
  assert.deepEqual(
    lint(text).map((d) => `${d.rule}: ${d.message}`),
    [],
  );
  assert.deepEqual(compareTriggers(JSON.parse(text), listed), []);
});

test('property: a written trigger and the service form of it are in sync, whatever the service rewrote', () => {
  fc.assert(
    fc.property(writtenTrigger, rewrites, (written, r) => {
      assert.deepEqual(compareTriggers(written, asServiceLists(written, r)), []);
    }),
    { numRuns: 500 },
  );
});

test('property: the canonical form of the service form is stable: pulled, rewritten again by the service, pulled again, it is the same file', () => {
  fc.assert(
    fc.property(writtenTrigger, rewrites, rewrites, (written, first, again) => {
      // What the service fills in (a granularity, a recipient's type and target from its id) it fills in
      // every time it lists the trigger alike.
      const second = {
        ...again,
        fillGranularity: first.fillGranularity,
        fillRecipientFromId: first.fillRecipientFromId,
        idForAddress: first.idForAddress,
        blankPagingTarget: first.blankPagingTarget,
        savedQueryInline: first.savedQueryInline,
      };
      const pulled = normalize(asServiceLists(written, first));
      assert.deepEqual(normalize(pulled), pulled, 'idempotent');
      assert.deepEqual(normalize(asServiceLists(pulled as Record<string, unknown>, second)), pulled);
      assert.equal(triggerFileText(asServiceLists(pulled as Record<string, unknown>, second)), triggerFileText(pulled));
    }),
    { numRuns: 500 },
  );
});
