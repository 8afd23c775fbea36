import type { Dispatcher } from 'undici';
import {
  baseUrlProblems,
  definedOnly,
  numericOptionProblems,
  DEFAULT_MAX_RESPONSE_BYTES,
  type ApiResponse,
  type CallOptions,
  type ClientOptions,
} from './clientOptions';
import { readCreatedKey } from './createdKey';
import { ENDPOINTS } from './endpoints';
import { errorText, ServiceError, type FieldProblem } from './errors';
import { cleanText, RequestPipeline } from './pipeline';
import { Redactor, secretsOf } from './redact';
import { RETRY_DEFAULTS, abortableSleep } from './retry';
import { createOnce } from './triggerCreate';
import {
  AccountRecipient,
  BurnAlert,
  Column,
  CreateApiKeyRequest,
  CreatedApiKeyDocument,
  CreateQueryRequest,
  CreateQueryResultRequest,
  CreateTriggerRequest,
  Dataset,
  DatasetDefinitions,
  DatasetSlug,
  DefinitionsDatasetSlug,
  ListBurnAlertsQuery,
  ListColumnsQuery,
  QueryAnnotation,
  QueryResult,
  ReplaceTriggerRequest,
  SavedQuery,
  Slo,
  Trigger,
  UpdateApiKeyRequest,
  UpdateBurnAlertRequest,
  UpdateDatasetDefinitionsRequest,
  UpdatedApiKeyDocument,
  pathParameter,
  withoutReadOnlyMembers,
  withoutTriggerReadOnly,
  type BurnAlertReadOnlyMembers,
} from './schemas';
import { TIMEOUT_DEFAULTS, createDispatcher, envProxyProblems, proxyProblem } from './transport';
import { RequestChecks } from './validation';

export {
  DEFAULT_MAX_RESPONSE_BYTES,
  MAX_ATTEMPTS_LIMIT,
  type ApiResponse,
  type CallOptions,
  type ClientOptions,
  type RequestLogEntry,
  type Timing,
} from './clientOptions';

/** Client of the service endpoints of spec part 4 (4.1-4.8). One keep-alive connection pool per client. */
export class ServiceClient {
  private readonly pipeline: RequestPipeline;

