// The whole-process lint figures: obs lint (dist/cli.js) on files, against a node process that only reads
// and JSON.parses them (bench/children/parse.cjs), each side a fresh process started by a small launcher
// (spawnFresh), whose CPU time (all threads, from its start) and peak resident memory are recorded.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Recorded, spawnFresh, type Figure, type Metric } from './figures';
import { serviceListed } from './inputs';

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
}

const DOCUMENTS: Document[] = [
  { input: 'clean', title: '10,000 clean triggers (no diagnostic)' },
  { input: 'withIds', title: '10,000 triggers with their ids, as pulled (no diagnostic)' },
  { input: 'serviceListed', title: '10,000 triggers as the service lists them (30,000 infos)' },
  { input: 'unknown100k', title: 'one trigger, 100,000 unknown members' },
  { input: 'unknown1m', title: 'one trigger, 1,000,000 unknown members' },
  { input: 'valid50mb', title: '50 MB array of triggers as listed' },
  { input: 'broken50mb', title: '50 MB array missing its final ]' },
  { input: 'files', title: '1,000 files of 10 triggers as the service lists them', wall: true },
];

/** 1,000 files of 10 service-shaped triggers each (n at --quick's scale), in a folder of their own; their paths. */
export function writeManyFiles(dir: string, n: number): string[] {
  const folder = join(dir, 'files');
  mkdirSync(folder, { recursive: true });
  const text = serviceListed(10);
  return Array.from({ length: n }, (_, i) => {
    const file = join(folder, `t${String(i).padStart(4, '0')}.trigger.json`);
    writeFileSync(file, text);
    return file;
  });
}

/** The files of an input: one, or the list of the many-files input. */
const filesOf = (inputs: Record<string, string>, many: readonly string[], input: string): string[] =>
  input === 'files' ? [...many] : [inputs[input] ?? ''];

export function lintFigures(inputs: Record<string, string>, many: readonly string[], quick: boolean): Figure[] {
  return DOCUMENTS.map(({ input, title, wall: withWall }) => {
    const rec = new Recorded();
    const files = filesOf(inputs, many, input);
    const scaled = quick ? ' (/10)' : '';
    const cpu: Metric = { key: 'cpu', title: `obs lint, ${title}${scaled}: CPU`, unit: 'ms' };
    const rss: Metric = { key: 'rss', title: `obs lint, ${title}${scaled}: peak memory`, unit: 'MB' };
    const wall: Metric = { key: 'wall', title: `obs lint, ${title}${scaled}: wall time`, unit: 'ms' };
    return {
      id: `lint-${input}`,
      metrics: withWall === true ? [cpu, wall, rss] : [cpu, rss],
      async measure(side) {
        if (rec.note(side.name) !== undefined) return;
        await Promise.resolve();
        const out = join(tmpdir(), `obs-bench-${process.pid}-${input}-${side.name}.jsonl`);
        rmSync(out, { force: true });
        const script =
          side.name === 'floor' ? [parseFloor, ...files] : [join(side.root, 'dist', 'cli.js'), 'lint', ...files];
        const t = performance.now();
        const r = spawnFresh(process.execPath, ['-r', measureHook, ...script], {
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
        if (ms > REPEAT_UNDER_MS) rec.setNote(side.name, 'one run');
      },
      samples: (m, s) => rec.samples(m, s),
      note: (s) => rec.note(s),
    };
  });
}
