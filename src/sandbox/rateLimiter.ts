// Fixed one-minute windows per team and kind of operation, as the service advertises with
// `RateLimit: limit=N, remaining=M, reset=S` and `RateLimitPolicy: N;w=60`.

export const RATE_WINDOW_SECONDS = 60;
export type OperationKind = 'read' | 'write';

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** End of the current window, for `Retry-After` on a 429. */
  resetAt: Date;
}

interface Bucket {
  windowStart: number;
  used: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: number,
    private readonly clock: () => number,
  ) {}

  /** Counts one request against the bucket unless it is spent. */
  take(team: string, kind: OperationKind): RateDecision {
    return this.decide(team, kind, true);
  }

  /** The headers as they stand, without counting (for injected faults). */
  peek(team: string, kind: OperationKind): RateDecision {
    return this.decide(team, kind, false);
  }

  reset(): void {
    this.buckets.clear();
  }

  private decide(team: string, kind: OperationKind, count: boolean): RateDecision {
    const now = this.clock();
    const windowMs = RATE_WINDOW_SECONDS * 1000;
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const key = `${team}\u0000${kind}`;
    let bucket = this.buckets.get(key);
    if (!bucket || bucket.windowStart !== windowStart) {
      bucket = { windowStart, used: 0 };
      if (count) this.buckets.set(key, bucket);
    }
    const allowed = bucket.used < this.limit;
    if (allowed && count) bucket.used += 1;
    const resetAt = new Date(windowStart + windowMs);
    const resetSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
    return {
      allowed,
      resetAt,
      headers: {
        RateLimit: `limit=${this.limit}, remaining=${Math.max(0, this.limit - bucket.used)}, reset=${resetSeconds}`,
        RateLimitPolicy: `${this.limit};w=${RATE_WINDOW_SECONDS}`,
      },
    };
  }
}
