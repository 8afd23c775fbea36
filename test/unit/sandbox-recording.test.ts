// What the sandbox records of the requests it receives (handle.requests, GET /__sandbox/requests): only
// requests carrying one of its credentials, each body cut to its first 4 KiB, and at most 10,000 records and
// 8 MiB in all (oldest dropped first), so a flood cannot fill the memory of the editor it runs in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Pool } from 'undici';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

/** The documented caps. */
const RECORDED_BODY_BYTES = 4096;
const RECORDED_TOTAL_BYTES = 8 * 1024 * 1024;
const RECORDED_MAX = 10_000;
const FLOOD = 10_000;
const BODY = Buffer.alloc(99_000, 'x');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

let sb: TestSandbox;
let pool: Pool;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1_000_000 });
  pool = new Pool(sb.base, { connections: 8 });
});
after(async () => {
  await pool.close();
  await sb.handle.close();
});

interface Sent {
  path: string;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
}

/** Sends `count` requests with `body` (the 99 KB one unless told), 8 at a time; answers how many got each status. */
async function flood(
  count: number,
  request: (n: number) => Sent,
  body: Buffer = BODY,
): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const n = next++;
      const { path, method, headers } = request(n);
      const res = await pool.request({ path, method, headers, body });
      await res.body.dump();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, lane));
  return statuses;
}

interface Listed {
  path: string;
  query: Record<string, string>;
  body: unknown;
  bodyBytes: number;
  bodyTruncated: boolean;
}

async function listing(): Promise<{ bytes: number; records: Listed[] }> {
  const res = await sb.control('GET', 'requests');
  assert.equal(res.status, 200, res.text.slice(0, 200));
  return { bytes: Buffer.byteLength(res.text), records: res.json() as Listed[] };
}

describe('a flood of large bodies', () => {
  test(`${FLOOD} unauthenticated 99 KB requests (as a web page can send them) are answered and not recorded; the heap does not keep them`, async () => {
    sb.handle.requests.length = 0;
    const heapBefore = heapAfterGc();
    const statuses = await flood(FLOOD, (n) =>
      n % 2 === 0
        ? { path: `/1/columns/${DEMO.datasets.gateway}`, method: 'POST', headers: { 'Content-Type': 'text/plain' } }
        : {
            path: `/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`,
            method: 'PUT',
            headers: { 'Content-Type': 'text/plain' },
          },
    );
    assert.deepEqual(statuses, { 401: FLOOD / 2, 405: FLOOD / 2 });
    assert.equal(sb.handle.requests.length, 0);
    assert.deepEqual((await listing()).records, []);
    // Loose: the flood carried 990 MB; none of it may stay.
    const grown = heapAfterGc() - heapBefore;
    assert.ok(grown < 64 * 1024 * 1024, `the heap grew by ${grown} bytes`);
  });

  test('3,000 authenticated 99 KB requests: each recorded with its first 4 KiB, all within 8 MiB, the oldest dropped', async () => {
    sb.handle.requests.length = 0;
    const statuses = await flood(3_000, (n) => ({
      path: `/1/queries/${DEMO.datasets.gateway}?n=${n}`,
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'X-Service-Team': sb.handle.info.configKey },
    }));
    assert.deepEqual(statuses, { 415: 3_000 });
    const last = await sb.v1('POST', `/1/queries/${DEMO.datasets.gateway}?n=last`, BODY.toString('utf8'), {
      'Content-Type': 'text/plain',
    });
    assert.equal(last.status, 415);

    const { bytes, records } = await listing();
    assert.ok(bytes <= RECORDED_TOTAL_BYTES, `the listing is ${bytes} bytes`);
    assert.ok(records.length < 3_000, `${records.length} records`);
    // Nearly full: only the oldest were dropped.
    assert.ok(bytes > RECORDED_TOTAL_BYTES - 64 * 1024, `the listing is ${bytes} bytes`);
    assert.equal(records.at(-1)?.query.n, 'last');
    for (const r of records) {
      assert.equal(r.bodyBytes, 99_000);
      assert.equal(r.bodyTruncated, true);
      assert.equal(r.body, 'x'.repeat(RECORDED_BODY_BYTES));
    }
  });
});

describe('a flood of small requests', () => {
  test(`${RECORDED_MAX + 1} small authenticated requests: the listing holds the last ${RECORDED_MAX}, far within 8 MiB`, async () => {
    sb.handle.requests.length = 0;
    const query = (n: number): Sent => ({
      path: `/1/queries/${DEMO.datasets.gateway}?n=${n}`,
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', 'X-Service-Team': sb.handle.info.configKey },
    });
    // The first alone, so it is the oldest record whatever order the others arrive in.
    assert.deepEqual(await flood(1, query, Buffer.from('x')), { 415: 1 });
    assert.deepEqual(await flood(RECORDED_MAX, (n) => query(n + 1), Buffer.from('x')), { 415: RECORDED_MAX });

    const { bytes, records } = await listing();
    assert.ok(
      bytes < RECORDED_TOTAL_BYTES / 2,
      `the listing is ${bytes} bytes: its cap, not the count's, would drop records`,
    );
    assert.equal(records.length, RECORDED_MAX);
    const numbers = records.map((r) => Number(r.query.n)).sort((a, b) => a - b);
    assert.deepEqual(
      numbers,
      Array.from({ length: RECORDED_MAX }, (_, i) => i + 1),
      'only the first request was dropped',
    );
  });
});

describe('one request', () => {
  test('an authenticated body within 4 KiB is recorded parsed, as not truncated', async () => {
    sb.handle.requests.length = 0;
    await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.empty}`, { route: { name: '' } });
    const [record] = sb.handle.requests;
    assert.deepEqual(
      [record?.body, record?.bodyBytes, record?.bodyTruncated],
      [{ route: { name: '' } }, '{"route":{"name":""}}'.length, false],
    );
  });

  test('an authenticated body over 4 KiB is recorded as its first 4 KiB of text, with its whole length', async () => {
    sb.handle.requests.length = 0;
    // 19 bytes before the name, then two bytes a character: the first 4 KiB end inside a character.
    const body = JSON.stringify({ route: { name: `a${'é'.repeat(3_000)}` } });
    await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.empty}`, body);
    const [record] = sb.handle.requests;
    assert.deepEqual([record?.bodyBytes, record?.bodyTruncated], [Buffer.byteLength(body), true]);
    assert.equal(record?.body, body.slice(0, 19 + 2_038), 'cut at the last whole character');
  });

  test('a request without a credential of the sandbox is not recorded; one with its other key (answered 401) is', async () => {
    sb.handle.requests.length = 0;
    await sb.v1('GET', `/1/triggers/${DEMO.datasets.gateway}`, undefined, { 'X-Service-Team': 'not-a-key' });
    await sb.v2('GET', `/1/triggers/${DEMO.datasets.gateway}`);
    assert.deepEqual(
      sb.handle.requests.map((r) => [r.method, r.path]),
      [['GET', `/1/triggers/${DEMO.datasets.gateway}`]],
    );
  });
});
