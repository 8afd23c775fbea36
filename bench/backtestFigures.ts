// The backtest figure: N triggers each tested over 7 days at a 60 s frequency (10,080 evaluations, 11
// queries of 1,000 buckets each), every query result already fetched (a run again after an edit: the
// session's cache has them). The floor is one pass reading the value of every series point of the same
// results. Each sample is a fresh process (bench/children/backtest.ts), sides interleaved by run.ts; only
// the core is timed, not the process start, the inputs or the first (fetching) run.
import { join } from 'node:path';
import { Recorded, spawnFresh, type Figure, type Metric } from './figures';

const child = join(import.meta.dirname, 'children', 'backtest.ts');

function sample(mode: 'backtest' | 'floor', n: number): number {
  const r = spawnFresh(process.execPath, ['--import', 'tsx', child, mode, String(n)]);
  if (r.status !== 0) throw new Error(`${mode}: ${r.stderr.toString().slice(0, 2000)}`);
  const out = r.stdout.toString();
  return (JSON.parse(out) as { ms: number }).ms;
}

export function backtestFigures(quick: boolean): Figure[] {
  const n = quick ? 10 : 100;
  const rec = new Recorded();
  const metric: Metric = {
    key: 'backtest',
    title: `Trigger tests, ${n} triggers x 7 days at 60 s, results fetched (floor: one pass over the series; fresh process each)`,
    unit: 'ms',
  };
  return [
    {
      id: 'backtest',
      metrics: [metric],
      async measure(side) {
        if (side.name === 'before') {
          rec.setNote('before', 'no trigger tests before');
          return;
        }
        await Promise.resolve();
        rec.add(metric.key, side.name, sample(side.name === 'floor' ? 'floor' : 'backtest', n));
      },
      samples: (m, s) => rec.samples(m, s),
      note: (s) => rec.note(s),
    },
  ];
}
