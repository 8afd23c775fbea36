// Error responses: the three body shapes of the service-facts note, non-JSON pages, bad 2xx bodies,
// response-schema failures and failed queries, each turned into one ServiceError.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { ServiceClient, parseErrorBody } from '../../src/api';
import {
  CONFIG_KEY,
  CREATED_KEY_SECRET,
  MANAGEMENT_KEY,
  MGMT_KEY_SECRET,
  assertNoSecretsCaptured,
  failure,
  makeClient,
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from './api-helpers';
import { createKeyBody, createdKeyDocument, queryResult, updateBurnAlertBody, updateKeyBody } from './api-fixtures';

let server: TestServer;
let client: ServiceClient;
let respond: Handler = (_req, res) => sendJson(res, 500, {});

before(async () => {
  server = await startServer((req, res, n) => respond(req, res, n));
  client = makeClient(server.url);
});
after(async () => {
  await client.close();
  await server.close();
});

function reply(status: number, contentType: string, body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  };
}

const problem = (status: number, slug: string, title: string, extra: object = {}) =>
  JSON.stringify({ status, type: `https://api.example.com/problems/${slug}`, title, error: title, ...extra });
const jsonApi = (status: number, code: string, title: string, extra: object = {}) =>
  JSON.stringify({ errors: [{ id: 'err-1', status: String(status), code, title, ...extra }] });

// --- statuses and shapes ------------------------------------------------------------------------------------

test('401 with a legacy {error} body: kind http, status 401, the text as detail', async () => {
  respond = reply(401, 'application/json', JSON.stringify({ error: 'unknown API key - check your credentials' }));
  const err = await failure(client.listColumns('api'));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 401);
  assert.equal(err.detail, 'unknown API key - check your credentials');
  assert.equal(
    err.message,
    'list columns failed: the service did not accept the key. The service said: unknown API key - check your credentials. Check that the key is right and not revoked.',
  );
  assert.equal(err.attempts, 1);
});

test('403 with a JSON:API body: code, title and detail from the first error', async () => {
  respond = reply(
    403,
    'application/vnd.api+json',
    jsonApi(403, 'forbidden/missing-permission', 'forbidden', { detail: 'key cannot manage API keys' }),
  );
  const err = await failure(client.updateApiKey('acme', 'key-1', updateKeyBody));
  assert.equal(err.status, 403);
  assert.equal(err.code, 'forbidden/missing-permission');
  assert.equal(err.title, 'forbidden');
  assert.equal(err.detail, 'key cannot manage API keys');
  assert.deepEqual(err.fieldProblems, []);
});

test('404 with problem details: type and title kept', async () => {
  respond = reply(
    404,
    'application/problem+json',
    problem(404, 'not-found', 'Dataset not found', { detail: 'no dataset "nope"' }),
  );
  const err = await failure(client.listTriggers('nope'));
  assert.equal(err.status, 404);
  assert.equal(err.type, 'https://api.example.com/problems/not-found');
  assert.equal(err.title, 'Dataset not found');
  assert.equal(err.detail, 'no dataset "nope"');
  assert.equal(
    err.message,
    'list triggers failed: the service has no such object. The service said: Dataset not found: no dataset "nope". Check the name or id: it may have been deleted or renamed.',
  );
});

test('getColumn of a missing column is an http error with status 404', async () => {
  respond = reply(404, 'application/problem+json', problem(404, 'not-found', 'Column not found'));
  const err = await failure(client.getColumn('api', 'nope'));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 404);
});

test('409 conflict is reported with its status and title', async () => {
  respond = reply(409, 'application/problem+json', problem(409, 'conflict', 'Conflict'));
  const err = await failure(client.updateBurnAlert('api', 'ba-1', updateBurnAlertBody));
  assert.equal(err.status, 409);
  assert.equal(err.title, 'Conflict');
  assert.equal(err.attempts, 1);
});

test('413 request too large is reported and not retried', async () => {
  respond = reply(413, 'application/problem+json', problem(413, 'request-too-large', 'Request Entity Too Large'));
  const before = server.requests.length;
  const err = await failure(client.updateDatasetDefinitions('api', { route: { name: 'r' } }));
  assert.equal(err.status, 413);
  assert.equal(server.requests.length - before, 1);
});

test('415 on a key endpoint carries the header source as a field problem', async () => {
  respond = reply(
    415,
    'application/vnd.api+json',
    jsonApi(415, 'invalid/content-type', 'unsupported media type', {
      detail: 'use application/vnd.api+json',
      source: { header: 'Content-Type' },
    }),
  );
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.status, 415);
  assert.deepEqual(err.fieldProblems, [
    { field: 'header Content-Type', code: 'invalid/content-type', message: 'use application/vnd.api+json' },
  ]);
});

