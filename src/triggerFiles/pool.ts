// Bounded concurrency for the list calls of a pull or a drift check, paced by what the service says
// of its rate limit: when a response shows the window nearly used up, the next calls wait for its
// reset; a call refused with "retry after" pauses every call and is tried again. No vscode import.

/** What a call returns that pacing reads (the client's ApiResponse has it). */
export interface Paced {
  rateLimit?: { remaining: number; resetSeconds: number };
}

export interface PacedPoolOptions {
  concurrency: number;
  /** Retries of a call refused with a retry-after (the client has retried it already). */
  rateLimitRetries?: number;
  /** Longest pause honoured, so a bogus header cannot stall a pull for hours. */
  maxPauseMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Told when calls wait for the rate limit (for a progress line). */
  onPause?: (ms: number) => void;
}

/** The caller gave up: its signal aborted. */
export class PullCancelled extends Error {
  readonly kind = 'aborted';
  constructor() {
    super('cancelled');
    this.name = 'PullCancelled';
  }
}

export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new PullCancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new PullCancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function retryAfterOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; retryAfterMs?: unknown };
  return e.status === 429 && typeof e.retryAfterMs === 'number' && e.retryAfterMs >= 0 ? e.retryAfterMs : undefined;
}

export class PacedPool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private pausedUntil = 0;
  private readonly concurrency: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  /** The most calls that ran at once, and the pauses made (tests count them). */
  readonly stats = { peak: 0, pauses: 0 };

  constructor(private readonly o: PacedPoolOptions) {
    this.concurrency = Math.max(1, Math.min(16, Math.floor(Number.isFinite(o.concurrency) ? o.concurrency : 4)));
    this.sleep = o.sleep ?? sleepUnlessAborted;
    this.now = o.now ?? Date.now;
  }

  async run<T extends Paced>(call: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const retries = this.o.rateLimitRetries ?? 2;
    for (let attempt = 0; ; attempt++) {
      await this.acquire(signal);
      try {
        const wait = this.pausedUntil - this.now();
        if (wait > 0) {
          this.o.onPause?.(wait);
          await this.sleep(wait, signal);
        }
        if (signal?.aborted === true) throw new PullCancelled();
        const result = await call(signal);
        const rl = result.rateLimit;
        // Nearly used up: the calls still to start wait for the window to reset.
        if (rl !== undefined && rl.remaining <= this.concurrency) this.pause(rl.resetSeconds * 1000);
        return result;
      } catch (err) {
        const after = retryAfterOf(err);
        if (after === undefined || attempt >= retries || signal?.aborted === true) throw err;
        this.pause(after);
      } finally {
        this.release();
      }
    }
  }

  private pause(ms: number): void {
    this.stats.pauses++;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.min(ms, this.o.maxPauseMs ?? 60_000));
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(new PullCancelled());
    if (this.active < this.concurrency) {
      this.active++;
      this.stats.peak = Math.max(this.stats.peak, this.active);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const start = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        this.stats.peak = Math.max(this.stats.peak, this.active);
        resolve();
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(start);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new PullCancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }

  private release(): void {
    this.active--;
    while (this.active < this.concurrency) {
      const next = this.waiting.shift();
      if (next === undefined) return;
      next();
    }
  }
}
