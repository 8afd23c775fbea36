// The linter's work counted where it leaves the extension: at the worker thread. A runner's jobs are the
// messages posted to its workers, so a test counts those (and the workers started and stopped) instead of
// asking the runner what it did; a duplicate job shows, whatever code path posted it.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LintJob } from '../../src/extension/diagnostics/lintJobs';
import type { LintRunnerOptions } from '../../src/extension/diagnostics/lintRunner';
import type { LintWorkerData } from '../../src/extension/diagnostics/lintWorker';
import type { WorkerRequest } from '../../src/extension/diagnostics/lintProtocol';
import { watchCalls } from './outside-work';

/** dist/lint-worker.js, built by `npm test` (node esbuild.mjs). */
export const LINT_WORKER_FILE = join(import.meta.dirname, '..', '..', 'dist', 'lint-worker.js');

type JobKind = LintJob['kind'];

/** What went through the worker boundary so far. */
export interface WorkerTraffic {
  /** The jobs posted of these kinds (all kinds when none is named). */
  jobs(...kinds: JobKind[]): number;
  /** Every job kind posted, with its count. */
  byKind(): Partial<Record<JobKind, number>>;
  /**
   * The columns messages posted, and the datasets' columns that crossed in all, in those messages or in jobs
   * (each dataset's columns one entry).
   */
  columns(): { messages: number; entries: number };
}

function traffic(): WorkerTraffic & { post(message: WorkerRequest): void } {
  const posted = new Map<JobKind, number>();
  const columns = { messages: 0, entries: 0 };
  return {
    post: (message) => {
      if ('columns' in message) {
        columns.messages++;
        columns.entries += message.columns.updates.length;
        return;
      }
      posted.set(message.job.kind, (posted.get(message.job.kind) ?? 0) + 1);
      // Columns carried by a job itself count too: whatever form they take, they cross the boundary.
      const carried: unknown =
        message.job.kind === 'recipientAt' ? undefined : Reflect.get(message.job.options, 'columns');
      if (typeof carried === 'object' && carried !== null) columns.entries += Object.keys(carried).length;
    },
    columns: () => ({ ...columns }),
    jobs: (...kinds) =>
      [...posted].filter(([k]) => kinds.length === 0 || kinds.includes(k)).reduce((sum, [, n]) => sum + n, 0),
    byKind: () => Object.fromEntries(posted),
  };
}

/**
 * Real lint worker threads (dist/lint-worker.js, started as the runner starts them) that count what the
 * runner does with them: pass `createWorker` to a LintRunner and read the counts.
 */
export function countedWorkers(): WorkerTraffic & {
  createWorker: NonNullable<LintRunnerOptions['createWorker']>;
  started(): number;
  stopped(): number;
} {
  const counts = traffic();
  let started = 0;
  let stopped = 0;
  class CountedWorker extends Worker {
    override postMessage(message: WorkerRequest): void {
      counts.post(message);
      super.postMessage(message);
    }
    override terminate(): Promise<number> {
      stopped++;
      return super.terminate();
    }
  }
  return {
    jobs: counts.jobs,
    byKind: counts.byKind,
    columns: counts.columns,
    createWorker: (file: string, workerData: LintWorkerData) => {
      started++;
      return new CountedWorker(file, { execArgv: [], workerData });
    },
    started: () => started,
    stopped: () => stopped,
  };
}

const isRequest = (message: unknown): message is WorkerRequest =>
  typeof message === 'object' &&
  message !== null &&
  (('job' in message && typeof message.job === 'object' && message.job !== null && 'kind' in message.job) ||
    ('columns' in message && typeof message.columns === 'object' && message.columns !== null));

/**
 * The lint jobs posted to any worker thread until `stop()`: for code that starts its own runner. Worker's
 * postMessage is wrapped on its prototype, so every worker, started before or after, is counted.
 */
export function watchWorkerJobs(): WorkerTraffic & { stop(): void } {
  const counts = traffic();
  const stop = watchCalls(Worker.prototype, 'postMessage', ([message]) => {
    if (isRequest(message)) counts.post(message);
  });
  return { jobs: counts.jobs, byKind: counts.byKind, columns: counts.columns, stop };
}