test('422 with v1 type_detail: one field problem per entry with field, code and description', async () => {
  respond = reply(
    422,
    'application/problem+json',
    problem(422, 'validation-failed', 'The provided input is invalid.', {
      type_detail: [
        { field: 'recipients', code: 'missing', description: 'cannot be blank' },
        { field: 'exhaustion_minutes', code: 'incorrect_type', description: 'must be an integer' },
      ],
    }),
  );
  const err = await failure(client.updateBurnAlert('api', 'ba-1', updateBurnAlertBody));
  assert.equal(err.status, 422);
  assert.deepEqual(err.fieldProblems, [
    { field: 'recipients', code: 'missing', message: 'cannot be blank' },
    { field: 'exhaustion_minutes', code: 'incorrect_type', message: 'must be an integer' },
  ]);
  assert.equal(
    err.message,
    'update burn alert failed: the service refused the values sent. The service said: The provided input is invalid (recipients: cannot be blank; exhaustion_minutes: must be an integer). Correct what it names and try again.',
  );
});

test('422 whose detail already says its field problem: the message says it once', async () => {
  const said = 'query_id "nope" names no saved query of "api"';
  respond = reply(
    422,
    'application/problem+json',
    problem(422, 'validation-failed', 'Validation Failed', {
      detail: `query_id: ${said}; limit: too big`,
      type_detail: [
        { field: 'query_id', code: 'invalid', description: said },
        { field: 'disable_series', code: 'invalid', description: 'must be a boolean' },
      ],
    }),
  );
  const err = await failure(client.createQueryResult('api', { query_id: 'nope' }));
  assert.equal(
    err.message,
    `create query result failed: the service refused the values sent. The service said: Validation Failed: query_id: ${said}; limit: too big (disable_series: must be a boolean). Correct what it names and try again.`,
  );
  assert.equal(err.fieldProblems.length, 2, 'every field problem is still kept on the error');
});

test('422 with v2 source.pointer: the pointer kept and turned into a field path', async () => {
  respond = reply(
    422,
    'application/vnd.api+json',
    JSON.stringify({
      errors: [
        {
          status: '422',
          code: 'validation/invalid',
          title: 'invalid',
          detail: 'name is too long',
          source: { pointer: '/data/attributes/name' },
        },
        {
          status: '422',
          code: 'validation/invalid',
          title: 'invalid',
          detail: 'unknown id',
          source: { pointer: '/data/relationships/environment/data/id' },
        },
      ],
    }),
  );
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.deepEqual(err.fieldProblems, [
    {
      field: 'data.attributes.name',
      code: 'validation/invalid',
      message: 'name is too long',
      pointer: '/data/attributes/name',
    },
    {
      field: 'data.relationships.environment.data.id',
      code: 'validation/invalid',
      message: 'unknown id',
      pointer: '/data/relationships/environment/data/id',
    },
  ]);
});

test('problem details with a charset parameter and a null member keep type, title and field problems', async () => {
  respond = reply(
    422,
    'application/problem+json; charset=utf-8',
    problem(422, 'validation-failed', 'Validation Failed', {
      detail: null,
      type_detail: [{ field: 'limit', code: 'invalid', description: null }, 'not an entry'],
    }),
  );
  const err = await failure(client.createQueryResult('api', { query_id: 'q' }));
  assert.equal(err.type, 'https://api.example.com/problems/validation-failed');
  assert.equal(err.title, 'Validation Failed');
  assert.equal(err.detail, 'Validation Failed');
  assert.deepEqual(err.fieldProblems, [{ field: 'limit', code: 'invalid', message: 'invalid' }]);
});

test('a JSON:API error with "source": null and a charset parameter keeps its code', async () => {
  respond = reply(
    401,
    'application/vnd.api+json; charset=utf-8',
    jsonApi(401, 'unauthenticated/invalid-key', 'invalid API key', { source: null, detail: null }),
  );
  const err = await failure(client.updateApiKey('acme', 'key-1', updateKeyBody));
  assert.equal(err.code, 'unauthenticated/invalid-key');
  assert.equal(err.title, 'invalid API key');
  assert.equal(err.detail, undefined);
  assert.deepEqual(err.fieldProblems, []);
});

test('a legacy body with application/json; charset=utf-8 gives the text as detail', async () => {
  respond = reply(
    401,
    'application/json; charset=utf-8',
    JSON.stringify({ error: 'unknown API key - check your credentials' }),
  );
  const err = await failure(client.listColumns('api'));
  assert.equal(err.status, 401);
  assert.equal(err.detail, 'unknown API key - check your credentials');
});

