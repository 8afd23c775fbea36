// Every endpoint and every fault through the client against the real local sandbox (src/sandbox/).
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient, type CreateApiKeyRequest } from '../../src/api';
import { DEMO, SANDBOX_CREDENTIALS, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { captured, failure, fakeTiming, logs } from './api-helpers';

let sandbox: SandboxHandle;
let client: ServiceClient;
const createdSecrets: string[] = [];

function clientFor(
  sb: SandboxHandle,
  extra: Partial<ConstructorParameters<typeof ServiceClient>[0]> = {},
): ServiceClient {
  return new ServiceClient({
    baseUrl: sb.info.baseUrl,
    configKey: sb.info.configKey,
    managementKey: sb.info.managementKey,
    timing: fakeTiming().timing,
    onLog: (e) => {
      logs.push(e);
      captured.push(JSON.stringify(e));
    },
    ...extra,
  });
}

before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000 });
  client = clientFor(sandbox);
});
afterEach(() => {
  sandbox.faults.clear();
});
after(async () => {
  await client.close();
  await sandbox.close();
});

const keyBody = (name: string): CreateApiKeyRequest => ({
  data: {
    type: 'api-keys',
    attributes: { key_type: 'ingest', name, disabled: false, permissions: { create_datasets: false } },
    relationships: { environment: { data: { id: sandbox.info.environmentId, type: 'environments' } } },
  },
});

function requestsTo(method: string, path: string): number {
  return sandbox.requests.filter((r) => r.method === method && r.path === path).length;
}

// --- every endpoint --------------------------------------------------------------------------------------

test('sandbox 4.1: createApiKey returns a new ingest key with its secret', async () => {
  const res = await client.createApiKey(sandbox.info.team, keyBody('sandbox test key'));
  createdSecrets.push(res.data.data.attributes.secret);
  assert.equal(res.status, 201);
  assert.equal(res.data.data.attributes.name, 'sandbox test key');
  assert.match(res.data.data.attributes.secret, /^[0-9a-f]{32}$/);
  assert.equal(res.data.data.relationships?.environment?.data?.id, sandbox.info.environmentId);
});

test('sandbox 4.2: updateApiKey renames and disables a key; no secret comes back', async () => {
  const id = DEMO.apiKeys.disabled;
  const res = await client.updateApiKey(sandbox.info.team, id, {
    data: { id, type: 'api-keys', attributes: { name: 'renamed by test', disabled: true } },
  });
  assert.equal(res.data.data.attributes.name, 'renamed by test');
  assert.equal(res.data.data.attributes.disabled, true);
  assert.equal(res.data.data.attributes.secret, undefined);
});

test('sandbox 4.3: listBurnAlerts lists both alert types of an SLO', async () => {
  const res = await client.listBurnAlerts(DEMO.datasets.gateway, DEMO.slos.gwAvailability);
  assert.deepEqual(
    res.data.map((a) => [a.id, a.alert_type]),
    [
      [DEMO.burnAlerts.gwExhaustion, 'exhaustion_time'],
      [DEMO.burnAlerts.gwBudgetRate, 'budget_rate'],
    ],
  );
});

test('sandbox 4.3: listBurnAlerts accepts __all__ for an environment-wide SLO', async () => {
  const res = await client.listBurnAlerts('__all__', DEMO.slos.envUptime);
  assert.deepEqual(
    res.data.map((a) => a.id).sort(),
    [DEMO.burnAlerts.envBudgetRate, DEMO.burnAlerts.envExhaustion].sort(),
  );
});

test('sandbox 4.4: updateBurnAlert changes exhaustion_minutes and returns the recipients', async () => {
  const res = await client.updateBurnAlert(DEMO.datasets.checkout, DEMO.burnAlerts.coExhaustion, {
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 45,
    recipients: [{ id: DEMO.recipients.emailTeam }],
  });
  assert.equal(res.data.exhaustion_minutes, 45);
  assert.deepEqual(
    res.data.recipients?.map((r) => r.id),
    [DEMO.recipients.emailTeam],
  );
});

test('sandbox 4.5: createQueryResult returns a complete result with links', async () => {
  const res = await client.createQueryResult(DEMO.datasets.gateway, { query_id: DEMO.savedQueries.gw5xx });
  assert.equal(res.status, 201);
  assert.equal(res.data.complete, true);
  assert.ok(
    res.data.links?.query_url?.startsWith(
      `${sandbox.info.uiUrl}/${sandbox.info.team}/datasets/${DEMO.datasets.gateway}/result/`,
    ),
  );
});

