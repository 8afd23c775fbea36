// The sandbox on a developer's machine: its control endpoints answer only the process that started it
// (a per-run token, no foreign Origin or Host), every body over 100,000 bytes gets a 413, and a --data
// file is used by one sandbox at a time, with no temporary file left behind by a killed one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO, DataFileError, startSandbox } from '../../src/sandbox';
import { assertJsonApiError, assertProblem, call, startTestSandbox, type TestSandbox } from './sandbox-helpers';

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 1000 });
});
after(() => sb.handle.close());

const token = () => sb.handle.info.controlToken;
const port = () => new URL(sb.base).port;

describe('control endpoints need the per-run token', () => {
  test('the token is part of the SandboxInfo, and differs between runs', async () => {
    const other = await startSandbox();
    try {
      assert.match(token(), /^[0-9a-f]{32}$/);
      assert.notEqual(other.info.controlToken, token());
    } finally {
      await other.close();
    }
  });

  test('a given token shorter than 16 characters is refused at start', async () => {
    await assert.rejects(startSandbox({ controlToken: 'short' }), /controlToken must be at least 16 characters/);
    await assert.rejects(startSandbox({ controlToken: '' }), /controlToken must be at least 16 characters/);
  });

  test('without the token every control endpoint is a 403, and nothing happens', async () => {
    const before = sb.handle.state.triggers.length;
    sb.handle.state.triggers.pop();
    for (const [method, path] of [
      ['GET', 'info'],
      ['GET', 'requests'],
      ['POST', 'reset'],
      ['POST', 'faults'],
      ['DELETE', 'requests'],
    ] as const) {
      const res = await call(`${sb.base}/__sandbox/${path}`, {
        method,
        ...(method === 'POST' ? { body: { kind: 'latency', ms: 60_000 } } : {}),
      });
      assert.equal(res.status, 403, `${method} ${path}`);
    }
    assert.equal(sb.handle.state.triggers.length, before - 1, 'the reset did not run');
    assert.equal(sb.handle.faults.latencyMs, 0, 'no fault was injected');
    await sb.control('POST', 'reset');
  });

  test("a web page's plain cross-site POST (text/plain, foreign Origin, no token) cannot reset the data", async () => {
    sb.handle.state.triggers.pop();
    const count = sb.handle.state.triggers.length;
    const res = await call(`${sb.base}/__sandbox/reset`, {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
    });
    assert.equal(res.status, 403);
    assert.equal(sb.handle.state.triggers.length, count);
    await sb.control('POST', 'reset');
  });

  test('with the token but a foreign Origin: 403', async () => {
    const res = await call(`${sb.base}/__sandbox/info`, {
      headers: { 'X-Sandbox-Token': token(), Origin: 'https://evil.example' },
    });
    assert.equal(res.status, 403);
    assert.match((res.json() as { error: string }).error, /Origin/);
  });

  test('with the token but a foreign Host (DNS rebinding): 403; the loopback names of the sandbox are fine', async () => {
    const foreign = await call(`${sb.base}/__sandbox/info`, {
      headers: { 'X-Sandbox-Token': token(), Host: `evil.example:${port()}` },
    });
    assert.equal(foreign.status, 403);
    assert.match((foreign.json() as { error: string }).error, /Host/);
    for (const host of [`127.0.0.1:${port()}`, `localhost:${port()}`]) {
      const res = await call(`${sb.base}/__sandbox/info`, { headers: { 'X-Sandbox-Token': token(), Host: host } });
      assert.equal(res.status, 200, host);
    }
    const ownOrigin = await call(`${sb.base}/__sandbox/info`, {
      headers: { 'X-Sandbox-Token': token(), Origin: sb.base },
    });
    assert.equal(ownOrigin.status, 200);
  });

  test('with the token: the info', async () => {
    const res = await sb.control('GET', 'info');
    assert.deepEqual(res.json(), sb.handle.info);
  });
});

describe('request bodies', () => {
  const nineMiB = 'x'.repeat(9 * 1024 * 1024);

  test('a 9 MiB body to a version 1 endpoint is a 413 problem, not a dropped connection', async () => {
    const res = await sb.v1('PUT', `/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`, nineMiB);
    assertProblem(res, 413, sb.base, 'request-too-large');
  });

  test('a 9 MiB body to a version 2 endpoint is a 413 JSON:API error', async () => {
    const res = await sb.v2('POST', `/2/teams/${DEMO.team}/api-keys`, nineMiB);
    assert.equal(assertJsonApiError(res, 413)[0]?.code, 'invalid/request-too-large');
  });

  test('100,000 bytes is still read; 100,001 is a 413', async () => {
    const fits = JSON.stringify({ pad: 'x'.repeat(100_000 - 10) });
    assert.equal(Buffer.byteLength(fits), 100_000);
    assert.equal((await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.empty}`, fits)).status, 422);
    assertProblem(
      await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.empty}`, `${fits} `),
      413,
      sb.base,
      'request-too-large',
    );
  });
});

describe('--data file', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'obs-sandbox-lock-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a second sandbox on a data file in use is refused, naming the file; after the first stops it starts', async () => {
    const file = join(dir, 'shared.json');
    const first = await startSandbox({ dataFile: file });
    try {
      await assert.rejects(startSandbox({ dataFile: file }), (err: unknown) => {
        assert.ok(err instanceof DataFileError);
        assert.equal(err.kind, 'data-file-in-use');
        assert.equal(
          err.message,
          `data file ${file} is in use by another sandbox (process ${process.pid}); stop it, or give another --data file`,
        );
        return true;
      });
    } finally {
      await first.close();
    }
    const again = await startSandbox({ dataFile: file });
    await again.close();
  });

  test('a lock left by a sandbox that was killed is taken over', async () => {
    const file = join(dir, 'killed.json');
    const dead = await deadPid();
    await writeFile(`${file}.lock`, `${JSON.stringify({ pid: dead })}\n`);
    const sandbox = await startSandbox({ dataFile: file });
    await sandbox.close();
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith('killed')),
      ['killed.json'],
    );
  });

  test('temporary files a killed sandbox left behind are removed at start; other files stay', async () => {
    const file = join(dir, 'temps.json');
    await writeFile(join(dir, '.temps.json.4242.7.tmp'), '{"half":');
    await writeFile(join(dir, '.other.json.4242.7.tmp'), 'not ours');
    const sandbox = await startSandbox({ dataFile: file });
    await sandbox.close();
    const left = (await readdir(dir)).filter((f) => f.includes('temps') || f.includes('other'));
    assert.deepEqual(left.sort(), ['.other.json.4242.7.tmp', 'temps.json']);
  });
});

/** The id of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid;
  await new Promise((resolve) => child.on('exit', resolve));
  assert.ok(pid !== undefined);
  return pid;
}
