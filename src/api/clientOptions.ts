// What a ServiceClient is configured with, and the checks that refuse a configuration that would silently
// disable a limit or drop part of an address.
import * as z from 'zod';
import type { ServiceErrorKind } from './errors';
import type { RateLimitInfo, RetryOptions } from './retry';
import type { Timeouts } from './transport';
import { issuesToProblems } from './validation';
import type { FieldProblem } from './errors';

export interface RequestLogEntry {
  operation: string;
  method: string;
  /** Path without the query string; never carries credentials. */
  path: string;
  status?: number;
  durationMs: number;
  /** 1 for the first attempt. */
  attempt: number;
  /** Kind of the failure of this attempt, if it failed. */
  error?: ServiceErrorKind;
  /** Set when another attempt follows after this many ms. */
  retryInMs?: number;
}

/** Clock, sleep and randomness of the retry loop; injectable so tests need not really wait. */
export interface Timing {
  /** Wall-clock ms (also used to turn a `Retry-After` HTTP date into a wait). Default Date.now. */
  now?: () => number;
  /** Default: a real, abortable setTimeout. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** In [0, 1). Default Math.random. */
  random?: () => number;
}

export interface ClientOptions {
  /** e.g. http://127.0.0.1:4318; a trailing slash or a path prefix is allowed. */
  baseUrl: string;
  /** Version 1 configuration key, sent as `X-Service-Team`. */
  configKey?: string;
  /** Version 2 management key `KEY_ID:KEY_SECRET`, sent as `Authorization: Bearer KEY_ID:KEY_SECRET`. */
  managementKey?: string;
  /** Explicit proxy URL; without it HTTPS_PROXY / HTTP_PROXY / NO_PROXY from the environment apply. */
  proxy?: string;
  /** Extra PEM CA certificates, trusted in addition to the bundled roots. */
  caCertificates?: string[];
  timeouts?: Timeouts;
  /** Cap on one response body in bytes. Default 32 MiB. */
  maxResponseBytes?: number;
  retry?: RetryOptions;
  onLog?: (e: RequestLogEntry) => void;
  timing?: Timing;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  attempts: number;
  rateLimit?: RateLimitInfo;
  /**
   * What did not match the spec in a response that was still usable (only createApiKey: its one-time secret
   * reaches the caller whatever else is odd). Field paths as in response-schema errors; no values.
   */
  oddities?: FieldProblem[];
  /**
   * Set on a create whose answer was lost (only createTrigger): the object was then found among the
   * service's own list, so it was created once, and this is how the service lists it.
   */
  recovered?: true;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Upper bound of `retry.maxAttempts`: retrying is bounded however the client is configured. */
export const MAX_ATTEMPTS_LIMIT = 10;

const waitMs = z.number().finite('must be a finite number of milliseconds').min(0, 'must be 0 or more milliseconds');
const timeoutMs = z
  .number()
  .finite('must be a finite number of milliseconds')
  .positive('must be more than 0 milliseconds');
/** The numeric options: a NaN, negative or unbounded value would silently disable a limit. */
const NumericOptions = z.object({
  retry: z
    .object({
      maxAttempts: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(MAX_ATTEMPTS_LIMIT, `must be at most ${MAX_ATTEMPTS_LIMIT}`)
        .optional(),
      baseDelayMs: waitMs.optional(),
      maxDelayMs: waitMs.optional(),
      maxTotalMs: waitMs.optional(),
    })
    .optional(),
  timeouts: z
    .object({
      connectMs: timeoutMs.optional(),
      headersMs: timeoutMs.optional(),
      bodyMs: timeoutMs.optional(),
      bodyTotalMs: timeoutMs.optional(),
    })
    .optional(),
  maxResponseBytes: z.number().int('must be a whole number of bytes').positive('must be more than 0 bytes').optional(),
});

/** Problems with the base URL (which must be absolute http(s), without credentials, query or fragment). */
export function baseUrlProblems(baseUrl: string): { url?: URL; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return {
      problems: [{ field: 'baseUrl', message: 'baseUrl must be an absolute URL such as https://api.example.com' }],
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    problems.push({ field: 'baseUrl', message: 'baseUrl must use http: or https:' });
  // Parts the client would otherwise drop without a word; a user name or password would never be sent.
  if (url.username !== '' || url.password !== '') {
    problems.push({
      field: 'baseUrl',
      message: 'baseUrl must not hold a user name or password: keys go in configKey and managementKey',
    });
  }
  if (url.search !== '' || url.hash !== '')
    problems.push({ field: 'baseUrl', message: 'baseUrl must not hold a query (?) or fragment (#)' });
  return { url, problems };
}

/** Problems with the numeric options (attempts, delays, timeouts, size cap). */
export function numericOptionProblems(
  opts: Pick<ClientOptions, 'retry' | 'timeouts' | 'maxResponseBytes'>,
): FieldProblem[] {
  const numbers = NumericOptions.safeParse({
    retry: opts.retry,
    timeouts: opts.timeouts,
    maxResponseBytes: opts.maxResponseBytes,
  });
  return numbers.success
    ? []
    : issuesToProblems(numbers.error.issues).map((p) => ({ ...p, message: `${p.field} ${p.message}` }));
}

/** The members of `o` that are set, so defaults spread under them are not overwritten with undefined. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
