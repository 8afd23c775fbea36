// What a trigger write is refused for, over raw HTTP: each rule of spec 2.6, 2.6.1 and part 8 and of the
// service facts answers with its status and the service's error shape, names the field, and changes nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO } from '../../src/sandbox';
import { assertProblem, assertValidation, startTestSandbox, type TestSandbox } from './sandbox-helpers';

const GW = DEMO.datasets.gateway;
const MH = DEMO.datasets.metrics;

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 100_000 });
});
after(() => sb.handle.close());

type Json = Record<string, unknown>;
const QUERY = { calculations: [{ op: 'COUNT' }], time_range: 600 };
const BODY: Json = { name: 'Errors', threshold: { op: '>', value: 5 }, frequency: 300, query: QUERY };
const body = (extra: Json): Json => ({ ...BODY, ...extra });
const query = (extra: Json): Json => body({ query: { ...QUERY, ...extra } });
/** A baseline trigger runs every 900 s at least: the body at 900 s, its query over 30 minutes. */
const baseline = (extra: Json): Json => body({ frequency: 900, query: { ...QUERY, time_range: 1800 }, ...extra });
const snapshot = () => JSON.stringify(sb.handle.state);

interface Refusal {
  title: string;
  body: unknown;
  fields: [string, string][];
  dataset?: string;
}

