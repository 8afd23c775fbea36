// Extension costs. Prints tables; asserts nothing.
//  1. Activation: require dist/extension.js and call activate() against a stubbed `vscode` module, each in a
//     fresh process (cold, as VS Code does it). Goal: small.
//  2. Bundle size of dist/extension.js built with `node esbuild.mjs --production` (goal <= 300 KB; the
//     sandbox and the service client are separate bundles loaded on demand).
//  3. Children of a dataset with 10,000 columns from the sandbox: request, parse, sort, nodes and
//     presentation (what getTreeItem needs). Goal <= 500 ms.
//  4. Trigger lint while editing, on a 2,000-trigger file: from the change event to diagnostics published
//     (scheduler + linter + mapping, fake publish), and 50 edits in a burst giving one lint, not 50.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ServiceClient } from '../src/api/client';
import { addWideDataset, startSandbox } from '../src/sandbox/index';
import { lint } from '../src/lint';
import { DatasetTreeModel } from '../src/extension/tree/datasetTree';
import { KeyRegistry } from '../src/extension/tree/keyRegistry';
import { Limiter } from '../src/api/limiter';
import { LintScheduler, type SchedulerClock } from '../src/extension/diagnostics/lintScheduler';
import { toDiagnosticData } from '../src/extension/diagnostics/lintMapping';
import { MemoryMemento } from '../scripts/memoryMemento';
import { present } from '../src/extension/tree/presentation';
import { RememberedItems } from '../src/extension/tree/rememberedItems';
import { tooltipMarkdown } from '../src/extension/core/text';
import type { GroupNode } from '../src/extension/tree/nodes';

const root = join(__dirname, '..');
const bundle = join(root, 'dist', 'extension.js');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const ms = (n: number): string => `${n.toFixed(1)} ms`;
const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;

// --- 1. activation, in a child process ------------------------------------------------------------

// The stub host (bench/children/activate.cjs), run by a bare `node` (no tsx hooks, which would transform the bundle on require).
const ACTIVATION_HOST = join(__dirname, 'children', 'activate.cjs');

function activation(runs: number): { require: number; activate: number; total: number; subscriptions: number } {
  const req: number[] = [];
  const act: number[] = [];
  const total: number[] = [];
  let subscriptions = 0;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [ACTIVATION_HOST, root, bundle], { encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(
        `activation child failed: ${r.stderr
          .split('\n')
          .filter((l) => l.length < 400)
          .join('\n')}`,
      );
    const line = r.stdout.trim().split('\n').pop() ?? '{}';
    const m = JSON.parse(line) as { require: number; activate: number; subscriptions: number };
    req.push(m.require);
    act.push(m.activate);
    total.push(m.require + m.activate);
    subscriptions = m.subscriptions;
  }
  return { require: median(req), activate: median(act), total: median(total), subscriptions };
}

// --- 3. 10,000 columns ----------------------------------------------------------------------------

async function wideDataset(
  runs: number,
): Promise<{ fetch: number[]; build: number[]; total: number[]; tooltips: number[]; count: number }> {
  const sandbox = await startSandbox({ port: 0, rateLimit: 1_000_000 });
  addWideDataset(sandbox.state, 'bench-10k', 10_000);
  const client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
  const profile = {
    id: 'bench',
    name: 'bench',
    baseUrl: sandbox.info.baseUrl,
    uiUrl: sandbox.info.uiUrl,
    team: 't',
    environmentId: 'e',
  };
  const memento = new MemoryMemento();
  const model = new DatasetTreeModel({
    connection: async () => ({ profile, api: client }),
    remembered: new RememberedItems(memento),
    keys: new KeyRegistry(memento),
    metricsDatasets: () => [],
    limiter: new Limiter({ concurrency: 4 }),
  });
  const group: GroupNode = { kind: 'group', connectionId: 'bench', dataset: 'bench-10k', group: 'columns' };
  const fetch: number[] = [];
  const build: number[] = [];
  const total: number[] = [];
  const tooltips: number[] = [];
  let count = 0;
  for (let i = 0; i < runs + 2; i++) {
    model.refresh(group);
    const t0 = performance.now();
    const children = await model.getChildren(group);
    const t1 = performance.now();
    // What the view does for each child (getTreeItem); tooltips are built only on hover (resolveTreeItem).
    for (const c of children) present(c);
    const t2 = performance.now();
    for (const c of children) {
      const p = present(c);
      if (p.tooltip) tooltipMarkdown(p.tooltip);
    }
    const t3 = performance.now();
    count = children.length;
    if (i >= 2) {
      fetch.push(t1 - t0);
      build.push(t2 - t1);
      total.push(t2 - t0);
      tooltips.push(t3 - t2);
    }
  }
  await client.close();
  await sandbox.close();
  return { fetch, build, total, tooltips, count };
}

// --- 4. lint while editing ------------------------------------------------------------------------

function triggerFile(n: number): string {
  const triggers = Array.from({ length: n }, (_, i) => ({
    ...(i % 10 === 0 ? { id: `trig_${i}` } : {}),
    name: `Trigger ${i}`,
    dataset_slug: 'api-gateway',
    frequency: i % 25 === 0 ? 100 : 900,
    threshold: { op: '>', value: i },
    alert_type: 'on_change',
    recipients: i % 7 === 0 ? [{ type: 'email', target: `team${i}@example.com` }] : [{ id: `rcp_${i}` }],
    query: {
      calculations: [{ op: 'COUNT' }],
      filters: [{ column: 'status_code', op: '>=', value: 500 }],
      time_range: 1800,
    },
  }));
  return JSON.stringify(triggers, null, 2);
}

