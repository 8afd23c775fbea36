// Trigger writes as writes of the service: rate limited with the other writes, kept across a restart with
// --data, answered only to the sandbox's own Host, and dropping only the cached trigger lists they change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { assertProblem, call, startTestSandbox, testClock } from './sandbox-helpers';

const GW = DEMO.datasets.gateway;
const CO = DEMO.datasets.checkout;
type Json = Record<string, unknown>;
const BODY = {
  name: 'Errors',
  threshold: { op: '>', value: 5 },
  frequency: 300,
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
};

test('trigger writes share the write bucket: the fourth write of a minute at limit 3 is a 429 with Retry-After; reads are counted apart', async () => {
  const clock = testClock('2025-06-02T12:00:10.000Z');
  const sb = await startTestSandbox({ rateLimit: 3, clock: clock.now });
  try {
    assert.equal((await sb.v1('POST', `/1/triggers/${GW}`, BODY)).status, 201);
    assert.equal((await sb.v1('PUT', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, BODY)).status, 200);
    const del = await sb.v1('DELETE', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`);
    assert.equal(del.status, 204);
    assert.equal(del.headers.ratelimit, 'limit=3, remaining=0, reset=50');
    const before = JSON.stringify(sb.handle.state);
    const refused = await sb.v1('POST', `/1/triggers/${GW}`, BODY);
    assertProblem(refused, 429, sb.base, 'rate-limited');
    assert.equal(refused.headers['retry-after'], 'Mon, 02 Jun 2025 12:01:00 GMT');
    assert.equal(JSON.stringify(sb.handle.state), before);
    assert.equal((await sb.v1('GET', `/1/triggers/${GW}/${DEMO.triggers.gwWindow}`)).status, 200);
    clock.advance(60_000);
    assert.equal((await sb.v1('POST', `/1/triggers/${GW}`, BODY)).status, 201);
  } finally {
    await sb.handle.close();
  }
});

test('with --data, created, replaced and deleted triggers and the saved query of an inline query survive a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-trigger-data-'));
  const dataFile = join(dir, 'data.json');
  try {
    const first = await startTestSandbox({ dataFile, rateLimit: 100_000 });
    let made: Json;
    let replaced: Json;
    try {
      made = (await first.v1('POST', '/1/triggers/__all__', BODY)).json() as Json;
      replaced = (
        await first.v1('PUT', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, { ...BODY, name: 'Replaced' })
      ).json() as Json;
      assert.equal((await first.v1('DELETE', `/1/triggers/${GW}/${DEMO.triggers.gwWindow}`)).status, 204);
    } finally {
      await first.handle.close();
    }
    assert.ok(readFileSync(dataFile, 'utf8').includes('"Replaced"'));

    const second = await startTestSandbox({ dataFile, rateLimit: 100_000 });
    try {
      assert.deepEqual((await second.v1('GET', `/1/triggers/__all__/${String(made.id)}`)).json(), made);
      assert.deepEqual((await second.v1('GET', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`)).json(), replaced);
      assert.equal((await second.v1('GET', `/1/triggers/${GW}/${DEMO.triggers.gwWindow}`)).status, 404);
      assert.equal((await second.v1('GET', `/1/queries/__all__/${String(made.query_id)}`)).status, 200);
      // Server-assigned ids go on from where they were.
      const next = (await second.v1('POST', `/1/triggers/${GW}`, BODY)).json() as Json;
      assert.ok(String(next.id) > String(made.id), `${String(next.id)} after ${String(made.id)}`);
    } finally {
      await second.handle.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a trigger write under a foreign Host is refused (403) and changes nothing', async () => {
  const sb = await startTestSandbox({ rateLimit: 100_000 });
  try {
    const before = JSON.stringify(sb.handle.state);
    const port = new URL(sb.base).port;
    const res = await call(`${sb.base}/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, {
      method: 'DELETE',
      headers: { 'X-Service-Team': sb.handle.info.configKey, Host: `evil.example:${port}` },
    });
    assertProblem(res, 403, sb.base, 'forbidden');
    assert.equal(JSON.stringify(sb.handle.state), before);
  } finally {
    await sb.handle.close();
  }
});

test("a trigger write drops the cached trigger lists of its dataset and of __all__ only: another dataset's list is not serialised again", async () => {
  const sb = await startTestSandbox({ rateLimit: 100_000 });
  try {
    // JSON.stringify asks each trigger for toJSON: count it per dataset.
    const serialised = new Map<string, number>();
    sb.handle.state.triggers = sb.handle.state.triggers.map(
      (t) =>
        new Proxy(t, {
          get(target, key, receiver) {
            if (key === 'toJSON') serialised.set(target.dataset_slug, (serialised.get(target.dataset_slug) ?? 0) + 1);
            return Reflect.get(target, key, receiver) as unknown;
          },
        }),
    );
    const read = async (scope: string) =>
      ((await sb.v1('GET', `/1/triggers/${scope}`)).json() as Json[]).map((t) => t.id);
    for (const scope of [GW, CO, '__all__']) await read(scope);
    const coListed = await read(CO);
    let made: Json = {};
    const writes: [string, () => Promise<void>][] = [
      ['POST', async () => void (made = (await sb.v1('POST', `/1/triggers/${GW}`, BODY)).json() as Json)],
      [
        'PUT',
        async () => assert.equal((await sb.v1('PUT', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, BODY)).status, 200),
      ],
      [
        'DELETE',
        async () => assert.equal((await sb.v1('DELETE', `/1/triggers/${GW}/${DEMO.triggers.gwWindow}`)).status, 204),
      ],
    ];
    for (const [method, write] of writes) {
      await write();
      serialised.clear();
      assert.deepEqual(await read(CO), coListed, method);
      assert.equal(serialised.get(CO), undefined, `after a ${method}, the checkout list was sent as kept`);
    }
    const gwIds = await read(GW);
    assert.ok(gwIds.includes(made.id) && !gwIds.includes(DEMO.triggers.gwWindow));
    const allIds = await read('__all__');
    assert.ok(allIds.includes(made.id) && !allIds.includes(DEMO.triggers.gwWindow));
    assert.ok(
      (serialised.get(CO) ?? 0) > 0,
      'the environment-wide list, which holds checkout triggers, was made again',
    );
  } finally {
    await sb.handle.close();
  }
});
