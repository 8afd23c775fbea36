// An address that is not the service (a web server answering 404 to everything) is trouble, never a finding:
// drift does not call the files "only local", plan does not advise removing their ids.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObs } from './obs-run';

const root = join(import.meta.dirname, '..', '..');
const TRIGGER = 'triggers/api-gateway/High-error-rate.trigger.json';
const NOT_THE_SERVICE =
  "the address does not answer like the service (it has no such page, and says so in words that are not the service's): check that it is the address of the service's API";

let server: Server;
let env: Record<string, string>;
let dir = '';

before(async () => {
  server = createServer((_req, res) =>
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = {
    OBS_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    OBS_CONFIG_KEY: 'not-a-real-key-0123456789',
  };
  dir = mkdtempSync(join(tmpdir(), 'obs-wrong-service-'));
  mkdirSync(join(dir, 'triggers', 'api-gateway'), { recursive: true });
  cpSync(join(root, 'demo', 'workspace', TRIGGER), join(dir, TRIGGER));
});
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

test('obs drift against a server that is not the service: exit 2, the reason said, no file called only local', async () => {
  const r = await runObs(['drift', 'triggers'], { cwd: dir, env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.ok((r.stdout + r.stderr).includes(NOT_THE_SERVICE), r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /: only local|has no dataset/);
});

test('obs plan against a server that is not the service: exit 2, the reason said, no advice to remove ids', async () => {
  const r = await runObs(['plan', 'triggers'], { cwd: dir, env });
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.ok((r.stdout + r.stderr).includes(NOT_THE_SERVICE), r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /remove|has no dataset/i);
});

test('obs lint --columns-from-service against a server that is not the service: no dataset called unknown to the service, the failure said', async () => {
  const r = await runObs(['lint', '--columns-from-service', TRIGGER], { cwd: dir, env });
  assert.doesNotMatch(r.stderr, /has no dataset/);
  assert.match(
    r.stderr,
    /could not read the columns from the service: .*the answer was a text\/html page, not the service's\. Check that the address is the service's API/,
  );
});
