// When to lint a document: debounced on change (a newer edit cancels the pending run and aborts a running
// one), at once on open and save, never after close. No vscode import; the timers are passed in (the
// real ones by default), so a test moves time on itself and sees which timers were set and cleared.

export interface SchedulerClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: SchedulerClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * Lints one document. `signal` aborts when a newer edit or a close supersedes this run; a run that
 * finishes after that must not publish (check `signal.aborted` before publishing).
 */
type LintRun<K> = (key: K, signal: AbortSignal) => void | Promise<void>;

export interface LintSchedulerOptions<K> {
  run: LintRun<K>;
  delayMs?: number;
  clock?: SchedulerClock;
  /** Called with errors thrown by a run (the scheduler itself never throws into the editor). */
  onError?: (key: K, err: unknown) => void;
}

interface Pending {
  timer?: unknown;
  controller: AbortController;
}

export class LintScheduler<K> {
  readonly delayMs: number;
  private readonly clock: SchedulerClock;
  private readonly pending = new Map<K, Pending>();
  private readonly runningRuns = new Set<Promise<void>>();
  private disposed = false;

  constructor(private readonly options: LintSchedulerOptions<K>) {
    this.delayMs = options.delayMs ?? 150;
    this.clock = options.clock ?? realClock;
  }

  /** A change: lint after the debounce delay unless another change comes first. */
  schedule(key: K): void {
    this.enqueue(key, this.delayMs);
  }

  /** Open or save: lint now (still cancelling anything pending for the document). */
  lintNow(key: K): Promise<void> {
    return this.enqueue(key, 0);
  }

  /** Close or delete: forget the document; a pending or running lint will not publish. */
  cancel(key: K): void {
    const p = this.pending.get(key);
    if (!p) return;
    if (p.timer !== undefined) this.clock.clearTimeout(p.timer);
    p.controller.abort();
    this.pending.delete(key);
  }

  isPending(key: K): boolean {
    return this.pending.get(key)?.timer !== undefined;
  }

  /** Resolves when every run started so far has finished (tests and benches). */
  async idle(): Promise<void> {
    while (this.runningRuns.size > 0) await Promise.all([...this.runningRuns]);
  }

  dispose(): void {
    this.disposed = true;
    for (const key of [...this.pending.keys()]) this.cancel(key);
  }

  private enqueue(key: K, delay: number): Promise<void> {
    if (this.disposed) return Promise.resolve();
    const previous = this.pending.get(key);
    if (previous) {
      if (previous.timer !== undefined) this.clock.clearTimeout(previous.timer);
      previous.controller.abort();
    }
    const entry: Pending = { controller: new AbortController() };
    this.pending.set(key, entry);
    if (delay <= 0) return this.fire(key, entry);
    return new Promise((resolve) => {
      entry.timer = this.clock.setTimeout(() => {
        entry.timer = undefined;
        void this.fire(key, entry).then(resolve);
      }, delay);
      // A superseded wait resolves at once: its lint will never run.
      entry.controller.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  private fire(key: K, entry: Pending): Promise<void> {
    if (entry.controller.signal.aborted) return Promise.resolve();
    const run = (async () => {
      try {
        await this.options.run(key, entry.controller.signal);
      } catch (err) {
        if (!entry.controller.signal.aborted) this.options.onError?.(key, err);
      } finally {
        if (this.pending.get(key) === entry) this.pending.delete(key);
      }
    })();
    this.runningRuns.add(run);
    void run.finally(() => this.runningRuns.delete(run));
    return run;
  }
}
