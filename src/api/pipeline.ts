// The request pipeline of every endpoint: refusal before sending, auth headers, the bounded retry loop,
// and turning each response into data or one ServiceError. Everything service- or library-provided that
// reaches a message is redacted and bounded here.
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ApiResponse, CallOptions, ClientOptions, RequestLogEntry } from './clientOptions';
import { MEDIA_TYPE, type Endpoint } from './endpoints';
import { parseErrorBody } from './errorBody';
import { httpFailureMessage } from './refusal';
import { errorText, ServiceError, type FieldProblem } from './errors';
import type { Redactor } from './redact';
import {
  backoffDelay,
  headerValue,
  isRetryableNetworkCode,
  isRetryableStatus,
  parseRateLimit,
  serverRequestedDelay,
  type RetryOptions,
} from './retry';
import { BODY_TOTAL_TIMEOUT, sendOnce, type RawResponse, type Timeouts } from './transport';
import { validateResponse } from './passThrough';
import { issuesToProblems, type RequestChecks } from './validation';
import { errorCode, mayHaveBeenCarriedOut, readJson, safeMediaType, saidIn, summarise } from './responseWords';
import type { Failure } from '../result';

const TIMEOUT_CODES: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connecting took too long',
  UND_ERR_HEADERS_TIMEOUT: 'the service did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the response body stalled',
  [BODY_TOTAL_TIMEOUT]: 'the response body took too long',
};

const MAX_TEXT = 300;
const HEADER_SAFE = /^[\x21-\x7e]+$/;

type FailedAttempt = Failure<ServiceError> & { retryable: boolean; serverDelayMs?: number };
type Attempt<T> = { ok: true; response: ApiResponse<T> } | FailedAttempt;

/** After a failed attempt: another after `delayMs`, or none (with the delay the service asked for when it was too long to wait). */
type NextStep = { retry: true; delayMs: number } | { retry: false; retryAfterMs?: number };

/** A request as each of its attempts sends it; `logPath` is its path without the query string. */
interface Outgoing {
  fullPath: string;
  logPath: string;
  headers: Record<string, string>;
  payload: string | undefined;
  signal: AbortSignal | undefined;
}

/** The resolved configuration of a pipeline (ServiceClient checks and defaults it). */
export interface PipelineConfig {
  origin: string;
  basePath: string;
  dispatcher: Dispatcher;
  redactor: Redactor;
  retry: Required<RetryOptions>;
  timeouts: Required<Timeouts>;
  maxResponseBytes: number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  keys: Pick<ClientOptions, 'configKey' | 'managementKey'>;
  onLog?: ((e: RequestLogEntry) => void) | undefined;
}

export class RequestPipeline {
  private closed = false;

  constructor(private readonly cfg: PipelineConfig) {}

  /** Closes the connection pool; later calls fail with kind 'network'. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.cfg.dispatcher.close();
  }

  async call<T>(
    ep: Endpoint<T>,
    checks: RequestChecks,
    path: string,
    body: unknown,
    o?: CallOptions,
  ): Promise<ApiResponse<T>> {
    // Missing credentials are said first, then the request's own problems, a closed client and a cancelled call.
    const authHeader = this.authHeader(ep);
    this.refuseBeforeSending(ep.operation, checks, o?.signal);
    return this.sendWithRetries(ep, this.outgoing(ep, authHeader, path, body, o?.signal));
  }

  /** Throws the error of a call that must not be sent: problems found in the request, a closed client, a cancelled call. */
  private refuseBeforeSending(op: string, checks: RequestChecks, signal: AbortSignal | undefined): void {
    if (checks.problems.length > 0) {
      const problems = checks.problems.map((p) => ({
        ...p,
        field: this.clean(p.field),
        message: this.clean(p.message),
      }));
      throw new ServiceError({
        kind: 'request-validation',
        operation: op,
        message: `${op} refused before sending: ${summarise(problems)}`,
        fieldProblems: problems,
      });
    }
    if (this.closed) {
      throw new ServiceError({
        kind: 'network',
        operation: op,
        message: `${op} failed: the client is closed`,
        networkCode: 'CLIENT_CLOSED',
      });
    }
    if (signal?.aborted) throw this.aborted(op, 0);
  }

