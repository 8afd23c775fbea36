// What a figure is to bench/run.ts, how a measured process is started (spawnFresh), and the figures
// measured in a fresh process of their own: activation, and bundle sizes.
import { spawnSync, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs a command in a fresh process started by a small launcher (sh), not by this process. Linux keeps a
 * process's peak resident memory across fork and exec: a node started by the bench, which holds its inputs
 * (hundreds of MB at its peak), reported that peak as its own (a bare node: 297 MB instead of 40). sh,
 * small, forks the measured process (`"$@"; exit $?`, so that it does not exec it in its own place).
 */
export function spawnFresh(
  command: string,
  args: readonly string[],
  options: SpawnSyncOptions = {},
): SpawnSyncReturns<Buffer> {
  return spawnSync('/bin/sh', ['-c', '"$@"; exit $?', 'sh', command, ...args], options) as SpawnSyncReturns<Buffer>;
}

/** A build measured (`after`: this tree, `before`: a baseline), or the floor a figure is divided by. */
export interface Side {
  name: 'floor' | 'after' | 'before';
  root: string;
}

export interface Metric {
  key: string;
  title: string;
  unit: string;
  /** Rates: more is better (the ratio reads as "x the floor's rate"). */
  higherIsBetter?: boolean;
}

export interface Figure {
  id: string;
  metrics: Metric[];
  measure(side: Side): Promise<void>;
  samples(metric: Metric, side: string): number[];
  /** Why a side has no numbers (it timed out, crashed), if so. */
  note(side: string): string | undefined;
}

/** Samples by metric and side, and notes; a side with a note is not measured again. */
export class Recorded {
  private readonly values = new Map<string, number[]>();
  private readonly notes = new Map<string, string>();

  add(metric: string, side: string, value: number): void {
    const key = `${metric}\u0000${side}`;
    this.values.set(key, [...(this.values.get(key) ?? []), value]);
  }

  samples(metric: Metric, side: string): number[] {
    return this.values.get(`${metric.key}\u0000${side}`) ?? [];
  }

  setNote(side: string, note: string): void {
    this.notes.set(side, note);
  }

  note(side: string): string | undefined {
    return this.notes.get(side);
  }
}

/** require + activate of dist/extension.js in the stub host; the floor is an empty extension in the same host. */
export function activationFigure(work: string): Figure {
  const empty = join(work, 'empty-extension.js');
  writeFileSync(empty, 'exports.activate = () => undefined;\n');
  const rec = new Recorded();
  const metric: Metric = {
    key: 'activation',
    title: 'Activation: require + activate(), stub host (fresh process)',
    unit: 'ms',
  };
  return {
    id: 'activation',
    metrics: [metric],
    async measure(side) {
      const bundle = side.name === 'floor' ? empty : join(side.root, 'dist', 'extension.js');
      const r = spawnFresh(process.execPath, [
        join(import.meta.dirname, 'children', 'activate.cjs'),
        side.root,
        bundle,
      ]);
      if (r.status !== 0) throw new Error(`activation failed: ${r.stderr.toString().slice(0, 2000)}`);
      const m = JSON.parse(r.stdout.toString().trim().split('\n').pop() ?? '{}') as {
        require: number;
        activate: number;
      };
      rec.add(metric.key, side.name, m.require + m.activate);
    },
    samples: (m, s) => rec.samples(m, s),
    note: (s) => rec.note(s),
  };
}

interface BuildMeta {
  outputs: Record<string, { bytes: number; entryPoint?: string }>;
}

/**
 * The size of every file a build made, read from esbuild's metafile (dist/.build-meta.json, which the
 * bundle tests read too), by file; the sizes on disk for a build older than the metafile.
 */
export function bundleSizes(root: string): Map<string, number> {
  const meta = join(root, 'dist', '.build-meta.json');
  const sizes = new Map<string, number>();
  if (existsSync(meta)) {
    const { outputs } = JSON.parse(readFileSync(meta, 'utf8')) as BuildMeta;
    for (const [file, o] of Object.entries(outputs)) if (!file.endsWith('.map')) sizes.set(file, o.bytes);
    return sizes;
  }
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir))) {
      const file = `${dir}/${name}`;
      if (statSync(join(root, file)).isDirectory()) walk(file);
      else if (name.endsWith('.js') || name.endsWith('.css')) sizes.set(file, statSync(join(root, file)).size);
    }
  };
  walk('dist');
  return sizes;
}

/** The bundles by what loads them, as table rows: what activation loads, the pages, what loads later, the CLI's. */
export function bundleRows(root: string): [string, string][] {
  const sizes = bundleSizes(root);
  const kb = (n: number) => `${n.toLocaleString('en')} B`;
  const of = (test: (f: string) => boolean) =>
    [...sizes].filter(([f]) => test(f)).sort(([a], [b]) => a.localeCompare(b));
  const list = (files: [string, number][]) =>
    files.map(([f, n]) => `\`${f.replace(/^dist\//, '')}\` ${kb(n)}`).join(', ');
  const pages = of((f) => f.startsWith('dist/webview/') && f.endsWith('.js'));
  const cli = of((f) => /^dist\/(cli(-\w+)?|sandbox)\.js$/.test(f));
  const later = of((f) => /^dist\/[\w-]+\.js$/.test(f) && f !== 'dist/extension.js' && !cli.some(([c]) => c === f));
  return [
    ['`dist/extension.js` (what activation loads)', kb(sizes.get('dist/extension.js') ?? 0)],
    ['webview page scripts, all files', `${kb(pages.reduce((n, [, b]) => n + b, 0))} (${pages.length} files)`],
    ['loaded by the extension on first use', list(later)],
    ['the CLI (`cli.js` starts, a command loads its run)', list(cli)],
  ];
}
