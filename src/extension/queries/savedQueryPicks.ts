// What "Run Saved Query" offers: the environment's datasets (GET /1/datasets) and a dataset's named saved
// queries (GET /1/query_annotations/<dataset>), as plain pick items. Where the service refuses a listing
// (401, 403, 404, 405: a key without the permission, a service without the call) the user types the
// slug or id instead, told why; any other failure is an error. No vscode import.
import * as l10n from '@vscode/l10n';
import type { ApiResponse, CallOptions } from '../../api/clientOptions';
import { ENVIRONMENT_WIDE, type Dataset, type QueryAnnotation } from '../../api/schemas';
import { asServiceError } from '../core/errors';
import { safeLabel } from '../core/text';

/** The client methods the pick lists use (ServiceClient has them). */
export interface AccountApi {
  listDatasets(o?: CallOptions): Promise<ApiResponse<Dataset[]>>;
  listQueryAnnotations(dataset: string, o?: CallOptions): Promise<ApiResponse<QueryAnnotation[]>>;
}

/** A list to pick from, or why the user types instead. */
export type Listing<T> = { kind: 'listed'; items: T[] } | { kind: 'type'; reason: string };

export interface DatasetChoice {
  slug: string;
  label: string;
  description: string;
  detail?: string;
}

export interface QueryChoice {
  queryId: string;
  label: string;
  description: string;
  detail?: string;
}

/** The statuses that mean "this listing is not for this key or service": type instead. */
const REFUSED = new Set([401, 403, 404, 405]);

async function listOrType<T>(call: string, list: () => Promise<T[]>): Promise<Listing<T>> {
  try {
    return { kind: 'listed', items: await list() };
  } catch (err) {
    const se = asServiceError(err);
    if (se?.kind === 'http' && se.status !== undefined && REFUSED.has(se.status)) {
      return { kind: 'type', reason: l10n.t('{0} answered {1}', call, se.status) };
    }
    throw err;
  }
}

/** Environment-wide first (its saved queries run over every dataset), then the datasets by slug. */
export function datasetChoices(api: AccountApi, signal?: AbortSignal): Promise<Listing<DatasetChoice>> {
  return listOrType('GET /1/datasets', async () => {
    const datasets = (await api.listDatasets(signal ? { signal } : undefined)).data;
    const sorted = [...datasets].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    return [
      { slug: ENVIRONMENT_WIDE, label: ENVIRONMENT_WIDE, description: l10n.t('Environment-wide: saved queries over every dataset') },
      ...sorted.map((d) => ({
        slug: d.slug,
        label: safeLabel(d.slug, 120),
        description: d.name === undefined || d.name === d.slug ? '' : safeLabel(d.name, 120),
        ...(d.description ? { detail: safeLabel(d.description, 200) } : {}),
      })),
    ];
  });
}

/** The named saved queries of a dataset, by name; a query id with several names is offered under each. */
export function queryChoices(api: AccountApi, dataset: string, signal?: AbortSignal): Promise<Listing<QueryChoice>> {
  return listOrType(`GET /1/query_annotations/${dataset}`, async () => {
    const named = (await api.listQueryAnnotations(dataset, signal ? { signal } : undefined)).data;
    return [...named]
      .sort((a, b) => a.name.localeCompare(b.name) || a.query_id.localeCompare(b.query_id))
      .map((a) => {
        const from = a.source === 'board' ? l10n.t('on a board') : undefined;
        return {
          queryId: a.query_id,
          label: safeLabel(a.name, 120),
          description: [safeLabel(a.query_id, 80), from].filter((p) => p !== undefined).join(' · '),
          ...(a.description ? { detail: safeLabel(a.description, 200) } : {}),
        };
      });
  });
}
