// What a figure is to bench/run.ts, and the figures measured in a fresh process of their own:
// activation, and bundle sizes.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
  const metric: Metric = { key: 'activation', title: 'Activation: require + activate(), stub host (fresh process)', unit: 'ms' };
  return {
    id: 'activation',
    metrics: [metric],
    async measure(side) {
      const bundle = side.name === 'floor' ? empty : join(side.root, 'dist', 'extension.js');
      const r = spawnSync(process.execPath, [join(import.meta.dirname, 'children', 'activate.cjs'), side.root, bundle], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`activation failed: ${r.stderr.slice(0, 2000)}`);
      const m = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { require: number; activate: number };
      rec.add(metric.key, side.name, m.require + m.activate);
    },
    samples: (m, s) => rec.samples(m, s),
    note: (s) => rec.note(s),
  };
}

/** Sizes of the bundles a first paint loads and of the webview pages. */
export function bundleSizes(root: string): string {
  const size = (f: string) => statSync(join(root, 'dist', f)).size;
  const webview = readdirSync(join(root, 'dist', 'webview')).filter((f) => f.endsWith('.js'));
  const pages = webview.reduce((n, f) => n + size(join('webview', f)), 0);
  const kb = (n: number) => `${n.toLocaleString('en')} B`;
  return `dist/extension.js ${kb(size('extension.js'))}; webview scripts ${kb(pages)} in ${webview.length} files`;
}
