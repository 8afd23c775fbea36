// Reading tolerantly (service facts): what the real service sends is accepted, and the one-time secret
// of a created key reaches the caller whatever else is odd in the create response.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { ServiceClient } from '../../src/api';
import {
  CREATED_KEY_SECRET,
  assertNoSecretsCaptured,
  failure,
  makeClient,
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from './api-helpers';
import { createKeyBody, createdKeyDocument, updateKeyBody, updatedKeyDocument } from './api-fixtures';

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

function jsonApi(status: number, body: unknown): Handler {
  return (_req, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/vnd.api+json' });
    res.end(JSON.stringify(body));
  };
}

/** The created-key document with its `data` changed by `change`. */
function createdWith(
  change: (
    data: Record<string, unknown> & { attributes: Record<string, unknown>; relationships: Record<string, unknown> },
  ) => void,
): unknown {
  const doc = structuredClone(createdKeyDocument) as unknown as {
    data: Record<string, unknown> & { attributes: Record<string, unknown>; relationships: Record<string, unknown> };
  };
  change(doc.data);
  return doc;
}

test('a created key whose creator and editor relationships are null (made by a system actor) is read, with its secret', async () => {
  respond = jsonApi(
    201,
    createdWith((d) => {
      d.relationships.creator = { data: null };
      d.relationships.editor = null;
    }),
  );
  const res = await client.createApiKey('acme', createKeyBody);
  assert.equal(res.data.data.attributes.secret, CREATED_KEY_SECRET);
  assert.equal(res.data.data.relationships?.creator?.data ?? null, null);
  assert.equal(res.data.data.relationships?.editor ?? null, null);
  assert.equal(res.oddities, undefined);
});

test('a create response that fails a strict check still delivers the secret, and names what was odd', async () => {
  respond = jsonApi(
    201,
    createdWith((d) => {
      d.type = 'keys';
      d.attributes.disabled = 'no';
    }),
  );
  const res = await client.createApiKey('acme', createKeyBody);
  assert.equal(res.data.data.attributes.secret, CREATED_KEY_SECRET);
  assert.equal(res.data.data.id, 'key-1');
  assert.equal(res.data.data.attributes.name, 'CI ingest');
  // What the service did not say usably comes from the request it answered.
  assert.equal(res.data.data.attributes.disabled, false);
  assert.deepEqual(
    res.oddities?.map((p) => p.field),
    ['data.type', 'data.attributes.disabled'],
  );
  assert.ok(!JSON.stringify(res.oddities).includes(CREATED_KEY_SECRET));
});

test('a create response without an id still delivers the secret; the missing id is named', async () => {
  respond = jsonApi(
    201,
    createdWith((d) => {
      delete d.id;
    }),
  );
  const res = await client.createApiKey('acme', createKeyBody);
  assert.equal(res.data.data.attributes.secret, CREATED_KEY_SECRET);
  assert.equal(res.data.data.id, '');
  assert.deepEqual(
    res.oddities?.map((p) => p.field),
    ['data.id'],
  );
});

test('a create response without a usable secret is refused at data.attributes.secret, and may have created the key', async () => {
  respond = jsonApi(
    201,
    createdWith((d) => {
      d.attributes.secret = null;
    }),
  );
  const err = await failure(client.createApiKey('acme', createKeyBody));
  assert.equal(err.kind, 'response-schema');
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['data.attributes.secret'],
  );
  assert.equal(err.maybeProcessed, true);
});

test('an update response for a configuration key (other permissions, no create_datasets) is read', async () => {
  const doc = structuredClone(updatedKeyDocument) as unknown as { data: { attributes: Record<string, unknown> } };
  doc.data.attributes.key_type = 'configuration';
  doc.data.attributes.permissions = { manage_triggers: true, send_events: false };
  respond = jsonApi(200, doc);
  const res = await client.updateApiKey('acme', 'key-1', updateKeyBody);
  assert.equal(res.data.data.attributes.key_type, 'configuration');
  assert.deepEqual(res.data.data.attributes.permissions, { manage_triggers: true, send_events: false });
});

