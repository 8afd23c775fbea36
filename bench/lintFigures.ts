// The whole-process lint figures: obs-lint (dist/cli.js) on a file, against a node process that only
// JSON.parses it, each in a fresh process whose CPU time (all threads) and peak memory are recorded.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Recorded, type Figure, type Metric } from './figures';

const measureHook = join(import.meta.dirname, 'children', 'measure.cjs');
const parseFloor = join(import.meta.dirname, 'children', 'parse.cjs');
/** A baseline run past this is stopped and reported as such (the quadratic cases took minutes). */
const TIMEOUT_MS = 150_000;
/** A run longer than this is not repeated: its one run is reported, and the run stays within minutes. */
const REPEAT_UNDER_MS = 30_000;

const DOCUMENTS: { input: string; title: string }[] = [
  { input: 'clean', title: '10,000 clean triggers' },
  { input: 'listed', title: '10,000 triggers as listed (one info each)' },
  { input: 'unknown100k', title: 'one trigger, 100,000 unknown members' },
  { input: 'unknown1m', title: 'one trigger, 1,000,000 unknown members' },
  { input: 'valid50mb', title: '50 MB array of listed triggers' },
  { input: 'broken50mb', title: '50 MB array missing its final ]' },
];

export function lintFigures(inputs: Record<string, string>, quick: boolean): Figure[] {
  return DOCUMENTS.map(({ input, title }) => {
    const rec = new Recorded();
    const file = inputs[input] ?? '';
    const cpu: Metric = { key: 'cpu', title: `obs-lint, ${title}${quick ? ' (/10)' : ''}: CPU`, unit: 'ms' };
    const rss: Metric = { key: 'rss', title: `obs-lint, ${title}${quick ? ' (/10)' : ''}: peak memory`, unit: 'MB' };
    return {
      id: `lint-${input}`,
      metrics: [cpu, rss],
      async measure(side) {
        if (rec.note(side.name) !== undefined) return;
        const t = performance.now();
        const out = join(tmpdir(), `obs-bench-${process.pid}-${input}-${side.name}.jsonl`);
        rmSync(out, { force: true });
        const script = side.name === 'floor' ? [parseFloor, file] : [join(side.root, 'dist', 'cli.js'), 'lint', file];
        const r = spawnSync(process.execPath, ['-r', measureHook, ...script], {
          env: { ...process.env, OBS_BENCH_OUT: out },
          stdio: ['ignore', 'ignore', 'pipe'],
          timeout: TIMEOUT_MS,
          maxBuffer: 64 * 1024 * 1024,
        });
        if (r.error !== undefined || r.signal !== null) {
          rec.setNote(side.name, `stopped after ${TIMEOUT_MS / 1000} s`);
          return;
        }
        const m = JSON.parse(readFileSync(out, 'utf8').trim()) as { cpuMs: number; maxRssKb: number; code: number };
        rmSync(out, { force: true });
        if (side.name !== 'floor' && m.code === 2) {
          const why = /RangeError[^\n]*/.exec(r.stderr.toString())?.[0] ?? 'exit 2';
          rec.setNote(side.name, `crashed (${why.slice(0, 60)})`);
          return;
        }
        rec.add(cpu.key, side.name, m.cpuMs);
        rec.add(rss.key, side.name, m.maxRssKb / 1024);
        if (performance.now() - t > REPEAT_UNDER_MS) rec.setNote(side.name, 'one run');
      },
      samples: (m, s) => rec.samples(m, s),
      note: (s) => rec.note(s),
    };
  });
}
