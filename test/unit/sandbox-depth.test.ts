// A body nested deeper than 64 levels is refused with a 400 in the service's error shape, before anything
// walks it: nothing in the sandbox's handling of a request recurses over a body of any depth.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO } from '../../src/sandbox';
import {
  assertJsonApiError,
  assertProblem,
  serviceWrites,
  startTestSandbox,
  type TestSandbox,
} from './sandbox-helpers';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 100_000, queryResultRateLimit: 100_000 });
});
after(() => sb.handle.close());

/** `{"a":{"a":...1...}}`, `depth` objects deep. */
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** `depth` arrays deep, closed or not. */
const arrays = (depth: number, closed = true) => `${'['.repeat(depth)}${closed ? ']'.repeat(depth) : ''}`;

function assertBadBody(res: Awaited<ReturnType<TestSandbox['v1']>>, api: 'v1' | 'v2'): void {
  if (api === 'v1') assert.match(assertProblem(res, 400, sb.base, 'unparseable-body').detail, /nested deeper than 64/);
  else assert.equal(assertJsonApiError(res, 400)[0]?.code, 'invalid/unparseable-body');
}

describe('over-deep bodies', () => {
  for (const write of serviceWrites()) {
    test(`${write.method} ${write.path}: 5,000 and 100,000 levels answer 400 and change nothing`, async () => {
      const before = JSON.stringify(sb.handle.state);
      // 100,000 levels fit in the 100,000-byte limit only unclosed; closed they are a 413.
      for (const body of [objects(5_000), arrays(5_000), arrays(100_000, false)]) {
        assertBadBody(await sb[write.api](write.method, write.path, body), write.api);
      }
      assert.equal((await sb[write.api](write.method, write.path, arrays(100_000))).status, 413);
      assert.equal(JSON.stringify(sb.handle.state), before);
    });
  }

  test('64 levels are read (here: refused as an unknown member), 65 are not', async () => {
    const path = `/1/dataset_definitions/${DEMO.datasets.gateway}`;
    assertProblem(await sb.v1('PATCH', path, objects(64)), 422, sb.base, 'validation-failed');
    assertBadBody(await sb.v1('PATCH', path, objects(65)), 'v1');
  });

  test('brackets inside strings are not levels', async () => {
    const path = `/1/dataset_definitions/${DEMO.datasets.gateway}`;
    const body = JSON.stringify({ route: { name: `${'['.repeat(5_000)}\\"{` } });
    const res = await sb.v1('PATCH', path, body);
    assert.equal(res.status, 422, res.text.slice(0, 200));
    assert.match((res.json() as { error: string }).error, /unknown column/);
  });

  test('the recorded requests still list after them, holding the deep bodies as text', async () => {
    sb.handle.requests.length = 0;
    await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.gateway}`, arrays(2_000));
    const res = await sb.control('GET', 'requests');
    assert.equal(res.status, 200, res.text.slice(0, 200));
    assert.deepEqual(
      (res.json() as { body: unknown }[]).map((r) => r.body),
      [arrays(2_000)],
    );
  });

  test('a control endpoint answers an over-deep body 400', async () => {
    for (const body of [objects(5_000), arrays(100_000, false)]) {
      const res = await sb.control('POST', 'faults', body);
      assert.equal(res.status, 400, res.text.slice(0, 200));
      assert.match((res.json() as { error: string }).error, /nested deeper than 64/);
    }
    assert.equal(sb.handle.faults.latencyMs, 0);
  });
});
