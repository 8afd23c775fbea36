// What applying one change came to, and why a write did not go as sent, by kind rather than by the client's
// message (which names the HTTP call): what a view words for people. Shared by the apply of every kind of
// change. No vscode import.
import { asServiceError, type ServiceErrorKind } from '../api/errors';
import type { Difference } from './compare';
import type { PlannedChange } from './plan';

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

export type ChangeResult =
  /** Written. `storedDifferently`: members the service then held otherwise than sent (its rewrites aside). */
  | { change: PlannedChange; outcome: 'applied'; id: string; storedDifferently: Difference[]; note?: string }
  /** Not written: the trigger changed on the service since the plan, a change it depends on was not made, or the apply was cancelled. */
  | { change: PlannedChange; outcome: 'skipped'; reason: string }
  /** The service refused the write (a 4xx): its message, and the members it named. */
  | {
      change: PlannedChange;
      outcome: 'refused';
      reason: string;
      members: { field: string; message: string }[];
      cause: FailureCause;
    }
  /**
   * Written (a create: as `id`, already given to onCreated), but not readable back (`cause`: why): what is
   * stored is not known.
   */
  | { change: PlannedChange; outcome: 'unverified'; id: string; reason: string; cause: FailureCause }
  /** The write may or may not have been made (its answer was lost): what the service holds is not known. */
  | { change: PlannedChange; outcome: 'unknown'; reason: string; cause: FailureCause }
  /** The write was not made (it could not be sent, or the service failed before taking it). */
  | { change: PlannedChange; outcome: 'failed'; reason: string; cause: FailureCause };
