import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BurnAlertList, BurnAlert } from '../../src/api/schemas';
import { DEMO, SANDBOX_CREDENTIALS } from '../../src/sandbox';
import { assertProblem, assertValidation, startTestSandbox, testClock, type TestSandbox } from './sandbox-helpers';

// Spec 4.3 and 4.4, rules 7.1-7.4 and the burn alert limits of part 8, against the sandbox over raw HTTP.

const clock = testClock('2025-06-01T12:00:00.000Z');
let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ clock: clock.now, rateLimit: 1000 });
});
after(() => sb.handle.close());

const GW = DEMO.datasets.gateway;
const list = (dataset: string, slo?: string) =>
  sb.v1('GET', `/1/burn_alerts/${dataset}${slo === undefined ? '' : `?slo_id=${encodeURIComponent(slo)}`}`);
const put = (id: string, body: unknown, dataset: string = GW, headers?: Record<string, string>) =>
  sb.v1('PUT', `/1/burn_alerts/${dataset}/${id}`, body, headers);

const EXHAUSTION = {
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 30,
  recipients: [{ id: DEMO.recipients.emailOncall }],
};
const BUDGET_RATE = {
  alert_type: 'budget_rate',
  budget_rate_window_minutes: 60,
  budget_rate_decrease_threshold_per_million: 5000,
  recipients: [{ id: DEMO.recipients.emailOncall }],
};

describe('GET /1/burn_alerts/<dataset>?slo_id= (4.3)', () => {
  test('lists the alerts of the SLO, each with only its own type-specific fields and no recipients', async () => {
    const res = await list(GW, DEMO.slos.gwAvailability);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.contentType, 'application/json');
    const alerts = res.json() as Record<string, unknown>[];
    BurnAlertList.parse(alerts);
    assert.deepEqual(
      alerts.map((a) => Object.keys(a).sort()),
      [
        ['alert_type', 'created_at', 'description', 'exhaustion_minutes', 'id', 'slo', 'triggered', 'updated_at'],
        [
          'alert_type',
          'auto_investigate',
          'budget_rate_decrease_threshold_per_million',
          'budget_rate_window_minutes',
          'created_at',
          'description',
          'id',
          'slo',
          'triggered',
          'updated_at',
        ],
      ],
    );
    assert.deepEqual(alerts[0], {
      id: DEMO.burnAlerts.gwExhaustion,
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 240,
      description: 'Budget gone within four hours.',
      triggered: true,
      slo: { id: DEMO.slos.gwAvailability },
      created_at: '2024-03-01T10:00:00.000Z',
      updated_at: '2024-03-15T08:30:00.000Z',
    });
  });

  test('an SLO without alerts lists []', async () => {
    const res = await list(DEMO.datasets.metrics, DEMO.slos.mhHeadroom);
    assert.deepEqual([res.status, res.json()], [200, []]);
  });

  test('__all__ lists the alerts of an environment-wide SLO', async () => {
    const res = await list('__all__', DEMO.slos.envUptime);
    assert.deepEqual(
      (res.json() as { id: string }[]).map((a) => a.id),
      [DEMO.burnAlerts.envExhaustion, DEMO.burnAlerts.envBudgetRate],
    );
  });

  test('without slo_id: 422 with slo_id missing', async () => {
    assertValidation(await list(GW), sb.base, [{ field: 'slo_id', code: 'missing' }]);
  });

  test('an unknown SLO is a 404 problem', async () => {
    assertProblem(await list(GW, 'slo_nope'), 404, sb.base, 'not-found');
  });

  test("another dataset's SLO is a 404", async () => {
    assertProblem(await list(GW, DEMO.slos.coLatency), 404, sb.base, 'not-found');
  });

  test('a dataset SLO under __all__ is a 404', async () => {
    assertProblem(await list('__all__', DEMO.slos.gwAvailability), 404, sb.base, 'not-found');
  });

  test('an unknown dataset is a 404', async () => {
    assertProblem(await list('no-such-dataset', DEMO.slos.gwAvailability), 404, sb.base, 'not-found');
  });
});

