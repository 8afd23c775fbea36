// A 404 on a call that names a dataset (save a query, create a result, read a saved query) most often
// means the dataset does not exist: the service answers 404 for an unknown dataset on every path. Before
// saying "not available on this service", look: the datasets listing (GET /1/datasets) says whether the
// dataset is there and which slug was probably meant; where the key may not list datasets, the dataset's
// columns (GET /1/columns/<dataset>) say at least whether it exists. No vscode import.
import * as l10n from '@vscode/l10n';
import type { ApiResponse, CallOptions } from '../api/clientOptions';
import { ENVIRONMENT_WIDE, type Column, type Dataset } from '../api/schemas';
import { nearestName } from '../lint/nearest';
import { asServiceError } from '../api/errors';

/** The client methods the check uses (ServiceClient has them). */
export interface DatasetLookupApi {
  listDatasets(o?: CallOptions): Promise<ApiResponse<Dataset[]>>;
  listColumns(dataset: string, o?: CallOptions): Promise<ApiResponse<Column[]>>;
}

/** The service has no such dataset: the real cause of a 404, said with the slug probably meant. */
export class DatasetMissingError extends Error {
  readonly kind = 'dataset-missing';
  constructor(
    readonly dataset: string,
    readonly nearest: string | undefined,
  ) {
    super(
      nearest === undefined
        ? l10n.t('The service has no dataset "{0}".', shownName(dataset, 120))
        : l10n.t(
            'The service has no dataset "{0}" (did you mean "{1}"?).',
            shownName(dataset, 120),
            shownName(nearest, 120),
          ),
    );
    this.name = 'DatasetMissingError';
  }
}

/** By kind, not class: the queries bundle and a caller may hold different copies of the class. */
export function isDatasetMissing(err: unknown): err is DatasetMissingError {
  return err instanceof Error && (err as { kind?: unknown }).kind === 'dataset-missing';
}

const status = (err: unknown): number | undefined => {
  const se = asServiceError(err);
  return se?.kind === 'http' ? se.status : undefined;
};
const NOT_LISTED = new Set([401, 403, 404, 405]);

/** Whether the service has the dataset (with the nearest slug it has when not); undefined when it cannot be told. */
export async function datasetExists(
  api: DatasetLookupApi,
  dataset: string,
  signal?: AbortSignal,
): Promise<{ exists: true } | { exists: false; nearest?: string } | undefined> {
  const o = signal ? { signal } : undefined;
  try {
    const slugs = (await api.listDatasets(o)).data.map((d) => d.slug);
    if (slugs.includes(dataset)) return { exists: true };
    const nearest = nearestName(dataset, slugs, { wordExtensions: true });
    return nearest === undefined ? { exists: false } : { exists: false, nearest };
  } catch (err) {
    const s = status(err);
    if (s === undefined || !NOT_LISTED.has(s)) return undefined;
  }
  try {
    await api.listColumns(dataset, o);
    return { exists: true };
  } catch (err) {
    return status(err) === 404 ? { exists: false } : undefined;
  }
}

/**
 * The error to show for a failed call naming `dataset`: a DatasetMissingError when it answered 404 and
 * the dataset is not there, otherwise the error as it was. The environment (`__all__`) always exists.
 */
export async function explainNotFound(
  api: DatasetLookupApi,
  dataset: string,
  err: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  if (status(err) !== 404 || dataset === ENVIRONMENT_WIDE || signal?.aborted === true) return err;
  const found = await datasetExists(api, dataset, signal);
  return found?.exists === false ? new DatasetMissingError(dataset, found.nearest) : err;
}

/** A dataset name in a message: one line, at most `max` characters, control and bidi characters shown as escapes. */
function shownName(name: string, max: number): string {
  const shown = name.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`);
  return shown.length > max ? `${shown.slice(0, max - 1)}\u2026` : shown;
}