const REFUSALS: Refusal[] = [
  { title: 'no query and no query_id', body: body({ query: undefined }), fields: [['query', 'missing']] },
  { title: 'the body is an array', body: [BODY], fields: [['(body)', 'incorrect_type']] },
  { title: 'name empty', body: body({ name: '' }), fields: [['name', 'invalid']] },
  { title: 'name of 121 characters', body: body({ name: '\u{1F600}'.repeat(121) }), fields: [['name', 'invalid']] },
  { title: 'name missing', body: body({ name: undefined }), fields: [['name', 'missing']] },
  { title: 'name blank after trimming', body: body({ name: ' \t\u00a0' }), fields: [['name', 'invalid']] },
  {
    title: 'description of 1024 characters',
    body: body({ description: 'd'.repeat(1024) }),
    fields: [['description', 'invalid']],
  },
  {
    title: 'eleven tags',
    body: body({ tags: Array.from({ length: 11 }, () => ({ key: 'team', value: 'edge' })) }),
    fields: [['tags', 'invalid']],
  },
  {
    title: 'a tag key with a capital',
    body: body({ tags: [{ key: 'Team', value: 'edge' }] }),
    fields: [['tags[0].key', 'invalid']],
  },
  {
    title: 'a tag value of one letter',
    body: body({ tags: [{ key: 'team', value: 'e' }] }),
    fields: [['tags[0].value', 'invalid']],
  },
  { title: 'no threshold', body: body({ threshold: undefined }), fields: [['threshold', 'missing']] },
  {
    title: 'threshold op ==',
    body: body({ threshold: { op: '==', value: 1 } }),
    fields: [['threshold.op', 'invalid']],
  },
  {
    title: 'threshold value a string',
    body: body({ threshold: { op: '>', value: '1' } }),
    fields: [['threshold.value', 'incorrect_type']],
  },
  {
    title: 'exceeded_limit 0',
    body: body({ threshold: { op: '>', value: 1, exceeded_limit: 0 } }),
    fields: [['threshold.exceeded_limit', 'invalid']],
  },
  {
    title: 'exceeded_limit 6',
    body: body({ threshold: { op: '>', value: 1, exceeded_limit: 6 } }),
    fields: [['threshold.exceeded_limit', 'invalid']],
  },
  { title: 'frequency 30', body: body({ frequency: 30 }), fields: [['frequency', 'invalid']] },
  { title: 'frequency 90 (not a multiple of 60)', body: body({ frequency: 90 }), fields: [['frequency', 'invalid']] },
  { title: 'frequency 86460', body: body({ frequency: 86_460 }), fields: [['frequency', 'invalid']] },
  { title: 'alert_type sometimes', body: body({ alert_type: 'sometimes' }), fields: [['alert_type', 'invalid']] },
  {
    title: 'evaluation_schedule_type cron',
    body: body({ evaluation_schedule_type: 'cron' }),
    fields: [['evaluation_schedule_type', 'invalid']],
  },
  {
    title: 'a window schedule without its window',
    body: body({ evaluation_schedule_type: 'window' }),
    fields: [['evaluation_schedule', 'missing']],
  },
  {
    title: 'a window with a capitalised day and a time without its leading zero',
    body: body({
      evaluation_schedule_type: 'window',
      evaluation_schedule: { window: { days_of_week: ['Monday'], start_time: '9:00', end_time: '17:00' } },
    }),
    fields: [
      ['evaluation_schedule.window.days_of_week[0]', 'invalid'],
      ['evaluation_schedule.window.start_time', 'invalid'],
    ],
  },
  {
    title: 'a window of no days',
    body: body({
      evaluation_schedule_type: 'window',
      evaluation_schedule: { window: { days_of_week: [], start_time: '09:00', end_time: '17:00' } },
    }),
    fields: [['evaluation_schedule.window.days_of_week', 'invalid']],
  },
  {
    title: 'baseline type ratio',
    body: baseline({ threshold: { op: '>=', value: 1 }, baseline_details: { type: 'ratio', offset_minutes: 60 } }),
    fields: [['baseline_details.type', 'invalid']],
  },
  {
    title: 'baseline offset 30',
    body: baseline({ threshold: { op: '>=', value: 1 }, baseline_details: { type: 'value', offset_minutes: 30 } }),
    fields: [['baseline_details.offset_minutes', 'invalid']],
  },
  {
    title: 'baseline without its offset',
    body: baseline({ threshold: { op: '>=', value: 1 }, baseline_details: { type: 'value' } }),
    fields: [['baseline_details.offset_minutes', 'missing']],
  },
  {
    title: 'a baseline with op >',
    body: baseline({ baseline_details: { type: 'percentage', offset_minutes: 60 } }),
    fields: [['threshold.op', 'invalid']],
  },
  {
    title: 'a baseline with >= a negative value',
    body: baseline({
      threshold: { op: '>=', value: -1 },
      baseline_details: { type: 'percentage', offset_minutes: 60 },
    }),
    fields: [['threshold.op', 'invalid']],
  },
  {
    title: 'a baseline trigger under 900 s',
    body: baseline({
      threshold: { op: '>=', value: 1 },
      baseline_details: { type: 'percentage', offset_minutes: 60 },
      frequency: 840,
    }),
    fields: [['frequency', 'invalid']],
  },
  {
    title: 'a recipient type outside the seven',
    body: body({ recipients: [{ type: 'sms', target: '+15550100' }] }),
    fields: [['recipients[0].type', 'invalid']],
  },
  {
    title: 'a PagerDuty severity outside critical, error, warning, info',
    body: body({ recipients: [{ id: DEMO.recipients.pagerdutyPrimary, details: { pagerduty_severity: 'high' } }] }),
    fields: [['recipients[0].details.pagerduty_severity', 'invalid']],
  },
  {
    title: "a webhook variable's name with an underscore, and a value of 257 characters",
    body: body({
      recipients: [
        {
          id: DEMO.recipients.webhookOps,
          details: {
            variables: [
              { name: 'run_book', value: 'x' },
              { name: 'team', value: 'v'.repeat(257) },
            ],
          },
        },
      ],
    }),
    fields: [
      ['recipients[0].details.variables[0].name', 'invalid'],
      ['recipients[0].details.variables[1].value', 'invalid'],
    ],
  },
  {
    title: 'an unknown recipient id',
    body: body({ recipients: [{ id: DEMO.recipients.emailOncall }, { id: 'rcp_nope' }] }),
    fields: [['recipients[1].id', 'invalid']],
  },
  {
    title: 'a recipient by type without target',
    body: body({ recipients: [{ type: 'email' }] }),
    fields: [['recipients[0].target', 'missing']],
  },
  { title: 'query not an object', body: body({ query: 'COUNT' }), fields: [['query', 'incorrect_type']] },
  {
    title: 'query without calculations',
    body: body({ query: { time_range: 600 } }),
    fields: [['query.calculations', 'missing']],
  },
  {
    title: 'query with no calculation',
    body: query({ calculations: [] }),
    fields: [['query.calculations', 'invalid']],
  },
  {
    title: 'query without time_range',
    body: body({ query: { calculations: [{ op: 'COUNT' }] } }),
    fields: [['query.time_range', 'missing']],
  },
  {
    title: 'HEATMAP',
    body: query({ calculations: [{ op: 'HEATMAP', column: 'duration_ms' }] }),
    fields: [['query.calculations[0].op', 'invalid']],
  },
  {
    title: 'CONCURRENCY',
    body: query({ calculations: [{ op: 'CONCURRENCY' }] }),
    fields: [['query.calculations[0].op', 'invalid']],
  },
  {
    title: 'an unknown op',
    body: query({ calculations: [{ op: 'MEDIAN', column: 'duration_ms' }] }),
    fields: [['query.calculations[0].op', 'invalid']],
  },
  {
    title: 'AVG without a column',
    body: query({ calculations: [{ op: 'AVG' }] }),
    fields: [['query.calculations[0].column', 'missing']],
  },
  {
    title: 'COUNT_DATAPOINTS outside a metrics dataset',
    body: query({ calculations: [{ op: 'COUNT_DATAPOINTS' }] }),
    fields: [['query.calculations[0].op', 'invalid']],
  },
  {
    title: 'time_range below the frequency',
    body: query({ time_range: 240 }),
    fields: [['query.time_range', 'invalid']],
  },
  {
    title: 'time_range over 4 x frequency',
    body: query({ time_range: 1260 }),
    fields: [['query.time_range', 'invalid']],
  },
  {
    title: 'time_range over a day',
    body: body({ frequency: 86_400, query: { ...QUERY, time_range: 86_460 } }),
    fields: [['query.time_range', 'invalid']],
  },
  {
    title: 'orders, limit, start_time, end_time and usage_mode',
    body: query({
      orders: [{ op: 'COUNT', order: 'descending' }],
      limit: 10,
      start_time: 1,
      end_time: 2,
      usage_mode: true,
    }),
    fields: [
      ['query.orders', 'invalid'],
      ['query.limit', 'invalid'],
      ['query.start_time', 'invalid'],
      ['query.end_time', 'invalid'],
      ['query.usage_mode', 'invalid'],
    ],
  },
  {
    title: 'two aggregates without a formula',
    body: query({ calculations: [{ op: 'COUNT' }, { op: 'AVG', column: 'duration_ms' }] }),
    fields: [['query.calculations', 'invalid']],
  },
  {
    title: "two aggregates besides the having's",
    body: query({
      calculations: [{ op: 'COUNT' }, { op: 'AVG', column: 'duration_ms' }, { op: 'P99', column: 'duration_ms' }],
      havings: [{ calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1 }],
    }),
    fields: [['query.calculations', 'invalid']],
  },
  {
    title: 'a having without its calculation',
    body: query({ havings: [{ calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1 }] }),
    fields: [['query.havings[0]', 'invalid']],
  },
  {
    title: 'a having op "like"',
    body: query({ havings: [{ calculate_op: 'COUNT', op: 'like', value: 1 }] }),
    fields: [['query.havings[0].op', 'invalid']],
  },
  {
    title: 'two havings',
    body: query({
      havings: [
        { calculate_op: 'COUNT', op: '>', value: 1 },
        { calculate_op: 'COUNT', op: '<', value: 9 },
      ],
    }),
    fields: [['query.havings', 'invalid']],
  },
  {
    title: 'a named calculation without a formula',
    body: query({ calculations: [{ op: 'COUNT', name: 'all' }] }),
    fields: [['query.calculations[0].name', 'invalid']],
  },
  {
    title: 'a calculation filter without a formula',
    body: query({ calculations: [{ op: 'COUNT', filters: [{ column: 'error', op: '=', value: true }] }] }),
    fields: [['query.calculations[0].filters', 'invalid']],
  },
  {
    title: 'two formulas',
    body: query({
      calculations: [{ op: 'COUNT', name: 'a' }],
      formulas: [
        { name: 'f', expression: '$a' },
        { name: 'g', expression: '$a' },
      ],
    }),
    fields: [['query.formulas', 'invalid']],
  },
  {
    title: 'named aggregates with global filters',
    body: query({
      calculations: [{ op: 'COUNT', name: 'a' }],
      formulas: [{ name: 'f', expression: '$a' }],
      filters: [{ column: 'error', op: 'exists' }],
    }),
    fields: [['query.filters', 'invalid']],
  },
  {
    title: 'a formula named like a calculation',
    body: query({ calculations: [{ op: 'COUNT', name: 'a' }], formulas: [{ name: 'a', expression: '$a' }] }),
    fields: [['query.formulas[0].name', 'invalid']],
  },
  {
    title: 'two calculations of the same name',
    body: query({
      calculations: [
        { op: 'COUNT', name: 'a' },
        { op: 'MAX', column: 'duration_ms', name: 'a' },
      ],
      formulas: [{ name: 'f', expression: '$a' }],
    }),
    fields: [['query.calculations', 'invalid']],
  },
  {
    title: 'granularity in a standard dataset',
    body: query({ granularity: 60 }),
    fields: [['query.granularity', 'invalid']],
  },
  {
    title: 'granularity below time_range/1000 in a metrics dataset',
    dataset: MH,
    body: body({ frequency: 86_400, query: { ...QUERY, time_range: 86_400, granularity: 60 } }),
    fields: [['query.granularity', 'invalid']],
  },
  {
    title: 'granularity above time_range in a metrics dataset',
    dataset: MH,
    body: query({ granularity: 1200 }),
    fields: [['query.granularity', 'invalid']],
  },
  {
    title: 'an unknown filter op',
    body: query({ filters: [{ column: 'error', op: 'is' }] }),
    fields: [['query.filters[0].op', 'invalid']],
  },
  {
    title: 'filter_combination XOR',
    body: query({ filter_combination: 'XOR' }),
    fields: [['query.filter_combination', 'invalid']],
  },
  {
    title: 'a query_id naming no saved query',
    body: body({ query: undefined, query_id: 'q_nope' }),
    fields: [['query_id', 'invalid']],
  },
  {
    title: 'a query_id of another dataset',
    body: body({ query: undefined, query_id: DEMO.savedQueries.coPayments, frequency: 900 }),
    fields: [['query_id', 'invalid']],
  },
  {
    title: 'a query_id naming a query with orders and limit',
    body: body({ query: undefined, query_id: DEMO.savedQueries.gwTopRoutes, frequency: 1800 }),
    fields: [
      ['query_id', 'invalid'],
      ['query_id', 'invalid'],
    ],
  },
  {
    title: 'a query_id whose time_range is beyond 4 x frequency',
    body: body({ query: undefined, query_id: DEMO.savedQueries.gw5xx, frequency: 60 }),
    fields: [['query_id', 'invalid']],
  },
];

