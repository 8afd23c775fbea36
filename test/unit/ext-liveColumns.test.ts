// Live columns lint in the editor (diagnostics/liveColumns.ts, lintJobs.ts): the active connection's
// columns cached per connection and dataset and read in the background; the lint job checks the
// columns a trigger names only for datasets whose columns are known; a trigger shown as the service
// returned it is linted in the 'listed' form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatasetColumns } from '../../src/lint';
import { LiveColumns } from '../../src/extension/diagnostics/liveColumns';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import { trigger } from './lint-helpers';

const settle = () => new Promise((r) => setImmediate(r));

function setup(columns: Record<string, Record<string, DatasetColumns | 'missing' | Error>>) {
  let active: string | undefined = 'c1';
  let clock = 0;
  const reads: string[] = [];
  const live = new LiveColumns({
    connection: () => active,
    fetch: (cid, dataset) => {
      reads.push(`${cid}/${dataset}`);
      const got = columns[cid]?.[dataset] ?? 'missing';
      return got instanceof Error ? Promise.reject(got) : Promise.resolve(got);
    },
    maxAgeMs: 1000,
    retryMs: 100,
    now: () => clock,
  });
  let changes = 0;
  live.onDidChange(() => changes++);
  return { live, reads, use: (c: string | undefined) => (active = c), tick: (ms: number) => (clock += ms), changes: () => changes };
}

const API: DatasetColumns = { names: ['duration_ms', 'status'], hidden: ['status'] };

test('a dataset a document names is read once in the background, then known, and the change is announced', async () => {
  const { live, reads, changes } = setup({ c1: { api: API } });
  assert.deepEqual(live.known(), {});
  live.want(['api']);
  live.want(['api']);
  await settle();
  assert.deepEqual(live.known(), { api: API });
  assert.deepEqual(reads, ['c1/api']);
  assert.equal(changes(), 1);
  live.want(['api']);
  assert.deepEqual(reads, ['c1/api']);
});

test('columns are cached per connection: another connection has its own, and switching back reads nothing', async () => {
  const other: DatasetColumns = { names: ['x'], hidden: [] };
  const { live, reads, use } = setup({ c1: { api: API }, c2: { api: other } });
  live.want(['api']);
  await settle();
  use('c2');
  assert.deepEqual(live.known(), {});
  live.want(['api']);
  await settle();
  assert.deepEqual(live.known(), { api: other });
  use('c1');
  live.want(['api']);
  assert.deepEqual(live.known(), { api: API });
  assert.deepEqual(reads, ['c1/api', 'c2/api']);
});

test('offline, nothing is known (the check is skipped) and the dataset is asked for again only after a pause', async () => {
  const { live, reads, tick, changes } = setup({ c1: { api: new Error('connect ECONNREFUSED') } });
  live.want(['api']);
  await settle();
  assert.deepEqual(live.known(), {});
  live.want(['api']);
  tick(150);
  live.want(['api']);
  await settle();
  assert.deepEqual(reads, ['c1/api', 'c1/api']);
  assert.equal(changes(), 0);
});

test('stale columns are read again in the background; the old ones serve meanwhile; no connection reads nothing', async () => {
  const { live, reads, tick, use } = setup({ c1: { api: API, web: 'missing' } });
  live.want(['api', 'web']);
  await settle();
  assert.deepEqual(Object.keys(live.known()), ['api']);
  tick(2000);
  live.want(['api']);
  assert.deepEqual(live.known(), { api: API });
  await settle();
  assert.deepEqual(reads, ['c1/api', 'c1/web', 'c1/api']);
  use(undefined);
  live.want(['api']);
  assert.deepEqual(live.known(), {});
  assert.equal(reads.length, 3);
});

const withColumn = trigger('"dataset_slug": "api"', '"query": { "calculations": [{ "op": "P99", "column": "duraton_ms" }, { "op": "COUNT" }], "breakdowns": ["status"], "time_range": 1800 }');

test('the lint job reports an unknown column (with the nearest name as fix) and a hidden one only when the columns are given', () => {
  const without = runLintJob({ kind: 'lint', input: withColumn, options: { metricsDatasets: [] } });
  const withCols = runLintJob({ kind: 'lint', input: withColumn, options: { metricsDatasets: [], columns: { api: API } } });
  assert.ok(without.kind === 'lint' && withCols.kind === 'lint');
  assert.deepEqual(without.diagnostics.filter((d) => d.rule.endsWith('-column')), []);
  assert.deepEqual(without.datasets, ['api']);
  const found = withCols.diagnostics.filter((d) => d.rule.endsWith('-column'));
  assert.deepEqual(found.map((d) => [d.rule, d.severity]), [
    ['query/unknown-column', 'warning'],
    ['query/hidden-column', 'info'],
  ]);
  assert.deepEqual(found[0]?.fix?.edits.map((e) => e.newText), ['"duration_ms"']);
});

test("a trigger linted in the 'listed' form has no read-only member findings", () => {
  const listed = trigger('"id": "t1"', '"triggered": true', '"created_at": "2026-01-01T00:00:00Z"');
  const asFile = runLintJob({ kind: 'lint', input: listed, options: { metricsDatasets: [] } });
  const asListed = runLintJob({ kind: 'lint', input: listed, options: { metricsDatasets: [], form: 'listed' } });
  assert.ok(asFile.kind === 'lint' && asListed.kind === 'lint');
  assert.deepEqual(asFile.diagnostics.map((d) => d.rule), ['trigger/read-only-member', 'trigger/read-only-member']);
  assert.deepEqual(asListed.diagnostics.map((d) => d.rule), []);
});
