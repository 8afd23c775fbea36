import type { IncomingHttpHeaders } from 'node:http';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** Backoff base: the n-th retry waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. Default 500. */
  baseDelayMs?: number;
  /** Cap of one backoff wait (server-requested waits are not capped by it). Default 8000. */
  maxDelayMs?: number;
  /** Time budget of one call, waits included. Default 30000. */
  maxTotalMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxTotalMs: 30_000,
};

/**
 * Which failures an operation may retry.
 * - `idempotent`: GET, PUT, PATCH: on 429, 502, 503, 504 and on connection errors.
 * - `unprocessed-only`: a POST that may be repeated when the service certainly did not process it
 *   (429, or the connection was never made).
 * - `never`: creating an API key: a repeat after the service may have processed it would make a second live key.
 */
export type RetryPolicy = 'idempotent' | 'unprocessed-only' | 'never';

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Connection failures after which the request may or may not have reached the service. */
const MAYBE_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  // The OS gave up on the socket; it may have been after the request went out.
  'ETIMEDOUT',
]);
/** Connection failures before any byte was sent. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Whether a transport failure may have happened after the service received (and processed) the request. */
export function maybeProcessed(code: string | undefined): boolean {
  return code === undefined || !NOT_SENT_CODES.has(code);
}

export function isRetryableStatus(policy: RetryPolicy, status: number): boolean {
  if (policy === 'never') return false;
  if (policy === 'unprocessed-only') return status === 429;
  return RETRYABLE_STATUSES.has(status);
}

export function isRetryableNetworkCode(policy: RetryPolicy, code: string | undefined): boolean {
  if (policy === 'never' || code === undefined) return false;
  if (NOT_SENT_CODES.has(code)) return true;
  return policy === 'idempotent' && MAYBE_SENT_CODES.has(code);
}

/** Capped exponential backoff with full jitter; `retry` is 1 for the first retry. */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * `Retry-After` as delta-seconds or an HTTP date, in ms from `nowMs`; undefined when absent or unparseable.
 * An HTTP date always names its month and weekday, so values without letters (`1.5`, `-1`) are not taken for
 * dates: Date.parse would read them as years and the client would retry at once.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

export interface RateLimitInfo {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** `RateLimit: limit=100, remaining=50, reset=60`; undefined unless all three are present. */
export function parseRateLimit(value: string | undefined): RateLimitInfo | undefined {
  if (value === undefined) return undefined;
  const fields = new Map<string, number>();
  for (const part of value.split(/[,;]/)) {
    const m = /^\s*([a-z]+)\s*=\s*(\d+)\s*$/i.exec(part);
    if (m?.[1] !== undefined && m[2] !== undefined) fields.set(m[1].toLowerCase(), Number(m[2]));
  }
  const limit = fields.get('limit');
  const remaining = fields.get('remaining');
  const resetSeconds = fields.get('reset');
  if (limit === undefined || remaining === undefined || resetSeconds === undefined) return undefined;
  return { limit, remaining, resetSeconds };
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * How long the service asked us to wait before the next attempt: `Retry-After` first, else an exhausted
 * `RateLimit` window's reset. Undefined when it did not say.
 */
export function serverRequestedDelay(headers: IncomingHttpHeaders, nowMs: number): number | undefined {
  const retryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), nowMs);
  if (retryAfter !== undefined) return retryAfter;
  const rl = parseRateLimit(headerValue(headers, 'ratelimit'));
  if (rl !== undefined && rl.remaining === 0) return rl.resetSeconds * 1000;
  return undefined;
}

/** A sleep that ends early, rejecting with the signal's reason, when the signal fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
