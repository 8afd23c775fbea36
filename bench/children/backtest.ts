// One sample of the backtest figure, in a fresh process: `backtest` or `floor` over N triggers, each tested
// over 7 days at a 60 s frequency, every query result already fetched (in the run's result cache, as on a
// run again after an edit). `backtest` times the engine from the cached results to the verdicts (grid,
// evaluation, counts); `floor` times one pass reading the value of every series point of the same results.
// Builds the inputs and fills the cache untimed, then prints the milliseconds as JSON on stdout.
import {
  CreationPacer,
  parseTestFile,
  prepareTrigger,
  ResultCache,
  runTriggerTests,
  type RunnerClock,
  type TestedTrigger,
} from '../../src/backtest';
import type { CreateQueryRequest, QueryResultData } from '../../src/api/schemas';

const [mode, count] = process.argv.slice(2);
const n = Number(count);
if ((mode !== 'backtest' && mode !== 'floor') || !Number.isInteger(n) || n <= 0)
  throw new Error('usage: backtest.ts backtest|floor N');

const NOW = Date.parse('2025-06-09T00:00:00Z') / 1000;
const tests = parseTestFile(
  JSON.stringify({
    expectations: [{ name: 'a week', expect: 'at-most', notifications: 1000, from: 'now-6d23h', to: 'now' }],
  }),
);
if (!tests.ok) throw new Error('the bench test file is not valid');

/** The series a saved query over [start_time, end_time) at its granularity holds: COUNT per bucket, a burst now and then. */
function seriesOf(q: CreateQueryRequest, seed: number): QueryResultData {
  const step = q.granularity ?? 60;
  const series = [];
  for (let t = q.start_time ?? 0; t < (q.end_time ?? 0); t += step)
    series.push({
      time: new Date(t * 1000).toISOString(),
      data: { COUNT: (((t / step) * 7919 + seed * 104729) % 13) + (t % 86_400 < 1800 ? 20 : 0) },
    });
  return { series };
}

let now = NOW * 1000;
const clock: RunnerClock = { now: () => now, sleep: (ms) => Promise.resolve(void (now += ms)) };
const saved = new Map<string, CreateQueryRequest>();
/** The cache keys of each dataset's queries, for the floor to read the same results. */
const keys = new Map<string, string[]>();
const api = {
  createQuery: (dataset: string, body: CreateQueryRequest) => {
    const id = `q${saved.size}`;
    saved.set(id, body);
    keys.set(dataset, [...(keys.get(dataset) ?? []), ResultCache.keyOf(dataset, body)]);
    return Promise.resolve({ data: { ...body, id }, status: 200, attempts: 1 });
  },
  getQuery: () => Promise.reject(new Error('not used')),
  createQueryResult: (_d: string, body: { query_id: string }) =>
    Promise.resolve({
      data: {
        id: `r${body.query_id}`,
        complete: true,
        data: seriesOf(saved.get(body.query_id) ?? {}, Number(body.query_id.slice(1))),
      },
      status: 201,
      attempts: 1,
    }),
  getQueryResult: () => Promise.reject(new Error('not used')),
  // Asked only to explain a 404, which this service never answers.
  listDatasets: () => Promise.reject(new Error('not used')),
  listColumns: () => Promise.reject(new Error('not used')),
};

async function main(): Promise<void> {
  if (!tests.ok) return;
  const file = tests.file;
  const signal = new AbortController().signal;
  const triggers: TestedTrigger[] = [];
  for (let i = 0; i < n; i++) {
    const text = JSON.stringify({
      name: `t${i}`,
      dataset_slug: `d${i}`,
      frequency: 60,
      threshold: { op: '>', value: 15 + (i % 5), exceeded_limit: 2 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 1200 },
    });
    const prepared = await prepareTrigger(text, file, api, signal);
    if (!prepared.ok) throw new Error(prepared.reason);
    triggers.push(prepared.tested);
  }
  const cache = new ResultCache(100_000);
  const run = {
    api,
    pacer: new CreationPacer(clock, 1_000_000),
    clock,
    signal,
    report: () => undefined,
    cache,
    nowSeconds: NOW,
  };
  // Untimed: every result fetched once into the cache.
  for (const t of triggers) await runTriggerTests(file, t, run);
  const created = saved.size;
  const started = performance.now();
  let sink = 0;
  if (mode === 'backtest') {
    for (const t of triggers)
      for (const o of await runTriggerTests(file, t, run)) sink += o.status === 'passed' ? 1 : 0;
  } else {
    for (const t of triggers) {
      for (const key of keys.get(t.dataset) ?? []) {
        for (const p of (await cache.getOrFetch(key, () => Promise.reject(new Error('not cached'))))?.series ?? [])
          sink += Number(p.data?.['COUNT'] ?? 0);
      }
    }
  }
  const ms = performance.now() - started;
  if (saved.size !== created || sink === 0)
    throw new Error(`${mode}: ${saved.size - created} queries made while timed, sink ${sink}`);
  process.stdout.write(`${JSON.stringify({ ms, queries: created })}\n`);
}

void main();