class ManualClock implements SchedulerClock {
  private timers = new Map<number, () => void>();
  private next = 1;
  setTimeout(fn: () => void): unknown {
    const id = this.next++;
    this.timers.set(id, fn);
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  fireAll(): void {
    const fns = [...this.timers.values()];
    this.timers.clear();
    fns.forEach((f) => f());
  }
}

async function lintWhileEditing(text: string, runs: number) {
  let published = 0;
  let diagnosticsCount = 0;
  const publish = (key: string, signal: AbortSignal): void => {
    const ds = lint(text, { metricsDatasets: [] }).map((d) =>
      toDiagnosticData(d, 'https://example.invalid/docs/rules.md'),
    );
    if (signal.aborted) return;
    diagnosticsCount = ds.length;
    published++;
    void key;
  };
  // Processing only: the debounce delay skipped by a manual clock.
  const clock = new ManualClock();
  const processing: number[] = [];
  const s1 = new LintScheduler<string>({ clock, run: publish });
  for (let i = 0; i < runs + 1; i++) {
    s1.schedule('file');
    const t0 = performance.now();
    clock.fireAll();
    await s1.idle();
    if (i > 0) processing.push(performance.now() - t0);
  }
  // End to end with real timers: change event -> 150 ms debounce -> lint -> mapping -> publish.
  const endToEnd: number[] = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((r) => (resolveDone = r));
    const s2 = new LintScheduler<string>({
      run: (k, signal) => {
        publish(k, signal);
        resolveDone();
      },
    });
    const t0 = performance.now();
    s2.schedule('file');
    await done;
    endToEnd.push(performance.now() - t0);
    s2.dispose();
  }
  // A burst of 50 edits, 5 ms apart (faster than the 150 ms debounce), with real timers.
  published = 0;
  // Counted at the scheduler's edges: the edits asked for, the runs it made, the waits a newer edit cleared.
  const stats = { requested: 0, runs: 0, superseded: 0 };
  const s3 = new LintScheduler<string>({
    run: (k, signal) => {
      stats.runs++;
      publish(k, signal);
    },
    clock: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => {
        stats.superseded++;
        clearTimeout(h as ReturnType<typeof setTimeout>);
      },
    },
  });
  for (let i = 0; i < 50; i++) {
    stats.requested++;
    s3.schedule('file');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 200));
  await s3.idle();
  return { processing, endToEnd, burst: { ...stats, published }, diagnosticsCount };
}

// --- main -----------------------------------------------------------------------------------------

function ensureProductionBuild(): void {
  let production = false;
  try {
    production =
      (JSON.parse(readFileSync(join(root, 'dist', '.build-info.json'), 'utf8')) as { production?: boolean })
        .production === true;
  } catch {
    production = false;
  }
  if (!production) execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: root, stdio: 'inherit' });
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const size = statSync(bundle).size;
  const gz = gzipSync(readFileSync(bundle)).length;
  const clientSize = statSync(join(root, 'dist', 'client-host.js')).size;

  const act = activation(9);
  const wide = await wideDataset(7);
  const text = triggerFile(2000);
  const lw = await lintWhileEditing(text, 9);

  console.log('\nExtension bench (medians)');
  console.table([
    { measure: 'dist/extension.js, minified', value: kb(size), goal: '<= 300 KB' },
    { measure: 'dist/extension.js, gzip', value: kb(gz), goal: '' },
    { measure: 'dist/client-host.js (loaded on first request)', value: kb(clientSize), goal: '' },
    { measure: 'activation: require dist/extension.js (cold process)', value: ms(act.require), goal: '' },
    { measure: 'activation: activate() with stubbed vscode', value: ms(act.activate), goal: '' },
    { measure: 'activation: total', value: ms(act.total), goal: '' },
    { measure: `children of a ${wide.count}-column dataset: request + parse`, value: ms(median(wide.fetch)), goal: '' },
    {
      measure: `children of a ${wide.count}-column dataset: nodes + presentation`,
      value: ms(median(wide.build)),
      goal: '',
    },
    { measure: `(all ${wide.count} tooltips, were every one hovered)`, value: ms(median(wide.tooltips)), goal: '' },
    { measure: `children of a ${wide.count}-column dataset: total`, value: ms(median(wide.total)), goal: '<= 500 ms' },
    {
      measure: `2,000-trigger file (${kb(text.length)}): lint + mapping + publish`,
      value: ms(median(lw.processing)),
      goal: '',
    },
    {
      measure: '2,000-trigger file: change event -> published (150 ms debounce)',
      value: ms(median(lw.endToEnd)),
      goal: '',
    },
  ]);
  console.log('Burst of 50 edits, 5 ms apart:');
  console.table([
    {
      edits: lw.burst.requested,
      lints: lw.burst.runs,
      superseded: lw.burst.superseded,
      published: lw.burst.published,
      diagnosticsPerLint: lw.diagnosticsCount,
    },
  ]);
  console.log(`activate() registered ${act.subscriptions} disposables`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
