// Retries: which failures are retried for which operation, how long the client waits, and when it gives up.
import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ServiceClient, parseRateLimit, parseRetryAfter } from '../../src/api';
import { backoffDelay, isRetryableNetworkCode } from '../../src/api/retry';
import {
  assertNoSecretsCaptured,
  closedPort,
  failure,
  fakeTiming,
  logs,
  makeClient,
  sendJson,
  startServer,
  type FakeTiming,
  type Handler,
  type TestServer,
} from './api-helpers';
import { columns, createKeyBody, createdKeyDocument, updateBurnAlertBody, updatedBurnAlert } from './api-fixtures';

let server: TestServer;
let script: Handler[] = [];
let clock: FakeTiming;
let client: ServiceClient;

/** Answers the n-th request with script[n-1], and the last entry for every request after that. */
before(async () => {
  server = await startServer((req, res, n) => {
    const h = script[Math.min(n, script.length) - 1];
    if (h) h(req, res, n);
    else sendJson(res, 500, {});
  });
});
beforeEach(async () => {
  server.requests.length = 0;
  clock = fakeTiming();
  client = makeClient(server.url, { timing: clock.timing });
});
afterEach(async () => {
  await client.close();
});
after(async () => {
  await server.close();
});

const status =
  (code: number, headers: Record<string, string> = {}, body: unknown = {}): Handler =>
  (_q, res: ServerResponse) =>
    sendJson(res, code, body, headers);
const ok = (body: unknown = columns): Handler => status(200, {}, body);
const rateLimited =
  (headers: Record<string, string>): Handler =>
  (_q, res) => {
    res.writeHead(429, { 'content-type': 'application/vnd.api+json', ...headers });
    res.end(JSON.stringify({ errors: [{ status: '429', code: 'rate-limited/may-retry', title: 'rate limited' }] }));
  };
const reset: Handler = (_q, res) => res.socket?.destroy();

// --- waiting as the service asks ------------------------------------------------------------------------

test('429 with Retry-After in seconds waits exactly that long, then succeeds on attempt 2', async () => {
  script = [rateLimited({ 'retry-after': '3' }), ok()];
  const res = await client.listColumns('api');
  assert.deepEqual(clock.delays, [3000]);
  assert.equal(res.attempts, 2);
  assert.equal(server.requests.length, 2);
});

test('429 with Retry-After as an HTTP date waits until that date', async () => {
  // The fake clock stands at 2025-06-02T12:00:00Z.
  script = [rateLimited({ 'retry-after': 'Mon, 02 Jun 2025 12:00:05 GMT' }), ok()];
  const res = await client.listColumns('api');
  assert.deepEqual(clock.delays, [5000]);
  assert.equal(res.attempts, 2);
});

test('429 with RateLimit remaining=0 and no Retry-After waits for the reset', async () => {
  script = [rateLimited({ ratelimit: 'limit=100, remaining=0, reset=7' }), ok()];
  const res = await client.listColumns('api');
  assert.deepEqual(clock.delays, [7000]);
  assert.equal(res.attempts, 2);
});

test('a 429 asking for a wait longer than the time budget gives up at once with retryAfterMs', async () => {
  script = [rateLimited({ 'retry-after': '60' })];
  const err = await failure(client.listColumns('api'));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 429);
  assert.equal(err.code, 'rate-limited/may-retry');
  assert.equal(err.retryAfterMs, 60_000);
  assert.equal(err.attempts, 1);
  assert.deepEqual(clock.delays, []);
  assert.equal(server.requests.length, 1);
});

// --- backoff -------------------------------------------------------------------------------------------

test('503 then 200: retried after a jittered backoff, attempts 2', async () => {
  script = [status(503), ok()];
  const res = await client.listColumns('api');
  // random() is 0.5 and the first retry's ceiling is baseDelayMs (500).
  assert.deepEqual(clock.delays, [250]);
  assert.equal(res.attempts, 2);
  assert.deepEqual(res.data, columns);
});

test('502 and 504 are retried like 503', async () => {
  for (const code of [502, 504]) {
    server.requests.length = 0;
    script = [status(code), ok()];
    const res = await client.listColumns('api');
    assert.equal(res.attempts, 2, `status ${code}`);
  }
});

test('retries exhausted: 4 attempts by default with doubling backoff, then the last error', async () => {
  script = [status(503)];
  const err = await failure(client.listColumns('api'));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 503);
  assert.equal(err.attempts, 4);
  assert.equal(server.requests.length, 4);
  assert.deepEqual(clock.delays, [250, 500, 1000]);
});

