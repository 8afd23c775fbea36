// A query service of the tests' own making, for properties over any trigger and any window: one dataset whose
// COUNT per minute is a function of the minute (quiet minutes, and bursts an hour long that a seed places),
// saved queries kept as sent, and every result complete at once with its series summed from those minutes.
// It refuses, as the service does, a query starting before the 7 days it keeps. Nothing of src/backtest runs
// here: the series it answers are made from the minutes, so the engine is checked against data, not itself.
import type { ApiResponse } from '../../src/api/clientOptions';
import type {
  CreateQueryRequest,
  CreateQueryResultRequest,
  QueryResult,
  SavedQuery,
  SeriesPoint,
} from '../../src/api/schemas';
import type { QueryApi } from '../../src/backtest';

const DAY = 86_400;

/** A 32-bit hash of two integers (a seed and a minute): the same minute always has the same events. */
function mix(seed: number, n: number): number {
  let h =
    Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^
    Math.imul(n | 0, 0xc2b2ae35) ^
    Math.imul(Math.floor(n / 2 ** 32), 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The events of the minute starting at `t` (epoch seconds, a multiple of 60): 0 to 2, or 5 to 9 in a burst hour. */
export function eventsAt(seed: number, t: number): number {
  const minute = Math.floor(t / 60);
  const burst = mix(seed, Math.floor(minute / 60) + 7_919) % 5 === 0;
  const r = mix(seed, minute) % 100;
  return burst ? 5 + (r % 5) : r < 60 ? 0 : r < 90 ? 1 : 2;
}

/** Events in [start, end) (multiples of 60). */
export function eventsIn(seed: number, start: number, end: number): number {
  let sum = 0;
  for (let t = start; t < end; t += 60) sum += eventsAt(seed, t);
  return sum;
}

const respond = <T>(data: T): ApiResponse<T> => ({ data, status: 200, attempts: 1 });
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export interface FakeQueryService {
  api: QueryApi;
  /** Every saved query's window, in the order they were saved ([start_time, end_time)). */
  saved: { start: number; end: number; granularity: number }[];
  /** Results created. */
  created(): number;
}

/** The service at `now()` (epoch seconds), its events placed by `seed`. */
export function fakeQueryService(seed: number, now: () => number): FakeQueryService {
  const specs = new Map<string, CreateQueryRequest>();
  const saved: FakeQueryService['saved'] = [];
  let results = 0;
  const series = (spec: CreateQueryRequest): SeriesPoint[] => {
    const { start_time: start = 0, end_time: end = 0, granularity: step = 60 } = spec;
    const points: SeriesPoint[] = [];
    for (let t = start; t < end; t += step) {
      const count = eventsIn(seed, t, Math.min(end, t + step));
      // As the service: a bucket without events has no point.
      if (count > 0) points.push({ time: iso(t), data: { COUNT: count } });
    }
    return points;
  };
  const api: QueryApi = {
    createQuery: async (_dataset, body) => {
      const id = `q${specs.size + 1}`;
      specs.set(id, body);
      saved.push({ start: body.start_time ?? 0, end: body.end_time ?? 0, granularity: body.granularity ?? 0 });
      return respond<SavedQuery>({ ...body, id });
    },
    getQuery: async (_dataset, id) => respond<SavedQuery>({ ...(specs.get(id) ?? {}), id }),
    createQueryResult: async (_dataset, body: CreateQueryResultRequest) => {
      const spec = specs.get(body.query_id);
      if (!spec) throw new Error(`no saved query ${body.query_id}`);
      if ((spec.start_time ?? 0) < now() - 7 * DAY)
        throw new Error(`query data exists for the past 7 days only: start_time ${iso(spec.start_time ?? 0)}`);
      results++;
      return respond<QueryResult>({ id: `r${results}`, complete: true, data: { series: series(spec) } });
    },
    getQueryResult: async (_dataset, id) => {
      throw new Error(`result ${id} is complete when created: it is never read again`);
    },
    listDatasets: async () => respond([]),
    listColumns: async () => respond([]),
  };
  return { api, saved, created: () => results };
}
