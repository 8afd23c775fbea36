// Running queries against the service: creating a result under the service's limit of 10 creations a
// minute (waiting visibly, never failing on it), polling it with backoff until complete, and saying
// plainly which call is not available where the service refuses one beyond the spec. Shared by the
// editor's queries and previews and by the backtest (editor and CLI). No vscode import.
import type { ApiResponse, CallOptions } from '../api/clientOptions';
import type { CreateQueryRequest, CreateQueryResultRequest, QueryResult, SavedQuery } from '../api/schemas';
import { asServiceError } from '../api/errors';
import { explainNotFound, type DatasetLookupApi } from './datasetCheck';
import * as l10n from '@vscode/l10n';

/** The client methods the queries feature uses (ServiceClient has them); a 404 is explained by looking at the datasets. */
export interface QueryApi extends DatasetLookupApi {
  createQuery(dataset: string, body: CreateQueryRequest, o?: CallOptions): Promise<ApiResponse<SavedQuery>>;
  getQuery(dataset: string, queryId: string, o?: CallOptions): Promise<ApiResponse<SavedQuery>>;
  createQueryResult(
    dataset: string,
    body: CreateQueryResultRequest,
    o?: CallOptions,
  ): Promise<ApiResponse<QueryResult>>;
  getQueryResult(dataset: string, queryResultId: string, o?: CallOptions): Promise<ApiResponse<QueryResult>>;
}

export interface RunnerClock {
  now(): number;
  /** Rejects when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** Creating query results is limited to 10 a minute (service facts). */
export const CREATIONS_PER_MINUTE = 10;
/**
 * Kept beyond the service's rolling minute: its clock and ours, and when it counts a creation, are not known
 * to the millisecond. Without it an 11th creation went out 59,994 ms after the first by the service's count.
 */
export const PACING_MARGIN_MS = 2_000;
const WINDOW_MS = 60_000 + PACING_MARGIN_MS;
/** Polling: first after 250 ms, then 1.6 times longer each time, at most 4 s apart, for at most 90 s. */
export const POLL = { firstMs: 250, factor: 1.6, maxMs: 4_000, giveUpMs: 90_000 } as const;
const MAX_RATE_LIMITED = 3;

/** A call beyond the spec that this service does not serve (403, 404 or 405). */
export class CallUnavailableError extends Error {
  readonly kind = 'call-unavailable';
  constructor(
    readonly what: string,
    readonly call: string,
    readonly status: number,
  ) {
    super(l10n.t('{0} Running a saved query by id still works.', unavailableText(what, call, status)));
    this.name = 'CallUnavailableError';
  }
}

/** "Saving a query is not available on this service: POST ... answered 404 (not found)." */
function unavailableText(what: string, call: string, status: number): string {
  if (status === 403)
    return l10n.t(
      '{0} is not available on this service: {1} answered {2} (the key lacks the permission).',
      what,
      call,
      status,
    );
  if (status === 404)
    return l10n.t('{0} is not available on this service: {1} answered {2} (not found).', what, call, status);
  return l10n.t('{0} is not available on this service: {1} answered {2} (method not allowed).', what, call, status);
}

export function isCallUnavailable(err: unknown): err is CallUnavailableError {
  return err instanceof Error && (err as { kind?: unknown }).kind === 'call-unavailable';
}

/** The 403/404/405 of a call beyond the spec as a CallUnavailableError; anything else as it was. */
export function unavailableOr(err: unknown, what: string, call: string): unknown {
  const se = asServiceError(err);
  if (se && se.kind === 'http' && (se.status === 403 || se.status === 404 || se.status === 405))
    return new CallUnavailableError(what, call, se.status);
  return err;
}

/**
 * Paces result creations per connection: at most 10 in any 60 s and a margin, so the service's limit is met
 * by a wait the user sees ("Waiting 23 s: ..."), not by a 429. A creation counts from when it was answered
 * (the service counted it at some moment before), so the 11th goes out 60 s and the margin after the service
 * answered the first, however long the first took to arrive. A 429 that still comes (other clients of the
 * team) blocks creations until its Retry-After.
 */
export class CreationPacer {
  /** When each creation of the last minute went out, then when it was answered. */
  private stamps: { at: number }[] = [];
  private blockedUntil = 0;

  constructor(
    private readonly clock: RunnerClock,
    private readonly limit = CREATIONS_PER_MINUTE,
  ) {}

