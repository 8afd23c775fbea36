// The sandbox's saved queries and query results beyond the spec: save and read back, results computed
// from the query (filters, breakdowns, calculations, granularity, limit, flags), results that complete
// later, failing queries, the 10-a-minute limit on creating results and the 7 days of data.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryResult } from '../../src/api/schemas';
import { DEMO } from '../../src/sandbox';
import { assertProblem, assertValidation, startTestSandbox, testClock, type TestSandbox } from './sandbox-helpers';

const GW = DEMO.datasets.gateway;
const clock = testClock('2025-06-02T12:00:00Z');
const NOW = Date.parse('2025-06-02T12:00:00Z') / 1000;
let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1000, queryResultRateLimit: 1000, clock: clock.now });
});
after(() => sb.handle.close());

async function save(query: unknown, dataset = GW): Promise<string> {
  const res = await sb.v1('POST', `/1/queries/${dataset}`, query);
  assert.equal(res.status, 200, res.text);
  return (res.json() as { id: string }).id;
}
async function result(query: unknown, flags: Record<string, unknown> = {}, dataset = GW): Promise<QueryResult> {
  const id = await save(query, dataset);
  const res = await sb.v1('POST', `/1/query_results/${dataset}`, { query_id: id, ...flags });
  assert.equal(res.status, 201, res.text);
  let body = QueryResult.parse(res.json());
  if (!body.complete) {
    clock.advance(11_000);
    body = QueryResult.parse((await sb.v1('GET', `/1/query_results/${dataset}/${body.id}`)).json());
  }
  return body;
}
const hour = { start_time: NOW - 3600, end_time: NOW };

describe('saved queries', () => {
  test('POST answers 200 with the query and its new id; GET reads it back', async () => {
    const query = { calculations: [{ op: 'COUNT' }], time_range: 3600 };
    const res = await sb.v1('POST', `/1/queries/${GW}`, query);
    assert.equal(res.status, 200);
    const saved = res.json() as Record<string, unknown>;
    assert.match(String(saved.id), /^q_\d{6}$/);
    assert.deepEqual(saved, { ...query, id: saved.id });
    const read = await sb.v1('GET', `/1/queries/${GW}/${String(saved.id)}`);
    assert.deepEqual(read.json(), saved);
  });
  test('an unknown saved query is a 404', async () => {
    assertProblem(await sb.v1('GET', `/1/queries/${GW}/q_nope`), 404, sb.base, 'not-found');
  });
  test('granularity below time_range/1000 is a 422 naming the bound', async () => {
    const res = await sb.v1('POST', `/1/queries/${GW}`, {
      calculations: [{ op: 'COUNT' }],
      time_range: 86_400,
      granularity: 60,
    });
    const body = assertProblem(res, 422, sb.base, 'validation-failed');
    assert.equal(
      body.type_detail?.[0]?.description,
      'granularity must be at least the time range / 1000 (87 seconds for 86400 seconds)',
    );
  });
  test('a window older than 7 days is a 422', async () => {
    assertValidation(
      await sb.v1('POST', `/1/queries/${GW}`, {
        calculations: [{ op: 'COUNT' }],
        start_time: NOW - 8 * 86_400,
        end_time: NOW - 7 * 86_400,
      }),
      sb.base,
      [{ field: 'start_time', code: 'invalid' }],
    );
  });
  test('an unknown op and a missing column are 422s on their fields', async () => {
    assertValidation(
      await sb.v1('POST', `/1/queries/${GW}`, { calculations: [{ op: 'MEDIAN' }, { op: 'AVG' }] }),
      sb.base,
      [
        { field: 'calculations[0].op', code: 'invalid' },
        { field: 'calculations[1].column', code: 'missing' },
      ],
    );
  });
});

