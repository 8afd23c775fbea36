import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';
import * as z from 'zod';
import {
  BurnAlert,
  BurnAlertList,
  Column,
  ColumnList,
  CreateApiKeyRequest,
  CreatedApiKeyDocument,
  CreateQueryResultRequest,
  DatasetDefinitions,
  DatasetSlug,
  DefinitionsDatasetSlug,
  ListBurnAlertsQuery,
  ListColumnsQuery,
  QueryResult,
  Trigger,
  TriggerList,
  UpdateApiKeyRequest,
  UpdateBurnAlertRequest,
  UpdateDatasetDefinitionsRequest,
  UpdatedApiKeyDocument,
  pathParameter,
} from './schemas';
import { parseErrorBody } from './errorBody';
import { ServiceError, type FieldProblem, type ServiceErrorKind } from './errors';
import { Redactor, secretsOf } from './redact';
import {
  RETRY_DEFAULTS,
  abortableSleep,
  backoffDelay,
  headerValue,
  isRetryableNetworkCode,
  isRetryableStatus,
  maybeProcessed,
  parseRateLimit,
  serverRequestedDelay,
  type RateLimitInfo,
  type RetryOptions,
  type RetryPolicy,
} from './retry';
import { BODY_TOTAL_TIMEOUT, TIMEOUT_DEFAULTS, createDispatcher, envProxyProblems, proxyProblem, sendOnce, type RawResponse, type Timeouts } from './transport';
import { RequestChecks, issuesToProblems } from './validation';

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
}

export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

interface Endpoint<T> {
  operation: string;
  method: Method;
  version: 1 | 2;
  /** Shown in response-schema errors so the endpoint is named. */
  route: string;
  retry: RetryPolicy;
  response: z.ZodType<T>;
}

const endpoint = <T>(e: Endpoint<T>): Endpoint<T> => e;

// One entry per endpoint of spec part 4.
const ENDPOINTS = {
  createApiKey: endpoint({ operation: 'create API key', method: 'POST', version: 2, route: 'POST /2/teams/{team}/api-keys', retry: 'never', response: CreatedApiKeyDocument }),
  updateApiKey: endpoint({ operation: 'update API key', method: 'PATCH', version: 2, route: 'PATCH /2/teams/{team}/api-keys/{id}', retry: 'idempotent', response: UpdatedApiKeyDocument }),
  listBurnAlerts: endpoint({ operation: 'list burn alerts', method: 'GET', version: 1, route: 'GET /1/burn_alerts/{dataset}?slo_id=', retry: 'idempotent', response: BurnAlertList }),
  updateBurnAlert: endpoint({ operation: 'update burn alert', method: 'PUT', version: 1, route: 'PUT /1/burn_alerts/{dataset}/{id}', retry: 'idempotent', response: BurnAlert }),
  createQueryResult: endpoint({ operation: 'create query result', method: 'POST', version: 1, route: 'POST /1/query_results/{dataset}', retry: 'unprocessed-only', response: QueryResult }),
  listColumns: endpoint({ operation: 'list columns', method: 'GET', version: 1, route: 'GET /1/columns/{dataset}', retry: 'idempotent', response: ColumnList }),
  getColumn: endpoint({ operation: 'get column', method: 'GET', version: 1, route: 'GET /1/columns/{dataset}?key_name=', retry: 'idempotent', response: Column }),
  listTriggers: endpoint({ operation: 'list triggers', method: 'GET', version: 1, route: 'GET /1/triggers/{dataset}', retry: 'idempotent', response: TriggerList }),
  updateDatasetDefinitions: endpoint({ operation: 'update dataset definitions', method: 'PATCH', version: 1, route: 'PATCH /1/dataset_definitions/{dataset}', retry: 'idempotent', response: DatasetDefinitions }),
} as const;

const MEDIA_TYPE = { 1: 'application/json', 2: 'application/vnd.api+json' } as const;

const STATUS_LABELS: Record<number, string> = {
  400: 'the service could not parse the request',
  401: 'the key is missing, wrong or revoked',
  403: 'the key lacks the permission for this',
  404: 'not found',
  409: 'conflict',
  413: 'the request body is too large',
  415: 'unsupported content type',
  422: 'validation failed',
  429: 'rate limited',
  500: 'the service failed',
  502: 'bad gateway',
  503: 'the service is unavailable',
  504: 'gateway timeout',
};

