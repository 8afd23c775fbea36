import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO, SANDBOX_CREDENTIALS, startSandbox } from '../../src/sandbox';
import {
  assertJsonApiError,
  assertProblem,
  call,
  startTestSandbox,
  testClock,
  type TestSandbox,
} from './sandbox-helpers';

// What every endpoint shares: authentication, routing, rate limits, recording, and the control endpoints.

const clock = testClock('2025-06-01T12:00:10.000Z');
let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ clock: clock.now, rateLimit: 1000 });
});
after(() => sb.handle.close());

const TRIGGERS = `/1/triggers/${DEMO.datasets.gateway}`;

describe('version 1 authentication', () => {
  test('no X-Service-Team is a 401 in the legacy shape', async () => {
    const res = await call(`${sb.base}${TRIGGERS}`);
    assert.equal(res.status, 401);
    assert.equal(res.contentType, 'application/json');
    assert.deepEqual(res.json(), { error: 'unknown API key - check your credentials' });
  });

  test('an unknown key is a 401 in the legacy shape', async () => {
    const res = await sb.v1('GET', TRIGGERS, undefined, { 'X-Service-Team': 'not-a-key' });
    assert.deepEqual([res.status, res.json()], [401, { error: 'unknown API key - check your credentials' }]);
  });

  test('the management key does not open version 1', async () => {
    const res = await sb.v1('GET', TRIGGERS, undefined, { 'X-Service-Team': sb.handle.info.managementKey });
    assert.equal(res.status, 401);
  });

  test('the read-only key may read', async () => {
    const res = await sb.v1('GET', TRIGGERS, undefined, { 'X-Service-Team': SANDBOX_CREDENTIALS.readOnlyConfigKey });
    assert.equal(res.status, 200);
  });
});

describe('routing', () => {
  test('an unknown version 1 path is a 404 problem', async () => {
    assertProblem(await sb.v1('GET', '/1/boards/x'), 404, sb.base, 'not-found');
  });

  test('an unknown version 2 path is a 404 JSON:API error', async () => {
    assertJsonApiError(await sb.v2('GET', '/2/teams/x/environments'), 404);
  });

  test('a known path with another method is a 405 with Allow', async () => {
    const res = await sb.v1('DELETE', `/1/columns/${DEMO.datasets.gateway}`);
    assertProblem(res, 405, sb.base, 'method-not-allowed');
    assert.equal(res.headers.allow, 'GET');
    assert.equal((await sb.v1('PATCH', TRIGGERS)).headers.allow, 'GET, POST');
  });
});

