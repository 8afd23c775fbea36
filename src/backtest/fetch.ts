// Fetching the series an evaluation reads: each chunk of the plan saved as a query and run (paced by the
// service's limit of 10 results a minute, waiting visibly), or taken from the session's cache when the
// same query over the same window and step was run before. Shared by the preview and the trigger tests.
// No vscode import.
import type { PreviewPlan } from './plan';
import { chunkQuery, queryPart } from './plan';
import { ResultCache, type CachedData, type ResultStore } from './cache';
import { explainNotFound } from './datasetCheck';
import type { SavedQueryCache } from './savedQueryCache';
import { runQueryResult, unavailableOr, type CreationPacer, type QueryApi, type RunnerClock } from './runner';
import * as l10n from '@vscode/l10n';

export interface FetchDeps {
  api: QueryApi;
  /** The connection's pacer: shared with every other query of that connection. */
  pacer: CreationPacer;
  clock: RunnerClock;
  signal: AbortSignal;
  /** Progress for the user, the waits for the rate limit included ("Waiting 23 s: ..."). */
  report(message: string): void;
  /** Results reused within a session (the cache, or a run over it); none: every chunk is run. */
  cache?: ResultStore | undefined;
  /** Saved queries reused within a session (the same spec is saved once); none: each chunk is saved. */
  queries?: SavedQueryCache | undefined;
}

/** A query whose result did not complete (the reason says why and what to do). */
export class QueryIncompleteError extends Error {
  readonly kind = 'query-incomplete';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'QueryIncompleteError';
  }
}

/** The saved query a trigger names by query_id, read back to evaluate it. */
export async function readSavedQuery(
  api: Pick<QueryApi, 'getQuery' | 'listDatasets' | 'listColumns'>,
  dataset: string,
  queryId: string,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  try {
    return (await api.getQuery(dataset, queryId, { signal })).data;
  } catch (err) {
    throw unavailableOr(
      await explainNotFound(api, dataset, err, signal),
      l10n.t('Reading a saved query'),
      `GET /1/queries/${dataset}/${queryId}`,
    );
  }
}

/** " (query 2 of 11)" when a plan has several queries. */
const partOf = (i: number, of: number): string => (of > 1 ? ` ${l10n.t('(query {0} of {1})', i + 1, of)}` : '');

/** The data of each chunk of the plan, in order. */
export async function fetchSeries(
  deps: FetchDeps,
  dataset: string,
  query: Record<string, unknown>,
  plan: Pick<PreviewPlan, 'step' | 'chunks'>,
): Promise<CachedData[]> {
  const data: CachedData[] = [];
  const keyOf = chunkKeys(dataset, query, plan.step);
  for (const [i, chunk] of plan.chunks.entries()) {
    // Its query and its place are made only for a chunk fetched: on a run again most come from the cache.
    const run = () => runChunk(deps, dataset, chunkQuery(query, plan, chunk), partOf(i, plan.chunks.length));
    data.push(await (deps.cache ? deps.cache.getOrFetch(keyOf(chunk), run) : run()));
  }
  return data;
}

/**
 * The key of each chunk's result in the session's cache, for a query at a step: the query's canonical JSON is
 * made once, and each chunk's window put beside it (a week at 60 s is 11 chunks, each made and keyed anew).
 */
export function chunkKeys(
  dataset: string,
  query: Record<string, unknown>,
  step: number,
): (chunk: { start: number; end: number }) => string {
  const base = ResultCache.keyOf(dataset, queryPart(query));
  return (chunk) => `${base}\u0000${step}\u0000${chunk.start}\u0000${chunk.end}`;
}

async function runChunk(
  deps: FetchDeps,
  dataset: string,
  spec: ReturnType<typeof chunkQuery>,
  part: string,
): Promise<CachedData> {
  const { api, signal, report } = deps;
  report(l10n.t('Saving the preview query{0}...', part));
  let queryId: string;
  try {
    queryId = deps.queries
      ? (await deps.queries.idFor(api, dataset, spec, signal)).id
      : (await api.createQuery(dataset, spec, { signal })).data.id;
  } catch (err) {
    throw unavailableOr(
      await explainNotFound(api, dataset, err, signal),
      l10n.t('Saving a query'),
      `POST /1/queries/${dataset}`,
    );
  }
  const run = await runQueryResult(api, deps.pacer, deps.clock, {
    dataset,
    body: {
      query_id: queryId,
      disable_series: false,
      disable_total_by_aggregate: true,
      disable_other_by_aggregate: true,
    },
    signal,
    report: (m) => report(`${m}${part}`),
  });
  if (run.kind === 'incomplete') throw new QueryIncompleteError(run.reason);
  return run.result.data;
}
