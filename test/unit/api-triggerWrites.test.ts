// Writing triggers (beyond the spec's eight, service facts): read one, create, replace, delete. A create is
// never repeated blindly: after an unknown outcome the client looks for it among the dataset's triggers.
import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { ServiceClient } from '../../src/api';
import {
  assertNoSecretsCaptured,
  CONFIG_KEY,
  failure,
  makeClient,
  sendJson,
  startServer,
  type RecordedRequest,
  type TestServer,
} from './api-helpers';

type Route = (req: RecordedRequest, res: ServerResponse) => void;

let server: TestServer;
let routes: Route[] = [];
let client: ServiceClient;

/** The n-th request is answered by routes[n-1]; requests beyond the script get a 500. */
before(async () => {
  server = await startServer((req, res, n) => (routes[n - 1] ?? ((_q, r) => sendJson(r, 500, {})))(req, res));
});
beforeEach(() => {
  server.requests.length = 0;
  routes = [];
  client = makeClient(server.url);
});
afterEach(async () => client.close());
after(async () => {
  assertNoSecretsCaptured();
  await server.close();
});

const inline = {
  name: 'High latency',
  threshold: { op: '>', value: 500 },
  frequency: 300,
  query: { calculations: [{ op: 'P99', column: 'duration_ms' }], time_range: 600 },
};
const listed = (id: string, name = inline.name) => ({
  ...inline,
  id,
  name,
  dataset_slug: 'api',
  query_id: `q-${id}`,
  triggered: false,
  auto_investigate: true,
  created_at: '2026-11-26T10:00:00Z',
  updated_at: '2026-11-26T10:00:00Z',
});
const ok =
  (status: number, body: unknown): Route =>
  (_q, r) =>
    sendJson(r, status, body);
const requests = () => server.requests.map((r) => `${r.method} ${r.url}`);

test('getTrigger reads one trigger and keeps members the spec does not list', async () => {
  routes = [ok(200, listed('t-1'))];
  const res = await client.getTrigger('api', 't-1');
  assert.deepEqual(requests(), ['GET /1/triggers/api/t-1']);
  assert.equal(server.requests[0]?.headers['x-service-team'], CONFIG_KEY);
  assert.equal(res.data.id, 't-1');
  assert.equal(res.data['auto_investigate'], true);
});

test('createTrigger posts the writable trigger as JSON, without the members the service sets', async () => {
  routes = [ok(201, listed('t-9'))];
  const res = await client.createTrigger('api', { ...listed('ignored'), query_id: undefined }, { knownIds: new Set() });
  assert.deepEqual(requests(), ['POST /1/triggers/api']);
  assert.equal(server.requests[0]?.headers['content-type'], 'application/json');
  const sent = JSON.parse(server.requests[0]?.body ?? '') as Record<string, unknown>;
  assert.deepEqual(Object.keys(sent).sort(), ['auto_investigate', 'frequency', 'name', 'query', 'threshold']);
  assert.equal(res.status, 201);
  assert.equal(res.data.id, 't-9');
  assert.equal(res.recovered, undefined);
});

test('createTrigger refuses both query and query_id before sending', async () => {
  const e = await failure(client.createTrigger('api', { ...inline, query_id: 'q-1' }, { knownIds: new Set() }));
  assert.equal(e.kind, 'request-validation');
  assert.deepEqual(
    e.fieldProblems.map((p) => p.field),
    ['query_id'],
  );
  assert.equal(server.requests.length, 0);
});

test('createTrigger refuses a trigger with neither query nor query_id before sending', async () => {
  const { query: _q, ...noQuery } = inline;
  const e = await failure(client.createTrigger('api', noQuery, { knownIds: new Set() }));
  assert.deepEqual(
    e.fieldProblems.map((p) => p.field),
    ['query'],
  );
  assert.equal(server.requests.length, 0);
});

test('createTrigger without the ids known before lists the dataset first', async () => {
  routes = [ok(200, [listed('t-1')]), ok(201, listed('t-2'))];
  const res = await client.createTrigger('api', inline);
  assert.deepEqual(requests(), ['GET /1/triggers/api', 'POST /1/triggers/api']);
  assert.equal(res.data.id, 't-2');
});

test('after a 500 the new trigger of that name found in the list is the one created: no second POST', async () => {
  routes = [ok(500, { error: 'oops' }), ok(200, [listed('t-1'), listed('t-2', 'Other'), listed('t-3')])];
  const res = await client.createTrigger('api', inline, { knownIds: new Set(['t-1', 't-2']) });
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.equal(res.data.id, 't-3');
  assert.equal(res.recovered, true);
});

