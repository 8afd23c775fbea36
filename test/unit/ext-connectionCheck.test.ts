// Add Connection checks a connection before saving it (connections/connectionCheck.ts): one read with the
// configuration key against the sandbox, and what is wrong said in the user's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { ServiceError } from '../../src/api/errors';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { checkConnection, describeFailure } from '../../src/extension/connections/connectionCheck';

let sandbox: SandboxHandle;
const clients: ServiceClient[] = [];
before(async () => {
  sandbox = await startSandbox({ rateLimit: 10_000 });
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});

function client(configKey: string, baseUrl = sandbox.info.baseUrl): ServiceClient {
  const c = new ServiceClient({ baseUrl, configKey, retry: { maxAttempts: 1 } });
  clients.push(c);
  return c;
}
const host = () => new URL(sandbox.info.baseUrl).host;

test('a working connection: one read, the datasets listed', async () => {
  const before = sandbox.requests.length;
  assert.deepEqual(await checkConnection(client(sandbox.info.configKey), host()), { ok: true, summary: `${sandbox.state.datasets.length} datasets` });
  assert.deepEqual(sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`), ['GET /1/datasets']);
});

test('a wrong key is said to be wrong (401)', async () => {
  assert.deepEqual(await checkConnection(client('not-a-key-of-this-service'), host()), {
    ok: false,
    problem: 'wrong-key',
    message: `${host()} refused the configuration key (401): it is wrong, or revoked.`,
  });
});

test('a key that may not read (403) is told apart from a wrong one', async () => {
  sandbox.faults.nextStatus(403, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
  const outcome = await checkConnection(client(sandbox.info.configKey), host());
  assert.equal(outcome.ok ? 'ok' : outcome.problem, 'forbidden');
});

test('a service that does not serve the datasets call is checked with its environment-wide triggers instead', async () => {
  sandbox.faults.nextStatus(404, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
  const outcome = await checkConnection(client(sandbox.info.configKey), host());
  assert.equal(outcome.ok, true);
  assert.match(outcome.ok ? outcome.summary : '', /^\d+ environment-wide triggers?$/);
});

test('an address nobody listens on is unreachable, with the network code', async () => {
  const outcome = await checkConnection(client('k', 'http://127.0.0.1:9'), '127.0.0.1:9');
  assert.deepEqual(outcome, { ok: false, problem: 'unreachable', message: '127.0.0.1:9 could not be reached (ECONNREFUSED): check the base URL, and a proxy (obs.httpProxy).' });
});

test('a certificate the client refused and a service too slow to answer are named as such', () => {
  const tls = new ServiceError({ kind: 'network', operation: 'list datasets', message: 'list datasets failed: could not reach the service', networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  assert.deepEqual(describeFailure(tls, 'api.example.com'), {
    ok: false,
    problem: 'tls',
    message: 'The TLS certificate of api.example.com was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT). A certificate of your own certificate authority is trusted once its file is in the obs.caCertificates setting.',
  });
  const slow = new ServiceError({ kind: 'timeout', operation: 'list datasets', message: 'list datasets failed: timeout', networkCode: 'UND_ERR_CONNECT_TIMEOUT' });
  assert.equal(describeFailure(slow, 'api.example.com').message, 'api.example.com did not answer in time (UND_ERR_CONNECT_TIMEOUT).');
});

test('a cancelled check is a cancellation, not a failure to report', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(checkConnection(client(sandbox.info.configKey), host(), controller.signal), { name: 'ServiceError', kind: 'aborted' });
});
