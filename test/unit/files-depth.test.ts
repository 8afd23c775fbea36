// A trigger nested thousands of levels deep (JSON.parse takes it) is refused alone, with its reason:
// every other trigger of the pull or drift check is still written or compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyPull,
  compareTriggers,
  driftOfFile,
  MAX_NESTING,
  nestedDeeperThan,
  normalize,
  planPull,
  readTriggerFile,
  scanExisting,
  textNestedDeeperThan,
  ServiceIndex,
  triggerFileText,
  TriggerTooDeep,
  type PullItem,
  type ServiceTrigger,
} from '../../src/triggerFiles';
import { nodeFileSystem } from '../../src/triggerFiles/nodeFs';

const DEPTHS = [2_000, 5_000, 100_000];

/** A filter value nested `n` levels deep, alternating objects and arrays (objects cost the most stack). */
function deepValue(n: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = i % 2 === 0 ? { a: v } : [v];
  return v;
}
/** The JSON text of the same value, built without JSON.stringify (which would overflow itself). */
function deepText(n: number): string {
  let open = '';
  let close = '';
  for (let i = n - 1; i >= 0; i--) {
    open += i % 2 === 0 ? '{"a":' : '[';
    close = (i % 2 === 0 ? '}' : ']') + close;
  }
  return `${open}1${close}`;
}

const trig = (id: string, name: string, value: unknown = 500): ServiceTrigger => ({
  id,
  name,
  dataset_slug: 'api',
  threshold: { op: '>', value: 1 },
  query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'status', op: '=', value }], time_range: 900 },
});
const item = (t: ServiceTrigger): PullItem => ({ dataset: 'api', trigger: t });

test('the depth is measured without recursion, for any depth', () => {
  for (const n of DEPTHS) assert.equal(nestedDeeperThan(deepValue(n), MAX_NESTING), true, String(n));
  assert.equal(nestedDeeperThan(deepValue(MAX_NESTING), MAX_NESTING), false);
  assert.equal(nestedDeeperThan(deepValue(MAX_NESTING + 1), MAX_NESTING), true);
});

test('the depth of a JSON text is read in one pass, brackets inside strings not counted', () => {
  for (const n of DEPTHS) assert.equal(textNestedDeeperThan(deepText(n), MAX_NESTING), true, String(n));
  assert.equal(textNestedDeeperThan(deepText(MAX_NESTING), MAX_NESTING), false);
  assert.equal(textNestedDeeperThan(`{"a":"${'['.repeat(1_000)}\\"{{"}`, 1), false);
});

test('normalize and compare refuse a trigger nested too deep with TriggerTooDeep, never a stack overflow', () => {
  for (const n of DEPTHS) {
    const deep = trig('t1', 'Deep', deepValue(n));
    assert.throws(() => normalize(deep), TriggerTooDeep, String(n));
    assert.throws(() => compareTriggers(deep, trig('t1', 'Deep')), TriggerTooDeep, String(n));
  }
});

test('pull: a service trigger nested 2,000, 5,000 or 100,000 levels deep is refused alone; the others are written', async () => {
  const root = mkdtempSync(join(tmpdir(), 'obs-pull-deep-'));
  try {
    const items = [item(trig('t0', 'Fine')), ...DEPTHS.map((n) => item(trig(`d${n}`, `Deep ${n}`, deepValue(n))))];
    const plan = planPull(items, await scanExisting(nodeFileSystem, root, items));
    const report = await applyPull(nodeFileSystem, root, plan, { approve: () => Promise.resolve(new Set()) });
    assert.deepEqual(report.created, ['api/Fine.trigger.json']);
    assert.deepEqual(
      report.failed,
      DEPTHS.map((n) => ({
        path: `api/Deep-${n}.trigger.json`,
        message: `the service's trigger is nested more than ${MAX_NESTING} levels deep (in query); trigger files hold at most ${MAX_NESTING} levels`,
      })).sort((a, b) => a.path.localeCompare(b.path)),
    );
    assert.deepEqual(readdirSync(join(root, 'api')), ['Fine.trigger.json']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('pull: a local file nested too deep that holds a trigger is refused and left as it is', async () => {
  const root = mkdtempSync(join(tmpdir(), 'obs-pull-deep-'));
  try {
    mkdirSync(join(root, 'api'));
    const text = `{"id":"t1","name":"Errors","dataset_slug":"api","query":{"filters":[{"column":"a","op":"=","value":${deepText(5_000)}}]}}`;
    writeFileSync(join(root, 'api', 'Errors.trigger.json'), text);
    const items = [item(trig('t1', 'Errors')), item(trig('t2', 'Latency'))];
    const report = await applyPull(
      nodeFileSystem,
      root,
      planPull(items, await scanExisting(nodeFileSystem, root, items)),
      { approve: (u) => Promise.resolve(new Set(u.map((x) => x.path))) },
    );
    assert.deepEqual(report.created, ['api/Latency.trigger.json']);
    assert.deepEqual(report.failed, [
      {
        path: 'api/Errors.trigger.json',
        message: `the file api/Errors.trigger.json is nested more than ${MAX_NESTING} levels deep (in query); trigger files hold at most ${MAX_NESTING} levels`,
      },
    ]);
    assert.equal(readFileSync(join(root, 'api', 'Errors.trigger.json'), 'utf8'), text);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('drift: a local file nested 2,000, 5,000 or 100,000 levels deep is not compared, with its reason; the other files are', () => {
  const index = new ServiceIndex();
  index.add('api', {
    state: 'listed',
    triggers: [trig('t0', 'Fine'), ...DEPTHS.map((n) => trig(`d${n}`, `Deep ${n}`))],
  });
  const fine = driftOfFile('Fine.trigger.json', readTriggerFile(triggerFileText(trig('t0', 'Fine'))), index);
  assert.equal(fine.status, 'in-sync');
  for (const n of DEPTHS) {
    const text = `{"id":"d${n}","name":"Deep ${n}","dataset_slug":"api","query":{"filters":[{"column":"status","op":"=","value":${deepText(n)}}]}}`;
    const d = driftOfFile(`Deep-${n}.trigger.json`, readTriggerFile(text), index);
    assert.deepEqual(
      [d.status, d.triggers[0]?.service?.id, d.triggers[0]?.reason],
      [
        'unknown',
        `d${n}`,
        `the file's trigger is nested more than ${MAX_NESTING} levels deep (in query); trigger files hold at most ${MAX_NESTING} levels`,
      ],
    );
  }
});

test('drift: a service trigger nested too deep leaves its file not compared, with the reason', () => {
  const index = new ServiceIndex();
  index.add('api', { state: 'listed', triggers: [trig('t1', 'Deep', deepValue(100_000))] });
  const d = driftOfFile('Deep.trigger.json', readTriggerFile(triggerFileText(trig('t1', 'Deep'))), index);
  assert.deepEqual(
    [d.status, d.triggers[0]?.reason],
    [
      'unknown',
      `the service's trigger is nested more than ${MAX_NESTING} levels deep (in query); trigger files hold at most ${MAX_NESTING} levels`,
    ],
  );
});
