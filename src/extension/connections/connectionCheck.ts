// Checking a connection before it is saved: one cheap read with the configuration key, the list of the
// environment's datasets (GET /1/datasets; where the service does not serve that call, the environment's
// triggers, GET /1/triggers/__all__, a call of the spec). What went wrong is said in the user's words: the
// service could not be reached, its TLS certificate was refused, the key is wrong (401) or may not read
// (403). No vscode import.
import * as l10n from '@vscode/l10n';
import type { ApiResponse, CallOptions } from '../../api/clientOptions';
import type { Dataset, Trigger } from '../../api/schemas';
import { asServiceError, errorText, isCancellation } from '../core/errors';

/** The client methods the check uses (ServiceClient has them). */
export interface CheckApi {
  listDatasets(o?: CallOptions): Promise<ApiResponse<Dataset[]>>;
  listTriggers(dataset: string, o?: CallOptions): Promise<ApiResponse<Trigger[]>>;
}

type CheckProblem = 'unreachable' | 'tls' | 'timeout' | 'wrong-key' | 'forbidden' | 'refused';

export type CheckOutcome = { ok: true; summary: string } | { ok: false; problem: CheckProblem; message: string };

/** Codes of a TLS certificate the client did not accept (Node's and undici's). */
const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ERR_TLS|ERR_SSL|EPROTO/;

/** What a failed check says; `host` names the server. */
export function describeFailure(err: unknown, host: string): Extract<CheckOutcome, { ok: false }> {
  const se = asServiceError(err);
  const code = (err as { networkCode?: unknown }).networkCode;
  const network = typeof code === 'string' ? code : '';
  if (se?.kind === 'timeout') return { ok: false, problem: 'timeout', message: l10n.t('{0} did not answer in time ({1}).', host, network) };
  if (se?.kind === 'network' && TLS_CODES.test(network)) {
    return { ok: false, problem: 'tls', message: l10n.t('The TLS certificate of {0} was not accepted ({1}). A certificate of your own certificate authority is trusted once its file is in the obs.caCertificates setting.', host, network) };
  }
  if (se?.kind === 'network') return { ok: false, problem: 'unreachable', message: l10n.t('{0} could not be reached ({1}): check the base URL, and a proxy (obs.httpProxy).', host, network || errorText(err)) };
  if (se?.kind === 'http' && se.status === 401) return { ok: false, problem: 'wrong-key', message: l10n.t('{0} refused the configuration key (401): it is wrong, or revoked.', host) };
  if (se?.kind === 'http' && se.status === 403) return { ok: false, problem: 'forbidden', message: l10n.t('{0} accepted the configuration key but does not let it read (403): the key lacks a permission.', host) };
  if (se?.kind === 'missing-credentials') return { ok: false, problem: 'wrong-key', message: errorText(err) };
  return { ok: false, problem: 'refused', message: l10n.t('{0} answered the check with an error: {1}', host, errorText(err)) };
}

const NOT_SERVED = new Set([404, 405]);

/** One read with the configuration key: the datasets, or where that call is not served, the environment's triggers. */
export async function checkConnection(api: CheckApi, host: string, signal?: AbortSignal): Promise<CheckOutcome> {
  const o = signal ? { signal } : undefined;
  try {
    const datasets = (await api.listDatasets(o)).data.length;
    return { ok: true, summary: datasets === 1 ? l10n.t('1 dataset') : l10n.t('{0} datasets', datasets) };
  } catch (err) {
    if (isCancellation(err)) throw err;
    const status = asServiceError(err)?.status;
    if (status === undefined || !NOT_SERVED.has(status)) return describeFailure(err, host);
  }
  try {
    const triggers = (await api.listTriggers('__all__', o)).data.length;
    return { ok: true, summary: triggers === 1 ? l10n.t('1 environment-wide trigger') : l10n.t('{0} environment-wide triggers', triggers) };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return describeFailure(err, host);
  }
}