describe('recorded requests', () => {
  test('records method, path, query, parsed body, and redacts credentials', async () => {
    sb.handle.requests.length = 0;
    await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.empty}?dry=1`, { name: { name: '' } });
    await sb.v2('PATCH', `/2/teams/${DEMO.team}/api-keys/${DEMO.apiKeys.ingest}`, { data: {} });
    const [v1, v2] = sb.handle.requests;
    assert.deepEqual(
      [v1?.method, v1?.path, v1?.query, v1?.body, v1?.headers['x-service-team'], v1?.headers['content-type']],
      [
        'PATCH',
        `/1/dataset_definitions/${DEMO.datasets.empty}`,
        { dry: '1' },
        { name: { name: '' } },
        '[redacted]',
        'application/json',
      ],
    );
    assert.equal(v2?.headers.authorization, '[redacted]');
    const all = JSON.stringify(sb.handle.requests);
    for (const secret of [SANDBOX_CREDENTIALS.configKey, SANDBOX_CREDENTIALS.managementKeySecret]) {
      assert.equal(all.includes(secret), false);
    }
  });

  test('GET /__sandbox/requests answers the same records as JSON', async () => {
    sb.handle.requests.length = 0;
    await sb.v1('GET', `${TRIGGERS}?x=1&x=2`);
    const res = await sb.control('GET', 'requests');
    assert.equal(res.status, 200);
    const records = res.json() as { method: string; path: string; query: unknown }[];
    assert.deepEqual(
      records.map((r) => [r.method, r.path, r.query]),
      [['GET', TRIGGERS, { x: ['1', '2'] }]],
    );
  });

  test('control endpoints are not recorded', async () => {
    sb.handle.requests.length = 0;
    await sb.control('GET', 'info');
    assert.equal(sb.handle.requests.length, 0);
  });
});

describe('control endpoints', () => {
  test('GET /__sandbox/info answers the SandboxInfo', async () => {
    assert.deepEqual((await sb.control('GET', 'info')).json(), sb.handle.info);
  });

  test('POST /__sandbox/reset restores the demo data', async () => {
    sb.handle.state.triggers.length = 0;
    const res = await sb.control('POST', 'reset');
    assert.equal(res.status, 200);
    assert.equal(sb.handle.state.triggers.length, Object.keys(DEMO.triggers).length);
  });

  test('POST /__sandbox/datasets adds a dataset with N generated columns', async () => {
    const res = await sb.control('POST', 'datasets', { slug: 'wide-7', columns: 7 });
    assert.equal(res.status, 201, res.text);
    assert.ok((res.json() as { datasets: string[] }).datasets.includes('wide-7'));
    assert.equal(((await sb.v1('GET', '/1/columns/wide-7')).json() as unknown[]).length, 7);
  });

  test('POST /__sandbox/faults with a bad body is a 400 naming the problem', async () => {
    const res = await sb.control('POST', 'faults', { kind: 'status', status: 200 });
    assert.equal(res.status, 400);
    assert.match((res.json() as { error: string }).error, /status/);
  });

  test('an unknown control path is a 404', async () => {
    assert.equal((await sb.control('GET', 'nope')).status, 404);
  });
});

describe('rate limits', () => {
  test('every response carries RateLimit and RateLimitPolicy', async () => {
    for (const res of [
      await sb.v1('GET', TRIGGERS),
      await sb.v1('GET', '/1/triggers/nope'),
      await call(`${sb.base}${TRIGGERS}`),
    ]) {
      assert.match(res.headers.ratelimit ?? '', /^limit=1000, remaining=\d+, reset=\d+$/);
      assert.equal(res.headers.ratelimitpolicy, '1000;w=60');
    }
  });

  test('per team and kind: reads run out, writes still pass, a new window refills', async () => {
    const c = testClock('2025-06-01T12:00:10.000Z');
    const small = await startSandbox({ clock: c.now, rateLimit: 2 });
    try {
      const { baseUrl, configKey } = small.info;
      const read = () => call(`${baseUrl}${TRIGGERS}`, { headers: { 'X-Service-Team': configKey } });
      const write = () =>
        call(`${baseUrl}/1/dataset_definitions/${DEMO.datasets.empty}`, {
          method: 'PATCH',
          body: {},
          headers: { 'X-Service-Team': configKey, 'Content-Type': 'application/json' },
        });
      assert.equal((await read()).headers.ratelimit, 'limit=2, remaining=1, reset=50');
      assert.equal((await read()).headers.ratelimit, 'limit=2, remaining=0, reset=50');
      const limited = await read();
      assertProblem(limited, 429, baseUrl, 'rate-limited');
      assert.equal(limited.headers['retry-after'], 'Sun, 01 Jun 2025 12:01:00 GMT');
      assert.equal(limited.headers.ratelimit, 'limit=2, remaining=0, reset=50');
      assert.equal((await write()).status, 200);
      c.set('2025-06-01T12:01:00.000Z');
      assert.equal((await read()).status, 200);
    } finally {
      await small.close();
    }
  });

  test('an internal error is a 500 problem that still carries the RateLimit headers', async () => {
    const small = await startSandbox({ rateLimit: 10 });
    try {
      // Break the data behind the handler so it throws.
      (small.state as unknown as { triggers: unknown }).triggers = null;
      const res = await call(`${small.info.baseUrl}${TRIGGERS}`, {
        headers: { 'X-Service-Team': small.info.configKey },
      });
      assertProblem(res, 500, small.info.baseUrl, 'internal-error');
      assert.match(res.headers.ratelimit ?? '', /^limit=10, remaining=\d+, reset=\d+$/);
      assert.equal(res.headers.ratelimitpolicy, '10;w=60');
    } finally {
      await small.close();
    }
  });

  test('version 2 answers 429 with code rate-limited/may-retry and an HTTP-date Retry-After', async () => {
    const c = testClock('2025-06-01T12:00:30.000Z');
    const small = await startSandbox({ clock: c.now, rateLimit: 1 });
    try {
      const { baseUrl, managementKey } = small.info;
      const patch = () =>
        call(`${baseUrl}/2/teams/${DEMO.team}/api-keys/${DEMO.apiKeys.ingest}`, {
          method: 'PATCH',
          body: { data: { id: DEMO.apiKeys.ingest, type: 'api-keys', attributes: { name: 'n', disabled: false } } },
          headers: { Authorization: `Bearer ${managementKey}`, 'Content-Type': 'application/vnd.api+json' },
        });
      assert.equal((await patch()).status, 200);
      const limited = await patch();
      assert.equal(assertJsonApiError(limited, 429)[0]?.code, 'rate-limited/may-retry');
      assert.equal(limited.headers['retry-after'], 'Sun, 01 Jun 2025 12:01:00 GMT');
    } finally {
      await small.close();
    }
  });
});