  constructor(opts: ClientOptions) {
    const redactor = new Redactor(secretsOf(opts));
    const { url, problems } = baseUrlProblems(opts.baseUrl);
    const proxyIssue = proxyProblem(opts.proxy);
    if (proxyIssue !== undefined) problems.push({ field: 'proxy', message: proxyIssue });
    if (opts.proxy === undefined || opts.proxy === '') {
      for (const message of envProxyProblems()) problems.push({ field: 'proxy', message });
    }
    problems.push(...numericOptionProblems(opts));
    const refusal = (found: FieldProblem[]): ServiceError =>
      new ServiceError({
        kind: 'request-validation',
        operation: 'configure client',
        message: `configure client failed: ${found.map((p) => p.message).join('; ')}`,
        fieldProblems: found,
      });
    if (problems.length > 0 || url === undefined) throw refusal(problems);
    const timeouts = { ...TIMEOUT_DEFAULTS, ...definedOnly(opts.timeouts ?? {}) };
    let dispatcher: Dispatcher;
    try {
      dispatcher = createDispatcher({ proxy: opts.proxy, caCertificates: opts.caCertificates, timeouts });
    } catch (e) {
      // e.g. a CA that is not PEM; undici's errors may quote the proxy URL, so only a redacted message is kept.
      const why = cleanText(redactor, errorText(e));
      throw refusal([{ field: 'transport', message: `the connection pool could not be set up: ${why}` }]);
    }
    this.pipeline = new RequestPipeline({
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ''),
      dispatcher,
      redactor,
      retry: { ...RETRY_DEFAULTS, ...definedOnly(opts.retry ?? {}) },
      timeouts,
      maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      now: opts.timing?.now ?? Date.now,
      sleep: opts.timing?.sleep ?? abortableSleep,
      random: opts.timing?.random ?? Math.random,
      keys: { configKey: opts.configKey, managementKey: opts.managementKey },
      onLog: opts.onLog,
    });
  }

  // --- 4.1, 4.2: API keys (version 2) ---------------------------------------------------------------

  /**
   * POST /2/teams/{team}/api-keys. Never retried: a repeat could create a second live key. The one-time
   * secret is the only member the response must hold: anything else odd in it comes back as `oddities`
   * next to the key, never as an error that would lose the secret.
   */
  async createApiKey(
    teamSlug: string,
    body: CreateApiKeyRequest,
    o?: CallOptions,
  ): Promise<ApiResponse<CreatedApiKeyDocument>> {
    const c = new RequestChecks();
    const team = c.segment('teamSlug', pathParameter('team slug'), teamSlug);
    const sent = c.body(CreateApiKeyRequest, body);
    const res = await this.pipeline.call(ENDPOINTS.createApiKey, c, `/2/teams/${team}/api-keys`, sent, o);
    // The pipeline sends only a body that passed its checks, so `sent` is set here.
    const { document, oddities } = readCreatedKey(res.data, sent ?? body, res.data.data.attributes.secret);
    if (oddities === undefined) return { ...res, data: document };
    return {
      ...res,
      data: document,
      oddities: oddities.map((p) => ({
        ...p,
        field: this.pipeline.clean(p.field),
        message: this.pipeline.clean(p.message),
      })),
    };
  }

  /** PATCH /2/teams/{team}/api-keys/{keyId}; `body.data.id` must equal `keyId`. */
  updateApiKey(
    teamSlug: string,
    keyId: string,
    body: UpdateApiKeyRequest,
    o?: CallOptions,
  ): Promise<ApiResponse<UpdatedApiKeyDocument>> {
    const c = new RequestChecks();
    const team = c.segment('teamSlug', pathParameter('team slug'), teamSlug);
    const id = c.segment('keyId', pathParameter('key id'), keyId);
    const sent = c.body(UpdateApiKeyRequest, body);
    if (sent !== undefined && typeof keyId === 'string' && sent.data.id !== keyId) {
      c.add({ field: 'data.id', code: 'mismatch', message: 'data.id must equal the key id in the path' });
    }
    return this.pipeline.call(ENDPOINTS.updateApiKey, c, `/2/teams/${team}/api-keys/${id}`, sent, o);
  }

  // --- 4.3, 4.4: burn alerts ------------------------------------------------------------------------

  /** GET /1/burn_alerts/{dataset}?slo_id= */
  listBurnAlerts(dataset: string, sloId: string, o?: CallOptions): Promise<ApiResponse<BurnAlert[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const query = c.query(ListBurnAlertsQuery, { slo_id: sloId });
    return this.pipeline.call(ENDPOINTS.listBurnAlerts, c, `/1/burn_alerts/${d}${query}`, undefined, o);
  }

  /**
   * GET /1/burn_alerts/{dataset}/{burnAlertId}: one alert with its recipients. Not in the spec; the service
   * serves it (service facts). Where it answers 404 or 405 the caller falls back to listBurnAlerts.
   */
  getBurnAlert(dataset: string, burnAlertId: string, o?: CallOptions): Promise<ApiResponse<BurnAlert>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('burnAlertId', pathParameter('burn alert id'), burnAlertId);
    return this.pipeline.call(ENDPOINTS.getBurnAlert, c, `/1/burn_alerts/${d}/${id}`, undefined, o);
  }

  /**
   * PUT /1/burn_alerts/{dataset}/{burnAlertId}. The alert's read-only members (id, slo, triggered,
   * created_at, updated_at) may be in `body`: the service ignores them, so they are left out, not refused.
   */
  updateBurnAlert(
    dataset: string,
    burnAlertId: string,
    body: UpdateBurnAlertRequest & BurnAlertReadOnlyMembers,
    o?: CallOptions,
  ): Promise<ApiResponse<BurnAlert>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('burnAlertId', pathParameter('burn alert id'), burnAlertId);
    const sent = c.body(UpdateBurnAlertRequest, withoutReadOnlyMembers(body));
    return this.pipeline.call(ENDPOINTS.updateBurnAlert, c, `/1/burn_alerts/${d}/${id}`, sent, o);
  }

  // --- 4.5: query results ---------------------------------------------------------------------------

  /**
   * POST /1/query_results/{dataset}. A result that is complete but carries an `error` rejects with kind
   * 'query-failed'. Retried only when the service certainly did not process it (429, connection refused).
   */
  async createQueryResult(
    dataset: string,
    body: CreateQueryResultRequest,
    o?: CallOptions,
  ): Promise<ApiResponse<QueryResult>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const sent = c.body(CreateQueryResultRequest, body);
    const res = await this.pipeline.call(ENDPOINTS.createQueryResult, c, `/1/query_results/${d}`, sent, o);
    return this.unlessFailed(res, ENDPOINTS.createQueryResult.operation);
  }

  /**
   * GET /1/query_results/{dataset}/{id} (beyond the spec, service facts): poll until `complete`. A complete
   * result with an `error` rejects with kind 'query-failed', as on create.
   */
  async getQueryResult(dataset: string, queryResultId: string, o?: CallOptions): Promise<ApiResponse<QueryResult>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('queryResultId', pathParameter('query result id'), queryResultId);
    const res = await this.pipeline.call(ENDPOINTS.getQueryResult, c, `/1/query_results/${d}/${id}`, undefined, o);
    return this.unlessFailed(res, ENDPOINTS.getQueryResult.operation);
  }

  private unlessFailed(res: ApiResponse<QueryResult>, operation: string): ApiResponse<QueryResult> {
    if (res.data.complete && res.data.error !== undefined && res.data.error !== null) {
      const reason = this.pipeline.clean(describeQueryError(res.data.error));
      throw new ServiceError({
        kind: 'query-failed',
        operation,
        message: `${operation} failed: the query failed: ${reason}`,
        status: res.status,
        detail: reason,
        attempts: res.attempts,
      });
    }
    return res;
  }

  // --- saved queries (beyond the spec, service facts) -----------------------------------------------

  /** POST /1/queries/{dataset}: saves a query specification (it is not run) and answers it with its id. */
  createQuery(dataset: string, body: CreateQueryRequest, o?: CallOptions): Promise<ApiResponse<SavedQuery>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const sent = c.body(CreateQueryRequest, body);
    return this.pipeline.call(ENDPOINTS.createQuery, c, `/1/queries/${d}`, sent, o);
  }

  /** GET /1/queries/{dataset}/{queryId}: one saved query. */
  getQuery(dataset: string, queryId: string, o?: CallOptions): Promise<ApiResponse<SavedQuery>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('queryId', pathParameter('query id'), queryId);
    return this.pipeline.call(ENDPOINTS.getQuery, c, `/1/queries/${d}/${id}`, undefined, o);
  }

  // --- 4.6: columns ---------------------------------------------------------------------------------

  /** GET /1/columns/{dataset} */
  listColumns(dataset: string, o?: CallOptions): Promise<ApiResponse<Column[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    return this.pipeline.call(ENDPOINTS.listColumns, c, `/1/columns/${d}`, undefined, o);
  }

  /** GET /1/columns/{dataset}?key_name= : one column; a missing column is an 'http' error with status 404. */
  getColumn(dataset: string, keyName: string, o?: CallOptions): Promise<ApiResponse<Column>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    // key_name is required here: without it the endpoint answers a list, not one column.
    const query = c.query(ListColumnsQuery.required(), { key_name: keyName });
    return this.pipeline.call(ENDPOINTS.getColumn, c, `/1/columns/${d}${query}`, undefined, o);
  }

  // --- 4.7: triggers --------------------------------------------------------------------------------

  /** GET /1/triggers/{dataset} */
  listTriggers(dataset: string, o?: CallOptions): Promise<ApiResponse<Trigger[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    return this.pipeline.call(ENDPOINTS.listTriggers, c, `/1/triggers/${d}`, undefined, o);
  }

  /** GET /1/triggers/{dataset}/{triggerId} (beyond the spec, service facts): one trigger, or 404. */
  getTrigger(dataset: string, triggerId: string, o?: CallOptions): Promise<ApiResponse<Trigger>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('triggerId', pathParameter('trigger id'), triggerId);
    return this.pipeline.call(ENDPOINTS.getTrigger, c, `/1/triggers/${d}/${id}`, undefined, o);
  }

  /**
   * POST /1/triggers/{dataset} (beyond the spec, service facts). Read-only members in `body` are left out.
   * Never repeated blindly: after an unknown outcome the dataset's triggers are listed and the new one of
   * that name (an id not in `knownIds`) holding what was sent is taken as the one sent (see triggerCreate.ts).
   * `knownIds` are the ids the dataset held before; without them they are listed first.
   */
  async createTrigger(
    dataset: string,
    body: CreateTriggerRequest,
    o?: CallOptions & { knownIds?: ReadonlySet<string> },
  ): Promise<ApiResponse<Trigger>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const sent = c.body(CreateTriggerRequest, withoutTriggerReadOnly(body));
    const post = () => this.pipeline.call(ENDPOINTS.createTrigger, c, `/1/triggers/${d}`, sent, o);
    if (c.problems.length > 0 || sent === undefined) return post(); // refused before sending, with the problems found
    const known = o?.knownIds ?? new Set((await this.listTriggers(dataset, o)).data.map((t) => t.id));
    return createOnce(sent, known, { post, list: () => this.listTriggers(dataset, o) });
  }

  /**
   * PUT /1/triggers/{dataset}/{triggerId} (beyond the spec, service facts): replaces the whole writable
   * trigger (a member left out is reset to its default), so `disabled` must be given. Read-only members in
   * `body` are left out. The service has no conditional write: read it first to see that it did not change.
   */
  replaceTrigger(
    dataset: string,
    triggerId: string,
    body: ReplaceTriggerRequest,
    o?: CallOptions,
  ): Promise<ApiResponse<Trigger>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('triggerId', pathParameter('trigger id'), triggerId);
    const sent = c.body(ReplaceTriggerRequest, withoutTriggerReadOnly(body));
    return this.pipeline.call(ENDPOINTS.replaceTrigger, c, `/1/triggers/${d}/${id}`, sent, o);
  }

  /** DELETE /1/triggers/{dataset}/{triggerId} (beyond the spec, service facts): 204; a trigger already gone is a 404 error. */
  deleteTrigger(dataset: string, triggerId: string, o?: CallOptions): Promise<ApiResponse<undefined>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    const id = c.segment('triggerId', pathParameter('trigger id'), triggerId);
    return this.pipeline.call(ENDPOINTS.deleteTrigger, c, `/1/triggers/${d}/${id}`, undefined, o);
  }

  // --- what the account holds (beyond the spec, service facts) ---------------------------------------

  /** GET /1/datasets: every dataset of the environment. */
  listDatasets(o?: CallOptions): Promise<ApiResponse<Dataset[]>> {
    return this.pipeline.call(ENDPOINTS.listDatasets, new RequestChecks(), '/1/datasets', undefined, o);
  }

  /** GET /1/slos/{dataset} (`__all__` for the environment's). */
  listSlos(dataset: string, o?: CallOptions): Promise<ApiResponse<Slo[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    return this.pipeline.call(ENDPOINTS.listSlos, c, `/1/slos/${d}`, undefined, o);
  }

  /** GET /1/recipients: the team's recipients, each with only what names it (never a credential, see AccountRecipient). */
  listRecipients(o?: CallOptions): Promise<ApiResponse<AccountRecipient[]>> {
    return this.pipeline.call(ENDPOINTS.listRecipients, new RequestChecks(), '/1/recipients', undefined, o);
  }

  /** GET /1/query_annotations/{dataset}: the dataset's named saved queries. */
  listQueryAnnotations(dataset: string, o?: CallOptions): Promise<ApiResponse<QueryAnnotation[]>> {
    const c = new RequestChecks();
    const d = c.segment('dataset', DatasetSlug, dataset);
    return this.pipeline.call(ENDPOINTS.listQueryAnnotations, c, `/1/query_annotations/${d}`, undefined, o);
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
    return this.pipeline.call(ENDPOINTS.updateDatasetDefinitions, c, `/1/dataset_definitions/${d}`, sent, o);
  }

  /** Closes the connection pool; later calls fail with kind 'network'. */
  async close(): Promise<void> {
    await this.pipeline.close();
  }
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
