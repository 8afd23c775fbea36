// What "Run Saved Query" offers and how a trigger's query is run without cluttering the service: the
// datasets and a dataset's named saved queries from the sandbox (typing instead where the service will
// not list them), the saved query of a spec reused within a session, and a 404 explained by the datasets.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api/client';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { datasetChoices, queryChoices } from '../../src/extension/queries/savedQueryPicks';
import { canonicalJson, SavedQueryCache } from '../../src/backtest/savedQueryCache';
import { datasetExists, explainNotFound } from '../../src/backtest/datasetCheck';

let sandbox: SandboxHandle;
let client: ServiceClient;
before(async () => {
  sandbox = await startSandbox({ rateLimit: 10_000 });
  client = new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    retry: { maxAttempts: 1 },
  });
});
after(async () => {
  await client.close();
  await sandbox.close();
});

describe('the pick lists of Run Saved Query', () => {
  test('datasets: environment-wide first, then every dataset the service lists, by slug', async () => {
    const listed = await datasetChoices(client);
    assert.equal(listed.kind, 'listed');
    const items = listed.kind === 'listed' ? listed.items : [];
    assert.deepEqual(
      items.map((i) => i.slug),
      ['__all__', ...sandbox.state.datasets.map((d) => d.slug).sort()],
    );
    assert.deepEqual(
      items.find((i) => i.slug === DEMO.datasets.checkout),
      { slug: 'checkout-service', label: 'checkout-service', description: 'Checkout service', detail: 'Payments.' },
    );
  });

  test("a dataset's named saved queries by name, with the query id, and a board's marked so", async () => {
    const listed = await queryChoices(client, DEMO.datasets.gateway);
    assert.equal(listed.kind, 'listed');
    const items = listed.kind === 'listed' ? listed.items : [];
    assert.deepEqual(
      items.map((i) => [i.label, i.queryId, i.description]),
      sandbox.state.queryAnnotations
        .filter((a) => a.dataset === DEMO.datasets.gateway)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((a) => [a.name, a.query_id, a.source === 'board' ? `${a.query_id} · on a board` : a.query_id]),
    );
    assert.ok(items.length >= 2);
  });

  for (const status of [401, 403, 404, 405]) {
    test(`a listing the service refuses with ${status}: the user types instead, told which call answered what`, async () => {
      sandbox.faults.nextStatus(status, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
      assert.deepEqual(await datasetChoices(client), { kind: 'type', reason: `GET /1/datasets answered ${status}` });
      sandbox.faults.nextStatus(status, 1, 'auto', { match: { method: 'GET', path: '/1/query_annotations/' } });
      assert.deepEqual(await queryChoices(client, DEMO.datasets.gateway), {
        kind: 'type',
        reason: `GET /1/query_annotations/${DEMO.datasets.gateway} answered ${status}`,
      });
    });
  }

  test('a server error is an error, not a reason to type', async () => {
    sandbox.faults.nextStatus(500, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
    await assert.rejects(datasetChoices(client), { name: 'ServiceError', status: 500 });
  });
});

describe('saved queries reused within a session', () => {
  const posts = () =>
    sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/1/queries/${DEMO.datasets.gateway}`).length;

  test('the same spec (members in any order) is saved once; another spec, dataset or client saves again', async () => {
    const cache = new SavedQueryCache();
    const before = posts();
    const first = await cache.idFor(client, DEMO.datasets.gateway, {
      calculations: [{ op: 'COUNT' }],
      time_range: 900,
    });
    const again = await cache.idFor(client, DEMO.datasets.gateway, {
      time_range: 900,
      calculations: [{ op: 'COUNT' }],
    });
    assert.deepEqual([first.saved, again.saved, again.id], [true, false, first.id]);
    assert.equal(posts() - before, 1);
    assert.equal(
      (await cache.idFor(client, DEMO.datasets.gateway, { calculations: [{ op: 'COUNT' }], time_range: 1800 })).saved,
      true,
    );
    const other = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
    try {
      assert.equal(
        (await cache.idFor(other, DEMO.datasets.gateway, { calculations: [{ op: 'COUNT' }], time_range: 900 })).saved,
        true,
        'a new client (keys changed, sandbox restarted) may face other ids',
      );
    } finally {
      await other.close();
    }
    assert.equal(posts() - before, 3);
  });

  test('canonical JSON sorts members at every level and keeps array order', () => {
    assert.equal(canonicalJson({ b: [{ y: 1, x: 2 }], a: null, c: undefined }), '{"a":null,"b":[{"x":2,"y":1}]}');
  });
});

describe('a 404 explained', () => {
  const notFound = Object.assign(new Error('save query failed: HTTP 404'), {
    name: 'ServiceError',
    kind: 'http',
    operation: 'save query',
    status: 404,
  });

  test('a dataset the service lists is not the cause: the error stays as it was', async () => {
    assert.equal(await explainNotFound(client, DEMO.datasets.gateway, notFound), notFound);
    assert.equal(await explainNotFound(client, '__all__', notFound), notFound);
  });

  test('a key that may not list datasets: the columns call tells whether the dataset exists (no slug to suggest then)', async () => {
    sandbox.faults.nextStatus(403, 2, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
    assert.deepEqual(await datasetExists(client, 'checkout'), { exists: false });
    assert.deepEqual(await datasetExists(client, DEMO.datasets.checkout), { exists: true });
  });

  test('when nothing can tell (the service is down), the error stays as it was', async () => {
    sandbox.faults.nextStatus(503, 1, 'auto', { match: { method: 'GET', path: '/1/datasets' } });
    assert.equal(await explainNotFound(client, 'checkout', notFound), notFound);
  });
});