const TIMEOUT_CODES: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'connecting took too long',
  UND_ERR_HEADERS_TIMEOUT: 'the service did not answer in time',
  UND_ERR_BODY_TIMEOUT: 'the response body stalled',
  [BODY_TOTAL_TIMEOUT]: 'the response body took too long',
};

const MAX_TEXT = 300;
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** Upper bound of `retry.maxAttempts`: retrying is bounded however the client is configured. */
export const MAX_ATTEMPTS_LIMIT = 10;

const waitMs = z.number().finite('must be a finite number of milliseconds').min(0, 'must be 0 or more milliseconds');
const timeoutMs = z.number().finite('must be a finite number of milliseconds').positive('must be more than 0 milliseconds');
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
    .object({ connectMs: timeoutMs.optional(), headersMs: timeoutMs.optional(), bodyMs: timeoutMs.optional(), bodyTotalMs: timeoutMs.optional() })
    .optional(),
  maxResponseBytes: z.number().int('must be a whole number of bytes').positive('must be more than 0 bytes').optional(),
});

const MAYBE_CREATED_NOTE = "the key may have been created anyway: check the team's API keys before creating it again";

type Attempt<T> =
  | { ok: true; response: ApiResponse<T> }
  | { ok: false; error: ServiceError; retryable: boolean; serverDelayMs?: number };

/** Client of the service endpoints of spec part 4 (4.1-4.8). One keep-alive connection pool per client. */
export class ServiceClient {
  private readonly origin: string;
  private readonly basePath: string;
  private readonly dispatcher: Dispatcher;
  private readonly redactor: Redactor;
  private readonly retry: Required<RetryOptions>;
  private readonly maxResponseBytes: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly timeouts: Required<Timeouts>;
  private closed = false;

