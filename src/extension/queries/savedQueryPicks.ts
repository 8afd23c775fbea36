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
      {
        slug: ENVIRONMENT_WIDE,
        label: ENVIRONMENT_WIDE,
        description: l10n.t('Environment-wide: saved queries over every dataset'),
      },
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

/**
 * What is wrong with a typed saved query id, in the user's words, or undefined when it can be one. The spec
 * gives ids no form, so only what no id holds is refused: nothing, a link, quotes, white space, "/", "?",
 * "#" (it names a path segment, GET /1/queries/<dataset>/<id>) and control characters.
 */
export function queryIdProblem(text: string): string | undefined {
  const id = text.trim();
  if (id === '') return l10n.t('Enter the id of a saved query');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id)) {
    return l10n.t('That is a link, not a saved query id: enter the id alone (a trigger lists it as query_id)');
  }
  if (/["'`\u201C\u201D\u2018\u2019]/.test(id)) return l10n.t('Leave out the quotes: enter the id alone');
  if (/[\s/?#\p{Cc}\p{Cf}]/u.test(id)) {
    return l10n.t('A saved query id has no spaces, "/", "?", "#" or control characters');
  }
  return undefined;
}

/**
 * The service saying it has no saved query by this id in the dataset (its answer names `query_id`), in
 * the user's words; undefined for any other failure. The service's own line goes to the log.
 */
export function unknownQueryProblem(err: unknown, dataset: string, queryId: string): string | undefined {
  const se = asServiceError(err);
  if (se?.kind !== 'http' || se.status === undefined || ![400, 404, 422].includes(se.status)) return undefined;
  if (!se.fieldProblems.some((p) => p.field === 'query_id' || p.field.endsWith('.query_id'))) return undefined;
  return l10n.t(
    'The service has no saved query "{0}" in {1}: check the id (a trigger lists its saved query as query_id).',
    safeLabel(queryId, 80),
    safeLabel(dataset, 80),
  );
}

/**
 * What the user typed last at each question of "Run Saved Query" (a dataset slug; a query id per dataset),
 * per connection, in memory for the session: a question asked again starts from it, so text typed is not
 * lost to a closed pick, a dismissed box or a failed run.
 */
export class TypedText {
  private readonly texts = new Map<string, string>();

  /** The questions of one connection. */
  of(connectionId: string): TypedAnswers {
    const key = (question: string): string => `${connectionId}\u0000${question}`;
    return {
      get: (question) => this.texts.get(key(question)),
      keep: (question, text) => {
        if (text.trim() === '') this.texts.delete(key(question));
        else this.texts.set(key(question), text);
      },
    };
  }
}

/** The text kept for each question of one connection: `dataset`, `query:<dataset>`. */
export interface TypedAnswers {
  get(question: string): string | undefined;
  /** Keeps `text` as the question's answer so far; empty text forgets it. */
  keep(question: string, text: string): void;
}
