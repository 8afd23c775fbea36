// One sample of the preview figure, in a fresh process: `preview` or `floor` of a trigger broken down into
// G groups, previewed over 7 days at a 60 s frequency (11 query results of 1,000 one-minute buckets x G
// groups), every result already fetched (in the session's result cache: a preview again after an edit of
// the threshold). `preview` times the editor's preview from the cached results to the panel's model (grid,
// evaluation, summary, model: `runPreview`); `floor` times one pass reading the value of every series point
// of the same results from the same cache (`sumValues`). Both run once untimed first (the preview by the
// run that fetches), so both are timed warm. Prints the milliseconds of wall and of CPU time as JSON.
import { CreationPacer, ResultCache, type RunnerClock } from '../../src/backtest';
import { runPreview } from '../../src/extension/queries/previewRun';
import type { CreateQueryRequest, QueryResultData } from '../../src/api/schemas';
import { cachedService, sumValues } from './cachedService';

const [mode, count] = process.argv.slice(2);
const groups = Number(count);
if ((mode !== 'preview' && mode !== 'floor') || !Number.isInteger(groups) || groups <= 0)
  throw new Error('usage: preview.ts preview|floor GROUPS');

const NOW = Date.parse('2025-06-09T00:00:00Z') / 1000;
const routes = Array.from({ length: groups }, (_, g) => `/api/route-${g}`);

/** The series as the service lists them: per bucket, one point per group (COUNT, a burst now and then). */
function seriesOf(q: CreateQueryRequest): QueryResultData {
  const step = q.granularity ?? 60;
  const series = [];
  for (let t = q.start_time ?? 0; t < (q.end_time ?? 0); t += step) {
    const time = new Date(t * 1000).toISOString();
    for (const [g, route] of routes.entries()) {
      const burst = t % 86_400 < 1800 && g % 7 === 0 ? 20 : 0;
      series.push({ time, data: { 'http.route': route, COUNT: (((t / step) * 7919 + g * 104729) % 13) + burst } });
    }
  }
  return { series };
}

let now = NOW * 1000;
const clock: RunnerClock = { now: () => now, sleep: (ms) => Promise.resolve(void (now += ms)) };
const { api, keys, saved } = cachedService(seriesOf);

async function main(): Promise<void> {
  const cache = new ResultCache(100_000);
  const pacer = new CreationPacer(clock, 1_000_000);
  const signal = new AbortController().signal;
  const req = {
    dataset: 'api',
    trigger: { name: 'errors by route', frequency: 60, threshold: { op: '>', value: 300, exceeded_limit: 2 } },
    query: { calculations: [{ op: 'COUNT' }], breakdowns: ['http.route'], time_range: 1200 },
    windowSeconds: 604_800,
    mode: 'exact' as const,
    nowSeconds: NOW,
    where: 'api on the bench',
    cache,
  };
  const preview = async () => (await runPreview(api, pacer, clock, req, signal, () => undefined)).outcome.evaluated;
  const floor = async (): Promise<number> => {
    let sum = 0;
    for (const key of keys.get(req.dataset) ?? [])
      sum += sumValues(await cache.getOrFetch(key, () => Promise.reject(new Error('not cached'))), 'COUNT');
    return sum;
  };
  // Untimed: every result fetched once into the cache, and the floor's code run once.
  await preview();
  if (mode === 'floor') await floor();
  const created = saved();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const sink = mode === 'preview' ? await preview() : await floor();
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  if (saved() !== created || sink === 0)
    throw new Error(`${mode}: ${saved() - created} queries made while timed, sink ${sink}`);
  process.stdout.write(`${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, queries: created })}\n`);
}

void main();