describe('GET /1/burn_alerts/<dataset>/<id> (service facts: beyond the spec)', () => {
  test('answers the one alert with everything the list leaves out, recipients included', async () => {
    const res = await sb.v1('GET', `/1/burn_alerts/${GW}/${DEMO.burnAlerts.gwBudgetRate}`);
    assert.equal(res.status, 200, res.text);
    const body = res.json() as Record<string, unknown>;
    const listed = (await list(GW, DEMO.slos.gwAvailability)).json() as Record<string, unknown>[];
    const { recipients, ...rest } = body;
    assert.deepEqual(
      rest,
      listed.find((a) => a.id === DEMO.burnAlerts.gwBudgetRate),
    );
    assert.deepEqual(
      recipients,
      sb.handle.state.burnAlerts.find((a) => a.id === DEMO.burnAlerts.gwBudgetRate)?.recipients,
    );
  });

  test('an environment-wide alert is read under __all__', async () => {
    const res = await sb.v1('GET', `/1/burn_alerts/__all__/${DEMO.burnAlerts.envExhaustion}`);
    assert.equal(res.status, 200, res.text);
  });

  test('an unknown alert, or one of another dataset, is a 404', async () => {
    assertProblem(await sb.v1('GET', `/1/burn_alerts/${GW}/ba_nope`), 404, sb.base, 'not-found');
    assertProblem(
      await sb.v1('GET', `/1/burn_alerts/${DEMO.datasets.checkout}/${DEMO.burnAlerts.gwBudgetRate}`),
      404,
      sb.base,
      'not-found',
    );
  });
});

describe('members beyond the spec (service facts)', () => {
  test('the budget_rate demo alert carries auto_investigate, which a PUT leaves as it was', async () => {
    const before = sb.handle.state.burnAlerts.find((a) => a.id === DEMO.burnAlerts.gwBudgetRate)?.auto_investigate;
    assert.equal(before, true);
    const res = await put(DEMO.burnAlerts.gwBudgetRate, { ...BUDGET_RATE, auto_investigate: false });
    assert.equal(res.status, 200, res.text);
    assert.equal((res.json() as Record<string, unknown>).auto_investigate, true);
    await sb.control('POST', 'reset');
  });
});

