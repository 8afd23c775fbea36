// Add Connection checks a connection before saving it (connections/connectionCheck.ts): one read with the
// configuration key against the sandbox, and what is wrong said in the user's words, with the field to change.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { ServiceError } from '../../src/api/errors';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import {
  checkConnection,
  checkFailureDialog,
  describeFailure,
  type CheckApi,
} from '../../src/extension/connections/connectionCheck';

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
// A fault a test left unused must not answer the next test's call.
beforeEach(() => sandbox.faults.clear());

test('a working connection: one read, the datasets listed', async () => {
  const before = sandbox.requests.length;
  assert.deepEqual(await checkConnection(client(sandbox.info.configKey), host()), {
    ok: true,
    summary: `${sandbox.state.datasets.length} datasets`,
  });
  assert.deepEqual(
    sandbox.requests.slice(before).map((r) => `${r.method} ${r.path}`),
    ['GET /1/datasets'],
  );
});

/** The client as the check sees it, noting each call (the sandbox records only requests with one of its keys). */
function noting(api: CheckApi, calls: string[]): CheckApi {
  return {
    listDatasets: (o) => (calls.push('list datasets'), api.listDatasets(o)),
    listTriggers: (dataset, o) => (calls.push(`list triggers of ${dataset}`), api.listTriggers(dataset, o)),
  };
}

test("a wrong key (401) is said to be unknown to the service, once the spec's own call refused it too", async () => {
  const calls: string[] = [];
  assert.deepEqual(await checkConnection(noting(client('not-a-key-of-this-service'), calls), host()), {
    ok: false,
    problem: 'wrong-key',
    reason: `${host()} does not know the configuration key: it is mistyped, revoked, or a key of another account.`,
  });
  assert.deepEqual(calls, ['list datasets', 'list triggers of __all__']);
});

test('a key that may not list datasets (403) but reads triggers works: the list is beyond the spec, the triggers decide', async () => {
  sandbox.faults.nextStatus(403, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
  const outcome = await checkConnection(client(sandbox.info.configKey), host());
  assert.equal(outcome.ok, true);
  assert.match(outcome.ok ? outcome.summary : '', /^\d+ environment-wide triggers?$/);
});

test('a key that may not read (403 to both calls) is told apart from a wrong one', async () => {
  sandbox.faults.nextStatus(403, 2, 'auto', { match: { method: 'GET', path: '/1/' } });
  const outcome = await checkConnection(client(sandbox.info.configKey), host());
  assert.deepEqual(outcome, {
    ok: false,
    problem: 'forbidden',
    reason: `${host()} knows the configuration key but does not let it read the environment's triggers: the key lacks a permission.`,
  });
});

test("an address whose 404 is a web page, not the service's answer, is said not to be the service's API", async () => {
  sandbox.faults.htmlErrorPage(404, 2, { method: 'GET', path: '/1/' });
  const outcome = await checkConnection(client(sandbox.info.configKey), host());
  assert.deepEqual(outcome.ok ? 'ok' : [outcome.problem, outcome.reason], [
    'not-service',
    `${host()} does not answer like the service's API: check that the base URL is the API's address.`,
  ]);
});

test('a service that does not serve the datasets call is checked with its environment-wide triggers instead', async () => {
  sandbox.faults.nextStatus(404, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
  const outcome = await checkConnection(client(sandbox.info.configKey), host());
  assert.equal(outcome.ok, true);
  assert.match(outcome.ok ? outcome.summary : '', /^\d+ environment-wide triggers?$/);
});

test('an address nobody listens on is unreachable, with the network code and the proxy setting VS Code has (http.proxy)', async () => {
  const outcome = await checkConnection(client('k', 'http://127.0.0.1:9'), '127.0.0.1:9');
  assert.deepEqual(outcome, {
    ok: false,
    problem: 'unreachable',
    reason:
      "127.0.0.1:9 could not be reached (ECONNREFUSED): check the base URL, and the proxy: VS Code's http.proxy setting, or HTTPS_PROXY and NO_PROXY in the environment.",
  });
});

test('a certificate the client refused and a service too slow to answer are named as such', () => {
  const tls = new ServiceError({
    kind: 'network',
    operation: 'list datasets',
    message: 'list datasets failed: could not reach the service',
    networkCode: 'DEPTH_ZERO_SELF_SIGNED_CERT',
  });
  assert.deepEqual(describeFailure(tls, 'api.example.com'), {
    ok: false,
    problem: 'tls',
    reason:
      'The TLS certificate of api.example.com was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT). A certificate of your own certificate authority is trusted once its file is in the obs.caCertificates setting.',
  });
  const slow = new ServiceError({
    kind: 'timeout',
    operation: 'list datasets',
    message: 'list datasets failed: timeout',
    networkCode: 'UND_ERR_CONNECT_TIMEOUT',
  });
  assert.equal(
    describeFailure(slow, 'api.example.com').reason,
    'api.example.com did not answer in time (UND_ERR_CONNECT_TIMEOUT).',
  );
});

test('a cancelled check is a cancellation, not a failure to report', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(checkConnection(client(sandbox.info.configKey), host(), controller.signal), {
    name: 'ServiceError',
    kind: 'aborted',
  });
});

test('a failed check offers Edit Connection on the field to change: the key after a 401, the base URL for an address', () => {
  const wrongKey = checkFailureDialog('staging', {
    ok: false,
    problem: 'wrong-key',
    reason: 'api.example.com does not know the configuration key.',
  });
  assert.deepEqual(wrongKey, {
    message: '"staging" does not work yet: api.example.com does not know the configuration key.',
    detail:
      'Edit Connection goes back to its fields to put right what is wrong. Save Anyway saves it as it is (for a service you cannot reach from here yet). Cancel saves nothing.',
    edit: 'Edit Connection',
    saveAnyway: 'Save Anyway',
    field: 'configKey',
  });
  assert.equal(checkFailureDialog('staging', { ok: false, problem: 'unreachable', reason: 'x' }).field, 'baseUrl');
  assert.equal(checkFailureDialog('staging', undefined).message, 'The check of "staging" was cancelled.');
});

test("the check's dialog shows a name holding a right-to-left override as text: the override cannot reverse the question", () => {
  const dialog = checkFailureDialog('prod\u202Egnitset', {
    ok: false,
    problem: 'wrong-key',
    reason: 'the key is unknown.',
  });
  assert.equal(dialog.message, '"prod\uFFFDgnitset" does not work yet: the key is unknown.');
});