  /** The request as every attempt sends it: its path, headers and JSON body. */
  private outgoing(
    ep: Endpoint<unknown>,
    authHeader: Record<string, string>,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Outgoing {
    const media = MEDIA_TYPE[ep.version];
    const headers: Record<string, string> = { ...authHeader, accept: media, 'user-agent': 'obs-vscode' };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = media;
    const fullPath = this.cfg.basePath + path;
    return { fullPath, logPath: fullPath.split('?')[0] ?? fullPath, headers, payload, signal };
  }

  /** The bounded retry loop: each attempt logged, another made only when the attempt's failure allows it and time is left. */
  private async sendWithRetries<T>(ep: Endpoint<T>, req: Outgoing): Promise<ApiResponse<T>> {
    const op = ep.operation;
    const start = this.cfg.now();
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      const result = await this.attempt(ep, req);
      const durationMs = Math.round((performance.now() - t0) * 10) / 10;
      const status = result.ok ? result.response.status : result.reason.status;
      const entry: RequestLogEntry = {
        operation: op,
        method: ep.method,
        path: req.logPath,
        status,
        durationMs,
        attempt,
      };
      if (result.ok) {
        this.log(entry);
        return { ...result.response, attempts: attempt };
      }
      const next = this.nextStep(result, attempt, start);
      if (!next.retry) throw this.finalError(ep, result.reason, entry, next.retryAfterMs);
      this.log({ ...entry, error: result.reason.kind, retryInMs: next.delayMs });
      try {
        await this.cfg.sleep(next.delayMs, req.signal);
      } catch {
        throw this.aborted(op, attempt);
      }
      if (req.signal?.aborted) throw this.aborted(op, attempt);
    }
  }

  /** Whether to try again after a failed attempt, and after how long; the clock is read only when a retry is allowed. */
  private nextStep(failed: FailedAttempt, attempt: number, start: number): NextStep {
    if (!failed.retryable || attempt >= this.cfg.retry.maxAttempts) return { retry: false };
    const remaining = this.cfg.retry.maxTotalMs - (this.cfg.now() - start);
    if (failed.serverDelayMs !== undefined) {
      // The service said how long to wait; waiting less would only be refused again.
      if (failed.serverDelayMs > remaining) return { retry: false, retryAfterMs: failed.serverDelayMs };
      return { retry: true, delayMs: failed.serverDelayMs };
    }
    if (remaining <= 0) return { retry: false };
    return {
      retry: true,
      delayMs: Math.min(
        remaining,
        backoffDelay(attempt, this.cfg.retry.baseDelayMs, this.cfg.retry.maxDelayMs, this.cfg.random),
      ),
    };
  }

  /** The error a call ends with: logged, counting its attempts, and saying so when the service may have carried the request out. */
  private finalError(
    ep: Endpoint<unknown>,
    err: ServiceError,
    entry: RequestLogEntry,
    retryAfterMs: number | undefined,
  ): ServiceError {
    this.log({ ...entry, error: err.kind });
    const final = err.withAttempts(entry.attempt, retryAfterMs);
    const note = ep.unknownOutcomeNote;
    return note !== undefined && mayHaveBeenCarriedOut(final) ? final.withMaybeProcessed(note) : final;
  }

  private async attempt<T>(ep: Endpoint<T>, req: Outgoing): Promise<Attempt<T>> {
    const op = ep.operation;
    let raw: RawResponse;
    try {
      raw = await sendOnce(
        this.cfg.dispatcher,
        {
          origin: this.cfg.origin,
          path: req.fullPath,
          method: ep.method,
          headers: req.headers,
          body: req.payload,
          signal: req.signal,
        },
        this.cfg.maxResponseBytes,
        this.cfg.timeouts.bodyTotalMs,
      );
    } catch (e) {
      return this.sendFailure(ep, e, req.signal);
    }

    const { status, headers, text } = raw;
    if (status < 200 || status > 299) return this.httpFailure(ep, status, headers, text);
    // A call answered with no body (a delete's 204) has nothing to read; whatever a proxy may add is ignored.
    const json = ep.emptyResponse === true ? undefined : readJson(op, status, text, this.cfg.maxResponseBytes);
    if (json instanceof ServiceError) return { ok: false, reason: json, retryable: false };
    // Large lists whose elements all pass unchanged skip zod's copy (passThrough.ts); the rest is read
    // tolerantly by zod (a null in an optional member reads as absent, validation.ts).
    const parsed = validateResponse(ep.response, json);
    if (!parsed.success) {
      const problems = issuesToProblems(parsed.error.issues).map((p) =>
        this.cleanProblem({ ...p, field: p.field === '(body)' ? '(root)' : p.field }),
      );
      const error = new ServiceError({
        kind: 'response-schema',
        operation: op,
        message: `${op} (${ep.route}): unexpected response shape: ${summarise(problems)}`,
        status,
        fieldProblems: problems,
      });
      return { ok: false, reason: error, retryable: false };
    }
    const rateLimit = parseRateLimit(headerValue(headers, 'ratelimit'));
    return { ok: true, response: { data: parsed.data, status, attempts: 1, ...(rateLimit ? { rateLimit } : {}) } };
  }

