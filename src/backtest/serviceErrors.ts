// The client's errors recognised by shape, not by class: in the editor the client is loaded from its own
// bundle (dist/client-host.js), so `instanceof ServiceError` against another bundle's copy of the class
// would fail. (The extension's core/errors.ts reads them the same way.)
import type { ServiceErrorKind } from '../api/errors';

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