test('sandbox 4.5: a query still running comes back incomplete', async () => {
  const res = await client.createQueryResult(DEMO.datasets.gateway, { query_id: DEMO.savedQueries.gwSlow });
  assert.equal(res.data.complete, false);
});

test('sandbox 4.5: a failed query rejects with kind query-failed', async () => {
  const err = await failure(client.createQueryResult(DEMO.datasets.gateway, { query_id: DEMO.savedQueries.gwFailing }));
  assert.equal(err.kind, 'query-failed');
  assert.equal(err.detail, 'query failed: a calculation names a column that does not exist');
});

test('sandbox 4.6: listColumns of the wide dataset returns 2,000 columns', async () => {
  const res = await client.listColumns(DEMO.datasets.wide);
  assert.equal(res.data.length, DEMO.wideColumnCount);
});

test('sandbox 4.6: getColumn returns one column by key_name', async () => {
  const res = await client.getColumn(DEMO.datasets.gateway, 'duration_ms');
  assert.equal(res.data.key_name, 'duration_ms');
  assert.equal(res.data.type, 'float');
});

test('sandbox 4.6: getColumn of a missing column is a 404', async () => {
  const err = await failure(client.getColumn(DEMO.datasets.gateway, 'no.such.column'));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 404);
});

test('sandbox 4.7: listTriggers of __all__ includes the environment-wide triggers', async () => {
  const res = await client.listTriggers('__all__');
  const ids = res.data.map((t) => t.id);
  assert.ok(ids.includes(DEMO.triggers.envVolume));
  assert.ok(ids.includes(DEMO.triggers.gwErrors));
});

test('sandbox 4.8: updateDatasetDefinitions sets one definition and clears another', async () => {
  const res = await client.updateDatasetDefinitions(DEMO.datasets.gateway, {
    user: { name: 'user.id' },
    route: { name: '' },
  });
  assert.deepEqual(res.data.user, { name: 'user.id', column_type: 'column' });
  assert.equal(res.data.route, null);
});

test('sandbox: responses carry the RateLimit header, read into rateLimit', async () => {
  const res = await client.listTriggers(DEMO.datasets.gateway);
  assert.equal(res.rateLimit?.limit, 100_000);
  assert.equal(typeof res.rateLimit?.remaining, 'number');
});

// --- service errors ---------------------------------------------------------------------------------------

test('sandbox 401: an unknown configuration key gets the legacy error', async () => {
  const wrong = clientFor(sandbox, { configKey: 'not-a-real-key-0000' });
  try {
    const err = await failure(wrong.listColumns(DEMO.datasets.gateway));
    assert.equal(err.status, 401);
    assert.equal(err.detail, 'unknown API key - check your credentials');
  } finally {
    await wrong.close();
  }
});

test('sandbox 401: an unknown management key names the Authorization header', async () => {
  const wrong = clientFor(sandbox, { managementKey: 'hcamk_nope0001:wrong-secret-0001' });
  try {
    const err = await failure(wrong.createApiKey(sandbox.info.team, keyBody('never made')));
    assert.equal(err.status, 401);
    assert.deepEqual(
      err.fieldProblems.map((p) => p.field),
      ['header Authorization'],
    );
  } finally {
    await wrong.close();
  }
});

test('sandbox 403: the read-only key cannot update a burn alert', async () => {
  const reader = clientFor(sandbox, { configKey: SANDBOX_CREDENTIALS.readOnlyConfigKey });
  try {
    const err = await failure(
      reader.updateBurnAlert(DEMO.datasets.gateway, DEMO.burnAlerts.gwExhaustion, {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 1,
        recipients: [{ id: DEMO.recipients.emailOncall }],
      }),
    );
    assert.equal(err.status, 403);
    assert.equal(err.attempts, 1);
  } finally {
    await reader.close();
  }
});

test('sandbox 404: an unknown dataset', async () => {
  const err = await failure(client.listTriggers('no-such-dataset'));
  assert.equal(err.status, 404);
});

