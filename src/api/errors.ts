/** One problem with one field, from client-side validation or from the service's error body. */
export interface FieldProblem {
  /** Dotted path, e.g. `recipients[0].id`, `data.attributes.name`, or a parameter/header name. */
  field: string;
  code?: string;
  message: string;
  /** JSON pointer as the service gave it (version 2 errors), e.g. `/data/attributes/name`. */
  pointer?: string;
}

/** How an error body reads: one of the service's shapes, or not (another server answered, or nothing). */
export type ErrorBodyShape = 'json-api' | 'problem' | 'legacy' | 'unrecognised-json' | 'not-json' | 'empty';

export const SERVICE_ERROR_KINDS = [
  'http', // the service answered with a non-2xx status
  'network', // connection refused/reset/closed, TLS or DNS failure
  'timeout', // connect, headers or body timeout
  'aborted', // the caller's AbortSignal fired
  'request-validation', // refused before sending: the request breaks a rule of the spec
  'missing-credentials', // refused before sending: the key the endpoint needs is not configured or malformed
  'response-schema', // a 2xx body that does not match the resource schema
  'too-large', // the response exceeded maxResponseBytes
  'bad-body', // a 2xx body that is not JSON
  'query-failed', // a query result came back complete with an error instead of data
] as const;
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  operation: string;
  message: string;
  status?: number;
  code?: string;
  type?: string;
  title?: string;
  detail?: string;
  fieldProblems?: FieldProblem[];
  attempts?: number;
  retryAfterMs?: number;
  /** Low-level error code of a network or timeout failure, e.g. ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT. */
  networkCode?: string;
  /** Of an HTTP failure: the shape of its body, which tells the service's own errors from another server's. */
  bodyShape?: ErrorBodyShape;
  /**
   * Set on a failed call that is never retried (creating an API key) when the service may have carried it out
   * anyway: the answer was lost, cut off, unreadable or a 5xx. The caller should look before repeating it.
   */
  maybeProcessed?: boolean;
}

/**
 * The one error type of the client. Every string in it has been redacted of the client's credentials;
 * it never holds request headers, request bodies or response bodies.
 */
export class ServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly kind: ServiceErrorKind;
  readonly operation: string;
  readonly status?: number;
  readonly code?: string;
  readonly type?: string;
  readonly title?: string;
  readonly detail?: string;
  readonly fieldProblems: FieldProblem[];
  readonly attempts: number;
  readonly retryAfterMs?: number;
  readonly networkCode?: string;
  /** Of an HTTP failure: the shape of its body (errorBody.ts). */
  readonly bodyShape?: ErrorBodyShape;
  readonly maybeProcessed?: boolean;

  constructor(init: ServiceErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.operation = init.operation;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.title = init.title;
    this.detail = init.detail;
    this.fieldProblems = init.fieldProblems ?? [];
    this.attempts = init.attempts ?? 0;
    this.retryAfterMs = init.retryAfterMs;
    this.networkCode = init.networkCode;
    this.bodyShape = init.bodyShape;
    if (init.maybeProcessed === true) this.maybeProcessed = true;
  }

  /** A copy with the attempt count (and optionally retryAfterMs) filled in by the retry loop. */
  withAttempts(attempts: number, retryAfterMs?: number): ServiceError {
    return new ServiceError({ ...this.init(), attempts, retryAfterMs: retryAfterMs ?? this.retryAfterMs });
  }

  /** A copy marked as possibly carried out by the service, with `note` appended to the message's last sentence. */
  withMaybeProcessed(note: string): ServiceError {
    const message = `${this.message.replace(/\.$/, '')}; ${note}`;
    return new ServiceError({ ...this.init(), message, maybeProcessed: true });
  }

  private init(): ServiceErrorInit {
    return {
      kind: this.kind,
      operation: this.operation,
      message: this.message,
      status: this.status,
      code: this.code,
      type: this.type,
      title: this.title,
      detail: this.detail,
      fieldProblems: this.fieldProblems,
      attempts: this.attempts,
      retryAfterMs: this.retryAfterMs,
      networkCode: this.networkCode,
      bodyShape: this.bodyShape,
      maybeProcessed: this.maybeProcessed,
    };
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError;
}

/** What callers read of a ServiceError. */
export type ServiceErrorLike = Pick<
  ServiceError,
  | 'name'
  | 'kind'
  | 'operation'
  | 'message'
  | 'status'
  | 'title'
  | 'detail'
  | 'retryAfterMs'
  | 'fieldProblems'
  | 'maybeProcessed'
>;

/**
 * A ServiceError recognised by its shape, not its class: the editor loads the client from its own bundle
 * (dist/client-host.js), whose ServiceError is another class than the one a caller's bundle would import.
 */
export function asServiceError(err: unknown): ServiceErrorLike | undefined {
  if (!(err instanceof Error) || err.name !== 'ServiceError') return undefined;
  const e = err as Error & { kind?: unknown; operation?: unknown; fieldProblems?: unknown };
  return typeof e.kind === 'string' && typeof e.operation === 'string' && Array.isArray(e.fieldProblems)
    ? (err as ServiceErrorLike)
    : undefined;
}

/** The message of anything thrown: not every throw is an Error. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The error bodies of the service (version 1 and 2): a 404 in another shape is another server answering. */
const SERVICE_BODIES: ReadonlySet<unknown> = new Set<ErrorBodyShape>(['problem', 'legacy', 'json-api']);

/**
 * Whether an error is the service saying it has no such object: an HTTP 404 in one of its own error shapes
 * (or from a client that does not say its body's shape). A 404 of a web page is another server answering.
 */
export function isServiceNotFound(err: unknown): boolean {
  const { status, bodyShape } = (typeof err === 'object' && err !== null ? err : {}) as {
    status?: unknown;
    bodyShape?: unknown;
  };
  return status === 404 && (bodyShape === undefined || SERVICE_BODIES.has(bodyShape));
}
