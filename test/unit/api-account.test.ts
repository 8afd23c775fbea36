// What an account holds (beyond the spec's eight, service facts): datasets, SLOs, recipients and named
// saved queries, read tolerantly; recipients never carry a credential past the client.
import { after, afterEach, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { ServiceClient } from '../../src/api';
import {
  assertNoSecretsCaptured,
  failure,
  makeClient,
  sendJson,
  startServer,
  type RecordedRequest,
  type TestServer,
} from './api-helpers';

let server: TestServer;
let answer: (req: RecordedRequest, res: ServerResponse) => void = (_q, r) => sendJson(r, 500, {});
let client: ServiceClient;

before(async () => {
  server = await startServer((req, res) => answer(req, res));
});
beforeEach(() => {
  server.requests.length = 0;
  client = makeClient(server.url);
});
afterEach(async () => client.close());
after(async () => {
  assertNoSecretsCaptured();
  await server.close();
});

const WEBHOOK_SECRET = 'whsec-3c1f9a7e';
const PAGERDUTY_KEY = 'pdkey-0d5e2b8a';
const WEBHOOK_URL = 'https://hooks.example/T000/B000/XXXX';

test('listDatasets reads every dataset; nulls of a dataset never written to read as absent', async () => {
  answer = (_q, r) =>
    sendJson(r, 200, [
      {
        name: 'API',
        slug: 'api',
        description: 'edge',
        expand_json_depth: 2,
        created_at: '2026-01-01T00:00:00Z',
        last_written_at: '2026-11-26T09:00:00Z',
        regular_columns_count: 41,
        settings: { delete_protected: true },
        future: 1,
      },
      {
        name: 'Empty',
        slug: 'empty',
        description: '',
        expand_json_depth: 0,
        created_at: '2026-11-01T00:00:00Z',
        last_written_at: null,
        regular_columns_count: null,
        settings: { delete_protected: false },
      },
    ]);
  const res = await client.listDatasets();
  assert.equal(server.requests[0]?.url, '/1/datasets');
  assert.deepEqual(
    res.data.map((d) => [d.slug, d.last_written_at, d.regular_columns_count]),
    [
      ['api', '2026-11-26T09:00:00Z', 41],
      ['empty', undefined, undefined],
    ],
  );
  assert.equal(res.data[0]?.['future'], 1);
});

test('listSlos reads an environment-wide list with its target and period', async () => {
  answer = (_q, r) =>
    sendJson(r, 200, [
      {
        id: 'slo-1',
        name: 'Checkout',
        sli: { alias: 'ok' },
        time_period_days: 30,
        target_per_million: 999000,
        reset_at: null,
        dataset_slugs: ['a', 'b'],
      },
    ]);
  const res = await client.listSlos('__all__');
  assert.equal(server.requests[0]?.url, '/1/slos/__all__');
  assert.deepEqual(
    res.data.map((s) => [s.id, s.name, s.target_per_million, s.time_period_days, s.reset_at]),
    [['slo-1', 'Checkout', 999000, 30, undefined]],
  );
});

test('listRecipients keeps what names a recipient and drops every credential, known or not', async () => {
  answer = (_q, r) =>
    sendJson(r, 200, [
      {
        id: 'r-1',
        type: 'pagerduty',
        details: { pagerduty_integration_name: 'On-call', pagerduty_integration_key: PAGERDUTY_KEY },
      },
      {
        id: 'r-2',
        type: 'webhook',
        details: {
          webhook_name: 'Deploys',
          webhook_url: WEBHOOK_URL,
          webhook_secret: WEBHOOK_SECRET,
          webhook_headers: [{ header: 'Authorization', value: WEBHOOK_SECRET }],
          webhook_payloads: { x: 1 },
        },
      },
      { id: 'r-3', type: 'carrier_pigeon', details: { loft: 'north', token: WEBHOOK_SECRET }, token: WEBHOOK_SECRET },
      { id: 'r-4', type: 'email', details: { email_address: 'ops@example.com' }, created_at: null },
    ]);
  const res = await client.listRecipients();
  assert.equal(server.requests[0]?.url, '/1/recipients');
  assert.deepEqual(res.data, [
    { id: 'r-1', type: 'pagerduty', details: { pagerduty_integration_name: 'On-call' } },
    { id: 'r-2', type: 'webhook', details: { webhook_name: 'Deploys' } },
    { id: 'r-3', type: 'carrier_pigeon', details: {} },
    { id: 'r-4', type: 'email', details: { email_address: 'ops@example.com' } },
  ]);
  const text = JSON.stringify(res);
  for (const secret of [PAGERDUTY_KEY, WEBHOOK_SECRET, WEBHOOK_URL]) assert.ok(!text.includes(secret), secret);
});

test('listQueryAnnotations reads a dataset named saved queries', async () => {
  answer = (_q, r) =>
    sendJson(r, 200, [
      {
        id: 'qa-1',
        name: 'Slow checkouts',
        description: 'p99 by route',
        query_id: 'q-9',
        source: 'board',
        created_at: '2026-11-01T00:00:00Z',
      },
    ]);
  const res = await client.listQueryAnnotations('checkout-service');
  assert.equal(server.requests[0]?.url, '/1/query_annotations/checkout-service');
  assert.deepEqual(
    res.data.map((a) => [a.name, a.query_id, a.source]),
    [['Slow checkouts', 'q-9', 'board']],
  );
});

test('a listing the service does not serve fails with its status, for the caller to fall back', async () => {
  answer = (_q, r) =>
    sendJson(r, 404, { status: 404, title: 'not found' }, { 'content-type': 'application/problem+json' });
  const e = await failure(client.listDatasets());
  assert.equal(e.status, 404);
  assert.equal(e.operation, 'list datasets');
});
