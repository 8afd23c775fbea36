// Pull (src/triggerFiles/pull.ts, listing.ts, pool.ts): which file each trigger goes to, what is never
// overwritten without approval, the report, and the pacing of the list calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyPull,
  collectTriggers,
  PacedPool,
  planPull,
  pullSummary,
  PullCancelled,
  scanExisting,
  triggerFileText,
  type PullItem,
  type ServiceTrigger,
  type TriggerLister,
} from '../../src/triggerFiles';
import { nodeFileSystem } from '../../src/triggerFiles/nodeFs';

const trig = (id: string, name: string, dataset = 'api', over: Partial<ServiceTrigger> = {}): ServiceTrigger => ({
  id,
  name,
  dataset_slug: dataset,
  threshold: { op: '>', value: 1 },
  query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
  ...over,
});
const item = (t: ServiceTrigger): PullItem => ({
  dataset: t.dataset_slug === '__all__' ? 'all' : (t.dataset_slug ?? 'api'),
  trigger: t,
});

test('new triggers get <dataset>/<name>.trigger.json; a second trigger of the same name gets its id in the name', () => {
  const plan = planPull([item(trig('t1', 'Errors')), item(trig('t2', 'Errors')), item(trig('e1', 'Quiet', 'all'))], []);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [
      ['create', '__all__/Quiet.trigger.json'],
      ['create', 'api/Errors-t2.trigger.json'],
      ['create', 'api/Errors.trigger.json'],
    ],
  );
});

test('a file that links the trigger by id is its file wherever it lies in the dataset folder; an identical one is unchanged', () => {
  const t = trig('t1', 'Errors');
  const plan = planPull([item(t)], [{ path: 'api/renamed-by-me.trigger.json', text: triggerFileText(t) }]);
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [['unchanged', 'api/renamed-by-me.trigger.json']],
  );
});

test('a file that differs only in formatting, or by what the service fills in, is unchanged and left alone', () => {
  const t = trig('t1', 'Errors', 'api', { frequency: 900, alert_type: 'on_change', triggered: true, query_id: 'q_x' });
  const mine = `{"id":"t1","name":"Errors","dataset_slug":"api","threshold":{"value":1,"op":">"},"query":{"time_range":900}}`;
  assert.deepEqual(
    planPull([item(t)], [{ path: 'api/Errors.trigger.json', text: mine }]).map((a) => a.kind),
    ['unchanged'],
  );
});

test("a file without id of the same dataset and name is the trigger's file; a file with another id keeps its name", () => {
  const t = trig('t1', 'Errors');
  const noId = JSON.stringify({
    name: 'Errors',
    dataset_slug: 'api',
    threshold: { op: '>', value: 2 },
    query: { time_range: 900 },
  });
  const other = triggerFileText(trig('t9', 'Errors'));
  assert.deepEqual(
    planPull([item(t)], [{ path: 'api/mine.trigger.json', text: noId }]).map((a) => [a.kind, a.path]),
    [['update', 'api/mine.trigger.json']],
  );
  assert.deepEqual(
    planPull([item(t)], [{ path: 'api/Errors.trigger.json', text: other }]).map((a) => [a.kind, a.path]),
    [['create', 'api/Errors-t1.trigger.json']],
  );
});

let dir = '';
function fresh(): string {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-pull-'));
  return dir;
}
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a file that differs from the service is overwritten only when approved, and the report says what happened', async () => {
  const root = fresh();
  mkdirSync(join(root, 'api'));
  const t1 = trig('t1', 'Errors');
  const edited = JSON.stringify({ ...JSON.parse(triggerFileText(t1)), threshold: { op: '>', value: 99 } });
  writeFileSync(join(root, 'api', 'Errors.trigger.json'), edited);
  const items = [item(t1), item(trig('t2', 'Latency'))];
  const plan = planPull(items, await scanExisting(nodeFileSystem, root, items));
  assert.deepEqual(
    plan.map((a) => [a.kind, a.path]),
    [
      ['update', 'api/Errors.trigger.json'],
      ['create', 'api/Latency.trigger.json'],
    ],
  );
  const update = plan[0];
  assert.deepEqual(update?.kind === 'update' ? update.differences.map((d) => d.path) : [], ['threshold.value']);

  let asked: string[] = [];
  const refused = await applyPull(nodeFileSystem, root, plan, {
    approve: (u) => ((asked = u.map((x) => x.path)), Promise.resolve(new Set<string>())),
  });
  assert.deepEqual(asked, ['api/Errors.trigger.json']);
  assert.deepEqual(refused, {
    created: ['api/Latency.trigger.json'],
    updated: [],
    unchanged: [],
    skipped: [{ path: 'api/Errors.trigger.json', reason: 'it differs from the service' }],
    failed: [],
    removed: [],
    cancelled: false,
  });
  assert.equal(readFileSync(join(root, 'api', 'Errors.trigger.json'), 'utf8'), edited);
  assert.equal(pullSummary(refused), '1 written, 0 unchanged, 1 skipped');

  const again = planPull(items, await scanExisting(nodeFileSystem, root, items));
  const approved = await applyPull(nodeFileSystem, root, again, {
    approve: (u) => Promise.resolve(new Set(u.map((x) => x.path))),
  });
  assert.deepEqual([approved.updated, approved.unchanged], [['api/Errors.trigger.json'], ['api/Latency.trigger.json']]);
  assert.equal(readFileSync(join(root, 'api', 'Errors.trigger.json'), 'utf8'), triggerFileText(t1));
  assert.deepEqual(
    readdirSync(join(root, 'api')).sort(),
    ['Errors.trigger.json', 'Latency.trigger.json'],
    'no temporary file is left behind',
  );
});

