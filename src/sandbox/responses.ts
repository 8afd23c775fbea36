import type { z } from 'zod';

// The service's response shapes (service-facts note): legacy `{error}`, RFC 7807 problem details (v1), and
// JSON:API error documents (v2). Every sandbox error goes through here so each status has one shape.

export const MEDIA = {
  json: 'application/json',
  problem: 'application/problem+json',
  jsonApi: 'application/vnd.api+json',
  html: 'text/html; charset=utf-8',
} as const;

export interface Reply {
  status: number;
  contentType?: string;
  /** Already serialised; empty for no body. */
  body: string;
  /** The body encoded already (answers the server keeps, see listCache.ts); else `body` is encoded when sent. */
  bytes?: Buffer;
  headers?: Record<string, string>;
}

export type Api = 'v1' | 'v2';

export function json(
  status: number,
  value: unknown,
  contentType: string = MEDIA.json,
  headers?: Record<string, string>,
): Reply {
  return { status, contentType, body: JSON.stringify(value), ...(headers ? { headers } : {}) };
}

/** Problem-details types (`<base>/problems/<name>`), one per kind of failure. */
export const PROBLEM_TYPES = {
  400: 'unparseable-body',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict',
  413: 'request-too-large',
  415: 'unsupported-media-type',
  422: 'validation-failed',
  429: 'rate-limited',
  500: 'internal-error',
  502: 'bad-gateway',
  503: 'service-unavailable',
  504: 'gateway-timeout',
} as const satisfies Record<number, string>;

/** The problem type of a 400 whose body parsed but cannot be taken as it is (a trigger with both query and query_id). */
export const BAD_REQUEST_PROBLEM = 'bad-request';

/** JSON:API error codes of version 2, one per status. */
export const JSON_API_CODES = {
  400: 'invalid/unparseable-body',
  401: 'unauthenticated/invalid-key',
  403: 'forbidden/insufficient-permission',
  404: 'not-found',
  405: 'method-not-allowed',
  409: 'conflict/already-exists',
  413: 'invalid/request-too-large',
  415: 'invalid/unsupported-media-type',
  422: 'validation/invalid',
  429: 'rate-limited/may-retry',
  500: 'server-error',
  502: 'server-error/bad-gateway',
  503: 'server-error/unavailable',
  504: 'server-error/timeout',
} as const satisfies Record<number, string>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Validation Failed',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function titleOf(status: number): string {
  return TITLES[status] ?? `HTTP ${status}`;
}

function problemName(status: number): string {
  return (PROBLEM_TYPES as Record<number, string>)[status] ?? (status >= 500 ? 'internal-error' : 'bad-request');
}

function jsonApiCode(status: number): string {
  return (JSON_API_CODES as Record<number, string>)[status] ?? (status >= 500 ? 'server-error' : 'invalid');
}

type TypeDetailCode = 'invalid' | 'missing' | 'incorrect_type' | 'already_exists';
export interface TypeDetail {
  field: string;
  code: TypeDetailCode;
  description: string;
}

/**
 * Version 1 problem details: `{status, type, title, error, detail}` (+ `type_detail` on validation failures).
 * `name` replaces the status's problem type where one status has two kinds of failure.
 */
export function problem(
  baseUrl: string,
  status: number,
  detail: string,
  typeDetail?: TypeDetail[],
  name?: string,
): Reply {
  const body: Record<string, unknown> = {
    status,
    type: `${baseUrl}/problems/${name ?? problemName(status)}`,
    title: titleOf(status),
    error: detail,
    detail,
  };
  if (typeDetail) body.type_detail = typeDetail;
  return json(status, body, MEDIA.problem);
}

/** Version 1 legacy shape: `{"error": "..."}` with application/json. */
export function legacy(status: number, error: string): Reply {
  return json(status, { error }, MEDIA.json);
}

export const UNKNOWN_KEY_MESSAGE = 'unknown API key - check your credentials';

export interface JsonApiError {
  id: string;
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: { pointer?: string; header?: string; parameter?: string };
}

let errorSerial = 0;
/** A JSON:API error object; `id` is unique per error like the service's request-scoped ids. */
export function jsonApiError(
  status: number,
  detail: string,
  source?: JsonApiError['source'],
  code?: string,
): JsonApiError {
  errorSerial += 1;
  return {
    id: `err-${String(errorSerial).padStart(8, '0')}`,
    status: String(status),
    code: code ?? jsonApiCode(status),
    title: titleOf(status),
    detail,
    ...(source ? { source } : {}),
  };
}

export function jsonApi(status: number, errors: JsonApiError[]): Reply {
  return json(status, { errors }, MEDIA.jsonApi);
}

/** One error in the shape of the API group the request went to. */
export function errorFor(
  api: Api,
  baseUrl: string,
  status: number,
  detail: string,
  source?: JsonApiError['source'],
): Reply {
  return api === 'v2' ? jsonApi(status, [jsonApiError(status, detail, source)]) : problem(baseUrl, status, detail);
}

// --- zod issues to the service's shapes ------------------------------------------------------------

type Issue = z.core.$ZodIssue;
type PathKey = PropertyKey;

function valueAt(input: unknown, path: readonly PathKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** `recipients[0].target`: the way the service names a nested field. */
function fieldName(path: readonly PathKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

interface FlatIssue {
  path: PathKey[];
  code: TypeDetailCode;
  message: string;
}

/** Flattens zod issues: one entry per offending field, with the service's type_detail code. */
function flatten(issues: readonly Issue[], input: unknown): FlatIssue[] {
  const out: FlatIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: [...issue.path, key], code: 'invalid', message: `unknown field "${key}"` });
      }
      continue;
    }
    const missing = valueAt(input, issue.path) === undefined;
    const code: TypeDetailCode = missing ? 'missing' : issue.code === 'invalid_type' ? 'incorrect_type' : 'invalid';
    const message = missing && issue.code === 'invalid_type' ? 'is required' : issue.message;
    out.push({ path: [...issue.path], code, message });
  }
  return out;
}

function typeDetails(issues: readonly Issue[], input: unknown): TypeDetail[] {
  return flatten(issues, input).map((i) => ({ field: fieldName(i.path), code: i.code, description: i.message }));
}

/** 422 problem details listing `details`, each also in the summary. */
export function validationFailed(baseUrl: string, details: TypeDetail[]): Reply {
  return problem(baseUrl, 422, details.map((d) => `${d.field}: ${d.description}`).join('; '), details);
}

/** 422 problem details for a version 1 body or query that failed its zod schema. */
export function v1ValidationFailure(baseUrl: string, issues: readonly Issue[], input: unknown): Reply {
  return validationFailed(baseUrl, typeDetails(issues, input));
}

/** A JSON pointer to `path` (RFC 6901: `~` written `~0` and `/` written `~1` in a segment). */
export const jsonPointer = (path: readonly PropertyKey[]): string =>
  path.map((k) => `/${String(k).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** 422 JSON:API errors, one per field, each with a `source.pointer`. */
export function v2ValidationFailure(issues: readonly Issue[], input: unknown): Reply {
  return jsonApi(
    422,
    flatten(issues, input).map((i) =>
      jsonApiError(422, `${fieldName(i.path)}: ${i.message}`, { pointer: jsonPointer(i.path) }),
    ),
  );
}
