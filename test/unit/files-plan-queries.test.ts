// The query_id gate of the plan pipeline (planWithGates) against a service of the test's own, for what the
// sandbox never answers: a saved query with null for the members it leaves unset, environment-wide triggers
// naming one saved query as `all` and `__all__`, and a read that fails outright.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../src/lint';
import {
  keyFingerprint,
  planWithGates,
  type PlanService,
  type PlanSource,
  type ServiceTrigger,
} from '../../src/triggerFiles';

type Json = Record<string, unknown>;

/** A service with no triggers, the columns `duration_ms`, no recipients, and `answer` for every saved query read (recorded). */
function service(answer: (dataset: string, id: string) => Promise<Json>): PlanService & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    listTriggers: () => Promise.resolve({ data: [] as ServiceTrigger[] }),
    listColumns: () => Promise.resolve({ data: [{ key_name: 'duration_ms' }] }),
    listRecipients: () => Promise.resolve({ data: [] }),
    getQuery: (dataset, id) => {
      reads.push(`${dataset}/${id}`);
      return answer(dataset, id).then((data) => ({ data }));
    },
    listSlos: () => Promise.reject(new Error('no burn alert file in these tests')),
    listBurnAlerts: () => Promise.reject(new Error('no burn alert file in these tests')),
    getBurnAlert: () => Promise.reject(new Error('no burn alert file in these tests')),
    updateDatasetDefinitions: () => Promise.reject(new Error('no definitions file in these tests')),
  };
}

const source = (file: string, value: Json): PlanSource => ({ file, text: JSON.stringify(value) });
const onSaved = (dataset: string, name: string): Json => ({
  dataset_slug: dataset,
  name,
  threshold: { op: '>', value: 1 },
  frequency: 900,
  query_id: 'q_1',
});

function plan(sources: PlanSource[], s: PlanService) {
  return planWithGates({
    sources,
    service: s,
    lint: async (text, columns) => lint(text, { metricsDatasets: [], ...(columns === undefined ? {} : { columns }) }),
    target: { baseUrl: 'https://api.example.com', key: keyFingerprint('k', 's') },
    inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
    concurrency: 2,
    now: new Date('2026-01-01T00:00:00Z'),
  });
}

test('a saved query answered with null for the members it leaves unset (orders, limit, filters...) is the query without them: the trigger plans', async () => {
  const s = service(() =>
    Promise.resolve({
      id: 'q_1',
      calculations: [{ op: 'COUNT' }],
      filters: null,
      breakdowns: null,
      havings: null,
      orders: null,
      limit: null,
      time_range: 1800,
    }),
  );
  const { plan: p, notes } = await plan([source('api/a.trigger.json', onSaved('api', 'On q_1'))], s);
  assert.deepEqual([p.changes.map((c) => [c.action, c.name]), p.blocked, notes], [[['create', 'On q_1']], [], []]);
  assert.deepEqual(s.reads, ['api/q_1']);
});

test('environment-wide triggers naming one saved query, as `all` and as `__all__`, read it once, at __all__', async () => {
  const s = service(() =>
    Promise.resolve({ id: 'q_1', calculations: [{ op: 'COUNT' }], orders: [{ op: 'COUNT' }], time_range: 1800 }),
  );
  const { plan: p } = await plan(
    [
      source('__all__/a.trigger.json', onSaved('all', 'As all')),
      source('__all__/b.trigger.json', onSaved('__all__', 'As __all__')),
    ],
    s,
  );
  assert.deepEqual(s.reads, ['__all__/q_1']);
  const reason = `query_id "q_1" names a saved query a trigger may not use: query/refused-member: orders must not be set in a trigger query: results are ordered by the threshold operator and all matching groups are evaluated`;
  assert.deepEqual(
    p.blocked.map((b) => [b.file, b.reasons]),
    [
      ['__all__/a.trigger.json', [reason]],
      ['__all__/b.trigger.json', [reason]],
    ],
  );
});

test('a saved query with more than three problems names the first three and counts the rest', async () => {
  const broken = {
    id: 'q_1',
    calculations: [{ op: 'HEATMAP', column: 'duration_ms' }],
    orders: [{ op: 'COUNT' }],
    limit: 10,
    usage_mode: true,
    time_range: 1800,
  };
  const { plan: p } = await plan(
    [source('api/a.trigger.json', onSaved('api', 'On q_1'))],
    service(() => Promise.resolve(broken)),
  );
  const head = 'query_id "q_1" names a saved query a trigger may not use';
  assert.deepEqual(
    p.blocked.map((b) => b.reasons.map((r) => r.split(': ').slice(0, 2).join(': '))),
    [
      [
        `${head}: query/calculation-op-refused`,
        `${head}: query/refused-member`,
        `${head}: query/refused-member`,
        `${head}: and 1 more problem of its query`,
      ],
    ],
  );
});

test('a read that fails otherwise than not found or not served (a 500) fails the plan: no plan is made without the check', async () => {
  const s = service(() =>
    Promise.reject(Object.assign(new Error('read saved query failed: HTTP 500'), { status: 500 })),
  );
  await assert.rejects(plan([source('api/a.trigger.json', onSaved('api', 'On q_1'))], s), /HTTP 500/);
});
