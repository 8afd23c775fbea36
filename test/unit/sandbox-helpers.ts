// Shared fixtures of the sandbox-*.test.ts files: raw HTTP (undici, never the project's client), so every
// assertion is about what the sandbox itself answers.
import assert from 'node:assert/strict';
import { request, type Dispatcher } from 'undici';
import { DEMO, startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  contentType: string;
  json(): unknown;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
}

export async function call(url: string, opts: CallOptions = {}): Promise<RawResponse> {
  const body =
    opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const res = await request(url, {
    method: (opts.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: opts.headers ?? {},
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.body.text();
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return {
    status: res.statusCode,
    headers,
    text,
    contentType: headers['content-type'] ?? '',
    json: () => JSON.parse(text) as unknown,
  };
}

export interface TestSandbox {
  handle: SandboxHandle;
  base: string;
  /** A version 1 call with the writer configuration key (unless headers override it). */
  v1(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** A version 2 call with the management key and the JSON:API media type (unless headers override them). */
  v2(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** A control call (`/__sandbox/<path>`) with the run's token. */
  control(method: string, path: string, body?: unknown): Promise<RawResponse>;
}

export async function startTestSandbox(opts: SandboxOptions = {}): Promise<TestSandbox> {
  const handle = await startSandbox(opts);
  const { baseUrl, configKey, managementKey, controlToken } = handle.info;
  return {
    handle,
    base: baseUrl,
    v1: (method, path, body, headers = {}) =>
      call(`${baseUrl}${path}`, {
        method,
        body,
        headers: {
          'X-Service-Team': configKey,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
      }),
    control: (method, path, body) =>
      call(`${baseUrl}/__sandbox/${path}`, {
        method,
        body,
        headers: {
          'X-Sandbox-Token': controlToken,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
      }),
    v2: (method, path, body, headers = {}) =>
      call(`${baseUrl}${path}`, {
        method,
        body,
        headers: {
          Authorization: `Bearer ${managementKey}`,
          ...(body !== undefined ? { 'Content-Type': 'application/vnd.api+json' } : {}),
          ...headers,
        },
      }),
  };
}

/** A mutable clock for rate-limit windows and timestamps. */
export function testClock(startIso: string): { now: () => number; set(iso: string): void; advance(ms: number): void } {
  let t = Date.parse(startIso);
  return {
    now: () => t,
    set: (iso) => {
      t = Date.parse(iso);
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

interface ProblemBody {
  status: number;
  type: string;
  title: string;
  error: string;
  detail: string;
  type_detail?: { field: string; code: string; description: string }[];
}

/** Asserts a version 1 problem-details answer and returns its body. */
export function assertProblem(res: RawResponse, status: number, base: string, typeName: string): ProblemBody {
  assert.equal(res.status, status, res.text);
  assert.equal(res.contentType, 'application/problem+json');
  const body = res.json() as ProblemBody;
  assert.equal(body.status, status);
  assert.equal(body.type, `${base}/problems/${typeName}`);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.detail, 'string');
  return body;
}

/** Asserts a 422 problem whose type_detail is exactly `expected` (field and code; descriptions are free text). */
export function assertValidation(res: RawResponse, base: string, expected: { field: string; code: string }[]): void {
  const body = assertProblem(res, 422, base, 'validation-failed');
  assert.deepEqual(
    (body.type_detail ?? []).map((d) => ({ field: d.field, code: d.code })),
    expected,
  );
  for (const d of body.type_detail ?? []) assert.ok(d.description.length > 0, `description of ${d.field}`);
}

interface JsonApiErrorBody {
  errors: {
    id: string;
    status: string;
    code: string;
    title: string;
    detail: string;
    source?: Record<string, string>;
  }[];
}

/** Asserts a version 2 JSON:API error answer and returns its errors. */
export function assertJsonApiError(res: RawResponse, status: number): JsonApiErrorBody['errors'] {
  assert.equal(res.status, status, res.text);
  assert.equal(res.contentType, 'application/vnd.api+json');
  const body = res.json() as JsonApiErrorBody;
  assert.ok(body.errors.length > 0);
  for (const e of body.errors) {
    assert.equal(e.status, String(status));
    assert.equal(typeof e.id, 'string');
    assert.equal(typeof e.code, 'string');
    assert.equal(typeof e.title, 'string');
  }
  return body.errors;
}

export interface ServiceWrite {
  method: 'POST' | 'PUT' | 'PATCH';
  path: string;
  api: 'v1' | 'v2';
  /** A body the route accepts (2xx) on the demo data. */
  body: unknown;
}

/** One accepted write on every service route that takes a body. */
export function serviceWrites(): ServiceWrite[] {
  const gw = DEMO.datasets.gateway;
  const trigger = {
    name: 'made by a write',
    threshold: { op: '>', value: 1 },
    frequency: 300,
    recipients: [{ id: DEMO.recipients.emailOncall }],
    query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  };
  return [
    { method: 'POST', path: `/1/triggers/${gw}`, api: 'v1', body: trigger },
    {
      method: 'PUT',
      path: `/1/triggers/${gw}/${DEMO.triggers.gwErrors}`,
      api: 'v1',
      body: { ...trigger, name: 'replaced by a write', disabled: false },
    },
    {
      method: 'PUT',
      path: `/1/burn_alerts/${gw}/${DEMO.burnAlerts.gwExhaustion}`,
      api: 'v1',
      body: {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 15,
        description: 'changed',
        recipients: [{ id: DEMO.recipients.emailOncall }],
      },
    },
    { method: 'PATCH', path: `/1/dataset_definitions/${gw}`, api: 'v1', body: { route: { name: '' } } },
    {
      method: 'POST',
      path: `/1/queries/${gw}`,
      api: 'v1',
      body: { calculations: [{ op: 'COUNT' }], time_range: 3600 },
    },
    { method: 'POST', path: `/1/query_results/${gw}`, api: 'v1', body: { query_id: DEMO.savedQueries.gw5xx } },
    {
      method: 'POST',
      path: `/2/teams/${DEMO.team}/api-keys`,
      api: 'v2',
      body: {
        data: {
          type: 'api-keys',
          attributes: { key_type: 'ingest', name: 'made by a write', disabled: false },
          relationships: { environment: { data: { id: DEMO.environmentId, type: 'environments' } } },
        },
      },
    },
    {
      method: 'PATCH',
      path: `/2/teams/${DEMO.team}/api-keys/${DEMO.apiKeys.ingest}`,
      api: 'v2',
      body: { data: { id: DEMO.apiKeys.ingest, type: 'api-keys', attributes: { name: 'renamed by a write' } } },
    },
  ];
}

/** Every service route that only reads, on the demo data. */
export function serviceReads(): string[] {
  const gw = DEMO.datasets.gateway;
  return [
    `/1/burn_alerts/${gw}?slo_id=${DEMO.slos.gwAvailability}`,
    `/1/burn_alerts/${gw}/${DEMO.burnAlerts.gwExhaustion}`,
    `/1/columns/${gw}`,
    `/1/triggers/${gw}`,
    `/1/queries/${gw}/${DEMO.savedQueries.gw5xx}`,
    `/1/query_results/${gw}/qr_000001`,
  ];
}
