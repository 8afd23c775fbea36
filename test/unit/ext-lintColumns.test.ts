// Live columns cross to the lint worker once per change of a dataset's columns (lintColumns.ts,
// lintProtocol.ts): a job carries only the version it was made with, and is linted with exactly those
// columns, even when newer ones reached the worker first or the worker was started again. Work is counted at
// the worker boundary (every columns entry that crossed, in a message or inside a job: lint-workers.ts), with
// the real worker threads of dist/lint-worker.js; never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DatasetColumns } from '../../src/lint';
import { LintCancelled, LintRunner } from '../../src/extension/diagnostics/lintRunner';
import type { LintJobOptions, LintJobResult } from '../../src/extension/diagnostics/lintJobs';
import { trigger } from './lint-helpers';
import { countedWorkers, LINT_WORKER_FILE as workerFile } from './lint-workers';

/** A trigger of `dataset` whose query names the column `duraton_ms`. */
const naming = (dataset: string): string =>
  trigger(
    `"dataset_slug": "${dataset}"`,
    '"query": { "calculations": [{ "op": "P99", "column": "duraton_ms" }], "time_range": 1800 }',
  );

const columnsOf = (...names: string[]): DatasetColumns => ({ names, hidden: [] });
const options = (columns: Readonly<Record<string, DatasetColumns>>): LintJobOptions => ({
  metricsDatasets: [],
  columns,
});
const unknownColumns = (r: LintJobResult): string[] =>
  r.kind === 'lint' ? r.diagnostics.filter((d) => d.rule === 'query/unknown-column').map((d) => d.message) : [];

function setup(stopAbove?: number) {
  const workers = countedWorkers();
  const runner = new LintRunner({
    workerFile,
    createWorker: workers.createWorker,
    ...(stopAbove === undefined ? {} : { stopAbove }),
  });
  return { workers, runner };
}

test("200 files against 20 datasets of 1,000 columns: 200 jobs, and each dataset's columns cross once", async () => {
  const { workers, runner } = setup();
  try {
    const known: Record<string, DatasetColumns> = {};
    for (let d = 0; d < 20; d++)
      known[`d${d}`] = columnsOf(...Array.from({ length: 1000 }, (_, c) => (c === 0 ? 'duration_ms' : `c${c}`)));
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        runner.run({ kind: 'lint', input: naming(`d${i % 20}`), options: options(known) }),
      ),
    );
    assert.ok(
      results.every((r) => unknownColumns(r).length === 1),
      'every file had its columns checked',
    );
    assert.deepEqual(
      { jobs: workers.jobs('lint'), columns: workers.columns() },
      {
        jobs: 200,
        columns: { messages: 1, entries: 20 },
      },
    );
  } finally {
    runner.dispose();
  }
});

test("a file linted after its dataset's columns changed is checked against the new columns; only the changed one crosses", async () => {
  const { workers, runner } = setup();
  try {
    const web = columnsOf('path');
    const before = { api: columnsOf('duration_ms'), web };
    assert.equal(
      unknownColumns(await runner.run({ kind: 'lint', input: naming('api'), options: options(before) })).length,
      1,
    );
    const after = { api: columnsOf('duraton_ms', 'duration_ms'), web };
    assert.deepEqual(
      unknownColumns(await runner.run({ kind: 'lint', input: naming('api'), options: options(after) })),
      [],
    );
    // The dataset no longer known: its columns are not checked.
    assert.deepEqual(
      unknownColumns(await runner.run({ kind: 'lint', input: naming('api'), options: options({ web }) })),
      [],
    );
    assert.deepEqual(workers.columns(), { messages: 3, entries: 4 });
  } finally {
    runner.dispose();
  }
});

test('jobs queued before a change are linted with the columns they were made with, not the newer ones sent first', async () => {
  const { workers, runner } = setup();
  try {
    const old = { api: columnsOf('duration_ms') };
    const fresh = { api: columnsOf('duraton_ms') };
    // The first job holds the worker; by the time the second is posted, the newer columns were sent first.
    const results = await Promise.all([
      runner.run({ kind: 'lint', input: naming('api'), options: options(old) }),
      runner.run({ kind: 'lint', input: naming('api'), options: options(old) }),
      runner.run({ kind: 'lint', input: naming('api'), options: options(fresh) }),
      runner.run({ kind: 'lint', input: naming('api'), options: options(fresh) }),
    ]);
    assert.deepEqual(
      results.map((r) => unknownColumns(r).length),
      [1, 1, 0, 0],
    );
    assert.deepEqual(workers.columns(), { messages: 2, entries: 2 });
  } finally {
    runner.dispose();
  }
});

test('a worker started again (a large lint cancelled) is sent the columns the queued jobs were made with', async () => {
  const { workers, runner } = setup(1000);
  try {
    const old = { api: columnsOf('duration_ms') };
    const fresh = { api: columnsOf('duraton_ms') };
    const controller = new AbortController();
    const large = runner.run(
      { kind: 'lint', input: `[${Array(200).fill(naming('api')).join(',')}]`, options: options(old) },
      controller.signal,
    );
    const queued = [
      runner.run({ kind: 'lint', input: naming('api'), options: options(old) }),
      runner.run({ kind: 'lint', input: naming('api'), options: options(fresh) }),
    ];
    controller.abort();
    await assert.rejects(large, LintCancelled);
    const [a, b] = await Promise.all(queued);
    assert.deepEqual(
      [a, b].map((r) => (r === undefined ? -1 : unknownColumns(r).length)),
      [1, 0],
    );
    assert.deepEqual({ started: workers.started(), stopped: workers.stopped() }, { started: 2, stopped: 1 });
    // The new worker is sent both versions the queued jobs were made with.
    assert.deepEqual(workers.columns(), { messages: 2, entries: 3 });
  } finally {
    runner.dispose();
  }
});