test('maxAttempts bounds the attempts', async () => {
  const two = makeClient(server.url, { timing: clock.timing, retry: { maxAttempts: 2 } });
  try {
    script = [status(503)];
    const err = await failure(two.listColumns('api'));
    assert.equal(err.attempts, 2);
    assert.equal(server.requests.length, 2);
  } finally {
    await two.close();
  }
});

test('maxTotalMs bounds the backoff: the last wait is cut to what remains, then the client gives up', async () => {
  const tight = makeClient(server.url, {
    timing: { ...clock.timing, random: () => 1 },
    retry: { maxAttempts: 10, maxTotalMs: 600 },
  });
  try {
    script = [status(503)];
    const err = await failure(tight.listColumns('api'));
    assert.deepEqual(clock.delays, [500, 100]);
    assert.equal(err.attempts, 3);
  } finally {
    await tight.close();
  }
});

test('backoff is capped exponential with full jitter', () => {
  const top = () => 1;
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 500, 8000, top)),
    [500, 1000, 2000, 4000, 8000, 8000],
  );
  assert.deepEqual(
    [1, 2, 3].map((n) => backoffDelay(n, 500, 8000, () => 0)),
    [0, 0, 0],
  );
  assert.equal(
    backoffDelay(3, 500, 8000, () => 0.25),
    500,
  );
});

test('500 is not retried', async () => {
  script = [status(500), ok()];
  const err = await failure(client.listColumns('api'));
  assert.equal(err.status, 500);
  assert.equal(err.attempts, 1);
  assert.equal(server.requests.length, 1);
});

test('PUT (update burn alert) is retried on 503', async () => {
  script = [status(503), ok(updatedBurnAlert)];
  const res = await client.updateBurnAlert('api', 'ba-1', updateBurnAlertBody);
  assert.equal(res.attempts, 2);
  assert.equal(server.requests[1]?.body, JSON.stringify(updateBurnAlertBody));
});

test('a connection reset on a GET is retried', async () => {
  script = [reset, ok()];
  const res = await client.listColumns('api');
  assert.equal(res.attempts, 2);
});

test('connection refused on a GET is retried up to maxAttempts, then kind network with ECONNREFUSED', async () => {
  const port = await closedPort();
  const refused = makeClient(`http://127.0.0.1:${port}`, { timing: clock.timing });
  try {
    const err = await failure(refused.listColumns('api'));
    assert.equal(err.kind, 'network');
    assert.equal(err.networkCode, 'ECONNREFUSED');
    assert.equal(err.attempts, 4);
    assert.equal(clock.delays.length, 3);
  } finally {
    await refused.close();
  }
});

// --- POSTs ---------------------------------------------------------------------------------------------

test('create API key is not retried on 503: the server sees exactly 1 request', async () => {
  script = [status(503), ok(createdKeyDocument)];
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.status, 503);
  assert.equal(err.attempts, 1);
  assert.equal(server.requests.length, 1);
});

test('create API key is not retried on 429 either, but reports retryAfterMs', async () => {
  script = [rateLimited({ 'retry-after': '2' }), ok(createdKeyDocument)];
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.retryAfterMs, 2000);
  assert.equal(server.requests.length, 1);
});

test('create API key is not retried after a connection reset', async () => {
  script = [reset, ok(createdKeyDocument)];
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.kind, 'network');
  assert.equal(err.maybeProcessed, true);
  assert.match(
    err.message,
    /; the key may have been created anyway: check the team's API keys before creating it again$/,
  );
  assert.equal(server.requests.length, 1);
});

test('create API key refused at connect is not marked as possibly created', async () => {
  const port = await closedPort();
  const refused = makeClient(`http://127.0.0.1:${port}`, { timing: clock.timing });
  try {
    const err = await failure(refused.createApiKey('acme', createKeyBody));
    assert.equal(err.networkCode, 'ECONNREFUSED');
    assert.equal(err.attempts, 1);
    assert.equal(err.maybeProcessed, undefined);
  } finally {
    await refused.close();
  }
});

test('create query result is retried on 429 (the service did not process it)', async () => {
  script = [rateLimited({ 'retry-after': '1' }), status(201, {}, { id: 'qr-1', complete: false })];
  const res = await client.createQueryResult('api', { query_id: 'q-1' });
  assert.equal(res.attempts, 2);
  assert.equal(server.requests.length, 2);
});