test('sandbox 404 (v2): an unknown environment is named by its JSON pointer', async () => {
  const body = keyBody('wrong env');
  body.data.relationships.environment.data.id = 'env_nope';
  const err = await failure(client.createApiKey(sandbox.info.team, body));
  assert.equal(err.status, 404);
  assert.deepEqual(
    err.fieldProblems.map((p) => [p.field, p.pointer]),
    [['data.relationships.environment.data.id', '/data/relationships/environment/data/id']],
  );
});

test('sandbox 409: a second live key with the same name is a conflict on data.attributes.name', async () => {
  const first = await client.createApiKey(sandbox.info.team, keyBody('twin'));
  createdSecrets.push(first.data.data.attributes.secret);
  const err = await failure(client.createApiKey(sandbox.info.team, keyBody('twin')));
  assert.equal(err.status, 409);
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['data.attributes.name'],
  );
});

test('sandbox 413: a body over 100,000 bytes is refused by the service', async () => {
  const err = await failure(client.createApiKey(sandbox.info.team, keyBody('n'.repeat(120_000))));
  assert.equal(err.status, 413);
});

test('sandbox 415 (injected): a JSON:API error is read', async () => {
  sandbox.faults.nextStatus(415, 1);
  const err = await failure(
    client.updateApiKey(sandbox.info.team, DEMO.apiKeys.ingest, {
      data: { id: DEMO.apiKeys.ingest, type: 'api-keys', attributes: { name: 'x', disabled: false } },
    }),
  );
  assert.equal(err.status, 415);
  assert.equal(err.attempts, 1);
});

test('sandbox 422 (v1): an unknown saved query comes back with type_detail on query_id', async () => {
  const err = await failure(client.createQueryResult(DEMO.datasets.gateway, { query_id: 'q_nope' }));
  assert.equal(err.status, 422);
  assert.deepEqual(
    err.fieldProblems.map((p) => [p.field, p.code]),
    [['query_id', 'invalid']],
  );
});

test('sandbox 422 (legacy): a definition naming an unknown column', async () => {
  const err = await failure(
    client.updateDatasetDefinitions(DEMO.datasets.gateway, { route: { name: 'no.such.column' } }),
  );
  assert.equal(err.status, 422);
  assert.match(err.detail ?? '', /no\.such\.column/);
});

// --- rate limits and injected faults ----------------------------------------------------------------------

test('sandbox 429: a spent rate window is waited out until the Retry-After date, then the call succeeds', async () => {
  // The clock stands 20 s into a minute; the sandbox's fixed window ends at the next whole minute.
  const clock = fakeTiming(Date.parse('2025-06-02T12:00:20Z'));
  const limited = await startSandbox({ rateLimit: 2, clock: clock.timing.now });
  const c = clientFor(limited, { timing: clock.timing, retry: { maxTotalMs: 120_000 } });
  try {
    await c.listTriggers(DEMO.datasets.gateway);
    await c.listTriggers(DEMO.datasets.gateway);
    const res = await c.listTriggers(DEMO.datasets.gateway);
    assert.deepEqual(clock.delays, [40_000]);
    assert.equal(res.attempts, 2);
  } finally {
    await c.close();
    await limited.close();
  }
});

test('sandbox 429 (injected, Retry-After 2): waits 2 s and succeeds', async () => {
  const clock = fakeTiming();
  const c = clientFor(sandbox, { timing: clock.timing });
  try {
    sandbox.faults.nextStatus(429, 1, 'auto', { retryAfter: 2 });
    const res = await c.listColumns(DEMO.datasets.gateway);
    assert.deepEqual(clock.delays, [2000]);
    assert.equal(res.attempts, 2);
  } finally {
    await c.close();
  }
});

test('sandbox 503 twice, then success: attempts 3', async () => {
  sandbox.faults.nextStatus(503, 2);
  const res = await client.listColumns(DEMO.datasets.gateway);
  assert.equal(res.attempts, 3);
});

test('sandbox 503 on every attempt: retries exhausted after 4', async () => {
  sandbox.faults.nextStatus(503, 10);
  const err = await failure(client.listColumns(DEMO.datasets.gateway));
  assert.equal(err.status, 503);
  assert.equal(err.attempts, 4);
});

test('sandbox reset: a GET is retried after the connection is dropped', async () => {
  sandbox.faults.resetConnection(1);
  const res = await client.listTriggers(DEMO.datasets.gateway);
  assert.equal(res.attempts, 2);
});

