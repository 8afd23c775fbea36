// Events that come in bursts (a branch switch changes thousands of files, the columns of several datasets
// arrive together) are collected and handed over together, once per window, so that whoever listens
// redraws or re-lints once per burst instead of once per event. A later event for the same key replaces
// the earlier one. No vscode import; the clock is injectable for tests.

export interface BatchClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: BatchClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface BatchOptions {
  /** How long after the first event of a batch it is handed over (the later ones join it meanwhile). */
  windowMs: number;
  clock?: BatchClock;
}

export class Batch<K, V> {
  private pending = new Map<K, V>();
  private timer: unknown;
  private readonly clock: BatchClock;

  constructor(
    /** Receives each batch, in the order its keys first came. */
    private readonly flush: (batch: ReadonlyMap<K, V>) => void,
    private readonly options: BatchOptions,
  ) {
    this.clock = options.clock ?? realClock;
  }

  add(key: K, value: V): void {
    this.pending.set(key, value);
    if (this.timer === undefined) this.timer = this.clock.setTimeout(() => this.flushNow(), this.options.windowMs);
  }

  /** Hands over what is pending now (nothing when nothing is). */
  flushNow(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flush(batch);
  }

  /** Drops what is pending. */
  clear(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = new Map();
  }
}
