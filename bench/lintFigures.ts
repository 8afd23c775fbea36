// The whole-process lint figures: obs lint (dist/cli.js) on files, against a node process that only reads
// and JSON.parses them (bench/children/parse.cjs), each side a fresh process started by a small launcher
// (spawnFresh), whose CPU time (all threads, from its start) and peak resident memory are recorded. For
// the many files, both sides are given a glob and find the files themselves.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Recorded, spawnFresh, type Figure, type Metric } from './figures';
import { BROKEN_SHAPES, serviceListed } from './inputs';

const measureHook = join(import.meta.dirname, 'children', 'measure.cjs');
const parseFloor = join(import.meta.dirname, 'children', 'parse.cjs');
/** A baseline run past this is stopped and reported as such (the quadratic cases took minutes). */
const TIMEOUT_MS = 150_000;
/** A run longer than this is not repeated: its one run is reported, and the run stays within minutes. */
const REPEAT_UNDER_MS = 30_000;

interface Document {
  input: string;
  title: string;
  /** Also the wall time of the process (reading many files is mostly waiting). */
  wall?: boolean;
  /** Also the peak memory as a multiple of the file's size (the goal for broken files is stated so). */
  perSize?: boolean;
}

/** The glob the many-files figure names (quoted, so that obs expands it, as a CI step would). */
const MANY_GLOB = 'files/**/*.trigger.json';

const DOCUMENTS: Document[] = [
  { input: 'clean', title: '10,000 clean triggers (no diagnostic)' },
  { input: 'withIds', title: '10,000 triggers with their ids, as pulled (no diagnostic)' },
  { input: 'serviceListed', title: '10,000 triggers as the service lists them (30,000 infos)' },
  { input: 'unknown100k', title: 'one trigger, 100,000 unknown members' },
  { input: 'unknown1m', title: 'one trigger, 1,000,000 unknown members' },
  { input: 'valid50mb', title: '50 MB array of triggers as listed' },
  ...Object.entries(BROKEN_SHAPES).map(([input, how]) => ({ input, title: `50 MB array ${how}`, perSize: true })),
  {
    input: 'files',
    title: `1,000 files of 10 triggers as the service lists them, by a glob (${MANY_GLOB})`,
    wall: true,
  },
];

/** 1,000 files of 10 service-shaped triggers each (n at --quick's scale), 100 to a folder under `files`. */
export function writeManyFiles(dir: string, n: number): void {
  const text = serviceListed(10);
  for (let i = 0; i < n; i++) {
    const folder = join(dir, 'files', `f${String(Math.floor(i / 100)).padStart(2, '0')}`);
    if (i % 100 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `t${String(i).padStart(4, '0')}.trigger.json`), text);
  }
}

/**
 * What a side runs: obs lint or the parse-only floor, on one file, or on the glob of the many files
 * (the floor then walks the folder for the same files: `--under`).
 */
function scriptOf(side: string, root: string, inputs: Record<string, string>, input: string): string[] {
  const floor = side === 'floor';
  if (input === 'files')
    return floor
      ? [parseFloor, '--under', 'files', '.trigger.json']
      : [join(root, 'dist', 'cli.js'), 'lint', MANY_GLOB];
  const file = inputs[input] ?? '';
  return floor ? [parseFloor, file] : [join(root, 'dist', 'cli.js'), 'lint', file];
}

export function lintFigures(inputs: Record<string, string>, work: string, quick: boolean): Figure[] {
  return DOCUMENTS.map(({ input, title, wall: withWall, perSize }) => {
    const rec = new Recorded();
    const size = input === 'files' ? 0 : statSync(inputs[input] ?? '').size / (1024 * 1024);
    const scaled = quick ? ' (/10)' : '';
    const cpu: Metric = { key: 'cpu', title: `obs lint, ${title}${scaled}: CPU`, unit: 'ms' };
    const rss: Metric = { key: 'rss', title: `obs lint, ${title}${scaled}: peak memory`, unit: 'MB' };
    const wall: Metric = { key: 'wall', title: `obs lint, ${title}${scaled}: wall time`, unit: 'ms' };
    const bySize: Metric = {
      key: 'bySize',
      title: `obs lint, ${title}${scaled}: peak memory / the file's ${size.toFixed(1)} MiB`,
      unit: 'x',
    };
    return {
      id: `lint-${input}`,
      metrics: [cpu, ...(withWall === true ? [wall] : []), rss, ...(perSize === true ? [bySize] : [])],
      async measure(side) {
        if (rec.note(side.name) !== undefined) return;
        await Promise.resolve();
        const out = join(tmpdir(), `obs-bench-${process.pid}-${input}-${side.name}.jsonl`);
        rmSync(out, { force: true });
        const script = scriptOf(side.name, side.root, inputs, input);
        const t = performance.now();
        const r = spawnFresh(process.execPath, ['-r', measureHook, ...script], {
          cwd: work,
          env: { ...process.env, OBS_BENCH_OUT: out },
          stdio: ['ignore', 'ignore', 'pipe'],
          timeout: TIMEOUT_MS,
          maxBuffer: 64 * 1024 * 1024,
        });
        const ms = performance.now() - t;
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
        rec.add(wall.key, side.name, ms);
        rec.add(rss.key, side.name, m.maxRssKb / 1024);
        if (size > 0) rec.add(bySize.key, side.name, m.maxRssKb / 1024 / size);
        if (ms > REPEAT_UNDER_MS) rec.setNote(side.name, 'one run');
      },
      samples: (m, s) => rec.samples(m, s),
      note: (s) => rec.note(s),
    };
  });
}
