// A query service whose events the test places minute by minute (in groups of one breakdown column), counting
// the saved queries and query results it is asked to create: how the noise diff's tests see, from outside,
// which queries each version of a trigger needed. Every result is complete at once, its series summed from the
// placed events per bucket (a bucket without events has no point, as the service answers).
import type { ApiResponse } from '../../src/api/clientOptions';
import type { CreateQueryRequest, QueryResult, SavedQuery, SeriesPoint } from '../../src/api/schemas';
import type { QueryApi } from '../../src/backtest';

/** Events placed at the minute starting at `minute` (epoch seconds), by group. */
export type Placed = ReadonlyMap<number, readonly { group: string; count: number }[]>;

export interface CountingQueryService {
  api: QueryApi;
  /** Saved queries created. */
  saved(): number;
  /** Query results created. */
  results(): number;
}

const respond = <T>(data: T): ApiResponse<T> => ({ data, status: 200, attempts: 1 });
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** The service with the events placed; `column` is the breakdown the groups are values of. */
export function countingQueryService(placed: Placed, column: string): CountingQueryService {
  const specs = new Map<string, CreateQueryRequest>();
  let results = 0;
  const series = (spec: CreateQueryRequest): SeriesPoint[] => {
    const { start_time: start = 0, end_time: end = 0, granularity: step = 60 } = spec;
    const broken = (spec.breakdowns ?? []).includes(column);
    const points: SeriesPoint[] = [];
    for (let t = start; t < end; t += step) {
      const sums = new Map<string, number>();
      for (let m = t; m < Math.min(end, t + step); m += 60)
        for (const e of placed.get(m) ?? []) {
          const key = broken ? e.group : '';
          sums.set(key, (sums.get(key) ?? 0) + e.count);
        }
      for (const [group, count] of [...sums].sort(([a], [b]) => a.localeCompare(b)))
        points.push({ time: iso(t), data: broken ? { COUNT: count, [column]: group } : { COUNT: count } });
    }
    return points;
  };
  const api: QueryApi = {
    createQuery: async (_dataset, body) => {
      const id = `q${specs.size + 1}`;
      specs.set(id, body);
      return respond<SavedQuery>({ ...body, id });
    },
    getQuery: async (_dataset, id) => respond<SavedQuery>({ ...(specs.get(id) ?? {}), id }),
    createQueryResult: async (_dataset, body) => {
      const spec = specs.get(body.query_id);
      if (!spec) throw new Error(`no saved query ${body.query_id}`);
      results++;
      return respond<QueryResult>({ id: `r${results}`, complete: true, data: { series: series(spec) } });
    },
    getQueryResult: async (_dataset, id) => {
      throw new Error(`result ${id} is complete when created: it is never read again`);
    },
    listDatasets: async () => respond([]),
    listColumns: async () => respond([]),
  };
  return { api, saved: () => specs.size, results: () => results };
}
