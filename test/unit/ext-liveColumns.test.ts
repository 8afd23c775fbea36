// Live columns lint in the editor (diagnostics/liveColumns.ts, lintJobs.ts): the active connection's
// columns cached per connection and dataset and read in the background; the lint job checks the
// columns a trigger names only for datasets whose columns are known; a trigger shown as the service
// returned it is linted in the 'listed' form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatasetColumns } from '../../src/lint';
import { LiveColumns } from '../../src/extension/diagnostics/liveColumns';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import type { BatchClock } from '../../src/extension/core/batch';
import { trigger } from './lint-helpers';

/** A clock whose timers fire only when the test says so. */
class ManualClock implements BatchClock {
  private readonly timers = new Map<number, () => void>();
  private next = 1;
  setTimeout(fn: () => void): unknown {
    this.timers.set(this.next, fn);
    return this.next++;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  get pending(): number {
    return this.timers.size;
  }
  fire(): void {
    const fns = [...this.timers.values()];
    this.timers.clear();
    fns.forEach((f) => f());
  }
}

function setup(
  columns: Record<string, Record<string, DatasetColumns | 'missing' | Error>>,
  batch: { clock?: ManualClock } = {},
) {
  let active: string | undefined = 'c1';
  let clock = 0;
  const reads: string[] = [];
  /** What each read answered: LiveColumns handles an answer before anyone who waits on it later. */
  const answers: Promise<unknown>[] = [];
  const live = new LiveColumns({
    connection: () => active,
    fetch: (cid, dataset) => {
      reads.push(`${cid}/${dataset}`);
      const got = columns[cid]?.[dataset] ?? 'missing';
      const answer = got instanceof Error ? Promise.reject(got) : Promise.resolve(got);
      answers.push(answer);
      return answer;
    },
    maxAgeMs: 1000,
    retryMs: 100,
    now: () => clock,
    ...(batch.clock === undefined ? { batchMs: 0 } : { clock: batch.clock }),
  });
  const announced: (string[] | 'all')[] = [];
  live.onDidChange((change) => announced.push(change === 'all' ? 'all' : [...change]));
  /** Resolves once every read started so far was answered and LiveColumns took the answer in. */
  const answered = async (): Promise<void> => {
    await Promise.allSettled(answers);
  };
  return {
    live,
    reads,
    answered,
    announced,
    use: (c: string | undefined) => (active = c),
    tick: (ms: number) => (clock += ms),
    changes: () => announced.length,
  };
}

const API: DatasetColumns = { names: ['duration_ms', 'status'], hidden: ['status'] };

test('a dataset a document names is read once in the background, then known, and the change is announced', async () => {
  const clock = new ManualClock();
  const { live, reads, answered, changes } = setup({ c1: { api: API } }, { clock });
  assert.deepEqual(live.known(), {});
  live.want(['api']);
  live.want(['api']);
  await answered();
  assert.deepEqual(live.known(), { api: API });
  assert.deepEqual(reads, ['c1/api']);
  clock.fire();
  assert.equal(changes(), 1);
  live.want(['api']);
  assert.deepEqual(reads, ['c1/api']);
});

test('columns are cached per connection: another connection has its own, and switching back reads nothing', async () => {
  const other: DatasetColumns = { names: ['x'], hidden: [] };
  const { live, reads, answered, use } = setup({ c1: { api: API }, c2: { api: other } });
  live.want(['api']);
  await answered();
  use('c2');
  assert.deepEqual(live.known(), {});
  live.want(['api']);
  await answered();
  assert.deepEqual(live.known(), { api: other });
  use('c1');
  live.want(['api']);
  assert.deepEqual(live.known(), { api: API });
  assert.deepEqual(reads, ['c1/api', 'c2/api']);
});

test('offline, nothing is known (the check is skipped) and the dataset is asked for again only after a pause', async () => {
  const clock = new ManualClock();
  const { live, reads, answered, tick, changes } = setup({ c1: { api: new Error('connect ECONNREFUSED') } }, { clock });
  live.want(['api']);
  await answered();
  assert.deepEqual(live.known(), {});
  live.want(['api']);
  tick(150);
  live.want(['api']);
  await answered();
  assert.deepEqual(reads, ['c1/api', 'c1/api']);
  assert.equal(clock.pending, 0, 'nothing arrived, so no announcement is due');
  assert.equal(changes(), 0);
});

test('stale columns are read again in the background; the old ones serve meanwhile; no connection reads nothing', async () => {
  const { live, reads, answered, tick, use } = setup({ c1: { api: API, web: 'missing' } });
  live.want(['api', 'web']);
  await answered();
  assert.deepEqual(Object.keys(live.known()), ['api']);
  tick(2000);
  live.want(['api']);
  assert.deepEqual(live.known(), { api: API });
  await answered();
  assert.deepEqual(reads, ['c1/api', 'c1/web', 'c1/api']);
  use(undefined);
  live.want(['api']);
  assert.deepEqual(live.known(), {});
  assert.equal(reads.length, 3);
});

test('columns arriving together are announced once, naming the datasets whose columns changed', async () => {
  const clock = new ManualClock();
  const same: DatasetColumns = { names: ['x'], hidden: [] };
  const { live, announced, answered, reads } = setup(
    { c1: { a1: API, a2: API, a3: same, a4: 'missing', a5: API } },
    { clock },
  );
  live.want(['a1', 'a2', 'a3', 'a4', 'a5']);
  await answered();
  assert.deepEqual(announced, []);
  assert.equal(clock.pending, 1);
  clock.fire();
  // a4 is unknown to the service: its columns stay unknown, which changes nothing.
  assert.deepEqual(announced, [['a1', 'a2', 'a3', 'a5']]);
  assert.deepEqual(reads, ['c1/a1', 'c1/a2', 'c1/a3', 'c1/a4', 'c1/a5']);
});

test('a connection change announces everything; columns arriving for a connection no longer active announce nothing', async () => {
  const clock = new ManualClock();
  const { live, announced, answered, use } = setup({ c1: { api: API } }, { clock });
  live.want(['api']);
  use('c2');
  live.connectionChanged();
  await answered();
  assert.equal(clock.pending, 0, 'the columns that arrived are not announced later either');
  assert.deepEqual(announced, ['all']);
  assert.deepEqual(live.known(), {});
});

const withColumn = trigger(
  '"dataset_slug": "api"',
  '"query": { "calculations": [{ "op": "P99", "column": "duraton_ms" }, { "op": "COUNT" }], "breakdowns": ["status"], "time_range": 1800 }',
);

test('the lint job reports an unknown column (with the nearest name as fix) and a hidden one only when the columns are given', () => {
  const without = runLintJob({ kind: 'lint', input: withColumn, options: { metricsDatasets: [] } });
  const withCols = runLintJob({
    kind: 'lint',
    input: withColumn,
    options: { metricsDatasets: [], columns: { api: API } },
  });
  assert.ok(without.kind === 'lint' && withCols.kind === 'lint');
  assert.deepEqual(
    without.diagnostics.filter((d) => d.rule.endsWith('-column')),
    [],
  );
  assert.deepEqual(without.datasets, ['api']);
  const found = withCols.diagnostics.filter((d) => d.rule.endsWith('-column'));
  assert.deepEqual(
    found.map((d) => [d.rule, d.severity]),
    [
      ['query/unknown-column', 'warning'],
      ['query/hidden-column', 'info'],
    ],
  );
  assert.deepEqual(
    found[0]?.fix?.edits.map((e) => e.newText),
    ['"duration_ms"'],
  );
});

test("a trigger linted in the 'listed' form has no read-only member findings", () => {
  const listed = trigger('"id": "t1"', '"triggered": true', '"created_at": "2026-01-01T00:00:00Z"');
  const asFile = runLintJob({ kind: 'lint', input: listed, options: { metricsDatasets: [] } });
  const asListed = runLintJob({ kind: 'lint', input: listed, options: { metricsDatasets: [], form: 'listed' } });
  assert.ok(asFile.kind === 'lint' && asListed.kind === 'lint');
  assert.deepEqual(
    asFile.diagnostics.map((d) => d.rule),
    ['trigger/read-only-member', 'trigger/read-only-member'],
  );
  assert.deepEqual(
    asListed.diagnostics.map((d) => d.rule),
    [],
  );
});
