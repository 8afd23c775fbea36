// The plan figure: a plan of N trigger files against N service triggers, lists fetched, with the drift of
// the same inputs as its floor (the plan is drift plus what a write needs: bodies, hashes, the service
// version of each change). Each sample is a fresh process (bench/children/planOrDrift.ts), sides
// interleaved by run.ts; only the core is timed, not the process start or the inputs.
import { join } from 'node:path';
import { Recorded, spawnFresh, type Figure, type Metric } from './figures';

const child = join(import.meta.dirname, 'children', 'planOrDrift.ts');

function sample(mode: 'plan' | 'drift', n: number): number {
  const r = spawnFresh(process.execPath, ['--import', 'tsx', child, mode, String(n)]);
  if (r.status !== 0) throw new Error(`${mode}: ${r.stderr.toString().slice(0, 2000)}`);
  return (JSON.parse(r.stdout.toString()) as { ms: number }).ms;
}

export function planFigures(quick: boolean): Figure[] {
  const n = quick ? 200 : 2000;
  const rec = new Recorded();
  const metric: Metric = {
    key: 'plan',
    title: `Plan, ${n.toLocaleString('en')} files vs ${n.toLocaleString('en')} service triggers, lists fetched (floor: drift of the same; fresh process each)`,
    unit: 'ms',
  };
  return [
    {
      id: 'plan',
      metrics: [metric],
      async measure(side) {
        if (side.name === 'before') {
          rec.setNote('before', 'no plan before apply');
          return;
        }
        await Promise.resolve();
        rec.add(metric.key, side.name, sample(side.name === 'floor' ? 'drift' : 'plan', n));
      },
      samples: (m, s) => rec.samples(m, s),
      note: (s) => rec.note(s),
    },
  ];
}