  constructor(private readonly opts: ClientOptions) {
    this.redactor = new Redactor(secretsOf(opts));
    const problems: FieldProblem[] = [];
    let url: URL | undefined;
    try {
      url = new URL(opts.baseUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push({ field: 'baseUrl', message: 'baseUrl must use http: or https:' });
      // Parts the client would otherwise drop without a word; a user name or password would never be sent.
      if (url.username !== '' || url.password !== '') {
        problems.push({ field: 'baseUrl', message: 'baseUrl must not hold a user name or password: keys go in configKey and managementKey' });
      }
      if (url.search !== '' || url.hash !== '') problems.push({ field: 'baseUrl', message: 'baseUrl must not hold a query (?) or fragment (#)' });
    } catch {
      problems.push({ field: 'baseUrl', message: 'baseUrl must be an absolute URL such as https://api.example.com' });
    }
    const proxyIssue = proxyProblem(opts.proxy);
    if (proxyIssue !== undefined) problems.push({ field: 'proxy', message: proxyIssue });
    if (opts.proxy === undefined || opts.proxy === '') {
      for (const message of envProxyProblems()) problems.push({ field: 'proxy', message });
    }
    const numbers = NumericOptions.safeParse({ retry: opts.retry, timeouts: opts.timeouts, maxResponseBytes: opts.maxResponseBytes });
    if (!numbers.success) {
      problems.push(...issuesToProblems(numbers.error.issues).map((p) => ({ ...p, message: `${p.field} ${p.message}` })));
    }
    const refusal = (): ServiceError =>
      new ServiceError({
        kind: 'request-validation',
        operation: 'configure client',
        message: `configure client failed: ${problems.map((p) => p.message).join('; ')}`,
        fieldProblems: problems,
      });
    if (problems.length > 0 || url === undefined) throw refusal();
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.retry = { ...RETRY_DEFAULTS, ...definedOnly(opts.retry ?? {}) };
    this.timeouts = { ...TIMEOUT_DEFAULTS, ...definedOnly(opts.timeouts ?? {}) };
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.now = opts.timing?.now ?? Date.now;
    this.sleep = opts.timing?.sleep ?? abortableSleep;
    this.random = opts.timing?.random ?? Math.random;
    try {
      this.dispatcher = createDispatcher({ proxy: opts.proxy, caCertificates: opts.caCertificates, timeouts: this.timeouts });
    } catch (e) {
      // e.g. a CA that is not PEM; undici's errors may quote the proxy URL, so only a redacted message is kept.
      problems.push({ field: 'transport', message: `the connection pool could not be set up: ${this.clean(e instanceof Error ? e.message : String(e))}` });
      throw refusal();
    }
  }

  // --- 4.1, 4.2: API keys (version 2) ---------------------------------------------------------------

  /** POST /2/teams/{team}/api-keys. Never retried: a repeat could create a second live key. */
  createApiKey(teamSlug: string, body: CreateApiKeyRequest, o?: CallOptions): Promise<ApiResponse<CreatedApiKeyDocument>> {
    const c = new RequestChecks();
    const team = c.segment('teamSlug', pathParameter('team slug'), teamSlug);
    const sent = c.body(CreateApiKeyRequest, body);
    return this.call(ENDPOINTS.createApiKey, c, `/2/teams/${team}/api-keys`, sent, o);
  }

  /** PATCH /2/teams/{team}/api-keys/{keyId}; `body.data.id` must equal `keyId`. */
  updateApiKey(teamSlug: string, keyId: string, body: UpdateApiKeyRequest, o?: CallOptions): Promise<ApiResponse<UpdatedApiKeyDocument>> {
    const c = new RequestChecks();
    const team = c.segment('teamSlug', pathParameter('team slug'), teamSlug);
    const id = c.segment('keyId', pathParameter('key id'), keyId);
    const sent = c.body(UpdateApiKeyRequest, body);
    if (sent !== undefined && typeof keyId === 'string' && sent.data.id !== keyId) {
      c.add({ field: 'data.id', code: 'mismatch', message: 'data.id must equal the key id in the path' });
    }
    return this.call(ENDPOINTS.updateApiKey, c, `/2/teams/${team}/api-keys/${id}`, sent, o);
  }

  // --- 4.3, 4.4: burn alerts ------------------------------------------------------------------------

  /** GET /1/burn_alerts/{dataset}?slo_id= */
  listBurnAlerts(dataset: string, sloId: string, o?: CallOptions): Promise<ApiResponse<BurnAlert[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const query = c.query(ListBurnAlertsQuery, { slo_id: sloId });
    return this.call(ENDPOINTS.listBurnAlerts, c, `/1/burn_alerts/${d}${query}`, undefined, o);
  }

  /** PUT /1/burn_alerts/{dataset}/{burnAlertId} */
  updateBurnAlert(dataset: string, burnAlertId: string, body: UpdateBurnAlertRequest, o?: CallOptions): Promise<ApiResponse<BurnAlert>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('burnAlertId', pathParameter('burn alert id'), burnAlertId);
    const sent = c.body(UpdateBurnAlertRequest, body);
    return this.call(ENDPOINTS.updateBurnAlert, c, `/1/burn_alerts/${d}/${id}`, sent, o);
  }

  // --- 4.5: query results ---------------------------------------------------------------------------