describe('query results computed from the query', () => {
  test('the same query gives the same data every time (deterministic events)', async () => {
    const q = { calculations: [{ op: 'COUNT' }], breakdowns: ['http.route'], ...hour };
    assert.deepEqual((await result(q)).data, (await result(q)).data);
  });
  test('a filter narrows the count, and the breakdown rows add up to the total', async () => {
    const all = await result({ calculations: [{ op: 'COUNT' }], ...hour }, { disable_total_by_aggregate: false });
    const errors = await result({
      calculations: [{ op: 'COUNT' }],
      filters: [{ column: 'error', op: '=', value: true }],
      ...hour,
    });
    const byRoute = await result({ calculations: [{ op: 'COUNT' }], breakdowns: ['http.route'], ...hour });
    const total = (all.data?.results?.[0]?.data?.COUNT as number) ?? 0;
    assert.ok(total > 100, `an hour of gateway traffic: ${total}`);
    assert.ok(((errors.data?.results?.[0]?.data?.COUNT as number) ?? Infinity) < total);
    assert.equal(
      (byRoute.data?.results ?? []).reduce((n, r) => n + ((r.data?.COUNT as number) ?? 0), 0),
      total,
    );
    assert.deepEqual(all.data?.total_by_aggregate, { COUNT: total });
    assert.deepEqual(
      (byRoute.data?.results ?? []).map((r) => Object.keys(r.data ?? {})),
      Array((byRoute.data?.results ?? []).length).fill(['http.route', 'COUNT']),
    );
  });
  test('granularity sets the buckets of the series; a series without breakdowns has every bucket', async () => {
    const r = await result({ calculations: [{ op: 'COUNT' }], granularity: 300, ...hour });
    const times = (r.data?.series ?? []).map((p) => p.time);
    assert.equal(times.length, 12);
    assert.equal(times[0], new Date((NOW - 3600) * 1000).toISOString());
    assert.equal(times[1], new Date((NOW - 3300) * 1000).toISOString());
    const sum = (r.data?.series ?? []).reduce((n, p) => n + ((p.data?.COUNT as number) ?? 0), 0);
    assert.equal(sum, r.data?.results?.[0]?.data?.COUNT);
  });
  test('calculations are keyed OP(column), named ones by name, and formulas computed from them', async () => {
    const r = await result({
      calculations: [
        { op: 'P99', column: 'duration_ms' },
        { op: 'COUNT', name: 'total' },
        { op: 'COUNT', name: 'failed', filters: [{ column: 'error', op: '=', value: true }] },
      ],
      formulas: [{ name: 'ratio', expression: 'DIV($failed, $total)' }],
      ...hour,
    });
    const row = r.data?.results?.[0]?.data ?? {};
    assert.deepEqual(Object.keys(row), ['P99(duration_ms)', 'total', 'failed', 'ratio']);
    assert.equal(row.ratio, Math.round(((row.failed as number) / (row.total as number)) * 1e9) / 1e9);
  });
  test('with disable_series the request limit caps the rows and no series is sent', async () => {
    const r = await result(
      { calculations: [{ op: 'COUNT' }], breakdowns: ['user.id'], ...hour },
      { disable_series: true, limit: 5 },
    );
    assert.equal(r.data?.results?.length, 5);
    assert.equal(r.data?.series, undefined);
    const counts = (r.data?.results ?? []).map((x) => x.data?.COUNT as number);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
      'ordered by the first calculation, largest first',
    );
  });
  test('a query over a column the dataset lacks fails: complete, with the error', async () => {
    const r = await result({ calculations: [{ op: 'AVG', column: 'nope' }], ...hour });
    assert.equal(r.complete, true);
    assert.equal(r.error, 'query failed: column "nope" does not exist in dataset "api-gateway"');
  });
  test('a day of data takes the service time: not complete at first, complete when polled later', async () => {
    const id = await save({
      calculations: [{ op: 'COUNT' }],
      start_time: NOW - 86_400,
      end_time: NOW,
      granularity: 300,
    });
    const created = QueryResult.parse((await sb.v1('POST', `/1/query_results/${GW}`, { query_id: id })).json());
    assert.equal(created.complete, false);
    assert.equal(created.data, undefined);
    const early = QueryResult.parse((await sb.v1('GET', `/1/query_results/${GW}/${created.id}`)).json());
    assert.equal(early.complete, false);
    clock.advance(10_000);
    const late = QueryResult.parse((await sb.v1('GET', `/1/query_results/${GW}/${created.id}`)).json());
    assert.equal(late.complete, true);
    assert.equal(late.data?.series?.length, 288);
  });
  test('a result is gone after 7 days', async () => {
    const r = await result({ calculations: [{ op: 'COUNT' }], ...hour });
    clock.advance(7 * 86_400_000 + 1000);
    assertProblem(await sb.v1('GET', `/1/query_results/${GW}/${r.id}`), 404, sb.base, 'not-found');
    clock.set('2025-06-02T12:00:00Z');
  });
});

describe('the limit on creating query results', () => {
  test('the eleventh creation in a minute is a 429 with Retry-After at the end of the minute', async () => {
    const limited = await startTestSandbox({ clock: testClock('2025-06-02T12:00:10Z').now });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++)
        codes.push((await limited.v1('POST', `/1/query_results/${GW}`, { query_id: DEMO.savedQueries.gw5xx })).status);
      assert.deepEqual(codes, [...Array(10).fill(201), 429]);
      const last = await limited.v1('POST', `/1/query_results/${GW}`, { query_id: DEMO.savedQueries.gw5xx });
      assertProblem(last, 429, limited.base, 'rate-limited');
      assert.equal(last.headers['retry-after'], 'Mon, 02 Jun 2025 12:01:00 GMT');
    } finally {
      await limited.handle.close();
    }
  });
});
