// Checking a connection before it is saved: one cheap read with the configuration key, the list of the
// environment's datasets (GET /1/datasets). That list is beyond the spec's calls: where it is refused (401,
// 403, 404, 405: the key may lack its permission, the service or a proxy may not serve it), the check reads
// the environment's triggers instead (GET /1/triggers/__all__, a call of the spec), and that answer decides.
// What went wrong is said in the user's words, with the field to change: the service could not be reached,
// its TLS certificate was refused, the address is not the service, the key is wrong or unknown (401), or it
// may not read (403). No vscode import.
import * as l10n from '@vscode/l10n';
import type { ApiResponse, CallOptions } from '../../api/clientOptions';
import { isServiceNotFound } from '../../api/errors';
import type { Dataset, Trigger } from '../../api/schemas';
import { asServiceError, errorText, isCancellation } from '../core/errors';
import { listingRefusal } from '../core/listingRefusal';
import { connectionLabel } from './profiles';
import type { FieldId } from './wizardFields';
import type { Failure } from '../../result';

/** The client methods the check uses (ServiceClient has them). */
export interface CheckApi {
  listDatasets(o?: CallOptions): Promise<ApiResponse<Dataset[]>>;
  listTriggers(dataset: string, o?: CallOptions): Promise<ApiResponse<Trigger[]>>;
}

type CheckProblem = 'unreachable' | 'tls' | 'timeout' | 'not-service' | 'wrong-key' | 'forbidden' | 'refused';

/** A failed check: the reason in words, and which kind of trouble it was (for the dialog's actions). */
type CheckFailure = Failure & { problem: CheckProblem };
export type CheckOutcome = { ok: true; summary: string } | CheckFailure;

/** Codes of a TLS certificate the client did not accept (Node's and undici's). */
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|ERR_SSL|EPROTO/;

const failure = (problem: CheckProblem, message: string): CheckFailure => ({ ok: false, reason: message, problem });

/** What a failed check says; `host` names the server. */
export function describeFailure(err: unknown, host: string): CheckFailure {
  const se = asServiceError(err);
  const code = (err as { networkCode?: unknown }).networkCode;
  const network = typeof code === 'string' ? code : '';
  if (se?.kind === 'timeout') return failure('timeout', l10n.t('{0} did not answer in time ({1}).', host, network));
  if (se?.kind === 'network' && TLS_CODES.test(network)) {
    const message = l10n.t(
      'The TLS certificate of {0} was not accepted ({1}). A certificate of your own certificate authority is trusted once its file is in the obs.caCertificates setting.',
      host,
      network,
    );
    return failure('tls', message);
  }
  if (se?.kind === 'network') {
    const message = l10n.t(
      "{0} could not be reached ({1}): check the base URL, and the proxy: VS Code's http.proxy setting, or HTTPS_PROXY and NO_PROXY in the environment.",
      host,
      network || errorText(err),
    );
    return failure('unreachable', message);
  }
  if (se?.kind === 'missing-credentials') return failure('wrong-key', errorText(err));
  if (se?.kind === 'http' && se.status === 401) {
    const message = l10n.t(
      '{0} does not know the configuration key: it is mistyped, revoked, or a key of another account.',
      host,
    );
    return failure('wrong-key', message);
  }
  if (se?.kind === 'http' && se.status === 403) {
    const message = l10n.t(
      "{0} knows the configuration key but does not let it read the environment's triggers: the key lacks a permission.",
      host,
    );
    return failure('forbidden', message);
  }
  if (se?.kind === 'http' && se.status === 404 && !isServiceNotFound(err)) {
    const message = l10n.t(
      "{0} does not answer like the service's API: check that the base URL is the API's address.",
      host,
    );
    return failure('not-service', message);
  }
  return failure('refused', l10n.t('{0} answered the check with an error: {1}', host, errorText(err)));
}

/** One read with the configuration key: the datasets, or where that list is refused, the environment's triggers. */
export async function checkConnection(api: CheckApi, host: string, signal?: AbortSignal): Promise<CheckOutcome> {
  const o = signal ? { signal } : undefined;
  try {
    const datasets = (await api.listDatasets(o)).data.length;
    return { ok: true, summary: datasets === 1 ? l10n.t('1 dataset') : l10n.t('{0} datasets', datasets) };
  } catch (err) {
    if (isCancellation(err)) throw err;
    if (listingRefusal(err) === undefined) return describeFailure(err, host);
  }
  try {
    const triggers = (await api.listTriggers('__all__', o)).data.length;
    const summary =
      triggers === 1 ? l10n.t('1 environment-wide trigger') : l10n.t('{0} environment-wide triggers', triggers);
    return { ok: true, summary };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return describeFailure(err, host);
  }
}

/** The field a failed check points at: the key for a key the service refused, the base URL for an address. */
const FIELD_OF: Record<CheckProblem, FieldId | undefined> = {
  unreachable: 'baseUrl',
  tls: 'baseUrl',
  timeout: 'baseUrl',
  'not-service': 'baseUrl',
  'wrong-key': 'configKey',
  forbidden: 'configKey',
  refused: undefined,
};

export interface CheckFailureDialog {
  message: string;
  detail: string;
  /** Back to the connection's fields, the one to change picked. */
  edit: string;
  saveAnyway: string;
  field: FieldId | undefined;
}

/** The modal question after a check that failed (undefined: was cancelled); the name shown as text. */
export function checkFailureDialog(name: string, outcome: CheckFailure | undefined): CheckFailureDialog {
  const shown = connectionLabel(name);
  return {
    message:
      outcome === undefined
        ? l10n.t('The check of "{0}" was cancelled.', shown)
        : l10n.t('"{0}" does not work yet: {1}', shown, outcome.reason),
    detail: l10n.t(
      'Edit Connection goes back to its fields to put right what is wrong. Save Anyway saves it as it is (for a service you cannot reach from here yet). Cancel saves nothing.',
    ),
    edit: l10n.t('Edit Connection'),
    saveAnyway: l10n.t('Save Anyway'),
    field: outcome === undefined ? undefined : FIELD_OF[outcome.problem],
  };
}
