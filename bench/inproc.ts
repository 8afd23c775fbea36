// The in-process figures: one long-lived child per build (bench/children/inproc.ts) loads that
// build's linter and editor mapping once; each measurement is one request to it. The floor runs in
// the child of this tree. Each child is started by a small launcher (sh, as spawnFresh does), not forked
// from this process, whose peak memory it would inherit; it talks to this process over the IPC channel
// it inherits through sh, and ends when the channel closes.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Recorded, type Figure, type Metric, type Side } from './figures';

interface Answer {
  ms?: number;
  extra?: number;
  error?: string;
  ready?: string;
}

class Child {
  private readonly process: ChildProcess;
  private waiting: ((a: Answer) => void) | undefined;
  readonly started: Promise<void>;

  constructor(side: Side) {
    const child = [
      process.execPath,
      '--import',
      'tsx',
      join(import.meta.dirname, 'children', 'inproc.ts'),
      '--root',
      side.root,
      '--side',
      side.name,
    ];
    this.process = spawn('/bin/sh', ['-c', '"$@"; exit $?', 'sh', ...child], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.started = new Promise((resolve) => {
      this.waiting = () => resolve();
    });
    this.process.on('message', (a: Answer) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.(a);
    });
  }

  ask(figure: string, floor: boolean, scale: number): Promise<Answer> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.process.send({ figure, floor, scale });
    });
  }

  dispose(): void {
    // The child ends when its channel closes; sh with it.
    if (this.process.connected) this.process.disconnect();
    this.process.kill();
  }
}

const FIGURES: { id: string; title: string; unit: string; extra?: { title: string; unit: string } }[] = [
  { id: 'fixAll', title: 'Fix all, 8,000 fixes (in process): CPU', unit: 'ms' },
  { id: 'fixAll16k', title: 'Fix all, 16,000 fixes (in process): CPU', unit: 'ms' },
  { id: 'quickFixes', title: 'Quick fixes for 8,000 diagnostics asked at once: CPU', unit: 'ms' },
  {
    id: 'lightbulb',
    title:
      'Light bulb request and its fix-all resolved, 2,000 triggers as the service lists them (6,000 infos), lint done: CPU',
    unit: 'ms',
  },
  {
    id: 'relations',
    title: 'Lint of 2,000 calculations and a having: CPU',
    unit: 'ms',
    extra: { title: 'Lint of 2,000 calculations and a having: message text', unit: 'MiB' },
  },
  {
    id: 'hostBlock',
    title: 'Longest block of the host loop, linting 5,000 triggers as the service lists them (5 MB)',
    unit: 'ms',
  },
];

export class InprocChildren {
  private readonly children = new Map<string, Child>();

  constructor(sides: readonly Side[]) {
    for (const side of sides) this.children.set(side.name, new Child(side));
  }

  async ready(): Promise<void> {
    await Promise.all([...this.children.values()].map((c) => c.started));
  }

  figures(scale: number): Figure[] {
    return FIGURES.map(({ id, title, unit, extra }) => {
      const rec = new Recorded();
      const suffix = scale < 1 ? ' (/10)' : '';
      const metric: Metric = { key: id, title: `${title}${suffix}`, unit };
      const extraMetric: Metric | undefined = extra && {
        key: `${id}-extra`,
        title: `${extra.title}${suffix}`,
        unit: extra.unit,
      };
      return {
        id: `inproc-${id}`,
        metrics: extraMetric ? [metric, extraMetric] : [metric],
        measure: async (side) => {
          const child = this.children.get(side.name === 'floor' ? 'after' : side.name);
          if (child === undefined) return;
          const a = await child.ask(id, side.name === 'floor', scale);
          if (a.error !== undefined) throw new Error(`${id} (${side.name}): ${a.error}`);
          if (a.ms !== undefined) rec.add(metric.key, side.name, a.ms);
          if (extraMetric !== undefined) rec.add(extraMetric.key, side.name, a.extra ?? 0);
        },
        samples: (m, s) => rec.samples(m, s),
        note: () => undefined,
      };
    });
  }

  dispose(): void {
    for (const c of this.children.values()) c.dispose();
  }
}
