// Bounded concurrency for the list calls of a pull or a drift check, paced by what the service says
// of its rate limit: when a response shows the window nearly used up, the next calls wait for its
// reset; a call refused with "retry after" pauses every call and is tried again. The queueing and the
// pauses are the service client's Limiter (src/api/limiter.ts); this adds the window check. No vscode import.
import { abortableSleep, Limiter, type LimiterOptions } from '../api/limiter';

/** What a call returns that pacing reads (the client's ApiResponse has it). */
export interface Paced {
  rateLimit?: { remaining: number; resetSeconds: number };
}

/** The Limiter's options; a pool's calls given up by their signal always reject with PullCancelled. */
export type PacedPoolOptions = Omit<LimiterOptions, 'cancelled'>;

/** The caller gave up: its signal aborted. */
export class PullCancelled extends Error {
  readonly kind = 'aborted';
  constructor() {
    super('cancelled');
    this.name = 'PullCancelled';
  }
}

function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return abortableSleep(ms, signal, () => new PullCancelled());
}

export class PacedPool {
  private readonly limiter: Limiter;
  private readonly concurrency: number;

  constructor(o: PacedPoolOptions) {
    this.concurrency = Math.max(1, Math.min(16, Math.floor(Number.isFinite(o.concurrency) ? o.concurrency : 4)));
    this.limiter = new Limiter({
      ...o,
      concurrency: this.concurrency,
      sleep: o.sleep ?? sleepUnlessAborted,
      cancelled: () => new PullCancelled(),
    });
  }

  run<T extends Paced>(call: (signal?: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.limiter.run(async (s) => {
      const result = await call(s);
      const rl = result.rateLimit;
      // Nearly used up: the calls still to start wait for the window to reset.
      if (rl !== undefined && rl.remaining <= this.concurrency) this.limiter.pause(rl.resetSeconds * 1000);
      return result;
    }, signal);
  }
}
