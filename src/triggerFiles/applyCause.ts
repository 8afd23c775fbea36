// Why a write did not go as sent, by kind rather than by the client's message (which names the HTTP call): what
// a view words for people. Shared by the apply of every kind of change. No vscode import.
import { asServiceError, type ServiceErrorKind } from '../api/errors';

/**
 * What the client said of a write that did not go as sent, by kind rather than by its message (which names the
 * HTTP call): what a view words for people. `said`: the service's own words (its error's detail or title).
 */
export interface FailureCause {
  kind: ServiceErrorKind | 'other';
  status?: number;
  said?: string;
}

/** The kind, status and the service's own words of an error (anything thrown: not every throw is the client's). */
export function causeOf(e: unknown): FailureCause {
  const se = asServiceError(e);
  if (se === undefined) return { kind: 'other' };
  const said = se.detail ?? se.title;
  return {
    kind: se.kind,
    ...(se.status === undefined ? {} : { status: se.status }),
    ...(said === undefined ? {} : { said }),
  };
}
