// A child of bench/run.ts for the figures measured inside one process: it loads the linter and the
// editor's mapping of one source tree (`--root`; `--side before` is a build of the baseline, whose
// modules have the old API) and runs a figure when asked over IPC, answering the CPU milliseconds.
// The floor of each figure (JSON.parse of the same text) runs here too, so it shares the process.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { manyCalculations, serviceListed, triggers } from '../inputs';

const args = process.argv.slice(2);
const root = args[args.indexOf('--root') + 1] ?? '';
const side = args[args.indexOf('--side') + 1] ?? 'after';

interface Lint {
  lint(text: string, options?: object): { rule: string; range: unknown; fix?: unknown; message: string }[];
  fixAll(text: string, options?: object): { applied: number };
}
type Diag = ReturnType<Lint['lint']>[number];
interface Mapping {
  quickFixes(result: readonly Diag[], asked: readonly { code: string; range: unknown }[]): unknown[];
  QuickFixIndex?: new (result: readonly Diag[]) => {
    quickFixes(asked: readonly { code: string; range: unknown }[]): unknown[];
  };
  fixAllAction(...args: unknown[]): unknown;
  toDiagnosticData(d: Diag, docs: string): unknown;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timed = async (fn: () => unknown): Promise<number> => {
  const c = cpu();
  await fn();
  return cpu() - c;
};

async function main(): Promise<void> {
  const lint = (await import(join(root, 'src/lint/index.ts'))) as Lint;
  const mapping = (await import(join(root, 'src/extension/diagnostics/lintMapping.ts'))) as Mapping;
  const inputs = new Map<string, string>();
  const input = (name: string, make: () => string) => {
    let text = inputs.get(name);
    if (text === undefined) inputs.set(name, (text = make()));
    return text;
  };
  /** 4 fixable read-only members a trigger: n fixes in n / 4 triggers. */
  const withFixes = (n: number) =>
    input(`fixes${n}`, () =>
      triggers(n / 4, true).replace(
        /"id": "(t\d+)",/g,
        '"id": "$1", "triggered": false, "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-02T00:00:00Z",',
      ),
    );
  // A cap high enough to hold every diagnostic (the baseline has none).
  const all = { maxDiagnostics: 100_000 };

  const figures: Record<string, (floor: boolean, scale: number) => Promise<{ ms: number; extra?: number }>> = {
    async fixAll(floor, scale) {
      const text = withFixes(Math.round(8_000 * scale));
      return { ms: await timed(() => (floor ? JSON.parse(text) : lint.fixAll(text))) };
    },
    async fixAll16k(floor, scale) {
      const text = withFixes(Math.round(16_000 * scale));
      return { ms: await timed(() => (floor ? JSON.parse(text) : lint.fixAll(text))) };
    },
    async quickFixes(floor, scale) {
      // The editor asking about every diagnostic of an 8,000-fix file (e.g. all of them selected in Problems).
      const text = withFixes(Math.round(8_000 * scale));
      const found = lint.lint(text, all);
      const asked = found.map((d) => ({ code: d.rule, range: d.range }));
      if (floor) return { ms: await timed(() => JSON.parse(text)) };
      const Index = mapping.QuickFixIndex;
      return { ms: await timed(() => (Index ? new Index(found).quickFixes(asked) : mapping.quickFixes(found, asked))) };
    },
    async lightbulb(floor, scale) {
      // A light bulb request on a 2,000-trigger file as the service lists them (6,000 fixable infos) whose
      // lint is done: the code actions at the cursor, and resolving the "fix all" it offers (what picking it
      // costs: the worker's fix-all job, done in this thread here).
      const text = input(`service${scale}`, () => serviceListed(Math.round(2_000 * scale)));
      const found = lint.lint(text);
      const first = found.find((d) => d.fix !== undefined);
      const asked = first ? [{ code: first.rule, range: first.range }] : [];
      if (floor) return { ms: await timed(() => JSON.parse(text)) };
      if (mapping.QuickFixIndex === undefined) {
        // The baseline: quick fixes by scanning, and a full fix-all on every request.
        return { ms: await timed(() => [mapping.quickFixes(found, asked), mapping.fixAllAction(text, {})]) };
      }
      const jobs = (await import(join(root, 'src/extension/diagnostics/lintJobs.ts'))) as {
        runLintJob(job: { kind: 'fixAll'; text: string; options: { metricsDatasets: string[] } }): {
          kind: string;
          edit?: unknown;
        };
      };
      // The index is made once per version (in the worker); a request looks the fixes up, and fix-all runs when resolved.
      const index = new mapping.QuickFixIndex(found);
      return {
        ms: await timed(() => {
          index.quickFixes(asked);
          const resolved = jobs.runLintJob({ kind: 'fixAll', text, options: { metricsDatasets: [] } });
          return mapping.fixAllAction(resolved.edit);
        }),
      };
    },
    async relations(floor, scale) {
      const text = input(`calcs${scale}`, () => manyCalculations(Math.round(2_000 * scale)));
      if (floor) return { ms: await timed(() => JSON.parse(text)) };
      let bytes = 0;
      const ms = await timed(() => {
        bytes = lint.lint(text).reduce((n, d) => n + d.message.length, 0);
      });
      return { ms, extra: bytes / 1024 / 1024 };
    },
    async hostBlock(floor, scale) {
      // The longest the host's event loop is blocked while a 4 MB file is linted after an edit. Work done
      // on the loop's own thread blocks it for its whole duration; work in the worker only while posting.
      const text = input(`block${scale}`, () => serviceListed(Math.round(5_000 * scale)));
      const wall = (fn: () => unknown) => {
        const t = performance.now();
        fn();
        return performance.now() - t;
      };
      if (floor) return { ms: wall(() => JSON.parse(text)) };
      if (mapping.QuickFixIndex === undefined) {
        return {
          ms: wall(() => lint.lint(text).map((d) => mapping.toDiagnosticData(d, 'https://example.invalid/rules.md'))),
        };
      }
      const { LintRunner } = (await import(join(root, 'src/extension/diagnostics/lintRunner.ts'))) as {
        LintRunner: new (o: { workerFile: string }) => {
          run(job: unknown): Promise<{ diagnostics?: Diag[] }>;
          dispose(): void;
        };
      };
      const runner = new LintRunner({ workerFile: join(root, 'dist', 'lint-worker.js') });
      // A first job starts the worker (once per session), then the measured one.
      await runner.run({ kind: 'lint', input: '{}', options: { metricsDatasets: [] } });
      const histogram = monitorEventLoopDelay({ resolution: 1 });
      histogram.enable();
      const result = await runner.run({ kind: 'lint', input: text, options: { metricsDatasets: [] } });
      const mapped = wall(() =>
        (result.diagnostics ?? []).map((d) => mapping.toDiagnosticData(d, 'https://example.invalid/rules.md')),
      );
      await new Promise((r) => setTimeout(r, 5));
      histogram.disable();
      runner.dispose();
      return { ms: Math.max(histogram.max / 1e6 - 1, mapped, 0) };
    },
  };

  process.on('message', (m: { figure: string; floor: boolean; scale: number }) => {
    const run = figures[m.figure];
    if (run === undefined) {
      process.send?.({ error: `no figure ${m.figure}` });
      return;
    }
    run(m.floor, m.scale).then(
      (r) => process.send?.(r),
      (err: unknown) => process.send?.({ error: String(err instanceof Error ? err.stack : err) }),
    );
  });
  process.send?.({ ready: side });
}

void main();