test('a held file (unsaved edits in the editor) is skipped with its reason, approved or not', async () => {
  const root = fresh();
  const plan = planPull([item(trig('t1', 'Errors'))], []);
  const r = await applyPull(nodeFileSystem, root, plan, {
    approve: () => Promise.resolve(new Set()),
    hold: () => 'it has unsaved changes in the editor',
  });
  assert.deepEqual(r.skipped, [{ path: 'api/Errors.trigger.json', reason: 'it has unsaved changes in the editor' }]);
});

test('a cancelled pull stops before the next file and says so', async () => {
  const root = fresh();
  const controller = new AbortController();
  const plan = planPull([item(trig('t1', 'A')), item(trig('t2', 'B'))], []);
  const r = await applyPull(nodeFileSystem, root, plan, {
    approve: () => Promise.resolve(new Set()),
    signal: controller.signal,
    onProgress: (done) => done === 1 && controller.abort(),
  });
  assert.deepEqual([r.created, r.cancelled], [['api/A.trigger.json'], true]);
});

/** A lister answering from a table, recording the calls and how many ran at once. */
function fakeLister(
  lists: Record<string, ServiceTrigger[] | number>,
  rateLimit?: { remaining: number; resetSeconds: number },
) {
  const calls: string[] = [];
  let running = 0;
  let peak = 0;
  const api: TriggerLister = {
    async listTriggers(dataset) {
      calls.push(dataset);
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setImmediate(r));
      running--;
      const l = lists[dataset];
      if (typeof l === 'number') throw Object.assign(new Error(`listing ${dataset} failed with ${l}`), { status: l });
      return { data: l ?? [], ...(rateLimit ? { rateLimit } : {}) };
    },
  };
  return { api, calls, peak: () => peak };
}

test('everything: the environment-wide list, then the datasets asked for; each trigger once; failures named, 404 as a missing dataset', async () => {
  const shared = trig('t1', 'A');
  const { api, calls } = fakeLister({
    __all__: [shared, trig('e1', 'Q', 'all')],
    api: [shared, trig('t2', 'B')],
    gone: 404,
    broken: 500,
  });
  const c = await collectTriggers(
    api,
    { datasets: ['api', 'gone', 'broken'], everything: true },
    new PacedPool({ concurrency: 2 }),
  );
  assert.deepEqual(calls, ['__all__', 'api', 'gone', 'broken']);
  assert.deepEqual(
    c.items.map((i) => [i.dataset, i.trigger.id]),
    [
      ['all', 'e1'],
      ['api', 't1'],
      ['api', 't2'],
    ],
  );
  assert.deepEqual(c.failures, [
    { dataset: 'broken', message: 'listing broken failed with 500' },
    { dataset: 'gone', message: 'the service has no dataset gone' },
  ]);
});

test('list calls run at most `concurrency` at once', async () => {
  const lists = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`d${i}`, [] as ServiceTrigger[]]));
  const { api, peak } = fakeLister(lists);
  await collectTriggers(api, { datasets: Object.keys(lists) }, new PacedPool({ concurrency: 3 }));
  assert.equal(peak(), 3);
});

test('a rate limit nearly used up makes the next calls wait for its reset', async () => {
  const waits: number[] = [];
  const { api } = fakeLister({ a: [], b: [], c: [] }, { remaining: 1, resetSeconds: 7 });
  let now = 0;
  const pool = new PacedPool({
    concurrency: 1,
    now: () => now,
    sleep: (ms) => ((waits.push(ms), (now += ms)), Promise.resolve()),
  });
  await collectTriggers(api, { datasets: ['a', 'b', 'c'] }, pool);
  assert.deepEqual(waits, [7000, 7000]);
});

test('a call refused with retry-after pauses and is tried again; a cancelled pool rejects', async () => {
  let n = 0;
  const waits: number[] = [];
  const pool = new PacedPool({ concurrency: 2, now: () => 0, sleep: (ms) => (waits.push(ms), Promise.resolve()) });
  const result = await pool.run(() =>
    n++ === 0
      ? Promise.reject(Object.assign(new Error('429'), { status: 429, retryAfterMs: 1500 }))
      : Promise.resolve({ ok: true, rateLimit: undefined }),
  );
  assert.deepEqual([result.ok, waits, n], [true, [1500], 2]);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    pool.run(() => Promise.resolve({}), controller.signal),
    PullCancelled,
  );
});
