// DNS rebinding: a web page whose name is made to resolve to 127.0.0.1 reaches the sandbox as its own
// origin, so it may send any header, the sandbox's public credentials included. What tells such a
// request apart is its Host header, which names the page's site: every route of the sandbox answers
// only a Host that is one of its loopback names (or the address it was bound to) with its port.
import { after, before, describe, test } from 'node:test';
import { allowedHosts } from '../../src/sandbox/access';
import assert from 'node:assert/strict';
import {
  assertJsonApiError,
  assertProblem,
  call,
  serviceReads,
  serviceWrites,
  startTestSandbox,
  type TestSandbox,
} from './sandbox-helpers';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 100_000, queryResultRateLimit: 100_000 });
});
after(() => sb.handle.close());

const port = () => new URL(sb.base).port;
const snapshot = () => JSON.stringify(sb.handle.state);

function credentials(api: 'v1' | 'v2'): Record<string, string> {
  return api === 'v1'
    ? { 'X-Service-Team': sb.handle.info.configKey, 'Content-Type': 'application/json' }
    : { Authorization: `Bearer ${sb.handle.info.managementKey}`, 'Content-Type': 'application/vnd.api+json' };
}

describe('a foreign Host is refused on every route', () => {
  for (const write of serviceWrites()) {
    test(`${write.method} ${write.path}: 403, nothing changes, nothing recorded; the same request addressed to the sandbox succeeds`, async () => {
      await sb.control('POST', 'reset');
      const before = snapshot();
      for (const host of [
        'evil.example',
        `evil.example:${port()}`,
        `127.0.0.1.evil.example:${port()}`,
        `localhost:${Number(port()) + 1}`,
      ]) {
        const res = await call(`${sb.base}${write.path}`, {
          method: write.method,
          body: write.body,
          headers: { ...credentials(write.api), Host: host },
        });
        if (write.api === 'v1') assert.match(assertProblem(res, 403, sb.base, 'forbidden').detail, /Host/);
        else assert.match(assertJsonApiError(res, 403)[0]?.detail ?? '', /Host/);
      }
      assert.equal(snapshot(), before, 'nothing changed');
      assert.deepEqual(sb.handle.requests, [], 'nothing recorded');
      const res = await call(`${sb.base}${write.path}`, {
        method: write.method,
        body: write.body,
        headers: credentials(write.api),
      });
      assert.ok(res.status >= 200 && res.status < 300, `${res.status} ${res.text}`);
      assert.notEqual(snapshot(), before, 'the write itself changes the data');
      await sb.control('POST', 'reset');
    });
  }

  test('reads, the UI stand-in and unknown paths: 403', async () => {
    for (const path of [...serviceReads(), '/ui/team/datasets/x/result/y', '/1/nothing/here']) {
      const res = await call(`${sb.base}${path}`, {
        headers: { ...credentials('v1'), Host: `evil.example:${port()}` },
      });
      assert.equal(res.status, 403, path);
      assert.equal(res.text.includes('"error"'), true, path);
    }
  });

  test("the sandbox's own names with its port are served", async () => {
    const [read = ''] = serviceReads();
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`, `LOCALHOST:${port()}`, `[::1]:${port()}`]) {
      const res = await call(`${sb.base}${read}`, { headers: { ...credentials('v1'), Host: host } });
      assert.equal(res.status, 200, host);
    }
  });
});

test('bound to every address (0.0.0.0 or ::), the sandbox answers only its loopback names, never the wildcard as a Host', () => {
  for (const wildcard of ['0.0.0.0', '::']) {
    assert.deepEqual([...allowedHosts(wildcard, 8080)].sort(), ['127.0.0.1:8080', '[::1]:8080', 'localhost:8080']);
  }
  assert.ok(allowedHosts('192.0.2.7', 8080).has('192.0.2.7:8080'));
});
