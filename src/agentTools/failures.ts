// Errors as a tool answers them: the service's refusals in its own (already redacted) words, what the tool
// itself refused, and a cancelled call. Recognised by shape: in the editor the client comes from another
// bundle, so its ServiceError is not this bundle's class.
import { isToolError, ToolError } from './answer';

interface ServiceErrorShape {
  name: 'ServiceError';
  message: string;
  status?: number;
  kind: string;
}

function asServiceError(e: unknown): ServiceErrorShape | undefined {
  if (!(e instanceof Error) || e.name !== 'ServiceError') return undefined;
  return typeof (e as { kind?: unknown }).kind === 'string' ? (e as unknown as ServiceErrorShape) : undefined;
}

/** The HTTP status of a service error, if it has one. */
export function statusOf(e: unknown): number | undefined {
  const status = (e as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** A 404 of a call naming a dataset: the dataset (or the item) is not on the service. */
export function notFound(e: unknown, what: string): unknown {
  return asServiceError(e) !== undefined && statusOf(e) === 404
    ? new ToolError(`${what} was not found on the service (404)`)
    : e;
}

const isAbort = (e: unknown): boolean =>
  e instanceof Error && (e.name === 'AbortError' || (e as { kind?: unknown }).kind === 'aborted');

/** The message an error becomes in a tool's answer. */
export function failureText(e: unknown): string {
  if (isToolError(e)) return e.message;
  if (isAbort(e)) return 'the call was cancelled';
  const service = asServiceError(e);
  if (service !== undefined) return `the service refused or failed: ${service.message}`;
  return `the tool failed: ${e instanceof Error ? e.message : String(e)}`;
}