  /** Waits for a creation's turn; call what it returns when the creation is answered (or failed). */
  async take(signal: AbortSignal, onWait: (seconds: number) => void): Promise<() => void> {
    for (;;) {
      const now = this.clock.now();
      this.stamps = this.stamps.filter((s) => s.at > now - WINDOW_MS);
      const until = Math.max(this.blockedUntil, this.turnAfter());
      if (until <= now) {
        const stamp = { at: now };
        this.stamps.push(stamp);
        return () => {
          stamp.at = Math.max(stamp.at, this.clock.now());
        };
      }
      const wait = until - now;
      onWait(Math.ceil(wait / 1000));
      await this.clock.sleep(Math.min(wait, 1_000), signal);
    }
  }

  /** When the window holds fewer than `limit` creations again (0 when it does now). */
  private turnAfter(): number {
    if (this.stamps.length < this.limit) return 0;
    // Creations may be answered out of the order they went out in: the one that leaves the window last but limit-1.
    const ats = this.stamps.map((s) => s.at).sort((a, b) => a - b);
    return (ats[ats.length - this.limit] as number) + WINDOW_MS;
  }

  block(untilMs: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, untilMs);
  }
}

export type RunOutcome =
  | { kind: 'complete'; result: QueryResult; polls: number }
  | { kind: 'incomplete'; result: QueryResult; polls: number; reason: string };

export interface RunArgs {
  dataset: string;
  body: CreateQueryResultRequest;
  signal: AbortSignal;
  /** Progress text for the user ("Waiting for the result..."). */
  report(message: string): void;
}

/**
 * Creates a query result and polls it until it is complete. A failed query rejects with the client's
 * 'query-failed' error (the service's text); a 404 for a dataset the service does not have rejects with a
 * DatasetMissingError; a result that cannot be checked again (GET answered 403,
 * 404 or 405) or is not complete in time comes back as 'incomplete' with the reason.
 */
export async function runQueryResult(
  api: QueryApi,
  pacer: CreationPacer,
  clock: RunnerClock,
  args: RunArgs,
): Promise<RunOutcome> {
  const { dataset, body, signal, report } = args;
  let created: QueryResult | undefined;
  for (let attempt = 1; created === undefined; attempt++) {
    const answered = await pacer.take(signal, (s) =>
      report(l10n.t('Waiting {0} s: the service runs at most {1} queries a minute...', s, CREATIONS_PER_MINUTE)),
    );
    report(l10n.t('Starting the query...'));
    try {
      created = (await api.createQueryResult(dataset, body, { signal })).data;
      answered();
    } catch (err) {
      answered();
      const se = asServiceError(err);
      if (!se || se.kind !== 'http' || se.status !== 429 || attempt >= MAX_RATE_LIMITED)
        throw await explainNotFound(api, dataset, err, signal);
      pacer.block(clock.now() + (se.retryAfterMs ?? WINDOW_MS));
    }
  }
  const started = clock.now();
  let result = created;
  let delay: number = POLL.firstMs;
  let polls = 0;
  while (!result.complete) {
    const waited = clock.now() - started;
    if (waited >= POLL.giveUpMs) {
      return {
        kind: 'incomplete',
        result,
        polls,
        reason: l10n.t(
          'The result was not complete after {0} s. Open it in the browser, or run it again.',
          Math.round(waited / 1000),
        ),
      };
    }
    report(l10n.t('Waiting for result {0} ({1} s)...', result.id, Math.round(waited / 1000)));
    await clock.sleep(delay, signal);
    delay = Math.min(POLL.maxMs, delay * POLL.factor);
    polls++;
    try {
      result = (await api.getQueryResult(dataset, result.id, { signal })).data;
    } catch (err) {
      const e = unavailableOr(
        err,
        l10n.t('Checking a query result again'),
        `GET /1/query_results/${dataset}/${result.id}`,
      );
      if (isCallUnavailable(e))
        return {
          kind: 'incomplete',
          result,
          polls,
          reason: l10n.t('{0} The result may be ready in the browser.', unavailableText(e.what, e.call, e.status)),
        };
      throw e;
    }
  }
  return { kind: 'complete', result, polls };
}

/** The clock of a process: real time, and sleeps that end early, rejecting, when the signal aborts. */
export const systemClock: RunnerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new DOMException('cancelled', 'AbortError'));
      const onAbort = () => {
        clearTimeout(timer);
        reject(new DOMException('cancelled', 'AbortError'));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};