  /**
   * POST /1/query_results/{dataset}. A result that is complete but carries an `error` rejects with kind
   * 'query-failed'. Retried only when the service certainly did not process it (429, connection refused).
   */
  async createQueryResult(dataset: string, body: CreateQueryResultRequest, o?: CallOptions): Promise<ApiResponse<QueryResult>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const sent = c.body(CreateQueryResultRequest, body);
    const res = await this.call(ENDPOINTS.createQueryResult, c, `/1/query_results/${d}`, sent, o);
    if (res.data.complete && res.data.error !== undefined && res.data.error !== null) {
      const reason = this.clean(describeQueryError(res.data.error));
      throw new ServiceError({
        kind: 'query-failed',
        operation: ENDPOINTS.createQueryResult.operation,
        message: `create query result failed: the query failed: ${reason}`,
        status: res.status,
        detail: reason,
        attempts: res.attempts,
      });
    }
    return res;
  }

  // --- 4.6: columns ---------------------------------------------------------------------------------

  /** GET /1/columns/{dataset} */
  listColumns(dataset: string, o?: CallOptions): Promise<ApiResponse<Column[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    return this.call(ENDPOINTS.listColumns, c, `/1/columns/${d}`, undefined, o);
  }

  /** GET /1/columns/{dataset}?key_name= : one column; a missing column is an 'http' error with status 404. */
  getColumn(dataset: string, keyName: string, o?: CallOptions): Promise<ApiResponse<Column>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    // key_name is required here: without it the endpoint answers a list, not one column.
    const query = c.query(ListColumnsQuery.required(), { key_name: keyName });
    return this.call(ENDPOINTS.getColumn, c, `/1/columns/${d}${query}`, undefined, o);
  }

  // --- 4.7: triggers --------------------------------------------------------------------------------

  /** GET /1/triggers/{dataset} */
  listTriggers(dataset: string, o?: CallOptions): Promise<ApiResponse<Trigger[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    return this.call(ENDPOINTS.listTriggers, c, `/1/triggers/${d}`, undefined, o);
  }

  // --- 4.8: dataset definitions ---------------------------------------------------------------------

  /** PATCH /1/dataset_definitions/{dataset}; refuses the environment-wide `__all__`. */
  updateDatasetDefinitions(
    dataset: string,
    body: UpdateDatasetDefinitionsRequest,
    o?: CallOptions,
  ): Promise<ApiResponse<DatasetDefinitions>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DefinitionsDatasetSlug, dataset);
    const sent = c.body(UpdateDatasetDefinitionsRequest, body);
    return this.call(ENDPOINTS.updateDatasetDefinitions, c, `/1/dataset_definitions/${d}`, sent, o);
  }

  /** Closes the connection pool; later calls fail with kind 'network'. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.dispatcher.close();
  }

  // --- the request pipeline -------------------------------------------------------------------------

  private async call<T>(ep: Endpoint<T>, checks: RequestChecks, path: string, body: unknown, o?: CallOptions): Promise<ApiResponse<T>> {
    const op = ep.operation;
    const authHeader = this.authHeader(ep);
    if (checks.problems.length > 0) {
      const problems = checks.problems.map((p) => ({ ...p, field: this.clean(p.field), message: this.clean(p.message) }));
      throw new ServiceError({
        kind: 'request-validation',
        operation: op,
        message: `${op} refused before sending: ${summarise(problems)}`,
        fieldProblems: problems,
      });
    }
    if (this.closed) {
      throw new ServiceError({ kind: 'network', operation: op, message: `${op} failed: the client is closed`, networkCode: 'CLIENT_CLOSED' });
    }
    const signal = o?.signal;
    if (signal?.aborted) throw this.aborted(op, 0);

    const media = MEDIA_TYPE[ep.version];
    const headers: Record<string, string> = { ...authHeader, accept: media, 'user-agent': 'obs-vscode' };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) headers['content-type'] = media;
    const fullPath = this.basePath + path;
    const logPath = fullPath.split('?')[0] ?? fullPath;

    const start = this.now();
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      const result = await this.attempt(ep, { fullPath, headers, payload, signal });
      const durationMs = Math.round((performance.now() - t0) * 10) / 10;
      const status = result.ok ? result.response.status : result.error.status;
      if (result.ok) {
        this.log({ operation: op, method: ep.method, path: logPath, status, durationMs, attempt });
        return { ...result.response, attempts: attempt };
      }
      const err = result.error;
      const giveUp = (retryAfterMs?: number): ServiceError => {
        this.log({ operation: op, method: ep.method, path: logPath, status, durationMs, attempt, error: err.kind });
        const final = err.withAttempts(attempt, retryAfterMs);
        return ep.retry === 'never' && mayHaveBeenCarriedOut(final) ? final.withMaybeProcessed(MAYBE_CREATED_NOTE) : final;
      };
      if (!result.retryable || attempt >= this.retry.maxAttempts) throw giveUp();
      const remaining = this.retry.maxTotalMs - (this.now() - start);
      let delay: number;
      if (result.serverDelayMs !== undefined) {
        // The service said how long to wait; waiting less would only be refused again.
        if (result.serverDelayMs > remaining) throw giveUp(result.serverDelayMs);
        delay = result.serverDelayMs;
      } else {
        if (remaining <= 0) throw giveUp();
        delay = Math.min(remaining, backoffDelay(attempt, this.retry.baseDelayMs, this.retry.maxDelayMs, this.random));
      }
      this.log({ operation: op, method: ep.method, path: logPath, status, durationMs, attempt, error: err.kind, retryInMs: delay });
      try {
        await this.sleep(delay, signal);
      } catch {
        throw this.aborted(op, attempt);
      }
      if (signal?.aborted) throw this.aborted(op, attempt);
    }
  }

  private async attempt<T>(
    ep: Endpoint<T>,
    req: { fullPath: string; headers: Record<string, string>; payload: string | undefined; signal: AbortSignal | undefined },
  ): Promise<Attempt<T>> {
    const op = ep.operation;
    let raw: RawResponse;
    try {
      raw = await sendOnce(
        this.dispatcher,
        { origin: this.origin, path: req.fullPath, method: ep.method, headers: req.headers, body: req.payload, signal: req.signal },
        this.maxResponseBytes,
        this.timeouts.bodyTotalMs,
      );
    } catch (e) {
      if (req.signal?.aborted) return { ok: false, error: this.aborted(op, 0), retryable: false };
      const code = errorCode(e);
      const retryable = isRetryableNetworkCode(ep.retry, code);
      const timeout = code !== undefined ? TIMEOUT_CODES[code] : undefined;
      if (timeout !== undefined) {
        const error = new ServiceError({ kind: 'timeout', operation: op, message: `${op} failed: ${timeout} (${code})`, networkCode: code });
        return { ok: false, error, retryable };
      }
      const why = this.clean(e instanceof Error ? e.message : String(e));
      const error = new ServiceError({
        kind: 'network',
        operation: op,
        message: `${op} failed: could not reach the service${code ? ` (${code})` : ''}: ${why}`,
        networkCode: code,
      });
      return { ok: false, error, retryable };
    }

    const { status, headers, text } = raw;
    if (status < 200 || status > 299) return this.httpFailure(ep, status, headers, text);
    if (text === undefined) {
      const error = new ServiceError({
        kind: 'too-large',
        operation: op,
        message: `${op} failed: the response is larger than ${this.maxResponseBytes} bytes`,
        status,
      });
      return { ok: false, error, retryable: false };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const error = new ServiceError({ kind: 'bad-body', operation: op, message: `${op} failed: the service sent a body that is not valid JSON (HTTP ${status})`, status });
      return { ok: false, error, retryable: false };
    }
    const parsed = ep.response.safeParse(json);
    if (!parsed.success) {
      const problems = issuesToProblems(parsed.error.issues).map((p) => ({ ...p, field: p.field === '(body)' ? '(root)' : p.field, message: this.clean(p.message) }));
      const error = new ServiceError({
        kind: 'response-schema',
        operation: op,
        message: `${op} (${ep.route}): unexpected response shape: ${summarise(problems)}`,
        status,
        fieldProblems: problems,
      });
      return { ok: false, error, retryable: false };
    }
    const rateLimit = parseRateLimit(headerValue(headers, 'ratelimit'));
    return { ok: true, response: { data: parsed.data, status, attempts: 1, ...(rateLimit ? { rateLimit } : {}) } };
  }

  private httpFailure<T>(ep: Endpoint<T>, status: number, headers: IncomingHttpHeaders, text: string | undefined): Attempt<T> {
    const op = ep.operation;
    const contentType = headerValue(headers, 'content-type');
    const parsed = text === undefined ? { shape: 'not-json' as const, fieldProblems: [] } : parseErrorBody(contentType, text);
    const serverDelayMs = serverRequestedDelay(headers, this.now());
    const fieldProblems = parsed.fieldProblems.map((p) => ({
      ...p,
      field: this.clean(p.field),
      message: this.clean(p.message),
      ...(p.code !== undefined ? { code: this.clean(p.code) } : {}),
    }));
    const title = this.cleanOpt(parsed.title);
    const detail = this.cleanOpt(parsed.detail);
    const code = this.cleanOpt(parsed.code);
    const type = this.cleanOpt(parsed.type);
    let message = `${op} failed: HTTP ${status} ${title ?? STATUS_LABELS[status] ?? ''}`.trimEnd();
    if (parsed.shape === 'not-json') {
      message += ` (the service sent a ${safeMediaType(contentType)} body instead of a JSON error)`;
    } else {
      if (detail !== undefined && detail !== title) message += `: ${detail}`;
      if (fieldProblems.length > 0) message += ` [${summarise(fieldProblems)}]`;
    }
    const error = new ServiceError({
      kind: 'http',
      operation: op,
      message,
      status,
      code,
      type,
      title,
      detail,
      fieldProblems,
      retryAfterMs: serverDelayMs,
    });
    return { ok: false, error, retryable: isRetryableStatus(ep.retry, status), serverDelayMs };
  }

  /** Auth headers for an endpoint, or a 'missing-credentials' error before anything is sent. */
  private authHeader(ep: Endpoint<unknown>): Record<string, string> {
    const op = ep.operation;
    const fail = (message: string, field: string): never => {
      throw new ServiceError({ kind: 'missing-credentials', operation: op, message: `${op} refused before sending: ${message}`, fieldProblems: [{ field, message }] });
    };
    if (ep.version === 2) {
      const key = this.opts.managementKey;
      if (key === undefined || key === '') return fail('no management key is set; the API key endpoints need one (KEY_ID:KEY_SECRET)', 'managementKey');
      const colon = key.indexOf(':');
      if (colon <= 0 || colon === key.length - 1) return fail('the management key must have the form KEY_ID:KEY_SECRET', 'managementKey');
      if (!HEADER_SAFE.test(key)) return fail('the management key holds characters that cannot be sent in a header', 'managementKey');
      return { authorization: `Bearer ${key}` };
    }
    const key = this.opts.configKey;
    if (key === undefined || key === '') return fail('no configuration key is set; the version 1 endpoints need one', 'configKey');
    if (!HEADER_SAFE.test(key)) return fail('the configuration key holds characters that cannot be sent in a header', 'configKey');
    return { 'x-service-team': key };
  }

  private aborted(op: string, attempts: number): ServiceError {
    return new ServiceError({ kind: 'aborted', operation: op, message: `${op} was cancelled`, attempts });
  }

  private log(e: RequestLogEntry): void {
    const hook = this.opts.onLog;
    if (hook === undefined) return;
    try {
      hook({ ...e, path: this.redactor.redact(e.path) });
    } catch {
      // A failing log hook must not fail the request.
    }
  }

  /** Service- or library-provided text made safe for messages: secrets redacted, control characters dropped, bounded. */
  private clean(text: string): string {
    const flat = this.redactor.redact(text).replace(/\p{Cc}+/gu, ' ').trim();
    return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
  }

  private cleanOpt(text: string | undefined): string | undefined {
    return text === undefined ? undefined : this.clean(text);
  }
}