test('a v2 error naming a query parameter reports it as a field problem', () => {
  const parsed = parseErrorBody(
    'application/vnd.api+json',
    jsonApi(400, 'invalid/parameter', 'bad', { detail: 'unknown filter', source: { parameter: 'filter' } }),
  );
  assert.deepEqual(parsed.fieldProblems, [
    { field: 'parameter filter', code: 'invalid/parameter', message: 'unknown filter' },
  ]);
});

test('422 with a legacy body (dataset definitions naming an unknown column)', async () => {
  respond = reply(422, 'application/json', JSON.stringify({ error: 'column "nope" does not exist' }));
  const err = await failure(client.updateDatasetDefinitions('api', { route: { name: 'nope' } }));
  assert.equal(err.status, 422);
  assert.equal(err.detail, 'column "nope" does not exist');
});

test('a problem-details body sent as plain application/json is still read as problem details', async () => {
  respond = reply(
    422,
    'application/json',
    problem(422, 'validation-failed', 'invalid', {
      type_detail: [{ field: 'limit', code: 'invalid', description: 'too big' }],
    }),
  );
  const err = await failure(client.createQueryResult('api', { query_id: 'q' }));
  assert.equal(err.type, 'https://api.example.com/problems/validation-failed');
  assert.deepEqual(err.fieldProblems, [{ field: 'limit', code: 'invalid', message: 'too big' }]);
});

test('an HTML error page gives kind http with the status and no excerpt of the page', async () => {
  respond = reply(
    502,
    'text/html; charset=utf-8',
    '<html><body><h1>502 Bad Gateway</h1><p>nginx/1.25 internal-host-17</p></body></html>',
  );
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.kind, 'http');
  assert.equal(err.status, 502);
  assert.equal(
    err.message,
    "create API key failed: a gateway in front of the service got no good answer from it. The answer was a text/html page, not the service's. Try again later; the key may have been created anyway: check the team's API keys before creating it again",
  );
  assert.equal(err.maybeProcessed, true);
  assert.equal(err.detail, undefined);
});

test('an HTML error page on a read is not marked as possibly carried out', async () => {
  respond = reply(502, 'text/html', '<html><body>502</body></html>');
  const once = makeClient(server.url, { retry: { maxAttempts: 1 } });
  try {
    const err = await failure(once.listTriggers('api'));
    assert.equal(
      err.message,
      "list triggers failed: a gateway in front of the service got no good answer from it. The answer was a text/html page, not the service's. Try again later.",
    );
    assert.equal(err.maybeProcessed, undefined);
  } finally {
    await once.close();
  }
});

test('an error with an empty body says what its status means and what to do', async () => {
  respond = reply(500, 'application/json', '');
  const err = await failure(client.listTriggers('api'));
  assert.equal(err.message, 'list triggers failed: the service failed. Try again later.');
});

test('every status reads as words, what the service said and what to do: never a bare "HTTP <status>" line', async () => {
  const once = makeClient(server.url, { retry: { maxAttempts: 1 } });
  try {
    const messages: string[] = [];
    for (const status of [400, 401, 403, 404, 405, 409, 413, 415, 418, 422, 429, 500, 501, 502, 503, 504]) {
      respond = reply(status, 'application/json', JSON.stringify({ error: 'what the service said' }));
      const err = await failure(once.listTriggers('api'));
      assert.equal(err.status, status, 'the status stays on the error for the code that decides on it');
      messages.push(err.message);
    }
    for (const m of messages) {
      assert.doesNotMatch(m, /HTTP|\b\d{3}\b/, m);
      assert.match(m, /^list triggers failed: [a-z][^.]+\. The service said: what the service said\. [A-Z][^.]+\.$/, m);
    }
  } finally {
    await once.close();
  }
});

test('service text is made safe: control characters dropped, over 300 characters cut', async () => {
  respond = reply(
    400,
    'application/json',
    JSON.stringify({ error: `bad\u001b[31m input\r\nInjected: yes ${'x'.repeat(400)}` }),
  );
  const err = await failure(client.listTriggers('api'));
  assert.equal(err.detail, `bad [31m input Injected: yes ${'x'.repeat(300 - 'bad [31m input Injected: yes '.length)}…`);
});

// --- 2xx bodies that are not what was promised ---------------------------------------------------------------

test('malformed JSON on a 2xx gives kind bad-body', async () => {
  respond = reply(200, 'application/json', '[{"key_name": "a"},');
  const err = await failure(client.listColumns('api'));
  assert.equal(err.kind, 'bad-body');
  assert.equal(err.status, 200);
  assert.equal(
    err.message,
    "list columns failed: the service's answer is not valid JSON. Check that the address is the service's API.",
  );
});