describe('PUT /1/burn_alerts/<dataset>/<id> (4.4)', () => {
  beforeEach(async () => {
    await sb.control('POST', 'reset');
  });

  test('updates an exhaustion_time alert: the full object with recipients, updated_at moved', async () => {
    clock.set('2025-06-02T08:00:00.000Z');
    const res = await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, description: 'Half an hour left' });
    assert.equal(res.status, 200, res.text);
    const body = res.json();
    BurnAlert.parse(body);
    assert.deepEqual(body, {
      id: DEMO.burnAlerts.gwExhaustion,
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 30,
      description: 'Half an hour left',
      triggered: true,
      slo: { id: DEMO.slos.gwAvailability },
      created_at: '2024-03-01T10:00:00.000Z',
      updated_at: '2025-06-02T08:00:00.000Z',
      recipients: [{ id: DEMO.recipients.emailOncall, type: 'email', target: 'oncall@example.com' }],
    });
  });

  test('switching to budget_rate drops exhaustion_minutes', async () => {
    const res = await put(DEMO.burnAlerts.gwExhaustion, BUDGET_RATE);
    assert.equal(res.status, 200, res.text);
    const body = res.json() as Record<string, unknown>;
    assert.equal('exhaustion_minutes' in body, false);
    assert.deepEqual([body.budget_rate_window_minutes, body.budget_rate_decrease_threshold_per_million], [60, 5000]);
    const listed = (await list(GW, DEMO.slos.gwAvailability)).json() as Record<string, unknown>[];
    assert.equal(listed.find((a) => a.id === DEMO.burnAlerts.gwExhaustion)?.alert_type, 'budget_rate');
  });

  test('a deprecated type+target recipient and pagerduty details are kept', async () => {
    const recipients = [
      { type: 'email', target: 'someone@example.com' },
      {
        id: DEMO.recipients.pagerdutyPrimary,
        details: { pagerduty_severity: 'critical', variables: [{ name: 'a', value: 'b' }] },
      },
    ];
    const res = await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, recipients });
    assert.deepEqual((res.json() as { recipients: unknown }).recipients, [
      { type: 'email', target: 'someone@example.com' },
      {
        id: DEMO.recipients.pagerdutyPrimary,
        type: 'pagerduty',
        target: 'Primary on-call',
        details: { pagerduty_severity: 'critical', variables: [{ name: 'a', value: 'b' }] },
      },
    ]);
  });

  test('an environment-wide alert is updated under __all__', async () => {
    assert.equal((await put(DEMO.burnAlerts.envExhaustion, EXHAUSTION, '__all__')).status, 200);
  });

  test('7.1: exhaustion_minutes with budget_rate is a 422', async () => {
    assertValidation(await put(DEMO.burnAlerts.gwBudgetRate, { ...BUDGET_RATE, exhaustion_minutes: 10 }), sb.base, [
      { field: 'exhaustion_minutes', code: 'invalid' },
    ]);
  });

  test('7.2: no exhaustion_minutes with exhaustion_time is a 422 missing', async () => {
    const { exhaustion_minutes: _, ...body } = EXHAUSTION;
    assertValidation(await put(DEMO.burnAlerts.gwExhaustion, body), sb.base, [
      { field: 'exhaustion_minutes', code: 'missing' },
    ]);
  });

  test('7.3: exhaustion_minutes below 0 is a 422; 0 is accepted', async () => {
    assertValidation(await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, exhaustion_minutes: -1 }), sb.base, [
      { field: 'exhaustion_minutes', code: 'invalid' },
    ]);
    assert.equal((await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, exhaustion_minutes: 0 })).status, 200);
  });

  test('7.4: an empty recipients array is a 422', async () => {
    assertValidation(await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, recipients: [] }), sb.base, [
      { field: 'recipients', code: 'invalid' },
    ]);
  });

  test('missing recipients is a 422 missing', async () => {
    assertValidation(
      await put(DEMO.burnAlerts.gwExhaustion, { alert_type: 'exhaustion_time', exhaustion_minutes: 1 }),
      sb.base,
      [{ field: 'recipients', code: 'missing' }],
    );
  });

  test('part 8: a 1024-character description is a 422; 1023 is accepted', async () => {
    assertValidation(
      await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, description: 'd'.repeat(1024) }),
      sb.base,
      [{ field: 'description', code: 'invalid' }],
    );
    assert.equal(
      (await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, description: 'd'.repeat(1023) })).status,
      200,
    );
  });

  test('budget_rate: a window under 60 minutes is a 422', async () => {
    assertValidation(
      await put(DEMO.burnAlerts.gwBudgetRate, { ...BUDGET_RATE, budget_rate_window_minutes: 59 }),
      sb.base,
      [{ field: 'budget_rate_window_minutes', code: 'invalid' }],
    );
  });

  test('budget_rate: a window longer than the SLO period is a 422', async () => {
    // checkout's SLO period is 7 days = 10080 minutes.
    const body = { ...BUDGET_RATE, budget_rate_window_minutes: 10_081 };
    assertValidation(await put(DEMO.burnAlerts.coBudgetRate, body, DEMO.datasets.checkout), sb.base, [
      { field: 'budget_rate_window_minutes', code: 'invalid' },
    ]);
  });

  test('budget_rate: a threshold of 0 or over 1,000,000 per million is a 422', async () => {
    for (const threshold of [0, 1_000_001]) {
      assertValidation(
        await put(DEMO.burnAlerts.gwBudgetRate, {
          ...BUDGET_RATE,
          budget_rate_decrease_threshold_per_million: threshold,
        }),
        sb.base,
        [{ field: 'budget_rate_decrease_threshold_per_million', code: 'invalid' }],
      );
    }
  });

  test('exhaustion_time with the budget_rate fields is a 422 naming both', async () => {
    const body = { ...EXHAUSTION, budget_rate_window_minutes: 60, budget_rate_decrease_threshold_per_million: 10 };
    assertValidation(await put(DEMO.burnAlerts.gwExhaustion, body), sb.base, [
      { field: 'budget_rate_window_minutes', code: 'invalid' },
      { field: 'budget_rate_decrease_threshold_per_million', code: 'invalid' },
    ]);
  });

  test('budget_rate without its window is a 422 missing', async () => {
    const { budget_rate_window_minutes: _, ...body } = BUDGET_RATE;
    assertValidation(await put(DEMO.burnAlerts.gwBudgetRate, body), sb.base, [
      { field: 'budget_rate_window_minutes', code: 'missing' },
    ]);
  });

  test('a wrong type is incorrect_type; an unknown member is ignored', async () => {
    assertValidation(
      await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, exhaustion_minutes: '5', colour: 'red' }),
      sb.base,
      [{ field: 'exhaustion_minutes', code: 'incorrect_type' }],
    );
  });

  test('read-only members in the body (id, slo, triggered, created_at, updated_at) are ignored, as the service does', async () => {
    clock.set('2025-06-03T08:00:00.000Z');
    const readOnly = {
      id: 'ba_other',
      slo: { id: 'slo_other' },
      triggered: false,
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-01T00:00:00Z',
    };
    const res = await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, ...readOnly });
    assert.equal(res.status, 200, res.text);
    const body = res.json() as Record<string, unknown>;
    assert.deepEqual(
      [body.id, body.slo, body.triggered, body.created_at, body.updated_at, body.exhaustion_minutes],
      [
        DEMO.burnAlerts.gwExhaustion,
        { id: DEMO.slos.gwAvailability },
        true,
        '2024-03-01T10:00:00.000Z',
        '2025-06-03T08:00:00.000Z',
        30,
      ],
    );
  });

  test('a recipient id that names no recipient is a 422 on that recipient', async () => {
    assertValidation(
      await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, recipients: [{ id: 'rcp_nope' }] }),
      sb.base,
      [{ field: 'recipients[0].id', code: 'invalid' }],
    );
  });

  test('recipient details of the wrong type are a 422 on the member, and nothing is stored', async () => {
    const before = JSON.stringify(sb.handle.state.burnAlerts);
    const recipients = [
      { id: DEMO.recipients.emailOncall, details: { pagerduty_severity: 5, variables: [{ name: 'a', value: 1 }] } },
    ];
    assertValidation(await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, recipients }), sb.base, [
      { field: 'recipients[0].details.pagerduty_severity', code: 'incorrect_type' },
      { field: 'recipients[0].details.variables[0].value', code: 'incorrect_type' },
    ]);
    assert.equal(JSON.stringify(sb.handle.state.burnAlerts), before);
  });

  test('a recipient with type but no target is a 422 missing target', async () => {
    assertValidation(
      await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, recipients: [{ type: 'email' }] }),
      sb.base,
      [{ field: 'recipients[0].target', code: 'missing' }],
    );
  });

  test('a rejected update changes nothing', async () => {
    const before = JSON.stringify(sb.handle.state.burnAlerts);
    await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, recipients: [{ id: 'rcp_nope' }] });
    assert.equal(JSON.stringify(sb.handle.state.burnAlerts), before);
  });

  test('an unknown alert is a 404; an alert of another dataset is a 404', async () => {
    assertProblem(await put('ba_nope', EXHAUSTION), 404, sb.base, 'not-found');
    assertProblem(await put(DEMO.burnAlerts.coExhaustion, EXHAUSTION), 404, sb.base, 'not-found');
  });

  test('the read-only configuration key gets a 403 problem; it may still list', async () => {
    const readOnly = { 'X-Service-Team': SANDBOX_CREDENTIALS.readOnlyConfigKey };
    assertProblem(await put(DEMO.burnAlerts.gwExhaustion, EXHAUSTION, GW, readOnly), 403, sb.base, 'forbidden');
    const res = await sb.v1('GET', `/1/burn_alerts/${GW}?slo_id=${DEMO.slos.gwAvailability}`, undefined, readOnly);
    assert.equal(res.status, 200);
  });

  test('Content-Type text/plain is a 415 problem', async () => {
    const res = await put(DEMO.burnAlerts.gwExhaustion, EXHAUSTION, GW, { 'Content-Type': 'text/plain' });
    assertProblem(res, 415, sb.base, 'unsupported-media-type');
  });

  test('an unparseable body is a 400 problem', async () => {
    assertProblem(await put(DEMO.burnAlerts.gwExhaustion, '{"alert_type": '), 400, sb.base, 'unparseable-body');
  });

  test('a body over 100,000 bytes is a 413 problem', async () => {
    const res = await put(DEMO.burnAlerts.gwExhaustion, { ...EXHAUSTION, description: 'd'.repeat(100_000) });
    assertProblem(res, 413, sb.base, 'request-too-large');
  });
});