  /** A request that got no response: cancelled, timed out or unable to reach the service; retryable as the endpoint's policy says of its code. */
  private sendFailure<T>(ep: Endpoint<T>, e: unknown, signal: AbortSignal | undefined): Attempt<T> {
    const op = ep.operation;
    if (signal?.aborted) return { ok: false, reason: this.aborted(op, 0), retryable: false };
    const code = errorCode(e);
    const retryable = isRetryableNetworkCode(ep.retry, code);
    const timeout = code !== undefined ? TIMEOUT_CODES[code] : undefined;
    if (timeout !== undefined) {
      const error = new ServiceError({
        kind: 'timeout',
        operation: op,
        message: `${op} failed: ${timeout} (${code})`,
        networkCode: code,
      });
      return { ok: false, reason: error, retryable };
    }
    const why = this.clean(errorText(e));
    const error = new ServiceError({
      kind: 'network',
      operation: op,
      message: `${op} failed: could not reach the service${code ? ` (${code})` : ''}: ${why}`,
      networkCode: code,
    });
    return { ok: false, reason: error, retryable };
  }

  private httpFailure<T>(
    ep: Endpoint<T>,
    status: number,
    headers: IncomingHttpHeaders,
    text: string | undefined,
  ): Attempt<T> {
    const op = ep.operation;
    const contentType = headerValue(headers, 'content-type');
    // Every string of the body is redacted as it is parsed (a field made from a JSON pointer is made from the
    // redacted pointer); then each string kept is cleaned.
    const redact = (s: string): string => this.cfg.redactor.redact(s);
    const parsed =
      text === undefined
        ? { shape: 'not-json' as const, fieldProblems: [] }
        : parseErrorBody(contentType, text, redact);
    const serverDelayMs = serverRequestedDelay(headers, this.cfg.now());
    const fieldProblems = parsed.fieldProblems.map((p) => this.cleanProblem(p));
    const title = this.cleanOpt(parsed.title);
    const detail = this.cleanOpt(parsed.detail);
    const code = this.cleanOpt(parsed.code);
    const type = this.cleanOpt(parsed.type);
    const message =
      parsed.shape === 'not-json'
        ? httpFailureMessage(op, status, undefined, `a ${safeMediaType(contentType)} page`)
        : httpFailureMessage(op, status, saidIn(title, detail, fieldProblems));
    const error = new ServiceError({
      kind: 'http',
      operation: op,
      message,
      status,
      bodyShape: parsed.shape,
      code,
      type,
      title,
      detail,
      fieldProblems,
      retryAfterMs: serverDelayMs,
    });
    return { ok: false, reason: error, retryable: isRetryableStatus(ep.retry, status), serverDelayMs };
  }

  /** Auth headers for an endpoint, or a 'missing-credentials' error before anything is sent. */
  private authHeader(ep: Endpoint<unknown>): Record<string, string> {
    const op = ep.operation;
    const fail = (message: string, field: string): never => {
      throw new ServiceError({
        kind: 'missing-credentials',
        operation: op,
        message: `${op} refused before sending: ${message}`,
        fieldProblems: [{ field, message }],
      });
    };
    if (ep.version === 2) {
      const key = this.cfg.keys.managementKey;
      if (key === undefined || key === '')
        return fail('no management key is set; the API key endpoints need one (KEY_ID:KEY_SECRET)', 'managementKey');
      const colon = key.indexOf(':');
      if (colon <= 0 || colon === key.length - 1)
        return fail('the management key must have the form KEY_ID:KEY_SECRET', 'managementKey');
      if (!HEADER_SAFE.test(key))
        return fail('the management key holds characters that cannot be sent in a header', 'managementKey');
      return { authorization: `Bearer ${key}` };
    }
    const key = this.cfg.keys.configKey;
    if (key === undefined || key === '')
      return fail('no configuration key is set; the version 1 endpoints need one', 'configKey');
    if (!HEADER_SAFE.test(key))
      return fail('the configuration key holds characters that cannot be sent in a header', 'configKey');
    return { 'x-service-team': key };
  }

  private aborted(op: string, attempts: number): ServiceError {
    return new ServiceError({ kind: 'aborted', operation: op, message: `${op} was cancelled`, attempts });
  }

  private log(e: RequestLogEntry): void {
    const hook = this.cfg.onLog;
    if (hook === undefined) return;
    try {
      hook({ ...e, path: this.cfg.redactor.redact(e.path) });
    } catch {
      // A failing log hook must not fail the request.
    }
  }

  /** Service- or library-provided text made safe for messages: secrets redacted, control characters dropped, bounded. */
  clean(text: string): string {
    return cleanText(this.cfg.redactor, text);
  }

  private cleanOpt(text: string | undefined): string | undefined {
    return text === undefined ? undefined : this.clean(text);
  }

  /** A field problem with every one of its strings cleaned (a member added to FieldProblem is added here). */
  private cleanProblem(p: FieldProblem): FieldProblem {
    return {
      field: this.clean(p.field),
      ...(p.code !== undefined ? { code: this.clean(p.code) } : {}),
      message: this.clean(p.message),
      ...(p.pointer !== undefined ? { pointer: this.clean(p.pointer) } : {}),
    };
  }
}

/** Text made safe for a message: secrets redacted, control characters dropped, bounded in length. */
export function cleanText(redactor: Redactor, text: string): string {
  const flat = redactor
    .redact(text)
    .replace(/\p{Cc}+/gu, ' ')
    .trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
}
