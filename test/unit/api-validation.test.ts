// Client-side rules (spec parts 4, 5, 7, 8): every one refuses the call before anything is sent, and one
// error lists every problem with its field path.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient, type FieldProblem, type UpdateBurnAlertRequest } from '../../src/api';
import {
  CONFIG_KEY,
  assertNoSecretsCaptured,
  failure,
  makeClient,
  sendJson,
  startServer,
  thrown,
  type TestServer,
} from './api-helpers';
import { createKeyBody, fullDefinitions, updateKeyBody } from './api-fixtures';

let server: TestServer;
let client: ServiceClient;

before(async () => {
  server = await startServer((req, res) => {
    if (req.url.startsWith('/1/dataset_definitions/')) sendJson(res, 200, fullDefinitions);
    else sendJson(res, 200, []);
  });
  client = makeClient(server.url);
});
after(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

/** Runs a call that must be refused before sending; returns its field problems as `field: message` lines. */
async function refused(
  p: Promise<unknown>,
  kind: 'request-validation' | 'missing-credentials' = 'request-validation',
): Promise<FieldProblem[]> {
  const err = await failure(p);
  assert.equal(err.kind, kind);
  assert.equal(err.attempts, 0);
  assert.equal(server.requests.length, 0, 'nothing may be sent');
  return err.fieldProblems;
}

const fields = (problems: FieldProblem[]) => problems.map((p) => `${p.field}: ${p.message}`);

const exhaustion = (extra: Partial<UpdateBurnAlertRequest> = {}): UpdateBurnAlertRequest => ({
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 60,
  recipients: [{ id: 'rcp-1' }],
  ...extra,
});
const budgetRate = (extra: Partial<UpdateBurnAlertRequest> = {}): UpdateBurnAlertRequest => ({
  alert_type: 'budget_rate',
  budget_rate_window_minutes: 60,
  budget_rate_decrease_threshold_per_million: 1000,
  recipients: [{ id: 'rcp-1' }],
  ...extra,
});

// --- burn alerts: rules 7.1-7.4, description length, budget_rate fields ---------------------------------

test('rule 7.1: exhaustion_minutes with alert_type budget_rate is refused', async () => {
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', budgetRate({ exhaustion_minutes: 30 })));
  assert.deepEqual(fields(problems), [
    'exhaustion_minutes: exhaustion_minutes must not be given when alert_type is budget_rate',
  ]);
});

test('rule 7.2: exhaustion_time without exhaustion_minutes is refused', async () => {
  const body = exhaustion();
  delete body.exhaustion_minutes;
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', body));
  assert.deepEqual(fields(problems), [
    'exhaustion_minutes: exhaustion_minutes is required when alert_type is exhaustion_time',
  ]);
});

test('rule 7.3: exhaustion_minutes below 0 is refused', async () => {
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', exhaustion({ exhaustion_minutes: -1 })));
  assert.deepEqual(fields(problems), ['exhaustion_minutes: exhaustion_minutes must be 0 or more']);
});

test('exhaustion_minutes of exactly 0 is accepted and sent', async () => {
  server.requests.length = 0;
  // The stub answers [] which is not a burn alert, so the call fails after sending; only the sending matters here.
  await failure(client.updateBurnAlert('api', 'ba-1', exhaustion({ exhaustion_minutes: 0 })));
  assert.equal(server.requests.length, 1);
  assert.equal(JSON.parse(server.requests[0]?.body ?? '{}').exhaustion_minutes, 0);
});

test('rule 7.4: an empty recipients array is refused', async () => {
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', exhaustion({ recipients: [] })));
  assert.deepEqual(fields(problems), ['recipients: recipients must hold at least 1 recipient']);
});

test('a burn alert description over 1023 characters is refused; 1023 is the limit', async () => {
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', exhaustion({ description: 'x'.repeat(1024) })));
  assert.deepEqual(fields(problems), ['description: description must be at most 1023 characters']);
});

test('a burn alert description of 1023 emoji is sent: the limit counts characters, not UTF-16 units', async () => {
  server.requests.length = 0;
  // The stub answers [] which is not a burn alert, so the call fails after sending; only the sending matters here.
  await failure(client.updateBurnAlert('api', 'ba-1', exhaustion({ description: '\u{1F6A8}'.repeat(1023) })));
  assert.equal(server.requests.length, 1);
});

test('a burn alert description of 1024 emoji is refused, counted in characters', async () => {
  const problems = await refused(
    client.updateBurnAlert('api', 'ba-1', exhaustion({ description: '\u{1F6A8}'.repeat(1024) })),
  );
  assert.deepEqual(fields(problems), ['description: description must be at most 1023 characters']);
});

test('exhaustion_time with the budget_rate fields is refused, naming both', async () => {
  const body = exhaustion({ budget_rate_window_minutes: 60, budget_rate_decrease_threshold_per_million: 10 });
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', body));
  assert.deepEqual(fields(problems), [
    'budget_rate_window_minutes: budget_rate_window_minutes must not be given when alert_type is exhaustion_time',
    'budget_rate_decrease_threshold_per_million: budget_rate_decrease_threshold_per_million must not be given when alert_type is exhaustion_time',
  ]);
});

test('budget_rate without its window and threshold lists both fields', async () => {
  const problems = await refused(
    client.updateBurnAlert('api', 'ba-1', { alert_type: 'budget_rate', recipients: [{ id: 'r' }] }),
  );
  assert.deepEqual(fields(problems), [
    'budget_rate_window_minutes: budget_rate_window_minutes is required when alert_type is budget_rate',
    'budget_rate_decrease_threshold_per_million: budget_rate_decrease_threshold_per_million is required when alert_type is budget_rate',
  ]);
});

test('budget_rate_window_minutes under 60 and a threshold over 1,000,000 are refused', async () => {
  const body = budgetRate({ budget_rate_window_minutes: 59, budget_rate_decrease_threshold_per_million: 1_000_001 });
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', body));
  assert.deepEqual(fields(problems), [
    'budget_rate_window_minutes: budget_rate_window_minutes must be at least 60',
    'budget_rate_decrease_threshold_per_million: budget_rate_decrease_threshold_per_million must be at most 1000000',
  ]);
});

test('a recipient with neither id nor type and target is refused, naming its index', async () => {
  const problems = await refused(
    client.updateBurnAlert('api', 'ba-1', exhaustion({ recipients: [{ id: 'ok' }, { type: 'email' }] })),
  );
  assert.deepEqual(fields(problems), [
    'recipients[1].target: a recipient needs an id (preferred) or both type and target (deprecated)',
  ]);
});

test('an unknown field in a request body is refused by name', async () => {
  const body = { ...exhaustion(), colour: 'red' } as UpdateBurnAlertRequest;
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', body));
  assert.deepEqual(fields(problems), ['colour: unknown field "colour"']);
});

test("a burn alert's read-only members (id, slo, triggered, created_at, updated_at) are stripped before sending, not refused", async () => {
  server.requests.length = 0;
  const readOnly = {
    id: 'ba-1',
    slo: { id: 'slo-1' },
    triggered: true,
    created_at: '2025-06-01T10:00:00Z',
    updated_at: '2025-06-02T10:00:00Z',
  };
  // The stub answers [] which is not a burn alert, so the call fails after sending; only the sending matters here.
  await failure(client.updateBurnAlert('api', 'ba-1', { ...exhaustion(), ...readOnly }));
  assert.equal(server.requests.length, 1);
  assert.deepEqual(JSON.parse(server.requests[0]?.body ?? 'null'), exhaustion());
});

// --- query results: rule 7.6 ----------------------------------------------------------------------------

test('rule 7.6: a query result limit above 10000 is refused', async () => {
  const problems = await refused(
    client.createQueryResult('api', { query_id: 'q-1', disable_series: true, limit: 10_001 }),
  );
  assert.deepEqual(fields(problems), ['limit: limit must be at most 10000']);
});

test('a query result limit below 1 is sent: the spec states no minimum, and without disable_series it is ignored', async () => {
  server.requests.length = 0;
  // The stub answers [] which is not a query result, so the calls fail after sending; only the sending matters here.
  await failure(client.createQueryResult('api', { query_id: 'q-1', disable_series: false, limit: 0 }));
  await failure(client.createQueryResult('api', { query_id: 'q-1', disable_series: true, limit: -1 }));
  assert.deepEqual(
    server.requests.map((r) => JSON.parse(r.body).limit),
    [0, -1],
  );
});

test('rule 7.6: a limit above 10000 is refused without disable_series too', async () => {
  const problems = await refused(client.createQueryResult('api', { query_id: 'q-1', limit: 10_001 }));
  assert.deepEqual(fields(problems), ['limit: limit must be at most 10000']);
});

test('a query result without query_id is refused', async () => {
  const problems = await refused(client.createQueryResult('api', { query_id: '' }));
  assert.deepEqual(fields(problems), ['query_id: query_id must not be empty']);
});

// --- dataset definitions ----------------------------------------------------------------------------------

test('dataset definitions refuse the environment-wide __all__', async () => {
  const problems = await refused(client.updateDatasetDefinitions('__all__', { route: { name: 'http.route' } }));
  assert.deepEqual(fields(problems), [
    'dataset: dataset definitions need a dataset slug: "__all__" (environment-wide) is not accepted',
  ]);
});

test('dataset definitions accept a dataset named "all" (only __all__ is environment-wide)', async () => {
  await client.updateDatasetDefinitions('all', { route: { name: 'http.route' } });
  assert.equal(server.requests[0]?.url, '/1/dataset_definitions/all');
});

test('a definition type outside the 16 of spec 2.7 is refused', async () => {
  const body = { route: { name: 'http.route' }, http_method: { name: 'method' } } as unknown as Parameters<
    ServiceClient['updateDatasetDefinitions']
  >[1];
  const problems = await refused(client.updateDatasetDefinitions('api', body));
  assert.deepEqual(fields(problems), ['http_method: unknown field "http_method"']);
});

test('a column_type other than the two values seen is sent: the spec lists values seen, and the service ignores it', async () => {
  server.requests.length = 0;
  await client.updateDatasetDefinitions('api', { route: { name: 'http.route', column_type: 'metric' } });
  assert.deepEqual(JSON.parse(server.requests[0]?.body ?? 'null'), {
    route: { name: 'http.route', column_type: 'metric' },
  });
});

// --- path parameters --------------------------------------------------------------------------------------

test('an empty dataset slug is refused', async () => {
  const problems = await refused(client.listTriggers(''));
  assert.deepEqual(fields(problems), ['dataset: dataset slug must not be empty']);
});

test('a dataset slug with a slash is refused rather than sent as a different path', async () => {
  const problems = await refused(client.listColumns('api/../keys'));
  assert.deepEqual(fields(problems), ['dataset: dataset slug must not contain "/", "?", "#" or spaces']);
});

test('getColumn refuses a key_name longer than 255 characters', async () => {
  const problems = await refused(client.getColumn('api', 'k'.repeat(256)));
  assert.deepEqual(fields(problems), ['key_name: key_name must be at most 255 characters']);
});

test('getColumn refuses an empty key_name (part 8: 1 to 255 characters)', async () => {
  const problems = await refused(client.getColumn('api', ''));
  assert.deepEqual(fields(problems), ['key_name: key_name must not be empty']);
});

test('"." and ".." are refused as path segments: a proxy resolving them would send the write elsewhere', async () => {
  assert.deepEqual(fields(await refused(client.updateDatasetDefinitions('..', { route: { name: 'r' } }))), [
    'dataset: dataset slug must not be "." or ".."',
  ]);
  assert.deepEqual(fields(await refused(client.updateBurnAlert('api', '.', exhaustion()))), [
    'burnAlertId: burn alert id must not be "." or ".."',
  ]);
  assert.deepEqual(fields(await refused(client.updateApiKey('..', 'key-1', updateKeyBody))), [
    'teamSlug: team slug must not be "." or ".."',
  ]);
});

test('a secret typed into a field name is redacted from the validation error', async () => {
  const body = { ...exhaustion(), [CONFIG_KEY]: 1 } as UpdateBurnAlertRequest;
  const problems = await refused(client.updateBurnAlert('api', 'ba-1', body));
  assert.deepEqual(fields(problems), ['[redacted]: unknown field "[redacted]"']);
});

test('listBurnAlerts refuses an empty slo_id', async () => {
  const problems = await refused(client.listBurnAlerts('api', ''));
  assert.deepEqual(fields(problems), ['slo_id: slo_id is required']);
});

// --- API keys ---------------------------------------------------------------------------------------------

/** Sends a create whose answer does not matter here (the stub answers []): returns the body as sent. */
async function sentCreate(body: unknown): Promise<unknown> {
  server.requests.length = 0;
  await failure(client.createApiKey('acme', body as Parameters<ServiceClient['createApiKey']>[1]));
  assert.equal(server.requests.length, 1, 'the create was sent');
  return JSON.parse(server.requests[0]?.body ?? 'null');
}

test('createApiKey sends a key without disabled or permissions: the service defaults them', async () => {
  const body = structuredClone(createKeyBody) as { data: { attributes: Record<string, unknown> } };
  delete body.data.attributes.disabled;
  delete body.data.attributes.permissions;
  assert.deepEqual(await sentCreate(body), body);
});

test('createApiKey sends key types other than ingest (configuration keys exist) and names the spec sets no rule for', async () => {
  const body = structuredClone(createKeyBody) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes.key_type = 'configuration';
  body.data.attributes.name = '  ';
  assert.deepEqual(await sentCreate(body), body);
});

test('createApiKey refuses a key_type or name that is not a string, listing both', async () => {
  const body = structuredClone(createKeyBody) as { data: { attributes: Record<string, unknown> } };
  body.data.attributes.key_type = 7;
  body.data.attributes.name = null;
  const problems = await refused(
    client.createApiKey('acme', body as unknown as Parameters<ServiceClient['createApiKey']>[1]),
  );
  assert.deepEqual(
    problems.map((p) => p.field),
    ['data.attributes.key_type', 'data.attributes.name'],
  );
});

test('createApiKey and updateApiKey send a name of any length: neither the spec nor the service facts limit it', async () => {
  const long = structuredClone(createKeyBody);
  long.data.attributes.name = 'n'.repeat(500);
  assert.deepEqual(await sentCreate(long), long);
  const rename = structuredClone(updateKeyBody);
  rename.data.attributes.name = 'n'.repeat(500);
  server.requests.length = 0;
  await failure(client.updateApiKey('acme', 'key-1', rename));
  assert.deepEqual(
    server.requests.map((r) => JSON.parse(r.body)),
    [rename],
  );
});

test('updateApiKey refuses a body whose data.id differs from the key id in the path', async () => {
  const problems = await refused(client.updateApiKey('acme', 'key-2', updateKeyBody));
  assert.deepEqual(fields(problems), ['data.id: data.id must equal the key id in the path']);
});

test('one error lists every problem of the path and the body together', async () => {
  const problems = await refused(
    client.updateBurnAlert('', '', {
      alert_type: 'budget_rate',
      exhaustion_minutes: -5,
      recipients: [],
    } as UpdateBurnAlertRequest),
  );
  assert.deepEqual(
    problems.map((p) => p.field),
    [
      'dataset',
      'burnAlertId',
      'exhaustion_minutes', // below 0
      'recipients', // empty
      'exhaustion_minutes', // given with budget_rate
      'budget_rate_window_minutes', // missing
      'budget_rate_decrease_threshold_per_million', // missing
    ],
  );
});

test('the validation error message names the operation and the first problems', async () => {
  const err = await failure(client.listBurnAlerts('', ''));
  assert.equal(
    err.message,
    'list burn alerts refused before sending: dataset: dataset slug must not be empty; slo_id: slo_id is required',
  );
  assert.equal(err.operation, 'list burn alerts');
});

// --- credentials (spec part 5) ----------------------------------------------------------------------------

test('a version 1 call without a configuration key is refused before sending', async () => {
  const bare = new ServiceClient({ baseUrl: server.url, managementKey: 'id1234:secret5678' });
  try {
    const problems = await refused(bare.listColumns('api'), 'missing-credentials');
    assert.deepEqual(fields(problems), ['configKey: no configuration key is set; the version 1 endpoints need one']);
  } finally {
    await bare.close();
  }
});

test('a version 2 call without a management key is refused before sending', async () => {
  const bare = new ServiceClient({ baseUrl: server.url, configKey: 'cfg12345' });
  try {
    const problems = await refused(bare.createApiKey('acme', createKeyBody), 'missing-credentials');
    assert.deepEqual(fields(problems), [
      'managementKey: no management key is set; the API key endpoints need one (KEY_ID:KEY_SECRET)',
    ]);
  } finally {
    await bare.close();
  }
});

test('a management key without the KEY_ID:KEY_SECRET form is refused without echoing it', async () => {
  const bare = new ServiceClient({ baseUrl: server.url, managementKey: 'justonesecretpart' });
  try {
    const err = await failure(bare.updateApiKey('acme', 'key-1', updateKeyBody));
    assert.equal(err.kind, 'missing-credentials');
    assert.equal(
      err.message,
      'update API key refused before sending: the management key must have the form KEY_ID:KEY_SECRET',
    );
    assert.equal(server.requests.length, 0);
  } finally {
    await bare.close();
  }
});

test('a configuration key holding a line break is refused (no header injection)', async () => {
  const bare = new ServiceClient({ baseUrl: server.url, configKey: 'abcd\r\nX-Evil: 1' });
  try {
    const problems = await refused(bare.listColumns('api'), 'missing-credentials');
    assert.deepEqual(fields(problems), [
      'configKey: the configuration key holds characters that cannot be sent in a header',
    ]);
  } finally {
    await bare.close();
  }
});

test('a base URL that is not an absolute http(s) URL is refused when the client is made', () => {
  const err = thrown(() => new ServiceClient({ baseUrl: 'api.example.com' }));
  assert.equal(err.kind, 'request-validation');
  assert.equal(err.message, 'configure client failed: baseUrl must be an absolute URL such as https://api.example.com');
});

test('a base URL with a user name and password is refused without echoing them (they would never be sent)', () => {
  const err = thrown(() => new ServiceClient({ baseUrl: 'https://bob:baseURLpass9@api.example.com' }));
  assert.equal(
    err.message,
    'configure client failed: baseUrl must not hold a user name or password: keys go in configKey and managementKey',
  );
  assert.ok(!JSON.stringify(err).includes('baseURLpass9'));
});

test('a base URL with a query or fragment is refused (it would be dropped)', () => {
  const err = thrown(() => new ServiceClient({ baseUrl: 'https://api.example.com/?team=acme' }));
  assert.deepEqual(fields(err.fieldProblems), ['baseUrl: baseUrl must not hold a query (?) or fragment (#)']);
});

test('numeric options that would disable a limit are refused, each named', () => {
  const err = thrown(
    () =>
      new ServiceClient({
        baseUrl: 'https://api.example.com',
        retry: { maxAttempts: 0, maxTotalMs: Number.POSITIVE_INFINITY },
        timeouts: { headersMs: -1 },
        maxResponseBytes: Number.NaN,
      }),
  );
  assert.equal(err.kind, 'request-validation');
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['retry.maxAttempts', 'retry.maxTotalMs', 'timeouts.headersMs', 'maxResponseBytes'],
  );
  assert.equal(err.fieldProblems[0]?.message, 'retry.maxAttempts must be at least 1');
});

test('retry.maxAttempts above 10 is refused: retrying stays bounded', () => {
  const err = thrown(() => new ServiceClient({ baseUrl: 'https://api.example.com', retry: { maxAttempts: 11 } }));
  assert.deepEqual(fields(err.fieldProblems), ['retry.maxAttempts: retry.maxAttempts must be at most 10']);
});

test('no key or secret appears in any log line or error of this file', () => {
  assertNoSecretsCaptured();
});
