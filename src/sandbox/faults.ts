import * as z from 'zod';

// Fault injection: what a real network and a real service do to a client on a bad day.
// Count-based faults are used up in the order they were added; each request uses at most one.

/** Body shape of an injected status: the shape of the API group (auto), or one forced. */
export const FAULT_SHAPES = ['auto', 'problem', 'legacy', 'jsonapi', 'empty'] as const;
export type FaultShape = (typeof FAULT_SHAPES)[number];

/** Which requests a fault applies to; absent members match everything. */
export const FaultMatch = z.strictObject({
  method: z.string().min(1).optional(),
  /** The request path starts with this. */
  path: z.string().startsWith('/').optional(),
});
export type FaultMatch = z.infer<typeof FaultMatch>;

export interface StatusFaultOptions {
  /** Sent as `Retry-After` (an HTTP date or delta-seconds). A 429 without it gets the end of the rate window. */
  retryAfter?: string | number;
  match?: FaultMatch;
}

export type PlannedFault =
  | { kind: 'status'; status: number; shape: FaultShape; retryAfter?: string | number }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'malformed' }
  | { kind: 'html'; status: number };

interface QueuedFault {
  fault: PlannedFault;
  remaining: number;
  match: FaultMatch | undefined;
}

const Count = z.number().int().min(1).max(10_000).default(1);
const ErrorStatus = z.number().int().min(400).max(599);

/** Body of `POST /__sandbox/faults`. */
export const FaultSpec = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('latency'), ms: z.number().int().min(0).max(600_000) }),
  z.strictObject({
    kind: z.literal('status'),
    status: ErrorStatus,
    count: Count,
    shape: z.enum(FAULT_SHAPES).default('auto'),
    retryAfter: z.union([z.string().min(1), z.number().int().min(0)]).optional(),
    match: FaultMatch.optional(),
  }),
  z.strictObject({ kind: z.literal('reset'), count: Count, match: FaultMatch.optional() }),
  z.strictObject({ kind: z.literal('truncate'), count: Count, match: FaultMatch.optional() }),
  z.strictObject({ kind: z.literal('malformed'), count: Count, match: FaultMatch.optional() }),
  z.strictObject({ kind: z.literal('html'), status: ErrorStatus, count: Count, match: FaultMatch.optional() }),
  z.strictObject({ kind: z.literal('clear') }),
]);
export type FaultSpec = z.infer<typeof FaultSpec>;

function checkCount(count: number): void {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`count must be a whole number >= 1, got ${count}`);
}

function checkStatus(status: number): void {
  if (!Number.isInteger(status) || status < 400 || status > 599)
    throw new RangeError(`status must be 400 to 599, got ${status}`);
}

export class FaultInjector {
  private delayMs = 0;
  private queue: QueuedFault[] = [];

  /** Delays every service response by `ms` until cleared (`latency(0)` or `clear()`). */
  latency(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`latency must be 0 or more milliseconds, got ${ms}`);
    this.delayMs = ms;
  }

  /** Answers the next `count` requests with `status` without processing them; the body has the shape asked for. */
  nextStatus(status: number, count: number, shape: FaultShape = 'auto', options: StatusFaultOptions = {}): void {
    checkStatus(status);
    this.push(
      {
        kind: 'status',
        status,
        shape,
        ...(options.retryAfter !== undefined ? { retryAfter: options.retryAfter } : {}),
      },
      count,
      options.match,
    );
  }

  /** Destroys the connection of the next `count` requests before answering (the request is not processed). */
  resetConnection(count: number, match?: FaultMatch): void {
    this.push({ kind: 'reset' }, count, match);
  }

  /** Processes the next `count` requests, then sends a Content-Length larger than the body and closes mid-body. */
  truncateBody(count: number, match?: FaultMatch): void {
    this.push({ kind: 'truncate' }, count, match);
  }

  /** Processes the next `count` requests, then answers with a body that is not valid JSON. */
  malformedBody(count: number, match?: FaultMatch): void {
    this.push({ kind: 'malformed' }, count, match);
  }

  /** Answers the next `count` requests with an HTML error page, as a proxy in front of the service would. */
  htmlErrorPage(status: number, count: number, match?: FaultMatch): void {
    checkStatus(status);
    this.push({ kind: 'html', status }, count, match);
  }

  clear(): void {
    this.delayMs = 0;
    this.queue = [];
  }

  /** Applies a fault given as JSON to the control endpoint. */
  apply(spec: FaultSpec): void {
    switch (spec.kind) {
      case 'latency':
        return this.latency(spec.ms);
      case 'status':
        return this.nextStatus(spec.status, spec.count, spec.shape, {
          ...(spec.retryAfter !== undefined ? { retryAfter: spec.retryAfter } : {}),
          ...(spec.match ? { match: spec.match } : {}),
        });
      case 'reset':
        return this.resetConnection(spec.count, spec.match);
      case 'truncate':
        return this.truncateBody(spec.count, spec.match);
      case 'malformed':
        return this.malformedBody(spec.count, spec.match);
      case 'html':
        return this.htmlErrorPage(spec.status, spec.count, spec.match);
      case 'clear':
        return this.clear();
    }
  }

  get latencyMs(): number {
    return this.delayMs;
  }

  /** What is still pending, for the control endpoint and tests. */
  pending(): { fault: PlannedFault; remaining: number; match?: FaultMatch }[] {
    return this.queue.map((q) => ({ fault: q.fault, remaining: q.remaining, ...(q.match ? { match: q.match } : {}) }));
  }

  /** Uses up one fault that applies to this request, if any. */
  take(method: string, path: string): PlannedFault | undefined {
    const i = this.queue.findIndex((q) => matches(q.match, method, path));
    const entry = this.queue[i];
    if (!entry) return undefined;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.queue.splice(i, 1);
    return entry.fault;
  }

  private push(fault: PlannedFault, count: number, match: FaultMatch | undefined): void {
    checkCount(count);
    this.queue.push({ fault, remaining: count, match });
  }
}

function matches(match: FaultMatch | undefined, method: string, path: string): boolean {
  if (!match) return true;
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.path !== undefined && !path.startsWith(match.path)) return false;
  return true;
}
