// The datasets of the active connection for the linter's dataset check in the editor
// (diagnostics/liveDatasets.ts, lintJobs.ts): listed once in the background, cached per connection, never
// guessed when the service will not list them, and a trigger naming a dataset the list lacks is a warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveDatasets } from '../../src/extension/diagnostics/liveDatasets';
import { runLintJob } from '../../src/extension/diagnostics/lintJobs';
import { trigger } from './lint-helpers';

function setup(lists: Record<string, readonly string[] | 'refused' | Error>) {
  let active: string | undefined = 'c1';
  let clock = 0;
  const reads: string[] = [];
  /** What each read answered: LiveDatasets handles an answer before anyone who waits on it later. */
  const answers: Promise<unknown>[] = [];
  const live = new LiveDatasets({
    connection: () => active,
    fetch: (cid) => {
      reads.push(cid);
      const got = lists[cid] ?? 'refused';
      const answer = got instanceof Error ? Promise.reject(got) : Promise.resolve(got);
      answers.push(answer);
      return answer;
    },
    maxAgeMs: 1000,
    retryMs: 100,
    now: () => clock,
  });
  let changes = 0;
  live.onDidChange(() => changes++);
  /** Resolves once every read started so far was answered and LiveDatasets took the answer in. */
  const answered = async (): Promise<void> => {
    await Promise.allSettled(answers);
  };
  return {
    live,
    reads,
    answered,
    use: (c: string | undefined) => (active = c),
    tick: (ms: number) => (clock += ms),
    changes: () => changes,
    set: (cid: string, l: readonly string[]) => (lists[cid] = l),
  };
}

test('the list is read once in the background, then known (sorted), and its arrival announced once', async () => {
  const s = setup({ c1: ['metrics-hosts', 'api-gateway'] });
  assert.equal(s.live.known(), undefined);
  s.live.want();
  s.live.want();
  await s.answered();
  assert.deepEqual(s.live.known(), ['api-gateway', 'metrics-hosts']);
  assert.deepEqual(s.reads, ['c1']);
  assert.equal(s.changes(), 1);
  s.live.want();
  assert.deepEqual(s.reads, ['c1'], 'a fresh list is not read again');
});

test('a stale list is read again; an unchanged one announces nothing, a changed one announces once', async () => {
  const s = setup({ c1: ['api-gateway'] });
  s.live.want();
  await s.answered();
  s.tick(2000);
  s.live.want();
  await s.answered();
  assert.equal(s.changes(), 1);
  s.set('c1', ['api-gateway', 'checkout-service']);
  s.tick(2000);
  s.live.want();
  await s.answered();
  assert.deepEqual(s.live.known(), ['api-gateway', 'checkout-service']);
  assert.equal(s.changes(), 2);
  assert.deepEqual(s.reads, ['c1', 'c1', 'c1']);
});

test('a key or service that does not list datasets, or no network: nothing is known, so nothing is checked; asked again after a pause', async () => {
  for (const answer of ['refused', new Error('connect ECONNREFUSED')] as const) {
    const s = setup({ c1: answer });
    s.live.want();
    await s.answered();
    assert.equal(s.live.known(), undefined);
    s.live.want();
    s.tick(150);
    s.live.want();
    await s.answered();
    assert.deepEqual(s.reads, ['c1', 'c1']);
    assert.equal(s.changes(), 0);
  }
});

test('each connection has its own list; without a connection nothing is read', async () => {
  const s = setup({ c1: ['api-gateway'], c2: ['web'] });
  s.live.want();
  await s.answered();
  s.use('c2');
  assert.equal(s.live.known(), undefined);
  s.live.want();
  await s.answered();
  assert.deepEqual(s.live.known(), ['web']);
  s.use(undefined);
  s.live.want();
  assert.equal(s.live.known(), undefined);
  assert.deepEqual(s.reads, ['c1', 'c2']);
});

test('the lint job warns of a dataset the list lacks, with the nearest slug as the fix; without a list it says nothing', () => {
  const text = trigger('"dataset_slug": "checkout"');
  const checked = runLintJob({
    kind: 'lint',
    input: text,
    options: { metricsDatasets: [], datasets: ['api-gateway', 'checkout-service'] },
  });
  assert.equal(checked.kind, 'lint');
  const found = checked.kind === 'lint' ? checked.diagnostics.filter((d) => d.rule === 'trigger/unknown-dataset') : [];
  assert.deepEqual(
    found.map((d) => [d.severity, d.message, d.fix?.title]),
    [
      [
        'warning',
        'The service has no dataset "checkout" (did you mean "checkout-service"?): the trigger cannot be created or previewed there',
        'Change to "checkout-service"',
      ],
    ],
  );
  const unchecked = runLintJob({ kind: 'lint', input: text, options: { metricsDatasets: [] } });
  assert.deepEqual(unchecked.kind === 'lint' ? unchecked.diagnostics.map((d) => d.rule) : ['?'], []);
});
