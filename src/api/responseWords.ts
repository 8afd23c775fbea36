// What the request pipeline reads out of an answer or a failure: a success body's JSON, what an error body
// says, whether a failed request may still have been carried out, the codes of a network failure.
import { ServiceError, type FieldProblem } from './errors';
import { maybeProcessed } from './retry';

/** A success body as JSON, or the error that says why it cannot be read. */
export function readJson(op: string, status: number, text: string | undefined, maxBytes: number): unknown {
  if (text === undefined) {
    return new ServiceError({
      kind: 'too-large',
      operation: op,
      message: `${op} failed: the response is larger than ${maxBytes} bytes`,
      status,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    const notJson = `${op} failed: the service's answer is not valid JSON`;
    const message = `${notJson}. Check that the address is the service's API.`;
    return new ServiceError({ kind: 'bad-body', operation: op, message, status });
  }
}

/** Whether the service may have carried out a request that ended in this error. */
export function mayHaveBeenCarriedOut(e: ServiceError): boolean {
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

/** What an error body says: its title, its detail, and the field problems the detail does not already say. */
export function saidIn(
  title: string | undefined,
  detail: string | undefined,
  problems: readonly FieldProblem[],
): string | undefined {
  const words = [title, detail !== title ? detail : undefined]
    .map((w) => w?.replace(/[.\s]+$/, ''))
    .filter((w): w is string => w !== undefined && w !== '')
    .join(': ');
  // A detail that already says a problem (as the service's validation errors often do) says it once.
  const unsaid = problems.filter((p) => detail === undefined || !detail.includes(p.message));
  if (unsaid.length === 0) return words === '' ? undefined : words;
  return words === '' ? summarise(unsaid) : `${words} (${summarise(unsaid)})`;
}

export function summarise(problems: readonly FieldProblem[]): string {
  const shown = problems.slice(0, 3).map((p) => (p.field ? `${p.field}: ${p.message}` : p.message));
  const more = problems.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

export function safeMediaType(contentType: string | undefined): string {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(media) ? media : 'non-JSON';
}

export function errorCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (e as { cause?: unknown }).cause;
  return cause !== e ? errorCode(cause) : undefined;
}
