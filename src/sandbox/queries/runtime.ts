// What the query routes keep beside the data: the limit on creating query results (10 a minute by
// default, as the service's), and the data of recent results so polling does not run a query again.
import { RateLimiter } from '../rateLimiter';
import type { RunOutcome } from './engine';

/** Creating query results is limited to 10 requests a minute (service facts). */
export const DEFAULT_QUERY_RESULT_RATE_LIMIT = 10;
const CACHED_RESULTS = 32;

export class QueryRuntime {
  readonly limiter: RateLimiter;
  private readonly outcomes = new Map<string, RunOutcome>();

  constructor(limit: number, clock: () => number) {
    this.limiter = new RateLimiter(limit, clock);
  }

  remember(resultId: string, outcome: RunOutcome): void {
    this.outcomes.delete(resultId);
    this.outcomes.set(resultId, outcome);
    while (this.outcomes.size > CACHED_RESULTS) {
      const oldest = this.outcomes.keys().next().value;
      if (oldest === undefined) break;
      this.outcomes.delete(oldest);
    }
  }

  recall(resultId: string): RunOutcome | undefined {
    return this.outcomes.get(resultId);
  }

  reset(): void {
    this.limiter.reset();
    this.outcomes.clear();
  }
}
