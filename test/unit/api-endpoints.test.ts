// Happy path of every endpoint of spec part 4 against a local server: method, path, auth, media types, body.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import {
  CONFIG_KEY,
  MANAGEMENT_KEY,
  assertNoSecretsCaptured,
  failure,
  logs,
  makeClient,
  sendJson,
  startServer,
  type RecordedRequest,
  type TestServer,
} from './api-helpers';
import {
  burnAlerts,
  columns,
  createKeyBody,
  createdKeyDocument,
  fullDefinitions,
  queryResult,
  triggers,
  updateBurnAlertBody,
  updateKeyBody,
  updatedBurnAlert,
  updatedKeyDocument,
} from './api-fixtures';
import type { ServiceClient } from '../../src/api';

const V2 = 'application/vnd.api+json';
const RATE = { ratelimit: 'limit=100, remaining=57, reset=42', ratelimitpolicy: '100;w=60' };

let server: TestServer;
let client: ServiceClient;

function route(req: RecordedRequest, res: ServerResponse): void {
  const v2 = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': V2, ...RATE });
    res.end(text);
  };
  const key = `${req.method} ${req.url}`;
  switch (key) {
    case 'POST /2/teams/acme/api-keys':
      return v2(201, createdKeyDocument);
    case 'PATCH /2/teams/acme/api-keys/key-1':
      return v2(200, updatedKeyDocument);
    case 'GET /1/burn_alerts/api?slo_id=slo-1':
      return sendJson(res, 200, burnAlerts, RATE);
    case 'GET /1/burn_alerts/api/ba-1':
      return sendJson(res, 200, updatedBurnAlert, RATE);
    case 'PUT /1/burn_alerts/api/ba-1':
      return sendJson(res, 200, updatedBurnAlert, RATE);
    case 'POST /1/query_results/api':
      return sendJson(res, 201, queryResult, { ...RATE, location: '/1/query_results/api/qr-1' });
    case 'GET /1/columns/api':
    case 'GET /1/columns/__all__':
      return sendJson(res, 200, columns, RATE);
    case 'GET /1/columns/api?key_name=duration_ms':
      return sendJson(res, 200, columns[0], RATE);
    case 'GET /1/columns/web%25logs?key_name=http.status%20code%2Fx':
      return sendJson(res, 200, { key_name: 'http.status code/x' }, RATE);
    case 'GET /1/triggers/api':
    case 'GET /1/triggers/__all__':
      return sendJson(res, 200, triggers, RATE);
    case 'PATCH /1/dataset_definitions/api':
      return sendJson(res, 200, fullDefinitions, RATE);
    default:
      return sendJson(res, 404, { error: `no route for ${key}` });
  }
}

before(async () => {
  server = await startServer(route);
  client = makeClient(server.url);
});
after(async () => {
  await client.close();
  await server.close();
});

function lastRequest(): RecordedRequest {
  const r = server.requests.at(-1);
  assert.ok(r, 'the server saw no request');
  return r;
}

test('createApiKey POSTs the JSON:API document with the management key and returns the created key with its secret', async () => {
  const res = await client.createApiKey('acme', createKeyBody);
  const req = lastRequest();
  assert.equal(req.method, 'POST');
  assert.equal(req.url, '/2/teams/acme/api-keys');
  assert.equal(req.headers.authorization, `Bearer ${MANAGEMENT_KEY}`);
  assert.equal(req.headers['content-type'], V2);
  assert.equal(req.headers.accept, V2);
  assert.equal(req.headers['x-service-team'], undefined);
  assert.deepEqual(JSON.parse(req.body), createKeyBody);
  assert.equal(res.status, 201);
  assert.equal(res.attempts, 1);
  assert.deepEqual(res.data, createdKeyDocument);
});

test('updateApiKey PATCHes the key with the management key and returns the key without a secret', async () => {
  const res = await client.updateApiKey('acme', 'key-1', updateKeyBody);
  const req = lastRequest();
  assert.equal(req.method, 'PATCH');
  assert.equal(req.url, '/2/teams/acme/api-keys/key-1');
  assert.equal(req.headers.authorization, `Bearer ${MANAGEMENT_KEY}`);
  assert.equal(req.headers['content-type'], V2);
  assert.deepEqual(JSON.parse(req.body), updateKeyBody);
  assert.deepEqual(res.data, updatedKeyDocument);
  assert.equal(res.data.data.attributes.secret, undefined);
});

test('listBurnAlerts GETs with slo_id and the configuration key, and keeps the type-specific fields', async () => {
  const res = await client.listBurnAlerts('api', 'slo-1');
  const req = lastRequest();
  assert.equal(req.method, 'GET');
  assert.equal(req.url, '/1/burn_alerts/api?slo_id=slo-1');
  assert.equal(req.headers['x-service-team'], CONFIG_KEY);
  assert.equal(req.headers.accept, 'application/json');
  assert.equal(req.headers.authorization, undefined);
  assert.equal(req.headers['content-type'], undefined);
  assert.equal(req.body, '');
  assert.deepEqual(res.data, burnAlerts);
});

test('getBurnAlert GETs the one alert (service facts: beyond the spec) and returns it with its recipients', async () => {
  const res = await client.getBurnAlert('api', 'ba-1');
  const req = lastRequest();
  assert.equal(req.method, 'GET');
  assert.equal(req.url, '/1/burn_alerts/api/ba-1');
  assert.equal(req.headers['x-service-team'], CONFIG_KEY);
  assert.equal(req.body, '');
  assert.deepEqual(res.data, updatedBurnAlert);
});

