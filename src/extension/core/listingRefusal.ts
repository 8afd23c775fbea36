// The listings of what an account holds (datasets, SLOs, recipients) are beyond the spec's calls: a key may
// lack the permission, a service (or a proxy in front of it) may not serve them. Such a refusal is told
// apart from a failure: the views then say so once and fall back to what the user types. No vscode import.
import * as l10n from '@vscode/l10n';

/** The statuses that mean "this listing is not for this key or this service" (service facts). */
const REFUSALS: ReadonlySet<number> = new Set([401, 403, 404, 405]);

/** The status of an error that refuses a listing (401, 403, 404, 405), read by shape; undefined otherwise. */
export function listingRefusal(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' && REFUSALS.has(status) ? status : undefined;
}

/** Why, in words: "the service did not accept the key" (the status is for the log, not the reader). */
export function refusalReason(status: number): string {
  if (status === 401) return l10n.t('the service did not accept the key');
  if (status === 403) return l10n.t('the key lacks the permission to list them');
  return l10n.t('the service does not offer this list');
}
