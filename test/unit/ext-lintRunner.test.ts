// The linter off the extension host's thread: jobs in a worker (dist/lint-worker.js, built by
// `npm test`), cancelled when superseded, each document version linted once, and code actions
// answered from that lint. Work is counted at the worker boundary (jobs posted, workers started and
// stopped, lint-workers.ts) and at the reads, never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { lintReport } from '../../src/lint';
import { LintedDocuments } from '../../src/extension/diagnostics/lintedDocuments';
import { EDITOR_METRICS_DATASET_HINT, QuickFixIndex } from '../../src/extension/diagnostics/lintMapping';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import {
  InThreadWorker,
  LintCancelled,
  LintRunner,
  type LintRunnerOptions,
  type WorkerLike,
} from '../../src/extension/diagnostics/lintRunner';
import { requestHandler, type WorkerRequest, type WorkerResponse } from '../../src/extension/diagnostics/lintProtocol';
import { trigger } from './lint-helpers';
import { countedWorkers, LINT_WORKER_FILE as workerFile } from './lint-workers';

const OPTIONS = { metricsDatasets: [] };
const BAD = trigger('"frequency": 90', '"created_at": "t1"');

/** A runner on real worker threads that count what it does with them: workers started, jobs posted, workers stopped. */
function countedRunner(options: Partial<LintRunnerOptions> = {}) {
  const workers = countedWorkers();
  const runner = new LintRunner({ workerFile, createWorker: workers.createWorker, ...options });
  const stats = () => ({
    workers: workers.started(),
    jobs: workers.jobs('lint', 'fixAll'),
    stopped: workers.stopped(),
  });
  return { runner, workers, stats };
}

test('a lint job runs in the worker and answers what the linter reports', async () => {
  const { runner, stats } = countedRunner();
  try {
    const result = await runner.run({ kind: 'lint', input: BAD, options: OPTIONS });
    const expected = lintReport(BAD, { metricsDatasets: [], metricsDatasetHint: EDITOR_METRICS_DATASET_HINT });
    assert.deepEqual(result, {
      kind: 'lint',
      diagnostics: expected.diagnostics,
      hidden: expected.hidden,
      datasets: expected.datasets,
    });
    assert.deepEqual(stats(), { workers: 1, jobs: 1, stopped: 0 });
  } finally {
    runner.dispose();
  }
});

test('bytes are linted as a file: undecodable bytes are reported', async () => {
  const runner = new LintRunner({ workerFile });
  try {
    const [before, after] = trigger('"description": "cafX"').split('X');
    const bytes = Buffer.concat([
      Buffer.from(before ?? '', 'utf8'),
      Buffer.from([0xe9]),
      Buffer.from(after ?? '', 'utf8'),
    ]);
    const result = await runner.run({ kind: 'lint', input: bytes, options: OPTIONS });
    assert.equal(result.kind, 'lint');
    assert.deepEqual(result.kind === 'lint' ? result.diagnostics.map((d) => d.rule) : [], ['file/encoding']);
  } finally {
    runner.dispose();
  }
});

test('a job cancelled while it waits never runs', async () => {
  const { runner, stats } = countedRunner();
  try {
    const controller = new AbortController();
    const first = runner.run({ kind: 'lint', input: BAD, options: OPTIONS });
    const second = runner.run({ kind: 'lint', input: BAD, options: OPTIONS }, controller.signal);
    controller.abort();
    await assert.rejects(second, LintCancelled);
    await first;
    assert.equal(stats().jobs, 1);
  } finally {
    runner.dispose();
  }
});

test('a running job on a large input is cancelled by stopping its worker; the next job gets a fresh one', async () => {
  const { runner, stats } = countedRunner({ stopAbove: 1 });
  try {
    const controller = new AbortController();
    const running = runner.run({ kind: 'lint', input: BAD, options: OPTIONS }, controller.signal);
    controller.abort();
    await assert.rejects(running, LintCancelled);
    const next = await runner.run({ kind: 'lint', input: BAD, options: OPTIONS });
    assert.equal(next.kind, 'lint');
    assert.deepEqual(stats(), { workers: 2, jobs: 2, stopped: 1 });
  } finally {
    runner.dispose();
  }
});

test('a running job on a small input finishes unheard, on the same worker', async () => {
  const { runner, stats } = countedRunner();
  try {
    const controller = new AbortController();
    const running = runner.run({ kind: 'lint', input: BAD, options: OPTIONS }, controller.signal);
    controller.abort();
    await assert.rejects(running, LintCancelled);
    await runner.run({ kind: 'lint', input: BAD, options: OPTIONS });
    assert.deepEqual(stats(), { workers: 1, jobs: 2, stopped: 0 });
  } finally {
    runner.dispose();
  }
});

/** A worker that exits at its first job. */
class DyingWorker extends EventEmitter implements WorkerLike {
  postMessage(_message: WorkerRequest): void {
    queueMicrotask(() => this.emit('exit', 1));
  }
  terminate(): Promise<number> {
    return Promise.resolve(0);
  }
}
/** A worker that answers every lint with no diagnostics. */
class QuietWorker extends EventEmitter implements WorkerLike {
  postMessage(message: WorkerRequest): void {
    if ('columns' in message) return;
    const response: WorkerResponse = {
      id: message.id,
      ok: true,
      result: { kind: 'lint', diagnostics: [], hidden: { error: 0, warning: 0, info: 0 }, datasets: [] },
    };
    queueMicrotask(() => this.emit('message', response));
  }
  terminate(): Promise<number> {
    return Promise.resolve(0);
  }
}