test('updateBurnAlert PUTs the body as application/json and returns the alert with its recipients', async () => {
  const res = await client.updateBurnAlert('api', 'ba-1', updateBurnAlertBody);
  const req = lastRequest();
  assert.equal(req.method, 'PUT');
  assert.equal(req.url, '/1/burn_alerts/api/ba-1');
  assert.equal(req.headers['content-type'], 'application/json');
  assert.equal(req.headers['x-service-team'], CONFIG_KEY);
  assert.deepEqual(JSON.parse(req.body), updateBurnAlertBody);
  assert.deepEqual(res.data, updatedBurnAlert);
});

test('createQueryResult POSTs the flags and returns the result with its links and data (unknown fields kept)', async () => {
  const body = { query_id: 'q-1', disable_series: true, limit: 10_000 };
  const res = await client.createQueryResult('api', body);
  const req = lastRequest();
  assert.equal(req.method, 'POST');
  assert.equal(req.url, '/1/query_results/api');
  assert.equal(req.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(req.body), body);
  assert.equal(res.status, 201);
  assert.deepEqual(res.data, queryResult);
});

test('listColumns GETs every column of the dataset', async () => {
  const res = await client.listColumns('api');
  assert.equal(lastRequest().url, '/1/columns/api');
  assert.deepEqual(res.data, columns);
});

test('a column without type or hidden reads as type string, not hidden (schema defaults)', async () => {
  const res = await client.getColumn('web%logs', 'http.status code/x');
  assert.deepEqual(res.data, { key_name: 'http.status code/x', type: 'string', hidden: false });
});

test('getColumn asks for one column with key_name and returns the object', async () => {
  const res = await client.getColumn('api', 'duration_ms');
  assert.equal(lastRequest().url, '/1/columns/api?key_name=duration_ms');
  assert.deepEqual(res.data, columns[0]);
});

test('path segments and query values are URL-encoded', async () => {
  await client.getColumn('web%logs', 'http.status code/x');
  assert.equal(lastRequest().url, '/1/columns/web%25logs?key_name=http.status%20code%2Fx');
});

test('listTriggers GETs every trigger of the dataset', async () => {
  const res = await client.listTriggers('api');
  assert.equal(lastRequest().url, '/1/triggers/api');
  assert.deepEqual(res.data, triggers);
});

test('the environment-wide __all__ is accepted by the version 1 list endpoints', async () => {
  await client.listTriggers('__all__');
  assert.equal(lastRequest().url, '/1/triggers/__all__');
  await client.listColumns('__all__');
  assert.equal(lastRequest().url, '/1/columns/__all__');
});

test('updateDatasetDefinitions PATCHes only the given types and returns the full map with nulls', async () => {
  const body = { route: { name: 'http.route', column_type: 'column' as const }, user: { name: '' } };
  const res = await client.updateDatasetDefinitions('api', body);
  const req = lastRequest();
  assert.equal(req.method, 'PATCH');
  assert.equal(req.url, '/1/dataset_definitions/api');
  assert.equal(req.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(req.body), body);
  assert.deepEqual(res.data, fullDefinitions);
});

test('the RateLimit header is reported on the response', async () => {
  const res = await client.listTriggers('api');
  assert.deepEqual(res.rateLimit, { limit: 100, remaining: 57, resetSeconds: 42 });
});

test('a base URL with a trailing slash is joined without a double slash', async () => {
  const prefixed = makeClient(`${server.url}/`);
  try {
    await prefixed.listTriggers('api');
    assert.equal(lastRequest().url, '/1/triggers/api');
  } finally {
    await prefixed.close();
  }
});

test('a base URL with a path prefix is kept in front of every endpoint path', async () => {
  const prefixed = makeClient(`${server.url}/gateway/v/`);
  try {
    await failure(prefixed.listTriggers('api')); // the stub knows no prefixed routes and answers 404
    assert.equal(lastRequest().url, '/gateway/v/1/triggers/api');
    assert.equal(logs.at(-1)?.path, '/gateway/v/1/triggers/api');
  } finally {
    await prefixed.close();
  }
});

test('a key that ends up in the path is redacted from the log line', async () => {
  logs.length = 0;
  await failure(client.listTriggers(CONFIG_KEY));
  assert.equal(logs[0]?.path, '/1/triggers/[redacted]');
});

test('sequential calls reuse the keep-alive connections instead of opening new ones', async () => {
  const fresh = makeClient(server.url);
  try {
    // undici may open a second connection while the first is being released; after that, none.
    await fresh.listTriggers('api');
    await fresh.listTriggers('api');
    const warm = server.connections;
    for (let i = 0; i < 5; i++) await fresh.listTriggers('api');
    assert.equal(server.connections, warm);
  } finally {
    await fresh.close();
  }
});

test('each call logs method, path without query, status, duration and attempt', async () => {
  logs.length = 0;
  await client.listBurnAlerts('api', 'slo-1');
  assert.equal(logs.length, 1);
  const [entry] = logs;
  assert.ok(entry);
  assert.equal(typeof entry.durationMs, 'number');
  assert.deepEqual(
    { ...entry, durationMs: 0 },
    {
      operation: 'list burn alerts',
      method: 'GET',
      path: '/1/burn_alerts/api',
      status: 200,
      durationMs: 0,
      attempt: 1,
    },
  );
});

test('after close, a call fails with kind network and sends nothing', async () => {
  const closing = makeClient(server.url);
  await closing.close();
  const count = server.requests.length;
  const err = await failure(closing.listTriggers('api'));
  assert.deepEqual([err.kind, err.networkCode, err.attempts], ['network', 'CLIENT_CLOSED', 0]);
  assert.equal(server.requests.length, count);
});

test('no key or secret appears in any log line or error of this file', () => {
  assertNoSecretsCaptured();
});