/** Whether the service may have carried out a request that ended in this error. */
function mayHaveBeenCarriedOut(e: ServiceError): boolean {
  switch (e.kind) {
    case 'network':
    case 'timeout':
      return maybeProcessed(e.networkCode);
    case 'aborted':
      return e.attempts > 0;
    case 'http':
      return e.status !== undefined && e.status >= 500;
    case 'response-schema':
    case 'bad-body':
    case 'too-large':
      return true;
    default:
      return false;
  }
}

function summarise(problems: readonly FieldProblem[]): string {
  const shown = problems.slice(0, 3).map((p) => (p.field ? `${p.field}: ${p.message}` : p.message));
  const more = problems.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

function safeMediaType(contentType: string | undefined): string {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(media) ? media : 'non-JSON';
}

function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (e as { cause?: unknown }).cause;
  return cause !== e ? errorCode(cause) : undefined;
}

function describeQueryError(error: unknown): string {
  if (typeof error === 'string' && error.trim() !== '') return error;
  if (typeof error === 'object' && error !== null) {
    for (const key of ['message', 'detail', 'error', 'title'] as const) {
      const v = (error as Record<string, unknown>)[key];
      if (typeof v === 'string' && v.trim() !== '') return v;
    }
  }
  return 'the service gave no reason';
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