// --- null where a member is optional, fewer members than the spec lists, unknown members ------------------

test('burn alerts: null in optional members reads as absent, unknown members such as auto_investigate are kept', async () => {
  respond = (_req, res) =>
    sendJson(res, 200, [
      {
        id: 'ba-1',
        alert_type: 'budget_rate',
        exhaustion_minutes: null,
        budget_rate_window_minutes: 60,
        budget_rate_decrease_threshold_per_million: 10,
        description: null,
        triggered: false,
        slo: { id: 's' },
        auto_investigate: true,
      },
      { id: 'ba-2', alert_type: null, exhaustion_minutes: 30, recipients: null },
    ]);
  const res = await client.listBurnAlerts('api', 'slo-1');
  assert.deepEqual(res.data, [
    {
      id: 'ba-1',
      alert_type: 'budget_rate',
      budget_rate_window_minutes: 60,
      budget_rate_decrease_threshold_per_million: 10,
      triggered: false,
      slo: { id: 's' },
      auto_investigate: true,
    },
    { id: 'ba-2', alert_type: 'exhaustion_time', exhaustion_minutes: 30 },
  ]);
});

test('columns: null description, type and last_written read as absent (type defaults to string)', async () => {
  respond = (_req, res) =>
    sendJson(res, 200, [{ key_name: 'a', type: null, description: null, hidden: null, last_written: null }]);
  const res = await client.listColumns('api');
  assert.deepEqual(res.data, [{ key_name: 'a', type: 'string', hidden: false }]);
});

test('triggers: null in optional members reads as absent; both query and query_id are kept as listed', async () => {
  respond = (_req, res) =>
    sendJson(res, 200, [
      {
        id: 't-1',
        name: 'n',
        description: null,
        tags: null,
        recipients: null,
        threshold: { op: '>', value: 1, exceeded_limit: null },
        query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
        query_id: 'q-1',
        auto_investigate: false,
      },
    ]);
  const res = await client.listTriggers('api');
  assert.deepEqual(res.data, [
    {
      id: 't-1',
      name: 'n',
      threshold: { op: '>', value: 1 },
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
      query_id: 'q-1',
      auto_investigate: false,
    },
  ]);
});

test('dataset definitions: a map with some types missing reads them as unset (null)', async () => {
  respond = (_req, res) =>
    sendJson(res, 200, {
      trace_id: { name: 'trace.trace_id', column_type: 'column' },
      span_id: null,
      future_type: { name: 'x' },
    });
  const res = await client.updateDatasetDefinitions('api', {});
  assert.deepEqual(res.data.trace_id, { name: 'trace.trace_id', column_type: 'column' });
  assert.equal(res.data.span_id, null);
  assert.equal(res.data.log_message, null);
  assert.deepEqual((res.data as Record<string, unknown>).future_type, { name: 'x' });
});

test('a null in a member the caller needs fails naming it (kind response-schema)', async () => {
  respond = (_req, res) => sendJson(res, 200, [{ key_name: 'a' }, { key_name: null, type: 'string' }]);
  const err = await failure(client.listColumns('api'));
  assert.equal(err.kind, 'response-schema');
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['[1].key_name'],
  );
});

test('a null inside a list is not dropped: an element of a list is never optional', async () => {
  respond = (_req, res) => sendJson(res, 200, [{ id: 't-1', name: 'n', tags: [null] }]);
  const err = await failure(client.listTriggers('api'));
  assert.deepEqual(
    err.fieldProblems.map((p) => p.field),
    ['[0].tags[0]'],
  );
});

test('a query result with null links and query reads them as absent', async () => {
  respond = (_req, res) => sendJson(res, 201, { id: 'qr-1', complete: false, query: null, links: null });
  const res = await client.createQueryResult('api', { query_id: 'q-1' });
  assert.deepEqual(res.data, { id: 'qr-1', complete: false });
});

test('no key or secret appears in any log line or error of this file', () => {
  assertNoSecretsCaptured();
});
