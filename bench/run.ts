// `npm run bench`: every figure of docs/PERFORMANCE.md as a ratio to its floor, measured in one
// interleaved run (each round measures the floor and every build, in turn), printing medians of the
// rounds. Asserts nothing; tests never time anything.
//
//   npm run bench                      this tree's production build against the floors (about 3 minutes)
//   npm run bench -- --quick           smaller inputs, for development (under a minute)
//   npm run bench -- --before main     also a production build of a git ref, built in a temp folder
//   npm run bench -- --only lint       only figures whose id contains the word
//   npm run bench -- --rounds 7        rounds (at least 5)
//   npm run bench -- --legacy          then also the older per-area benches (bench/*.bench.ts)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeInputs } from './inputs';
import { activationFigure, bundleRows, type Figure, type Side } from './figures';
import { clientFigure, sandboxFigure, startServers, type Servers } from './http';
import { InprocChildren } from './inproc';
import { lintFigures, writeManyFiles } from './lintFigures';
import { driftFigures } from './driftFigures';
import { planFigures } from './planFigures';
import { backtestFigures } from './backtestFigures';

const root = join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const quick = flag('--quick');
const rounds = Math.max(5, Number(option('--rounds') ?? 5));
const only = option('--only');
const beforeRef = option('--before');

function productionBuild(dir: string): void {
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A production build of a git ref, in a temp folder sharing this tree's node_modules. */
function baselineBuild(ref: string): string {
  const sha = execFileSync('git', ['rev-parse', '--short', ref], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `obs-bench-${sha}`);
  if (!existsSync(join(dir, 'dist', 'extension.js'))) {
    rmSync(dir, { recursive: true, force: true });
    execFileSync('sh', ['-c', `mkdir -p '${dir}' && git archive ${sha} | tar -x -C '${dir}'`], { cwd: root });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    productionBuild(dir);
  }
  return dir;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
};

/** A figure's samples as `median (min to max)`; one sample alone as itself. */
function spread(xs: readonly number[], show: (v: number) => string): string {
  if (xs.length <= 1) return xs.length === 0 ? '-' : show(xs[0] ?? NaN);
  return `${show(median([...xs]))} (${show(Math.min(...xs))} to ${show(Math.max(...xs))})`;
}

/**
 * The ratio to the floor, round by round (sample i of a side over sample i of the floor, measured in the
 * same round): the median of those, and their least and greatest. A side measured once (a long baseline
 * run) is divided by the floor's median.
 */
function ratios(samples: readonly number[], floors: readonly number[]): string {
  if (samples.length === 0 || floors.length === 0) return '-';
  const each =
    samples.length === floors.length
      ? samples.map((v, i) => v / (floors[i] ?? NaN))
      : [samples[0] ?? NaN].map((v) => v / median([...floors]));
  const show = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}x` : '-');
  return spread(each.filter(Number.isFinite), show);
}

function format(v: number, unit: string): string {
  if (!Number.isFinite(v)) return '-';
  if (unit === 'MiB' && v < 1) return `${(v * 1024).toFixed(1)} KiB`;
  return `${v < 10 ? v.toFixed(2) : v < 100 ? v.toFixed(1) : v.toFixed(0)} ${unit}`;
}

async function main(): Promise<void> {
  const started = performance.now();
  productionBuild(root);
  const sides: Side[] = [{ name: 'after', root }];
  if (beforeRef !== undefined) sides.push({ name: 'before', root: baselineBuild(beforeRef) });
  const scale = quick ? 0.1 : 1;
  const work = mkdtempSync(join(tmpdir(), 'obs-bench-'));
  const inputs = writeInputs(work, scale);
  writeManyFiles(work, Math.round(1000 * scale));
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
  const loadBefore = load();
  const children = new InprocChildren(sides);
  let servers: Servers | undefined;
  // Stopped early: no child process is left behind.
  const stop = () => {
    children.dispose();
    servers?.dispose();
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await children.ready();
    servers = await startServers(sides, work);
    const figures: Figure[] = [
      ...lintFigures(inputs, work, quick),
      ...driftFigures(quick),
      ...planFigures(quick),
      ...backtestFigures(quick),
      ...children.figures(scale),
      activationFigure(work),
      sandboxFigure(servers, quick ? 30 : 120),
      clientFigure(servers, quick ? 10 : 30),
    ].filter((f) => only === undefined || f.id.includes(only));

    const everyone: Side[] = [{ name: 'floor', root }, ...sides];
    // The machine's load (1-minute average) when a figure is first measured and when it is last measured.
    const loads = new Map<string, { start: string; end: string }>();
    for (let round = 0; round < rounds; round++) {
      process.stderr.write(`round ${round + 1}/${rounds}\n`);
      for (const figure of figures) {
        if (round === 0) loads.set(figure.id, { start: (loadavg()[0] ?? NaN).toFixed(1), end: '' });
        // Rotate the order each round, so that drift on a shared machine favours no side.
        const order = everyone
          .map((_, i) => everyone[(i + round) % everyone.length])
          .filter((s): s is Side => s !== undefined);
        for (const side of order) await figure.measure(side);
        const load = loads.get(figure.id);
        if (round === rounds - 1 && load !== undefined) load.end = (loadavg()[0] ?? NaN).toFixed(1);
      }
    }

    const header = ['Figure', 'Floor', ...sides.flatMap((s) => [s.name, `${s.name} / floor`]), 'load'];
    const rows: string[][] = [];
    for (const figure of figures) {
      const load = loads.get(figure.id);
      for (const metric of figure.metrics) {
        const floors = figure.samples(metric, 'floor');
        const cells = [metric.title, spread(floors, (v) => format(v, metric.unit))];
        for (const side of sides) {
          const note = figure.note(side.name);
          const samples = figure.samples(metric, side.name);
          const value =
            samples.length === 0
              ? (note ?? '-')
              : `${spread(samples, (v) => format(v, metric.unit))}${note === undefined ? '' : ` (${note})`}`;
          cells.push(value, ratios(samples, floors));
        }
        cells.push(load === undefined ? '-' : `${load.start} to ${load.end}`);
        rows.push(cells);
      }
    }
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
    console.log(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}`);
    console.log("\nBundles (production build, sizes from esbuild's metafile dist/.build-meta.json):\n");
    const bundles = sides.map((side) => bundleRows(side.root));
    console.log(`| Bundle | ${sides.map((s) => s.name).join(' | ')} |\n|---|${sides.map(() => '---|').join('')}`);
    for (const [i, [what]] of (bundles[0] ?? []).entries())
      console.log(`| ${what} | ${bundles.map((b) => b[i]?.[1] ?? '-').join(' | ')} |`);
    const minutes = (performance.now() - started) / 60_000;
    console.log(
      `\nMedians of ${rounds} interleaved rounds (least to greatest in brackets; a ratio is taken round by round, then its median; load: the 1-minute load average when the figure was first and last measured)${quick ? ' (--quick: inputs at a tenth of their size)' : ''}; ${new Date().toISOString().slice(0, 10)}; node ${process.version}; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}); load average ${loadBefore} at the start, ${load()} at the end; ${minutes.toFixed(1)} minutes.`,
    );
  } finally {
    children.dispose();
    servers?.dispose();
    rmSync(work, { recursive: true, force: true });
  }

  if (flag('--legacy')) {
    for (const file of readdirSync(import.meta.dirname)
      .filter((f) => f.endsWith('.bench.ts'))
      .sort()) {
      console.log(`\n=== ${file} ===`);
      spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(import.meta.dirname, file)], {
        stdio: 'inherit',
      });
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