test('after a 500 a new trigger of that name holding something else is not taken as the one sent, and none is posted again', async () => {
  // Someone else's trigger of the same name, made in that moment: another threshold and description.
  const theirs = {
    ...listed('t-3'),
    threshold: { op: '>', value: 900, exceeded_limit: 1 },
    description: 'made by a colleague',
  };
  routes = [ok(500, { error: 'oops' }), ok(200, [listed('t-1'), theirs])];
  const e = await failure(
    client.createTrigger('api', { ...inline, description: 'mine' }, { knownIds: new Set(['t-1']) }),
  );
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.equal(e.maybeProcessed, true);
  assert.match(
    e.message,
    /the trigger may have been created anyway: check the dataset's triggers before creating it again; a new trigger named "High latency" is listed now \(t-3\), but its threshold, description are not what was sent, so it was not taken for this one and none was created again$/,
  );
});

test('after a 500 the new trigger is recognised as sent whatever the service filled in: defaults, query_id, recipient details, set order', async () => {
  const sent = {
    ...inline,
    tags: [
      { key: 'team', value: 'payments' },
      { key: 'tier', value: 'gold' },
    ],
    recipients: [{ id: 'rcp-a' }, { id: 'rcp-b' }],
  };
  const stored = {
    ...listed('t-8'),
    threshold: { ...inline.threshold, exceeded_limit: 1 },
    alert_type: 'on_change',
    disabled: false,
    description: null,
    query: { ...inline.query, filter_combination: 'AND' },
    tags: [sent.tags[1], sent.tags[0]],
    recipients: [
      { id: 'rcp-b', type: 'slack', target: '#alerts' },
      { id: 'rcp-a', type: 'email', target: 'oncall@example.com' },
    ],
  };
  routes = [ok(500, {}), ok(200, [stored])];
  const res = await client.createTrigger('api', sent, { knownIds: new Set() });
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.equal(res.data.id, 't-8');
  assert.equal(res.recovered, true);
});

test("after a 500 the new trigger is recognised as sent whatever order the service holds the query's filters, havings and calculated fields in, without the AND it never echoes", async () => {
  const query = {
    calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
    filters: [
      { column: 'a', op: 'exists' },
      { column: 'b', op: 'exists' },
    ],
    filter_combination: 'AND',
    havings: [
      { calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1 },
      { calculate_op: 'COUNT', op: '>', value: 2 },
    ],
    calculated_fields: [
      { name: 'x', expression: '$a' },
      { name: 'y', expression: '$b' },
    ],
    time_range: 600,
  };
  const { filter_combination: _and, ...echoed } = query;
  const stored = {
    ...listed('t-9'),
    query: {
      ...echoed,
      filters: [...query.filters].reverse(),
      havings: [...query.havings].reverse(),
      calculated_fields: [...query.calculated_fields].reverse(),
    },
  };
  routes = [ok(500, {}), ok(200, [stored])];
  const res = await client.createTrigger('api', { ...inline, query }, { knownIds: new Set() });
  assert.deepEqual(
    [requests(), res.data.id, res.recovered],
    [['POST /1/triggers/api', 'GET /1/triggers/api'], 't-9', true],
  );
});

test('after a 500 a new trigger of that name with a recipient fewer than sent is not taken as the one sent', async () => {
  routes = [
    ok(500, {}),
    ok(200, [{ ...listed('t-3'), recipients: [{ id: 'rcp-a', type: 'email', target: 'x@example.com' }] }]),
  ];
  const e = await failure(
    client.createTrigger('api', { ...inline, recipients: [{ id: 'rcp-a' }, { id: 'rcp-b' }] }, { knownIds: new Set() }),
  );
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.match(e.message, /but its recipients is not what was sent/);
});

test('after a lost answer (connection reset) the list is read before anything is sent again', async () => {
  routes = [(_q, r) => r.socket?.destroy(), ok(200, [listed('t-3')])];
  const res = await client.createTrigger('api', inline, { knownIds: new Set() });
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.equal(res.recovered, true);
});

test('after a 502 with no new trigger of that name listed, it is not posted again: a gateway may answer while the service still takes it', async () => {
  routes = [ok(502, {}), ok(200, [listed('t-1')]), ok(201, listed('t-4'))];
  const e = await failure(client.createTrigger('api', inline, { knownIds: new Set(['t-1']) }));
  // 502 is retried by the pipeline only for idempotent calls: a create's first 502 ends the POST.
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.equal(e.maybeProcessed, true);
  assert.match(
    e.message,
    /may have been created anyway: .*; it is not listed yet, but the service may still be taking it, so it was not sent again: plan again to see$/,
  );
});