test('sandbox reset: create API key is sent exactly once and fails with kind network', async () => {
  const path = `/2/teams/${sandbox.info.team}/api-keys`;
  const before = requestsTo('POST', path);
  sandbox.faults.resetConnection(1);
  const err = await failure(client.createApiKey(sandbox.info.team, keyBody('reset once')));
  assert.equal(err.kind, 'network');
  assert.equal(requestsTo('POST', path) - before, 1);
});

test('sandbox 503: create API key is sent exactly once', async () => {
  const path = `/2/teams/${sandbox.info.team}/api-keys`;
  const before = requestsTo('POST', path);
  sandbox.faults.nextStatus(503, 1);
  const err = await failure(client.createApiKey(sandbox.info.team, keyBody('503 once')));
  assert.equal(err.status, 503);
  assert.equal(requestsTo('POST', path) - before, 1);
});

test('sandbox truncated body: a GET is retried', async () => {
  sandbox.faults.truncateBody(1);
  const res = await client.listColumns(DEMO.datasets.gateway);
  assert.equal(res.attempts, 2);
});

test('sandbox malformed JSON: kind bad-body, not retried', async () => {
  sandbox.faults.malformedBody(1);
  const err = await failure(client.listColumns(DEMO.datasets.gateway));
  assert.equal(err.kind, 'bad-body');
  assert.equal(err.attempts, 1);
});

test('sandbox HTML error page: kind http with the status', async () => {
  sandbox.faults.htmlErrorPage(502, 1);
  const err = await failure(client.createApiKey(sandbox.info.team, keyBody('html page')));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 502);
  assert.equal(
    err.message,
    "create API key failed: a gateway in front of the service got no good answer from it. The answer was a text/html page, not the service's. Try again later; the key may have been created anyway: check the team's API keys before creating it again",
  );
});

test('sandbox truncated body on create API key: sent once, marked maybeProcessed, and the key does exist', async () => {
  const path = `/2/teams/${sandbox.info.team}/api-keys`;
  const before = requestsTo('POST', path);
  sandbox.faults.truncateBody(1);
  const err = await failure(client.createApiKey(sandbox.info.team, keyBody('truncated answer')));
  assert.equal(err.kind, 'network');
  assert.equal(err.maybeProcessed, true);
  assert.equal(requestsTo('POST', path) - before, 1);
  assert.equal(sandbox.state.apiKeys.filter((k) => k.name === 'truncated answer').length, 1);
});

test('sandbox latency over headersMs: kind timeout', async () => {
  const impatient = clientFor(sandbox, { timeouts: { headersMs: 100 }, retry: { maxAttempts: 1 } });
  try {
    sandbox.faults.latency(1000);
    const err = await failure(impatient.listColumns(DEMO.datasets.gateway));
    assert.equal(err.kind, 'timeout');
  } finally {
    await impatient.close();
  }
});

test('sandbox latency: cancelling mid-request gives kind aborted after 1 attempt', async () => {
  sandbox.faults.latency(60_000);
  const ac = new AbortController();
  const path = `/1/columns/${DEMO.datasets.gateway}`;
  const before = requestsTo('GET', path);
  const call = failure(client.listColumns(DEMO.datasets.gateway, { signal: ac.signal }));
  // The sandbox records a request before its latency: abort once it has arrived.
  while (requestsTo('GET', path) === before) await new Promise((r) => setImmediate(r));
  ac.abort();
  const err = await call;
  assert.equal(err.kind, 'aborted');
  assert.equal(err.attempts, 1);
  assert.equal(requestsTo('GET', path) - before, 1);
});

test('sandbox: no key, management secret or created key secret appears in any log line or error', () => {
  const secrets = [
    SANDBOX_CREDENTIALS.configKey,
    SANDBOX_CREDENTIALS.readOnlyConfigKey,
    SANDBOX_CREDENTIALS.managementKeyId,
    SANDBOX_CREDENTIALS.managementKeySecret,
    'not-a-real-key-0000',
    'wrong-secret-0001',
    ...createdSecrets,
  ];
  assert.ok(createdSecrets.length >= 2);
  assert.ok(captured.length > 20);
  for (const line of captured) {
    for (const s of secrets)
      assert.ok(!line.includes(s), `a secret leaked into: ${line.split(s).join('<SECRET>').slice(0, 200)}`);
  }
});