test('a worker that dies fails its job with the reason, and the next job starts a new worker', async () => {
  const made: WorkerLike[] = [new DyingWorker(), new QuietWorker()];
  const logged: string[] = [];
  const runner = new LintRunner({
    workerFile,
    createWorker: () => made.shift() ?? new QuietWorker(),
    log: (m) => logged.push(m),
  });
  await assert.rejects(
    runner.run({ kind: 'lint', input: BAD, options: OPTIONS }),
    /the lint worker stopped: exit code 1/,
  );
  assert.deepEqual(await runner.run({ kind: 'lint', input: BAD, options: OPTIONS }), {
    kind: 'lint',
    diagnostics: [],
    hidden: { error: 0, warning: 0, info: 0 },
    datasets: [],
  });
  assert.deepEqual(logged, ['the lint worker stopped: exit code 1']);
  assert.equal(made.length, 0, 'both workers were started');
  runner.dispose();
});

test('where no worker thread can start, the jobs run in this thread, and the reason is logged', async () => {
  const logged: string[] = [];
  const runner = new LintRunner({
    workerFile,
    createWorker: () => {
      throw new Error('ERR_WORKER_INVALID_EXEC_ARGV');
    },
    fallback: () => new InThreadWorker(requestHandler(runLintJob)),
    log: (m) => logged.push(m),
  });
  const result = await runner.run({ kind: 'lint', input: BAD, options: OPTIONS });
  assert.deepEqual(result.kind === 'lint' ? result.diagnostics.map((d) => d.rule) : [], [
    'trigger/frequency',
    'trigger/read-only-member',
  ]);
  assert.deepEqual(logged, [
    "no lint worker thread (ERR_WORKER_INVALID_EXEC_ARGV): linting in the extension host's thread",
  ]);
  runner.dispose();
});

test('each document version is linted once, whoever asks', async () => {
  const { runner, workers } = countedRunner();
  const documents = new LintedDocuments(runner, () => OPTIONS);
  try {
    let reads = 0;
    const text = () => {
      reads++;
      return BAD;
    };
    const [a, b] = await Promise.all([
      documents.lint('file:///a.trigger.json', 1, text),
      documents.lint('file:///a.trigger.json', 1, text),
    ]);
    assert.equal(a, b);
    assert.equal(reads, 1);
    assert.equal(workers.jobs('lint'), 1);
    assert.deepEqual(
      a.diagnostics.map((d) => d.rule),
      ['trigger/frequency', 'trigger/read-only-member'],
    );
  } finally {
    documents.clear();
    runner.dispose();
  }
});

test("a document seen by an environment is linted as its view says, and its findings are the view's placing of them", async () => {
  const { runner } = countedRunner();
  const seen: string[] = [];
  const documents = new LintedDocuments(
    runner,
    () => OPTIONS,
    (key, text) => ({
      environment: 'production',
      text: text.replace('"frequency": 90', '"frequency": 900'),
      place: (found) => {
        seen.push(...found.map((d) => d.rule));
        return { here: found.slice(1), there: found.slice(0, 1) };
      },
    }),
  );
  try {
    const linted = await documents.lint('file:///a.trigger.json', 1, () => BAD);
    // The view's text has a frequency the linter allows: only the read-only member is found.
    assert.deepEqual(seen, ['trigger/read-only-member']);
    assert.deepEqual(linted.diagnostics, []);
    assert.deepEqual(
      [linted.seenBy?.environment, linted.seenBy?.there.map((d) => d.rule)],
      ['production', ['trigger/read-only-member']],
    );
  } finally {
    documents.clear();
    runner.dispose();
  }
});

test('fix-all is computed only when asked for: none after a lint with fixable problems, one for two requests of the same version', async () => {
  const { runner, workers } = countedRunner();
  const documents = new LintedDocuments(runner, () => OPTIONS);
  try {
    const linted = await documents.lint('file:///a.trigger.json', 1, () => BAD);
    assert.equal(linted.fixes.fixable, 2);
    // Another document's lint runs after it: nothing was queued in between.
    await documents.lint('file:///b.trigger.json', 1, () => BAD);
    assert.deepEqual({ started: workers.started(), jobs: workers.byKind() }, { started: 1, jobs: { lint: 2 } });
    const [editA, editB] = await Promise.all([linted.fixAll(), linted.fixAll()]);
    assert.ok(editA);
    assert.deepEqual(editA, editB);
    assert.deepEqual(await linted.fixAll(), editA);
    assert.equal(workers.jobs('fixAll'), 1);
  } finally {
    documents.clear();
    runner.dispose();
  }
});

test('a change cancels the lint of the version before', async () => {
  const runner = new LintRunner({ workerFile, createWorker: () => new QuietWorker() });
  const documents = new LintedDocuments(runner, () => OPTIONS);
  const first = documents.lint('file:///a.trigger.json', 1, () => BAD);
  documents.changed('file:///a.trigger.json', 2);
  await assert.rejects(first, LintCancelled);
  assert.equal(documents.get('file:///a.trigger.json', 1), undefined);
  runner.dispose();
});

test('the quick fix index reads each diagnostic once; requests read none', () => {
  const found = lintReport(
    `[${Array.from({ length: 500 }, (_, i) => trigger(`"created_at": "t${i}"`)).join(',')}]`,
  ).diagnostics;
  let reads = 0;
  const counted = new Proxy(found, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  const index = new QuickFixIndex(counted);
  assert.equal(reads, 500);
  const asked = found.map((d) => ({ code: d.rule, range: d.range }));
  const fixes = index.quickFixes(asked);
  assert.equal(reads, 500);
  assert.equal(fixes.length, 500);
  assert.equal(index.fixable, 500);
});