test('create query result is not retried on 503 (the service may have processed it)', async () => {
  script = [status(503), status(201, {}, { id: 'qr-1', complete: false })];
  const err = await failure(client.createQueryResult('api', { query_id: 'q-1' }));
  assert.equal(err.attempts, 1);
  assert.equal(server.requests.length, 1);
});

// --- cancellation and logging -------------------------------------------------------------------------------

test('the wait between attempts is abortable: kind aborted, after 1 attempt', { timeout: 60_000 }, async () => {
  // A real sleep of an hour: only the abort can end it (the test's timeout fails it otherwise).
  const real = makeClient(server.url, { timing: {}, retry: { maxTotalMs: 7_200_000 } });
  const ac = new AbortController();
  try {
    script = [rateLimited({ 'retry-after': '3600' }), ok()];
    const call = real.listColumns('api', { signal: ac.signal });
    // Abort once the first attempt has been logged with its wait, i.e. while the client sleeps.
    while (!logs.some((e) => e.retryInMs === 3_600_000)) await new Promise((r) => setImmediate(r));
    ac.abort();
    const err = await failure(call);
    assert.equal(err.kind, 'aborted');
    assert.equal(err.attempts, 1);
    assert.equal(server.requests.length, 1);
  } finally {
    await real.close();
  }
});

test('an already aborted signal sends nothing', async () => {
  script = [ok()];
  const err = await failure(client.listColumns('api', { signal: AbortSignal.abort() }));
  assert.equal(err.kind, 'aborted');
  assert.equal(err.attempts, 0);
  assert.equal(server.requests.length, 0);
});

test('each attempt is logged; a retried one names its error kind and the wait', async () => {
  logs.length = 0;
  script = [status(503), ok()];
  await client.listColumns('api');
  assert.deepEqual(
    logs.map(({ durationMs: _d, ...rest }) => rest),
    [
      {
        operation: 'list columns',
        method: 'GET',
        path: '/1/columns/api',
        status: 503,
        attempt: 1,
        error: 'http',
        retryInMs: 250,
      },
      { operation: 'list columns', method: 'GET', path: '/1/columns/api', status: 200, attempt: 2 },
    ],
  );
});

// --- header parsing ----------------------------------------------------------------------------------------

test('Retry-After parsing: seconds, HTTP date, a past date, garbage', () => {
  const now = Date.parse('2025-06-02T12:00:00Z');
  assert.equal(parseRetryAfter('120', now), 120_000);
  assert.equal(parseRetryAfter('Mon, 02 Jun 2025 12:01:00 GMT', now), 60_000);
  assert.equal(parseRetryAfter('Mon, 02 Jun 2025 11:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter('soon', now), undefined);
  assert.equal(parseRetryAfter(undefined, now), undefined);
});

test('Retry-After values that are neither whole seconds nor a date are ignored, not read as years', () => {
  const now = Date.parse('2025-06-02T12:00:00Z');
  assert.equal(parseRetryAfter('1.5', now), undefined);
  assert.equal(parseRetryAfter('-1', now), undefined);
  assert.equal(parseRetryAfter('Mon, 02 Jun 2025 12:00:30 GMT', now), 30_000);
});

test('a 503 with an unreadable Retry-After falls back to the backoff', async () => {
  script = [status(503, { 'retry-after': '1.5' }), ok()];
  const res = await client.listColumns('api');
  assert.deepEqual(clock.delays, [250]);
  assert.equal(res.attempts, 2);
});

test('connection errors before sending are retried for every policy but never; ETIMEDOUT only for idempotent calls', () => {
  for (const code of ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']) {
    assert.deepEqual(
      [
        isRetryableNetworkCode('idempotent', code),
        isRetryableNetworkCode('unprocessed-only', code),
        isRetryableNetworkCode('never', code),
      ],
      [true, true, false],
      code,
    );
  }
  assert.deepEqual(
    [isRetryableNetworkCode('idempotent', 'ETIMEDOUT'), isRetryableNetworkCode('unprocessed-only', 'ETIMEDOUT')],
    [true, false],
  );
  assert.equal(isRetryableNetworkCode('idempotent', 'CERT_HAS_EXPIRED'), false);
});

test('RateLimit parsing reads limit, remaining and reset; a partial header is ignored', () => {
  assert.deepEqual(parseRateLimit('limit=100, remaining=0, reset=60'), { limit: 100, remaining: 0, resetSeconds: 60 });
  assert.equal(parseRateLimit('limit=100'), undefined);
});

test('no key or secret appears in any log line or error of this file', () => {
  assertNoSecretsCaptured();
});
