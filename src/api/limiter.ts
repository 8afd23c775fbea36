// Bounded concurrency for service calls, with a shared pause when the service says "retry after"
// (or when a caller sees its rate-limit window nearly used up). Used by the Datasets view and, through
// triggerFiles' PacedPool, by pull and drift. No vscode import.

export interface LimiterOptions {
  concurrency: number;
  /** Extra attempts after a rate-limit error that carries retryAfterMs (the client already retried). */
  rateLimitRetries?: number;
  /** Longest pause honoured from a retry-after, so a bogus header cannot stall the tree for hours. */
  maxPauseMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** Told when a call waits for a pause (for a progress line). */
  onPause?: (ms: number) => void;
  /** The error a call given up by its signal rejects with (default AbortedError). */
  cancelled?: () => Error;
}

/**
 * Reads `retryAfterMs` from an error thrown by the client, if it is a rate-limit error: the client's
 * ServiceError of kind 'http' with status 429 (read by shape: the extension loads the client from its own bundle).
 */
export function retryAfterOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; retryAfterMs?: unknown };
  return e.status === 429 && typeof e.retryAfterMs === 'number' && e.retryAfterMs >= 0 ? e.retryAfterMs : undefined;
}

export class AbortedError extends Error {
  readonly kind = 'aborted';
  constructor() {
    super('cancelled');
    this.name = 'AbortedError';
  }
}

export function abortableSleep(
  ms: number,
  signal?: AbortSignal,
  cancelled: () => Error = () => new AbortedError(),
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private pausedUntil = 0;
  private concurrency: number;
  private readonly rateLimitRetries: number;
  private readonly maxPauseMs: number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly onPause: ((ms: number) => void) | undefined;
  private readonly cancelled: () => Error;

  constructor(options: LimiterOptions) {
    this.concurrency = Limiter.clamp(options.concurrency);
    this.rateLimitRetries = options.rateLimitRetries ?? 2;
    this.maxPauseMs = options.maxPauseMs ?? 60_000;
    this.cancelled = options.cancelled ?? (() => new AbortedError());
    this.sleep = options.sleep ?? ((ms, signal) => abortableSleep(ms, signal, this.cancelled));
    this.now = options.now ?? Date.now;
    this.onPause = options.onPause;
  }

  private static clamp(n: number): number {
    return Number.isFinite(n) ? Math.min(32, Math.max(1, Math.floor(n))) : 4;
  }

  setConcurrency(n: number): void {
    this.concurrency = Limiter.clamp(n);
    this.drain();
  }

  /** Runs `op` when a slot is free; on a rate-limit error with retryAfterMs, pauses everyone and retries. */
  async run<T>(op: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.acquire(signal);
      try {
        const wait = this.pausedUntil - this.now();
        if (wait > 0) {
          this.onPause?.(wait);
          await this.sleep(wait, signal);
        }
        if (signal?.aborted) throw this.cancelled();
        return await op(signal);
      } catch (err) {
        const retryAfter = retryAfterOf(err);
        if (retryAfter === undefined || attempt >= this.rateLimitRetries || signal?.aborted) throw err;
        this.pause(retryAfter);
      } finally {
        this.release();
      }
    }
  }

  /** Calls not started yet wait `ms` (at most maxPauseMs) before they start. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + Math.min(ms, this.maxPauseMs));
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(this.cancelled());
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const start = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(start);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(this.cancelled());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(start);
    });
  }

  private release(): void {
    this.active--;
    this.drain();
  }

  private drain(): void {
    while (this.active < this.concurrency) {
      const next = this.waiting.shift();
      if (!next) return;
      next();
    }
  }
}