describe("refused with 422 in the service's validation shape, naming the field; nothing changes", () => {
  for (const r of REFUSALS) {
    test(r.title, async () => {
      const before = snapshot();
      for (const [method, path] of [
        ['POST', `/1/triggers/${r.dataset ?? GW}`],
        ['PUT', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`],
      ] as const) {
        if (r.dataset !== undefined && method === 'PUT') continue;
        const res = await sb.v1(method, path, r.body);
        assertValidation(
          res,
          sb.base,
          r.fields.map(([field, code]) => ({ field, code })),
        );
      }
      assert.equal(snapshot(), before);
    });
  }
});

describe('other refusals', () => {
  test('both query and query_id: 400 (problem type bad-request, field query_id); nothing changes', async () => {
    const before = snapshot();
    for (const [method, path] of [
      ['POST', `/1/triggers/${GW}`],
      ['PUT', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`],
    ] as const) {
      const res = await sb.v1(method, path, body({ query_id: DEMO.savedQueries.gw5xx }));
      const problem = assertProblem(res, 400, sb.base, 'bad-request');
      assert.deepEqual(
        problem.type_detail?.map((d) => [d.field, d.code]),
        [['query_id', 'invalid']],
      );
    }
    assert.equal(snapshot(), before);
  });

  test('an unparseable body is a 400, a body over 100,000 bytes a 413, another media type a 415', async () => {
    assertProblem(await sb.v1('POST', `/1/triggers/${GW}`, '{"name": '), 400, sb.base, 'unparseable-body');
    assertProblem(
      await sb.v1(
        'PUT',
        `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`,
        JSON.stringify(body({ description: 'x'.repeat(100_001) })),
      ),
      413,
      sb.base,
      'request-too-large',
    );
    assertProblem(
      await sb.v1('POST', `/1/triggers/${GW}`, JSON.stringify(BODY), { 'Content-Type': 'text/plain' }),
      415,
      sb.base,
      'unsupported-media-type',
    );
  });

  test('an unknown dataset is a 404 before the body is judged', async () => {
    assertProblem(await sb.v1('POST', '/1/triggers/no-such-dataset', { name: '' }), 404, sb.base, 'not-found');
  });

  test('the read-only key may read a trigger but not write one (403)', async () => {
    const reader = { 'X-Service-Team': 'sandbox-config-key-reader-0002' };
    assert.equal((await sb.v1('GET', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, undefined, reader)).status, 200);
    assertProblem(await sb.v1('POST', `/1/triggers/${GW}`, BODY, reader), 403, sb.base, 'forbidden');
    assertProblem(
      await sb.v1('DELETE', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, undefined, reader),
      403,
      sb.base,
      'forbidden',
    );
  });

  test('without a key: 401 in the legacy shape', async () => {
    const res = await sb.v1('DELETE', `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`, undefined, {
      'X-Service-Team': 'wrong',
    });
    assert.equal(res.status, 401);
    assert.deepEqual(res.json(), { error: 'unknown API key - check your credentials' });
  });
});
