// The fixture corpus (test/fixtures/service/): bodies shaped like the service's own, from the spec and
// the service-facts note. Three checks against it:
// 1. every body matches what the service sends (service-shapes.ts, written independently of src/);
// 2. the client reads every one of them (or fails exactly as it should: a failed query, the error shapes);
// 3. the sandbox answers every call only in such shapes, errors included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { ApiResponse, ServiceClient } from '../../src/api';
import { DEMO } from '../../src/sandbox';
import { failure, makeClient, startServer, type TestServer } from './api-helpers';
import { createKeyBody, updateBurnAlertBody, updateKeyBody } from './api-fixtures';
import { startTestSandbox, type RawResponse, type TestSandbox } from './sandbox-helpers';
import { CALLS, DEFINITION_TYPE_COUNT, SUCCESS_SHAPES, errorShapeFor, type CallName } from './service-shapes';

const CORPUS = join(import.meta.dirname, '..', 'fixtures', 'service');

const Fixture = z.strictObject({
  about: z.string().min(1),
  call: z.enum(CALLS),
  status: z.number().int(),
  contentType: z.string(),
  body: z.unknown(),
  /** Values the client must return at these paths (`a.b[0].c`); "(absent)" for a member left out. */
  expect: z.record(z.string(), z.unknown()).optional(),
  /** How the client must fail: kind, and the ServiceError members given. */
  expectError: z
    .strictObject({
      kind: z.string(),
      status: z.number().optional(),
      code: z.string().optional(),
      type: z.string().optional(),
      title: z.string().optional(),
      detail: z.string().optional(),
      /** [field, code] of each field problem; a null code is not compared. */
      fields: z.array(z.tuple([z.string(), z.string().nullable()])).optional(),
    })
    .optional(),
});
type Fixture = z.infer<typeof Fixture>;

const fixtures: [string, Fixture][] = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => [f.replace(/\.json$/, ''), Fixture.parse(JSON.parse(readFileSync(join(CORPUS, f), 'utf8')))]);

const ABSENT = '(absent)';

/** The value at `a.b[0].c` (a path may start with `[n]`). */
function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (v === null || typeof v !== 'object') return undefined;
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

const media = (f: Fixture) => f.contentType.split(';')[0]?.trim();
const isError = (f: Fixture) => f.status >= 400;

test('the corpus covers every call and the three error shapes', () => {
  const successes = new Set(fixtures.filter(([, f]) => !isError(f)).map(([, f]) => f.call));
  assert.deepEqual(
    CALLS.filter((c) => !successes.has(c)),
    [],
  );
  const errorMedia = new Set(fixtures.filter(([, f]) => isError(f)).map(([, f]) => media(f)));
  assert.deepEqual([...errorMedia].sort(), [
    'application/json',
    'application/problem+json',
    'application/vnd.api+json',
  ]);
});

describe('the corpus is shaped like the service', () => {
  for (const [name, f] of fixtures) {
    test(name, () => {
      const shape = isError(f) ? errorShapeFor(f.contentType) : SUCCESS_SHAPES[f.call];
      assert.ok(shape, `a shape for ${f.contentType}`);
      const parsed = shape.safeParse(f.body);
      assert.equal(parsed.success, true, parsed.success ? '' : JSON.stringify(parsed.error.issues));
      assert.ok(f.expect !== undefined || f.expectError !== undefined, 'says what the client makes of it');
    });
  }
});

