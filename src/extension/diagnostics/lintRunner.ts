// Runs lint jobs in one worker thread (dist/lint-worker.js), one at a time, off the extension host's
// event loop. A job whose caller gives up (a newer edit, a closed file) is cancelled: dropped from
// the queue, or, when it is already running on a large text, by stopping the worker (a fresh one
// starts for the next job). The worker starts on the first job: activation loads no linter at all.
// No vscode import.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { LintJob, LintJobResult } from './lintJobs';
import type { LintWorkerData } from './lintWorker';
import { ColumnsChannel } from './lintColumns';
import type { WorkerJob, WorkerRequest, WorkerResponse } from './lintProtocol';

/** The part of a worker_threads Worker the runner uses (tests give a fake). */
export interface WorkerLike {
  postMessage(message: WorkerRequest): void;
  on(event: 'message', listener: (message: WorkerResponse) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
  ref?(): void;
  unref?(): void;
}

/** The caller gave up on the job (its signal aborted). */
export class LintCancelled extends Error {
  override readonly name = 'LintCancelled';
  constructor() {
    super('the lint was superseded or cancelled');
  }
}

export interface LintRunnerOptions {
  /** Path of dist/lint-worker.js (a function: asked for when the first worker starts). */
  workerFile: string | (() => string);
  /** Running jobs on inputs at least this long are stopped with their worker when cancelled; shorter ones finish unheard. */
  stopAbove?: number;
  /** Starts a worker on the file with the data the worker configures itself with (tests give a fake). */
  createWorker?: (file: string, data: LintWorkerData) => WorkerLike;
  /** Where a worker thread cannot start: runs the jobs in this thread instead (correct, but blocking); `data` as for a worker. */
  fallback?: (file: string, data: LintWorkerData) => WorkerLike;
  /** The translations of the display language (vscode.l10n.bundle), read when a worker starts; none: English. */
  l10nBundle?: () => Record<string, string> | undefined;
  log?: (message: string) => void;
}

/** Messages handled in this thread, one per turn of the event loop: the fallback where no worker can start. */
export class InThreadWorker extends EventEmitter implements WorkerLike {
  constructor(private readonly handle: (request: WorkerRequest) => WorkerResponse | undefined) {
    super();
  }

  postMessage(request: WorkerRequest): void {
    setImmediate(() => {
      const response = this.handle(request);
      if (response !== undefined) this.emit('message', response);
    });
  }

  terminate(): Promise<number> {
    this.removeAllListeners();
    return Promise.resolve(0);
  }
}

/**
 * The fallback where no worker thread can start: the worker's bundle required into this thread (it exports its job
 * runner), its texts configured with the data a worker would get, before its first job.
 */
export function requiredWorker(file: string, data: LintWorkerData): WorkerLike {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a separate bundle, loaded at run time on purpose
  const bundle = require(file) as {
    runLintJob: (job: LintJob) => LintJobResult;
    requestHandler: (run: (job: LintJob) => LintJobResult) => (request: WorkerRequest) => WorkerResponse | undefined;
    configureLintText: (data: LintWorkerData) => void;
  };
  bundle.configureLintText(data);
  return new InThreadWorker(bundle.requestHandler(bundle.runLintJob));
}

interface Job {
  id: number;
  /** As posted: with the version of its columns instead of the columns. */
  job: WorkerJob;
  size: number;
  resolve: (result: LintJobResult) => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort?: () => void;
}

/** Inputs of 1 MiB and more: stopping and restarting the worker (tens of milliseconds) costs less than finishing. */
const STOP_ABOVE = 1024 * 1024;

export class LintRunner {
  private worker: WorkerLike | undefined;
  private running: Job | undefined;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private disposed = false;
  private readonly columns = new ColumnsChannel();
  /** The worker the columns were last sent to: another one (new, or started again) is sent them all. */
  private toldColumns: WorkerLike | undefined;

  constructor(private readonly options: LintRunnerOptions) {}