test('two new triggers of that name after an unknown outcome: nothing more is posted and both are named', async () => {
  routes = [ok(500, {}), ok(200, [listed('t-5'), listed('t-6')])];
  const e = await failure(client.createTrigger('api', inline, { knownIds: new Set() }));
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.match(e.message, /2 new triggers named "High latency" are listed now \(t-5, t-6\)/);
});

test('a listing that fails after an unknown outcome ends the create without a second POST', async () => {
  routes = [ok(500, {}), ok(403, { error: 'no' })];
  const e = await failure(client.createTrigger('api', inline, { knownIds: new Set() }));
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'GET /1/triggers/api']);
  assert.match(e.message, /looking for it failed too .*so it was not created again/);
});

test('a 429 on create is retried at once: the service did not take it', async () => {
  routes = [(_q, r) => sendJson(r, 429, {}, { 'retry-after': '1' }), ok(201, listed('t-7'))];
  const res = await client.createTrigger('api', inline, { knownIds: new Set() });
  assert.deepEqual(requests(), ['POST /1/triggers/api', 'POST /1/triggers/api']);
  assert.equal(res.data.id, 't-7');
});

test('a 422 on create is the answer: no listing, no second POST', async () => {
  routes = [
    (_q, r) =>
      sendJson(
        r,
        422,
        {
          status: 422,
          error: 'invalid',
          type_detail: [{ field: 'frequency', code: 'invalid', description: 'must be a multiple of 60' }],
        },
        { 'content-type': 'application/problem+json' },
      ),
  ];
  const e = await failure(client.createTrigger('api', inline, { knownIds: new Set() }));
  assert.deepEqual(requests(), ['POST /1/triggers/api']);
  assert.equal(e.status, 422);
  assert.equal(e.maybeProcessed, undefined);
  assert.deepEqual(
    e.fieldProblems.map((p) => p.field),
    ['frequency'],
  );
});

test('replaceTrigger puts the whole writable trigger with disabled given', async () => {
  routes = [ok(200, listed('t-1'))];
  await client.replaceTrigger('api', 't-1', { ...listed('t-1'), query_id: undefined, disabled: true });
  assert.deepEqual(requests(), ['PUT /1/triggers/api/t-1']);
  const sent = JSON.parse(server.requests[0]?.body ?? '') as Record<string, unknown>;
  assert.equal(sent['disabled'], true);
  for (const member of ['id', 'dataset_slug', 'triggered', 'created_at', 'updated_at'])
    assert.ok(!(member in sent), member);
});

test('replaceTrigger refuses a body without disabled before sending: the service would keep its own', async () => {
  const e = await failure(
    client.replaceTrigger('api', 't-1', { ...inline } as unknown as Parameters<ServiceClient['replaceTrigger']>[2]),
  );
  assert.deepEqual(
    e.fieldProblems.map((p) => p.field),
    ['disabled'],
  );
  assert.equal(server.requests.length, 0);
});

test('replaceTrigger is not sent again after a 503: the service may have taken it, and the error says to read it first', async () => {
  routes = [ok(503, {}), ok(200, listed('t-1'))];
  const e = await failure(client.replaceTrigger('api', 't-1', { ...inline, disabled: false }));
  assert.deepEqual(requests(), ['PUT /1/triggers/api/t-1']);
  assert.equal(e.maybeProcessed, true);
  assert.match(e.message, /; the trigger may have been replaced anyway: read it before writing it again$/);
});

test('replaceTrigger is sent again after a 429: the service refused it untaken', async () => {
  routes = [(_q, r) => sendJson(r, 429, {}, { 'retry-after': '0' }), ok(200, listed('t-1'))];
  await client.replaceTrigger('api', 't-1', { ...inline, disabled: false });
  assert.deepEqual(requests(), ['PUT /1/triggers/api/t-1', 'PUT /1/triggers/api/t-1']);
});

test('deleteTrigger sends DELETE without a body and reads the 204 as done', async () => {
  routes = [
    (_q, r) => {
      r.writeHead(204);
      r.end();
    },
  ];
  const res = await client.deleteTrigger('__all__', 't-1');
  assert.deepEqual(requests(), ['DELETE /1/triggers/__all__/t-1']);
  assert.equal(server.requests[0]?.body, '');
  assert.equal(server.requests[0]?.headers['content-type'], undefined);
  assert.equal(res.status, 204);
  assert.equal(res.data, undefined);
});

test('deleteTrigger of a trigger already gone is a 404 error', async () => {
  routes = [
    (_q, r) =>
      sendJson(
        r,
        404,
        { status: 404, title: 'not found', type: 'x/problems/not-found' },
        { 'content-type': 'application/problem+json' },
      ),
  ];
  const e = await failure(client.deleteTrigger('api', 't-1'));
  assert.equal(e.status, 404);
});
