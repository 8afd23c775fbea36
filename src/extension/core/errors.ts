// The errors the extension's parts share, and how to tell them apart. The client's errors are recognised
// by shape, not by class: the client is loaded from its own bundle (dist/client-host.js), so `instanceof
// ServiceError` against this bundle's copy of the class would fail. No vscode import.
import { asServiceError, errorText } from '../../api/errors';
import * as l10n from '@vscode/l10n';

export { asServiceError } from '../../api/errors';

/** A user-facing message for an error. Service errors are already free of secrets (the client redacts). */
export { errorText };

/**
 * A load whose connection stopped being the active one (switched, removed, sandbox stopped, keys
 * replaced) while it ran: whatever it failed with belongs to a connection nobody looks at any more.
 */
export class StaleConnectionError extends Error {
  readonly kind = 'stale-connection';
  constructor(readonly connectionId: string | undefined) {
    super(l10n.t('The connection changed while loading'));
    this.name = 'StaleConnectionError';
  }
}

/** Thrown when an action needs the active connection and none is; the user has already been told how to add one. */
export class NoConnectionError extends Error {
  readonly kind = 'no-connection';
  constructor() {
    super(l10n.t('No observability connection is active'));
    this.name = 'NoConnectionError';
  }
}

/** Thrown when a tree item's connection was removed since the item was shown. */
export class ConnectionGoneError extends Error {
  readonly kind = 'connection-gone';
  constructor(readonly connectionId: string) {
    super(l10n.t('The connection of this item was removed; refresh the Datasets view'));
    this.name = 'ConnectionGoneError';
  }
}

/** True for errors whose `kind` says the connection was removed (ConnectionGoneError). */
export function isConnectionGone(err: unknown): boolean {
  return err instanceof Error && (err as Error & { kind?: unknown }).kind === 'connection-gone';
}

/** True for failures that mean "cancelled", which are not errors to show. */
export function isCancellation(err: unknown): boolean {
  if (err instanceof StaleConnectionError) return true;
  const se = asServiceError(err);
  if (se) return se.kind === 'aborted';
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'AbortedError' || err.name === 'Canceled');
}

/** Failures the user has already been told about (no active connection) or that mean "cancelled". */
export function isAlreadyReported(err: unknown): boolean {
  if (isCancellation(err)) return true;
  return err instanceof Error && (err as Error & { kind?: unknown }).kind === 'no-connection';
}

/** The message for an operation shown as a progress title: "Running saved query q1..." -> "Running saved query q1 failed: ...". */
export function progressFailureText(title: string, err: unknown): string {
  return l10n.t('{0} failed: {1}', title.trim().replace(/(\.\.\.|\u2026)$/, ''), errorText(err));
}
