// The service the backtest and preview samples fetch from: it saves any query and answers each result at
// once with the series `seriesOf` makes for it (through JSON, as the client reads them), so that a first run fills the session's result cache and a
// second run reads only from it. `keys` are the cache keys of each dataset's queries, in the order made,
// for a floor to read the same results.
import type { QueryApi } from '../../src/backtest';
import { chunkKeys } from '../../src/backtest/fetch';
import type { CreateQueryRequest, QueryResultData } from '../../src/api/schemas';

export interface CachedService {
  api: QueryApi;
  keys: Map<string, string[]>;
  /** Queries saved so far: none may be saved while a sample is timed. */
  saved(): number;
}

export function cachedService(seriesOf: (q: CreateQueryRequest, seed: number) => QueryResultData): CachedService {
  const saved = new Map<string, CreateQueryRequest>();
  const keys = new Map<string, string[]>();
  const unused = () => Promise.reject(new Error('not used'));
  const api: QueryApi = {
    createQuery: (dataset, body) => {
      const id = `q${saved.size}`;
      saved.set(id, body);
      const key = chunkKeys(
        dataset,
        body,
        body.granularity ?? 0,
      )({ start: body.start_time ?? 0, end: body.end_time ?? 0 });
      keys.set(dataset, [...(keys.get(dataset) ?? []), key]);
      return Promise.resolve({ data: { ...body, id }, status: 200, attempts: 1 });
    },
    getQuery: unused,
    createQueryResult: (_d, body) =>
      Promise.resolve({
        data: {
          id: `r${body.query_id}`,
          complete: true,
          // Through JSON, as the client reads the service's answer.
          data: JSON.parse(
            JSON.stringify(seriesOf(saved.get(body.query_id) ?? {}, Number(body.query_id.slice(1)))),
          ) as QueryResultData,
        },
        status: 201,
        attempts: 1,
      }),
    getQueryResult: unused,
    // Asked only to explain a 404, which this service never answers.
    listDatasets: unused,
    listColumns: unused,
  };
  return { api, keys, saved: () => saved.size };
}

/**
 * The floor's pass over one result: the value of every series point read once (a number added up), the least
 * any evaluation of the result does. Nothing else: no time, no group.
 */
export function sumValues(data: QueryResultData | null | undefined, key: string): number {
  let sum = 0;
  for (const p of data?.series ?? []) {
    const v = p.data?.[key];
    if (typeof v === 'number') sum += v;
  }
  return sum;
}