  run(job: LintJob, signal?: AbortSignal): Promise<LintJobResult> {
    if (this.disposed) return Promise.reject(new LintCancelled());
    if (signal?.aborted === true) return Promise.reject(new LintCancelled());
    return new Promise<LintJobResult>((resolve, reject) => {
      const input = job.kind === 'lint' ? job.input : job.text;
      const entry: Job = { id: this.nextId++, job: this.posted(job), size: input.length, resolve, reject, signal };
      if (signal !== undefined) {
        entry.onAbort = () => this.cancel(entry);
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
      this.pump();
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const j of this.queue.splice(0)) this.settle(j, () => j.reject(new LintCancelled()));
    if (this.running !== undefined) {
      const running = this.running;
      this.running = undefined;
      this.settle(running, () => running.reject(new LintCancelled()));
    }
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private cancel(entry: Job): void {
    const queued = this.queue.indexOf(entry);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(entry, () => entry.reject(new LintCancelled()));
      return;
    }
    if (this.running !== entry) return;
    this.settle(entry, () => entry.reject(new LintCancelled()));
    if (entry.size >= (this.options.stopAbove ?? STOP_ABOVE)) {
      // Stop the work itself; the next job gets a fresh worker.
      const worker = this.worker;
      this.worker = undefined;
      this.running = undefined;
      void worker?.terminate();
      this.pump();
    }
    // Otherwise the worker finishes it, and its result is not heard (settled already).
  }

  private settled = new WeakSet<Job>();
  private settle(entry: Job, how: () => void): void {
    if (this.settled.has(entry)) return;
    this.settled.add(entry);
    if (entry.onAbort !== undefined) entry.signal?.removeEventListener('abort', entry.onAbort);
    how();
  }

  private pump(): void {
    if (this.running !== undefined || this.disposed) return;
    const next = this.queue.shift();
    if (next === undefined) {
      this.worker?.unref?.();
      return;
    }
    let worker: WorkerLike;
    try {
      worker = this.ensureWorker();
    } catch (err) {
      this.settle(next, () => next.reject(err));
      this.pump();
      return;
    }
    this.running = next;
    worker.ref?.();
    const version = next.job.kind === 'recipientAt' ? undefined : next.job.options.columnsVersion;
    if (version !== undefined) {
      const columns = this.columns.messageFor(version, worker !== this.toldColumns);
      this.toldColumns = worker;
      if (columns !== undefined) worker.postMessage({ columns });
    }
    worker.postMessage({ id: next.id, job: next.job });
  }

  /** The job as posted: its columns as a version (the changed ones are sent before it, once). */
  private posted(job: LintJob): WorkerJob {
    if (job.kind === 'recipientAt') return job;
    const { columns, ...options } = job.options;
    if (columns === undefined) return { ...job, options };
    const posted = { ...options, columnsVersion: this.columns.versionOf(columns) };
    return job.kind === 'lint' ? { ...job, options: posted } : { ...job, options: posted };
  }

  private ensureWorker(): WorkerLike {
    if (this.worker !== undefined) return this.worker;
    // execArgv: [] keeps the host's own Node flags, some of which a worker refuses, out of the worker.
    const create =
      this.options.createWorker ??
      ((file: string, workerData: LintWorkerData) => new Worker(file, { execArgv: [], workerData }));
    const path = typeof this.options.workerFile === 'string' ? this.options.workerFile : this.options.workerFile();
    const data: LintWorkerData = { l10nBundle: this.options.l10nBundle?.() };
    let worker: WorkerLike;
    try {
      worker = create(path, data);
    } catch (err) {
      const fallback = this.options.fallback;
      if (fallback === undefined) throw err;
      this.options.log?.(
        `no lint worker thread (${err instanceof Error ? err.message : String(err)}): linting in the extension host's thread`,
      );
      worker = fallback(path, data);
    }
    worker.on('message', (message: WorkerResponse) => {
      if (this.worker !== worker) return;
      const entry = this.running;
      if (entry === undefined || entry.id !== message.id) return;
      this.running = undefined;
      this.settle(entry, () =>
        message.ok ? entry.resolve(message.result) : entry.reject(new Error(`the linter failed: ${message.reason}`)),
      );
      this.pump();
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const entry = this.running;
      this.running = undefined;
      this.options.log?.(`the lint worker stopped: ${why}`);
      if (entry !== undefined) this.settle(entry, () => entry.reject(new Error(`the lint worker stopped: ${why}`)));
      this.pump();
    };
    worker.on('error', (err: Error) => lost(err.message));
    worker.on('exit', (code: number) => lost(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}
