import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { QueryResult } from '../../src/api/schemas';
import { DEMO } from '../../src/sandbox';
import { assertProblem, assertValidation, call, startTestSandbox, type TestSandbox } from './sandbox-helpers';

// Spec 4.5 and rule 7.6 against the sandbox over raw HTTP.

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1000, queryResultRateLimit: 1000 });
});
after(() => sb.handle.close());

const GW = DEMO.datasets.gateway;
const create = (body: unknown, dataset: string = GW) => sb.v1('POST', `/1/query_results/${dataset}`, body);

describe('POST /1/query_results/<dataset> (4.5)', () => {
  test('creates a result: 201, Location, {id, complete, query, links} with UI links of the spec form', async () => {
    const res = await create({ query_id: DEMO.savedQueries.gw5xx });
    assert.equal(res.status, 201, res.text);
    const body = QueryResult.parse(res.json());
    assert.match(body.id, /^qr_\d{6}$/);
    assert.equal(res.headers.location, `${sb.base}/1/query_results/${GW}/${body.id}`);
    assert.equal(body.complete, true);
    assert.deepEqual(body.query, sb.handle.state.savedQueries.find((q) => q.id === DEMO.savedQueries.gw5xx)?.query);
    const ui = sb.handle.info.uiUrl;
    assert.deepEqual(body.links, {
      query_url: `${ui}/${DEMO.team}/datasets/${GW}/result/${body.id}`,
      graph_image_url: `${ui}/${DEMO.team}/datasets/${GW}/result/${body.id}/snapshot`,
    });
    assert.equal('error' in body, false);
  });

  test('the query_url opens a page in the stand-in UI', async () => {
    const body = QueryResult.parse((await create({ query_id: DEMO.savedQueries.gw5xx })).json());
    const page = await call(body.links?.query_url ?? '');
    assert.equal(page.status, 200);
    assert.match(page.text, new RegExp(`Query result ${body.id}`));
  });

  test('the designated slow saved query answers complete: false', async () => {
    const body = QueryResult.parse((await create({ query_id: DEMO.savedQueries.gwSlow })).json());
    assert.equal(body.complete, false);
  });

  test('the failing saved query answers complete: true with an error', async () => {
    const body = QueryResult.parse((await create({ query_id: DEMO.savedQueries.gwFailing })).json());
    assert.equal(body.complete, true);
    assert.equal(typeof body.error, 'string');
  });

  test('disable_series with a limit of 10000 is accepted', async () => {
    const res = await create({ query_id: DEMO.savedQueries.gwTopRoutes, disable_series: true, limit: 10_000 });
    assert.equal(res.status, 201, res.text);
  });

  test('a limit below 1 is accepted: no minimum is stated, and without disable_series it is ignored (spec 4.5)', async () => {
    assert.equal((await create({ query_id: DEMO.savedQueries.gw5xx, disable_series: false, limit: 0 })).status, 201);
    assert.equal((await create({ query_id: DEMO.savedQueries.gw5xx, limit: -5 })).status, 201);
  });

  test('7.6: a limit above 10000 is a 422 on limit, with or without disable_series', async () => {
    assertValidation(await create({ query_id: DEMO.savedQueries.gw5xx, limit: 10_001 }), sb.base, [
      { field: 'limit', code: 'invalid' },
    ]);
  });

  test('7.6: a limit above 10000 is a 422 on limit', async () => {
    assertValidation(
      await create({ query_id: DEMO.savedQueries.gw5xx, disable_series: true, limit: 10_001 }),
      sb.base,
      [{ field: 'limit', code: 'invalid' }],
    );
  });

  test('a missing query_id is a 422 missing', async () => {
    assertValidation(await create({ disable_series: true }), sb.base, [{ field: 'query_id', code: 'missing' }]);
  });

  test('a query_id naming no saved query is a 422 on query_id', async () => {
    assertValidation(await create({ query_id: 'q_nope' }), sb.base, [{ field: 'query_id', code: 'invalid' }]);
  });

  test("another dataset's saved query is a 422 on query_id", async () => {
    assertValidation(await create({ query_id: DEMO.savedQueries.coPayments }), sb.base, [
      { field: 'query_id', code: 'invalid' },
    ]);
  });

  test('__all__ runs an environment-wide saved query', async () => {
    const res = await create({ query_id: DEMO.savedQueries.envCount }, '__all__');
    assert.equal(res.status, 201, res.text);
    const body = QueryResult.parse(res.json());
    assert.match(body.links?.query_url ?? '', /\/datasets\/__all__\/result\//);
  });

  test('an unknown dataset is a 404', async () => {
    assertProblem(await create({ query_id: DEMO.savedQueries.gw5xx }, 'no-such-dataset'), 404, sb.base, 'not-found');
  });

  test('an aggregate without a value (an AVG over no events) is left out of the rows, never null: the service sends strings, numbers and booleans', async () => {
    const saved = await sb.v1('POST', `/1/queries/${GW}`, {
      calculations: [{ op: 'COUNT' }, { op: 'AVG', column: 'duration_ms' }],
      filters: [{ column: 'http.route', op: '=', value: '/no-such-route' }],
      time_range: 600,
    });
    const res = await create({
      query_id: (saved.json() as { id: string }).id,
      disable_total_by_aggregate: false,
      disable_other_by_aggregate: false,
    });
    const body = res.json() as {
      complete: boolean;
      data: {
        series: { data: object }[];
        results: { data: object }[];
        total_by_aggregate: object;
        other_by_aggregate: object;
      };
    };
    assert.equal(body.complete, true, res.text);
    assert.equal(res.text.includes('null'), false);
    assert.ok(body.data.series.length > 0);
    assert.ok(body.data.series.every((s) => JSON.stringify(s.data) === '{"COUNT":0}'));
    assert.deepEqual(
      [body.data.results.map((r) => r.data), body.data.total_by_aggregate],
      [[{ COUNT: 0 }], { COUNT: 0 }],
    );
  });

  test('each result gets a new id', async () => {
    const a = QueryResult.parse((await create({ query_id: DEMO.savedQueries.gw5xx })).json());
    const b = QueryResult.parse((await create({ query_id: DEMO.savedQueries.gw5xx })).json());
    assert.notEqual(a.id, b.id);
  });
});
