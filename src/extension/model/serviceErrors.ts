// Recognising the client's errors by shape, not by class: the client is loaded from its own bundle
// (dist/client-host.js), so `instanceof ServiceError` against this bundle's copy of the class would fail.
// No vscode import.
import type { ServiceErrorKind } from '../../api/errors';

export interface ServiceErrorLike {
  name: 'ServiceError';
  kind: ServiceErrorKind;
  operation: string;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

export function asServiceError(err: unknown): ServiceErrorLike | undefined {
  if (!(err instanceof Error) || err.name !== 'ServiceError') return undefined;
  const e = err as Error & { kind?: unknown; operation?: unknown };
  return typeof e.kind === 'string' && typeof e.operation === 'string' ? (err as unknown as ServiceErrorLike) : undefined;
}

/** A user-facing message for an error. Service errors are already free of secrets (the client redacts). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** True for failures that mean "cancelled", which are not errors to show. */
export function isCancellation(err: unknown): boolean {
  const se = asServiceError(err);
  if (se) return se.kind === 'aborted';
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'AbortedError' || err.name === 'Canceled');
}
