// A key the service echoes back in an error body never reaches the ServiceError, whichever of the three
// body shapes carries it and in whichever member: every string of the error (message, title, detail, code,
// type, each field problem's field, message, code and JSON pointer) has passed the redactor.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { ServiceClient, ServiceError } from '../../src/api';
import { CONFIG_KEY, MANAGEMENT_KEY, MGMT_KEY_ID, MGMT_KEY_SECRET, failure, makeClient, startServer, type TestServer } from './api-helpers';
import { createKeyBody } from './api-fixtures';

/** The credentials the client holds: the ones it can know to redact. */
const KNOWN = [CONFIG_KEY, MANAGEMENT_KEY, MGMT_KEY_ID, MGMT_KEY_SECRET];

let server: TestServer;
let client: ServiceClient;
let reply = { contentType: 'application/json', body: '{}' };

before(async () => {
  server = await startServer((_req, res: ServerResponse) => {
    res.writeHead(400, { 'content-type': reply.contentType });
    res.end(reply.body);
  });
  client = makeClient(server.url);
});
after(async () => {
  await client.close();
  await server.close();
});

/** Every string reachable from the error: its message and stack, and each member, however deep. */
function stringsOf(err: ServiceError): string[] {
  const out = [err.message, String(err.stack)];
  const stack: unknown[] = [{ ...err }];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'object' && v !== null) for (const [k, member] of Object.entries(v)) stack.push(k, member);
  }
  return out;
}

/** Which known secrets appear in which strings of the error (empty when redaction held). */
function leaks(err: ServiceError): string[] {
  return stringsOf(err).flatMap((s) => KNOWN.filter((k) => s.includes(k)).map((k) => `${k.slice(0, 6)}… in ${JSON.stringify(s.slice(0, 80))}`));
}

async function errorFor(contentType: string, body: unknown, call: () => Promise<unknown>): Promise<ServiceError> {
  reply = { contentType, body: JSON.stringify(body) };
  return failure(call());
}

const listColumns = () => client.listColumns('api');
const createKey = () => client.createApiKey('acme', createKeyBody);

test('a key echoed in a legacy {error} body is redacted', async () => {
  for (const key of KNOWN) {
    const err = await errorFor('application/json', { error: `unknown key ${key}` }, listColumns);
    assert.equal(err.detail, 'unknown key [redacted]');
    assert.deepEqual(leaks(err), []);
  }
});

test('a key echoed in every member of a problem+json body, type_detail included, is redacted', async () => {
  for (const key of KNOWN) {
    const err = await errorFor(
      'application/problem+json',
      {
        type: `https://api.example.com/problems/${key}`,
        title: `title ${key}`,
        status: 400,
        detail: `detail ${key}`,
        error: `error ${key}`,
        type_detail: [{ field: `field.${key}`, code: `code/${key}`, description: `description ${key}` }],
      },
      listColumns,
    );
    assert.deepEqual(err.fieldProblems, [{ field: 'field.[redacted]', code: 'code/[redacted]', message: 'description [redacted]' }]);
    assert.equal(err.type, 'https://api.example.com/problems/[redacted]');
    assert.deepEqual(leaks(err), []);
  }
});

test('a key echoed in every member of a JSON:API error, source.pointer, header and parameter included, is redacted', async () => {
  for (const key of KNOWN) {
    const err = await errorFor(
      'application/vnd.api+json',
      {
        errors: [
          { id: key, status: '400', code: `code/${key}`, title: `title ${key}`, detail: `detail ${key}`, source: { pointer: `/data/attributes/${key}` } },
          { code: `code/${key}`, title: `title ${key}`, source: { header: `X-Key-${key}` } },
          { detail: `detail ${key}`, source: { parameter: `filter[${key}]` } },
        ],
      },
      createKey,
    );
    assert.deepEqual(err.fieldProblems, [
      { field: 'data.attributes.[redacted]', code: 'code/[redacted]', message: 'detail [redacted]', pointer: '/data/attributes/[redacted]' },
      { field: 'header X-Key-[redacted]', code: 'code/[redacted]', message: 'title [redacted]' },
      { field: 'parameter filter[[redacted]]', message: 'detail [redacted]' },
    ]);
    assert.deepEqual(leaks(err), []);
  }
});

test('a key written with JSON escapes in the body is redacted too (redaction reads the parsed text)', async () => {
  const escaped = `\\u${CONFIG_KEY.charCodeAt(0).toString(16).padStart(4, '0')}${CONFIG_KEY.slice(1)}`;
  reply = { contentType: 'application/vnd.api+json', body: `{"errors":[{"title":"bad","source":{"pointer":"/data/${escaped}"}}]}` };
  const err = await failure(createKey());
  assert.deepEqual(err.fieldProblems, [{ field: 'data.[redacted]', message: 'bad', pointer: '/data/[redacted]' }]);
  assert.deepEqual(leaks(err), []);
});