describe('the client reads the corpus', () => {
  let server: TestServer;
  let client: ServiceClient;
  let current: Fixture | undefined;
  before(async () => {
    server = await startServer((_req, res) => {
      if (!current) throw new Error('no fixture');
      const text = JSON.stringify(current.body);
      res.writeHead(current.status, { 'content-type': current.contentType });
      res.end(text);
    });
    client = makeClient(server.url);
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  const calls: Record<CallName, (c: ServiceClient) => Promise<ApiResponse<unknown>>> = {
    createApiKey: (c) => c.createApiKey('acme', createKeyBody),
    updateApiKey: (c) => c.updateApiKey('acme', 'key-1', updateKeyBody),
    listBurnAlerts: (c) => c.listBurnAlerts('api', 'slo_1'),
    getBurnAlert: (c) => c.getBurnAlert('api', 'ba_1'),
    updateBurnAlert: (c) => c.updateBurnAlert('api', 'ba_1', updateBurnAlertBody),
    createQueryResult: (c) => c.createQueryResult('api', { query_id: 'q_1' }),
    listColumns: (c) => c.listColumns('api'),
    getColumn: (c) => c.getColumn('api', 'duration_ms'),
    listTriggers: (c) => c.listTriggers('api'),
    updateDatasetDefinitions: (c) => c.updateDatasetDefinitions('api', {}),
  };

  for (const [name, f] of fixtures) {
    test(name, async () => {
      current = f;
      if (f.expectError) {
        const err = await failure(calls[f.call](client));
        const want = f.expectError;
        assert.equal(err.kind, want.kind, err.message);
        for (const key of ['status', 'code', 'type', 'title', 'detail'] as const) {
          if (want[key] !== undefined) assert.equal(err[key], want[key], key);
        }
        if (want.fields) {
          assert.deepEqual(
            err.fieldProblems.map((p, i) => [p.field, want.fields?.[i]?.[1] === null ? null : p.code]),
            want.fields,
          );
        }
        return;
      }
      const res = await calls[f.call](client);
      assert.equal(res.oddities, undefined, 'nothing odd in a body the service sends');
      for (const [path, value] of Object.entries(f.expect ?? {})) {
        const got = valueAt(res.data, path);
        if (value === ABSENT) assert.equal(got, undefined, path);
        else assert.deepEqual(got, value, path);
      }
      if (f.call === 'updateDatasetDefinitions') {
        // Every type is known after reading: the ones left out are unset.
        assert.equal(Object.keys(res.data as object).length >= DEFINITION_TYPE_COUNT, true);
      }
    });
  }
});

describe('the sandbox answers only in the shapes the service sends', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox({ rateLimit: 100_000, queryResultRateLimit: 100_000 });
  });
  after(() => sb.handle.close());

  /** Asserts the answer's status and that its body has the call's shape. */
  function shaped(call: CallName, res: RawResponse, status = 200): void {
    assert.equal(res.status, status, res.text);
    const parsed = SUCCESS_SHAPES[call].safeParse(res.json());
    assert.equal(
      parsed.success,
      true,
      parsed.success ? '' : `${call}: ${JSON.stringify(parsed.error.issues.slice(0, 5))}`,
    );
  }

  const scopes = () => [...sb.handle.info.datasets, '__all__'];

  test('columns of every dataset, and single columns (a never-written one among them)', async () => {
    for (const d of scopes()) shaped('listColumns', await sb.v1('GET', `/1/columns/${d}`));
    for (const key of ['duration_ms', DEMO.columns.neverWritten]) {
      shaped(
        'getColumn',
        await sb.v1('GET', `/1/columns/${DEMO.datasets.gateway}?key_name=${encodeURIComponent(key)}`),
      );
    }
    shaped(
      'getColumn',
      await sb.v1('GET', `/1/columns/${DEMO.datasets.hostile}?key_name=${encodeURIComponent(DEMO.columns.hostile)}`),
    );
  });

  test('triggers of every dataset and the environment', async () => {
    for (const d of scopes()) shaped('listTriggers', await sb.v1('GET', `/1/triggers/${d}`));
  });

  test('burn alerts of every SLO, each alert alone, and a PUT answer of each type', async () => {
    for (const slo of sb.handle.info.slos) {
      const res = await sb.v1('GET', `/1/burn_alerts/${slo.dataset}?slo_id=${slo.id}`);
      shaped('listBurnAlerts', res);
      for (const alert of res.json() as { id: string }[])
        shaped('getBurnAlert', await sb.v1('GET', `/1/burn_alerts/${slo.dataset}/${alert.id}`));
    }
    const recipients = [{ id: DEMO.recipients.emailOncall }];
    shaped(
      'updateBurnAlert',
      await sb.v1('PUT', `/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`, {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 5,
        recipients,
      }),
    );
    shaped(
      'updateBurnAlert',
      await sb.v1('PUT', `/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwBudgetRate}`, {
        alert_type: 'budget_rate',
        budget_rate_window_minutes: 60,
        budget_rate_decrease_threshold_per_million: 10,
        recipients,
      }),
    );
    await sb.control('POST', 'reset');
  });

  test('a query result of every saved query: complete, running and failed', async () => {
    for (const q of sb.handle.state.savedQueries) {
      shaped('createQueryResult', await sb.v1('POST', `/1/query_results/${q.dataset}`, { query_id: q.id }), 201);
    }
  });

  test('the definitions of every dataset', async () => {
    for (const d of sb.handle.info.datasets)
      shaped('updateDatasetDefinitions', await sb.v1('PATCH', `/1/dataset_definitions/${d}`, {}));
  });

  test('API keys: a create (with its secret) and an update', async () => {
    const body = {
      data: {
        type: 'api-keys',
        attributes: { key_type: 'ingest', name: 'corpus check' },
        relationships: { environment: { data: { id: DEMO.environmentId, type: 'environments' } } },
      },
    };
    shaped('createApiKey', await sb.v2('POST', `/2/teams/${DEMO.team}/api-keys`, body), 201);
    const id = DEMO.apiKeys.ingest;
    shaped(
      'updateApiKey',
      await sb.v2('PATCH', `/2/teams/${DEMO.team}/api-keys/${id}`, {
        data: { id, type: 'api-keys', attributes: { name: 'corpus', disabled: false } },
      }),
    );
  });

  test('errors come in the three shapes, each with its Content-Type', async () => {
    const answers: RawResponse[] = [
      await sb.v1('GET', '/1/columns/api', undefined, { 'X-Service-Team': 'wrong' }),
      await sb.v1('GET', '/1/columns/nope'),
      await sb.v1('PUT', `/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`, {
        alert_type: 'exhaustion_time',
        recipients: [],
      }),
      await sb.v1('PATCH', `/1/dataset_definitions/${DEMO.datasets.gateway}`, { span_id: { name: 'no.such.column' } }),
      await sb.v1('DELETE', '/1/columns/api'),
      await sb.v1(
        'PUT',
        `/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`,
        'x'.repeat(100_001),
      ),
      await sb.v2('POST', `/2/teams/${DEMO.team}/api-keys`, {}, { Authorization: 'Bearer wrong:key' }),
      await sb.v2('POST', `/2/teams/${DEMO.team}/api-keys`, { data: {} }),
      await sb.v2('POST', `/2/teams/${DEMO.team}/api-keys`, {}, { 'Content-Type': 'application/json' }),
      await sb.v2('PATCH', `/2/teams/${DEMO.team}/api-keys/nope`, { data: {} }),
    ];
    for (const res of answers) {
      assert.ok(res.status >= 400, res.text);
      const shape = errorShapeFor(res.contentType);
      assert.ok(shape, `an error shape for ${res.contentType}`);
      const parsed = shape.safeParse(res.json());
      assert.equal(
        parsed.success,
        true,
        parsed.success ? '' : `${res.status} ${res.text}: ${JSON.stringify(parsed.error.issues)}`,
      );
    }
  });
});
