import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { DEMO } from '../../src/sandbox';
import { assertJsonApiError, assertProblem, startTestSandbox, type TestSandbox } from './sandbox-helpers';

// Fault injection through the handle and through POST /__sandbox/faults.

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1000 });
});
afterEach(() => sb.handle.faults.clear());
after(() => sb.handle.close());

const TRIGGERS = `/1/triggers/${DEMO.datasets.gateway}`;
const KEY = `/2/teams/${DEMO.team}/api-keys/${DEMO.apiKeys.ingest}`;
const renameKey = (name: string) =>
  sb.v2('PATCH', KEY, { data: { id: DEMO.apiKeys.ingest, type: 'api-keys', attributes: { name, disabled: false } } });
const keyName = () => sb.handle.state.apiKeys.find((k) => k.id === DEMO.apiKeys.ingest)?.name;

/** The error of a request that must fail at the transport level. */
async function transportError(path: string): Promise<Error> {
  try {
    const res = await request(`${sb.base}${path}`, { headers: { 'X-Service-Team': sb.handle.info.configKey } });
    await res.body.text();
  } catch (err) {
    return err as Error;
  }
  assert.fail('the request succeeded');
}

describe('fault injection', () => {
  test('latency holds each response back: a client that waits less for headers times out', async () => {
    sb.handle.faults.latency(60_000);
    const err = await request(`${sb.base}${TRIGGERS}`, {
      headers: { 'X-Service-Team': sb.handle.info.configKey },
      headersTimeout: 100,
    }).then(
      () => assert.fail('the response came before the latency was over'),
      (e: unknown) => e as { code?: string },
    );
    assert.equal(err.code, 'UND_ERR_HEADERS_TIMEOUT');
    assert.equal(sb.handle.faults.latencyMs, 60_000);
  });

  test('latency answers normally once it is over', async () => {
    sb.handle.faults.latency(1);
    assert.equal((await sb.v1('GET', TRIGGERS)).status, 200);
  });

  test('nextStatus answers the next N requests, then the service answers again', async () => {
    sb.handle.faults.nextStatus(503, 2);
    assertProblem(await sb.v1('GET', TRIGGERS), 503, sb.base, 'service-unavailable');
    assertProblem(await sb.v1('GET', TRIGGERS), 503, sb.base, 'service-unavailable');
    assert.equal((await sb.v1('GET', TRIGGERS)).status, 200);
  });

  test('nextStatus on version 2 uses the JSON:API shape', async () => {
    sb.handle.faults.nextStatus(502, 1);
    assertJsonApiError(await renameKey('x'), 502);
  });

  test('nextStatus with a forced legacy shape and a Retry-After in seconds', async () => {
    sb.handle.faults.nextStatus(503, 1, 'legacy', { retryAfter: 2 });
    const res = await sb.v1('GET', TRIGGERS);
    assert.deepEqual(
      [res.status, res.contentType, Object.keys(res.json() as object)],
      [503, 'application/json', ['error']],
    );
    assert.equal(res.headers['retry-after'], '2');
  });

  test('an injected 429 carries an HTTP-date Retry-After and the RateLimit headers', async () => {
    sb.handle.faults.nextStatus(429, 1);
    const res = await sb.v1('GET', TRIGGERS);
    assert.equal(res.status, 429);
    assert.ok(!Number.isNaN(Date.parse(res.headers['retry-after'] ?? '')), res.headers['retry-after']);
    assert.match(res.headers['retry-after'] ?? '', /GMT$/);
    assert.ok(res.headers.ratelimit);
  });

  test('an injected status does not process the request', async () => {
    const before = keyName();
    sb.handle.faults.nextStatus(500, 1);
    assert.equal((await renameKey('Not applied')).status, 500);
    assert.equal(keyName(), before);
  });

  test('resetConnection destroys the connection without processing the request', async () => {
    sb.handle.faults.resetConnection(1);
    const err = await transportError(TRIGGERS);
    assert.match(`${(err as { code?: string }).code} ${err.message}`, /UND_ERR_SOCKET|ECONNRESET|other side closed/);
    assert.equal((await sb.v1('GET', TRIGGERS)).status, 200);
  });

  test('truncateBody processes the request, then closes mid-body', async () => {
    sb.handle.faults.truncateBody(1);
    const err = await transportError(TRIGGERS);
    assert.ok(err instanceof Error);
    sb.handle.faults.truncateBody(1);
    await renameKey('Applied despite truncation').catch(() => undefined);
    assert.equal(keyName(), 'Applied despite truncation');
  });

  test('malformedBody answers a complete body that is not JSON', async () => {
    sb.handle.faults.malformedBody(1);
    const res = await sb.v1('GET', TRIGGERS);
    assert.equal(res.status, 200);
    assert.equal(res.contentType, 'application/json');
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.text));
    assert.throws(() => res.json(), SyntaxError);
  });

  test('htmlErrorPage answers text/html with the status', async () => {
    sb.handle.faults.htmlErrorPage(502, 1);
    const res = await sb.v1('GET', TRIGGERS);
    assert.equal(res.status, 502);
    assert.match(res.contentType, /^text\/html/);
    assert.match(res.text, /<h1>502 Bad Gateway<\/h1>/);
  });

  test('a fault with a match applies only to matching requests', async () => {
    sb.handle.faults.nextStatus(503, 1, 'auto', { match: { method: 'GET', path: '/1/columns/' } });
    assert.equal((await sb.v1('GET', TRIGGERS)).status, 200);
    assert.equal((await sb.v1('GET', `/1/columns/${DEMO.datasets.gateway}`)).status, 503);
  });

  test('clear removes pending faults and latency', async () => {
    sb.handle.faults.nextStatus(503, 5);
    sb.handle.faults.latency(1000);
    sb.handle.faults.clear();
    assert.deepEqual([sb.handle.faults.latencyMs, sb.handle.faults.pending()], [0, []]);
    assert.equal((await sb.v1('GET', TRIGGERS)).status, 200);
  });

  test('POST /__sandbox/faults injects the same faults as JSON', async () => {
    const res = await sb.control('POST', 'faults', { kind: 'status', status: 504, count: 1 });
    assert.equal(res.status, 200, res.text);
    assertProblem(await sb.v1('GET', TRIGGERS), 504, sb.base, 'gateway-timeout');
    await sb.control('POST', 'faults', { kind: 'html', status: 503 });
    assert.match((await sb.v1('GET', TRIGGERS)).contentType, /^text\/html/);
  });

  test('the handle refuses a fault status outside 400-599', () => {
    assert.throws(() => sb.handle.faults.nextStatus(200, 1), RangeError);
    assert.throws(() => sb.handle.faults.resetConnection(0), RangeError);
  });
});