test('a column without key_name gives kind response-schema naming the endpoint and the field path', async () => {
  respond = reply(200, 'application/json', JSON.stringify([{ key_name: 'a' }, { id: 'c-2', type: 'string' }]));
  const err = await failure(client.listColumns('api'));
  assert.equal(err.kind, 'response-schema');
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['[1].key_name'],
  );
  assert.match(
    err.message,
    /^list columns \(GET \/1\/columns\/\{dataset\}\): unexpected response shape: \[1\]\.key_name: /,
  );
});

test('a wrongly typed field gives kind response-schema with the field path', async () => {
  respond = reply(
    200,
    'application/json',
    JSON.stringify([{ id: 'ba-1', alert_type: 'exhaustion_time', triggered: 'yes' }]),
  );
  const err = await failure(client.listBurnAlerts('api', 'slo-1'));
  assert.equal(err.kind, 'response-schema');
  assert.deepEqual(
    err.fieldProblems.map((p) => [p.field, p.code]),
    [['[0].triggered', 'invalid_type']],
  );
});

test('a created key without its secret gives kind response-schema at data.attributes.secret', async () => {
  const doc = structuredClone(createdKeyDocument) as { data: { attributes: { secret?: string } } };
  delete doc.data.attributes.secret;
  respond = reply(201, 'application/vnd.api+json', JSON.stringify(doc));
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['data.attributes.secret'],
  );
});

test('a created-key response refused for an unusable secret does not reveal what it held', async () => {
  // Any other oddity no longer fails the call (api-tolerant.test.ts): only a secret that is not a string does.
  const doc = structuredClone(createdKeyDocument) as unknown as { data: { attributes: { secret: unknown } } };
  doc.data.attributes.secret = { value: CREATED_KEY_SECRET };
  respond = reply(201, 'application/vnd.api+json', JSON.stringify(doc));
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.kind, 'response-schema');
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['data.attributes.secret'],
  );
  assert.ok(!JSON.stringify(err).includes(CREATED_KEY_SECRET));
  assert.ok(!err.message.includes(CREATED_KEY_SECRET));
});

test('unknown fields in a response are kept', async () => {
  respond = reply(
    200,
    'application/json',
    JSON.stringify([{ key_name: 'a', type: 'string', hidden: false, future_flag: { x: 1 } }]),
  );
  const res = await client.listColumns('api');
  assert.deepEqual(res.data, [{ key_name: 'a', type: 'string', hidden: false, future_flag: { x: 1 } }]);
});

test('a complete query result carrying an error gives kind query-failed, not an empty result', async () => {
  respond = reply(
    201,
    'application/json',
    JSON.stringify({ id: 'qr-9', complete: true, error: 'column "nope" does not exist' }),
  );
  const err = await failure(client.createQueryResult('api', { query_id: 'q-1' }));
  assert.equal(err.kind, 'query-failed');
  assert.equal(err.detail, 'column "nope" does not exist');
  assert.equal(err.message, 'create query result failed: the query failed: column "nope" does not exist');
});

test('an incomplete query result without an error is returned as is', async () => {
  respond = reply(201, 'application/json', JSON.stringify({ id: 'qr-2', complete: false }));
  const res = await client.createQueryResult('api', { query_id: 'q-1' });
  assert.deepEqual(res.data, { id: 'qr-2', complete: false });
});

test('a complete query result with data is returned', async () => {
  respond = reply(201, 'application/json', JSON.stringify(queryResult));
  const res = await client.createQueryResult('api', { query_id: 'q-1' });
  assert.deepEqual(res.data, queryResult);
});

// --- redaction -----------------------------------------------------------------------------------------------

test('a key the service echoes back in an error body is redacted from the error', async () => {
  respond = reply(401, 'application/json', JSON.stringify({ error: `unknown API key ${CONFIG_KEY}` }));
  const err = await failure(client.listColumns('api'));
  assert.equal(err.detail, 'unknown API key [redacted]');
  assert.ok(!err.message.includes(CONFIG_KEY));
});

test('a management key or its secret echoed in v2 error fields is redacted everywhere', async () => {
  respond = reply(
    401,
    'application/vnd.api+json',
    jsonApi(401, 'unauthenticated/invalid-key', `bad key ${MANAGEMENT_KEY}`, {
      detail: `secret ${MGMT_KEY_SECRET} rejected`,
      source: { header: `Authorization: Bearer ${MANAGEMENT_KEY}` },
    }),
  );
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.title, 'bad key [redacted]');
  assert.equal(err.detail, 'secret [redacted] rejected');
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['header Authorization: Bearer [redacted]'],
  );
});

test('no key or secret appears in any log line or error of this file', () => {
  assertNoSecretsCaptured();
});
