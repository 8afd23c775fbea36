// One sample of the backtest figure, in a fresh process: `backtest` or `floor` over N triggers, each tested
// over 7 days at a 60 s frequency, every query result already fetched (in the run's result cache, as on a
// run again after an edit). `backtest` times the engine from the cached results to the verdicts (grid,
// evaluation, counts); `floor` times one pass reading the value of every series point of the same results
// from the same cache (`sumValues`). Builds the inputs and fills the cache untimed, and runs the measured
// code once untimed (the engine by that first run, the floor by a pass of its own), so both are timed warm;
// then prints the milliseconds of wall and of CPU time (all threads: the collector's too) as JSON on stdout.
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
import { cachedService, sumValues } from './cachedService';

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
const { api, keys, saved } = cachedService(seriesOf);

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
  const created = saved();
  /** The floor: every result of every trigger's window from the cache, each point's value read once. */
  const floor = async (): Promise<number> => {
    let sum = 0;
    for (const t of triggers)
      for (const key of keys.get(t.dataset) ?? [])
        sum += sumValues(await cache.getOrFetch(key, () => Promise.reject(new Error('not cached'))), 'COUNT');
    return sum;
  };
  // Untimed: the floor's code run once, as the first run above ran the engine's.
  if (mode === 'floor') await floor();
  const started = performance.now();
  const cpu = process.cpuUsage();
  let sink = 0;
  if (mode === 'backtest') {
    for (const t of triggers)
      for (const o of await runTriggerTests(file, t, run)) sink += o.status === 'passed' ? 1 : 0;
  } else sink = await floor();
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  if (saved() !== created || sink === 0)
    throw new Error(`${mode}: ${saved() - created} queries made while timed, sink ${sink}`);
  process.stdout.write(`${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, queries: created })}\n`);
}

void main();
