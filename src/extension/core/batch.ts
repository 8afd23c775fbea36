// Events that come in bursts (a branch switch changes thousands of files, the columns of several datasets
// arrive together) are collected and handed over together, so that whoever listens redraws or re-lints
// once per burst instead of once per event. A later event for the same key replaces the earlier one.
// Without `maxWaitMs` a batch closes `windowMs` after its first event; with it, each event keeps the batch
// open `windowMs` longer (a trailing debounce), but never past `maxWaitMs` after its first event, so a
// steady stream of events is still handed over in pieces. No vscode import; the clock is injectable for tests.

export interface BatchClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: BatchClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface BatchOptions {
  /** How long after the first event of a batch it is handed over, or, with `maxWaitMs`, after its latest event. */
  windowMs: number;
  /** With this, a trailing debounce: the batch is handed over `windowMs` after its latest event, at most this long after its first. */
  maxWaitMs?: number;
  clock?: BatchClock;
}

export class Batch<K, V> {
  private pending = new Map<K, V>();
  /** The window's timer (reset by each event in a trailing debounce). */
  private timer: unknown;
  /** The cap of a trailing debounce: set by a batch's first event. */
  private capTimer: unknown;
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
    const { windowMs, maxWaitMs } = this.options;
    if (maxWaitMs === undefined) {
      if (this.timer === undefined) this.timer = this.clock.setTimeout(() => this.flushNow(), windowMs);
      return;
    }
    if (this.capTimer === undefined) this.capTimer = this.clock.setTimeout(() => this.flushNow(), maxWaitMs);
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => this.flushNow(), windowMs);
  }

  /** Hands over what is pending now (nothing when nothing is). */
  flushNow(): void {
    this.stopTimers();
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flush(batch);
  }

  /** Drops what is pending. */
  clear(): void {
    this.stopTimers();
    this.pending = new Map();
  }

  private stopTimers(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    if (this.capTimer !== undefined) this.clock.clearTimeout(this.capTimer);
    this.timer = undefined;
    this.capTimer = undefined;
  }
}
