// The backtest figures, each sample a fresh process, sides interleaved by run.ts, only the core timed (not
// the process start, the inputs or the first, fetching, run), in CPU time of the process (every thread: the
// collector's too), which moves less than wall time on a shared machine:
// - trigger tests: N triggers each tested over 7 days at a 60 s frequency (10,080 evaluations, 11 queries of
//   1,000 buckets each), every query result already fetched (bench/children/backtest.ts);
// - preview: one trigger broken down into 50 groups, previewed over 7 days at 60 s, to the panel's model
//   (bench/children/preview.ts).
// Each floor reads the value of every series point of the same results, from the same cache, once: the same
// work less the evaluation (and less reading the times and groups), run once untimed first as the engine is.
import { join } from 'node:path';
import { Recorded, spawnFresh, type Figure, type Metric } from './figures';

function sample(child: string, mode: string, n: number): number {
  const r = spawnFresh(process.execPath, [
    '--import',
    'tsx',
    join(import.meta.dirname, 'children', child),
    mode,
    String(n),
  ]);
  if (r.status !== 0) throw new Error(`${child} ${mode}: ${r.stderr.toString().slice(0, 2000)}`);
  return (JSON.parse(r.stdout.toString()) as { cpuMs: number }).cpuMs;
}

function figure(id: string, title: string, child: string, mode: string, n: number): Figure {
  const rec = new Recorded();
  const metric: Metric = { key: id, title, unit: 'ms' };
  return {
    id,
    metrics: [metric],
    async measure(side) {
      if (side.name === 'before') {
        rec.setNote('before', "measured on this tree's sources only");
        return;
      }
      await Promise.resolve();
      rec.add(metric.key, side.name, sample(child, side.name === 'floor' ? 'floor' : mode, n));
    },
    samples: (m, s) => rec.samples(m, s),
    note: (s) => rec.note(s),
  };
}

export function backtestFigures(quick: boolean): Figure[] {
  const n = quick ? 10 : 100;
  const groups = quick ? 5 : 50;
  return [
    figure(
      'backtest',
      `Trigger tests, ${n} triggers x 7 days at 60 s, results fetched: CPU (floor: one read of every point's value; fresh process each)`,
      'backtest.ts',
      'backtest',
      n,
    ),
    figure(
      'backtest-preview',
      `Preview, 7 days at 60 s x ${groups} groups, results fetched, to the panel's model: CPU (floor: one read of every point's value; fresh process each)`,
      'preview.ts',
      'preview',
      groups,
    ),
  ];
}
