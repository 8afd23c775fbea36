// The sandbox's trigger rewrites (docs/SANDBOX.md, "Trigger rewrites"): what the service does to a trigger
// it stores, each switched on and off alone, through the handle, the control endpoint and the CLI flag.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_REWRITES, DEMO, TRIGGER_REWRITES, type RewritesSpec } from '../../src/sandbox';
import { CliUsageError } from '../../src/cli/io';
import { parseSandboxArgs } from '../../src/cli/sandboxArgs';
import { assertValidation, startTestSandbox, type TestSandbox } from './sandbox-helpers';

type Json = Record<string, unknown>;
const GW = DEMO.datasets.gateway;
const BODY = {
  name: 'Rewritten',
  threshold: { op: '>', value: 5 },
  frequency: 300,
  recipients: [{ id: DEMO.recipients.emailOncall }],
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
};

let sb: TestSandbox;
before(async () => {
  sb = await startTestSandbox({ rateLimit: 100_000 });
});
beforeEach(async () => {
  assert.equal((await sb.control('POST', 'reset')).status, 200);
});
after(() => sb.handle.close());

/** Only the rewrites named switched on. */
const only = (...names: (keyof typeof DEFAULT_REWRITES)[]): RewritesSpec =>
  Object.fromEntries(TRIGGER_REWRITES.map((n) => [n, names.includes(n)]));

async function create(body: Json, rewrites: RewritesSpec): Promise<Json> {
  sb.handle.rewrites.set(rewrites);
  const res = await sb.v1('POST', `/1/triggers/${GW}`, body);
  assert.equal(res.status, 201, res.text);
  return res.json() as Json;
}

describe('switches', () => {
  test('the defaults: on what the service always does that the demo triggers hold, off what it may do', async () => {
    assert.deepEqual((await sb.control('GET', 'rewrites')).json(), {
      recipientIds: false,
      pagerdutySeverity: true,
      reorderLists: false,
      andNotEchoed: true,
      defaultsFilled: true,
      nullForUnset: false,
      floats: false,
      queryIdInline: false,
      timeRangeFromFrequency: false,
    });
  });

  test('POST /__sandbox/rewrites switches the ones named and keeps the others; a reset goes back to those given at start', async () => {
    const res = await sb.control('POST', 'rewrites', { floats: true, defaultsFilled: false });
    assert.deepEqual(res.json(), { ...DEFAULT_REWRITES, floats: true, defaultsFilled: false });
    await sb.control('POST', 'reset');
    assert.deepEqual((await sb.control('GET', 'rewrites')).json(), DEFAULT_REWRITES);
  });

  test('an unknown rewrite or a value that is not true or false is refused with 400, and nothing is switched', async () => {
    for (const body of [{ floatz: true }, { floats: 'yes' }, []]) {
      const res = await sb.control('POST', 'rewrites', body);
      assert.equal(res.status, 400, res.text);
    }
    assert.deepEqual(sb.handle.rewrites.current, DEFAULT_REWRITES);
  });

  test('rewrites given at start are the ones a reset goes back to', async () => {
    const other = await startTestSandbox({ rewrites: { floats: true } });
    try {
      other.handle.rewrites.set({ floats: false });
      await other.control('POST', 'reset');
      assert.deepEqual(other.handle.rewrites.current, { ...DEFAULT_REWRITES, floats: true });
    } finally {
      await other.handle.close();
    }
  });

  test('a list kept from before a switch is not answered after it', async () => {
    await sb.v1('GET', `/1/triggers/${GW}`);
    await sb.control('POST', 'rewrites', { floats: true });
    assert.match((await sb.v1('GET', `/1/triggers/${GW}`)).text, /"frequency":300\.0/);
  });

  test('--rewrites all, none, or the names to switch on (every other off); another name is a usage error', () => {
    const all = Object.fromEntries(TRIGGER_REWRITES.map((n) => [n, true]));
    assert.deepEqual(parseSandboxArgs(['--rewrites', 'all']), {
      kind: 'serve',
      options: { rewrites: all },
      print: 'json',
    });
    assert.deepEqual(parseSandboxArgs(['--rewrites', 'none']), {
      kind: 'serve',
      options: { rewrites: only() },
      print: 'json',
    });
    assert.deepEqual(parseSandboxArgs(['--rewrites', 'floats, queryIdInline']), {
      kind: 'serve',
      options: { rewrites: only('floats', 'queryIdInline') },
      print: 'json',
    });
    assert.throws(
      () => parseSandboxArgs(['--rewrites', 'floats,floatz']),
      (e: unknown) => e instanceof CliUsageError && /not floatz/.test(e.message),
    );
  });
});

describe('recipientIds', () => {
  test("on: a recipient sent by type and target is answered with the id of the team's recipient of that address", async () => {
    const t = await create(
      { ...BODY, recipients: [{ type: 'email', target: 'oncall@example.com' }] },
      only('recipientIds'),
    );
    assert.deepEqual(t.recipients, [{ id: DEMO.recipients.emailOncall, type: 'email', target: 'oncall@example.com' }]);
  });

  test("on: a new address gets a new id, which the team's recipients then list", async () => {
    const t = await create({ ...BODY, recipients: [{ type: 'slack', target: '#new-channel' }] }, only('recipientIds'));
    const [made] = t.recipients as Json[];
    const listed = (await sb.v1('GET', '/1/recipients')).json() as Json[];
    assert.deepEqual(
      listed.filter((r) => r.id === made?.id).map((r) => [r.type, r.details]),
      [['slack', { slack_channel: '#new-channel' }]],
    );
  });

  test('on: a marker gets an id the recipients list leaves out, which a write naming it by id is then accepted with', async () => {
    const t = await create({ ...BODY, recipients: [{ type: 'marker', target: 'deploys' }] }, only('recipientIds'));
    const id = (t.recipients as Json[])[0]?.id;
    assert.equal(
      ((await sb.v1('GET', '/1/recipients')).json() as Json[]).some((r) => r.id === id),
      false,
    );
    const again = await sb.v1('PUT', `/1/triggers/${GW}/${String(t.id)}`, { ...BODY, recipients: [{ id }] });
    assert.deepEqual(
      [again.status, (again.json() as Json).recipients],
      [200, [{ id, type: 'marker', target: 'deploys' }]],
    );
  });

  test('on: a PagerDuty recipient sent by id is answered with target ""', async () => {
    const t = await create(
      { ...BODY, recipients: [{ id: DEMO.recipients.pagerdutyPrimary, details: { pagerduty_severity: 'info' } }] },
      only('recipientIds'),
    );
    assert.deepEqual(t.recipients, [
      { id: DEMO.recipients.pagerdutyPrimary, type: 'pagerduty', target: '', details: { pagerduty_severity: 'info' } },
    ]);
  });

  test('off: a recipient sent by type and target is stored as sent, and a PagerDuty one by id has its name for a target', async () => {
    const t = await create(
      {
        ...BODY,
        recipients: [
          { type: 'email', target: 'new@example.com' },
          { id: DEMO.recipients.pagerdutyPrimary, details: { pagerduty_severity: 'info' } },
        ],
      },
      only(),
    );
    assert.deepEqual(t.recipients, [
      { type: 'email', target: 'new@example.com' },
      {
        id: DEMO.recipients.pagerdutyPrimary,
        type: 'pagerduty',
        target: 'Primary on-call',
        details: { pagerduty_severity: 'info' },
      },
    ]);
  });
});

describe('pagerdutySeverity', () => {
  test('on: a PagerDuty recipient without a severity is answered with "critical"; off, without details', async () => {
    const body = { ...BODY, recipients: [{ id: DEMO.recipients.pagerdutyPrimary }] };
    assert.deepEqual((await create(body, only('pagerdutySeverity'))).recipients, [
      {
        id: DEMO.recipients.pagerdutyPrimary,
        type: 'pagerduty',
        target: 'Primary on-call',
        details: { pagerduty_severity: 'critical' },
      },
    ]);
    assert.deepEqual((await create(body, only())).recipients, [
      { id: DEMO.recipients.pagerdutyPrimary, type: 'pagerduty', target: 'Primary on-call' },
    ]);
  });
});

describe('reorderLists', () => {
  const tags = ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((key) => ({ key, value: 'on' }));
  const filters = ['a', 'b', 'c', 'd'].map((column) => ({ column, op: 'exists' }));
  const fields = ['f1', 'f2', 'f3'].map((name) => ({ name, expression: '$duration_ms' }));
  const body = (reversed: boolean): Json => {
    const order = <T>(l: T[]) => (reversed ? [...l].reverse() : l);
    return {
      ...BODY,
      tags: order(tags),
      recipients: order([
        { id: DEMO.recipients.emailOncall },
        { id: DEMO.recipients.emailTeam },
        { id: DEMO.recipients.slackIncidents },
      ]),
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: order(filters),
        calculated_fields: order(fields),
        time_range: 600,
      },
    };
  };
  const lists = (t: Json) => [t.tags, t.recipients, (t.query as Json).filters, (t.query as Json).calculated_fields];

  test("on: the lists come back in an order of the service's own, the same whatever order they were sent in, and not the order sent", async () => {
    const sent = await create(body(false), only('reorderLists'));
    const reversed = await create(body(true), only('reorderLists'));
    assert.deepEqual(lists(sent), lists(reversed));
    assert.notDeepEqual(lists(sent), lists(body(false) as Json));
  });

  test('off: the lists come back as sent', async () => {
    const t = await create(body(true), only());
    assert.deepEqual(t.tags, [...tags].reverse());
    assert.deepEqual((t.query as Json).filters, [...filters].reverse());
  });
});

describe('andNotEchoed', () => {
  const query = {
    calculations: [{ op: 'COUNT' }],
    filters: [{ column: 'error', op: 'exists' }],
    filter_combination: 'AND',
    time_range: 600,
  };

  test('on: filter_combination "AND" is not answered; "OR" is', async () => {
    assert.deepEqual((await create({ ...BODY, query }, only('andNotEchoed'))).query, {
      calculations: [{ op: 'COUNT' }],
      filters: [{ column: 'error', op: 'exists' }],
      time_range: 600,
    });
    assert.equal(
      ((await create({ ...BODY, query: { ...query, filter_combination: 'OR' } }, only('andNotEchoed'))).query as Json)
        .filter_combination,
      'OR',
    );
  });

  test('off: "AND" is answered as sent', async () => {
    assert.equal(((await create({ ...BODY, query }, only())).query as Json).filter_combination, 'AND');
  });
});

describe('defaultsFilled and nullForUnset', () => {
  test('defaultsFilled on: a description, tags and exceeded_limit left out are answered with "", [] and 1', async () => {
    const t = await create(BODY, only('defaultsFilled'));
    assert.deepEqual([t.description, t.tags, t.threshold], ['', [], { op: '>', value: 5, exceeded_limit: 1 }]);
  });

  test('defaultsFilled off: they stay out', async () => {
    const t = await create(BODY, only());
    assert.deepEqual(['description' in t, 'tags' in t, t.threshold], [false, false, { op: '>', value: 5 }]);
  });

  test('nullForUnset on: an optional member with no value is answered as null', async () => {
    const { query: _inline, ...rest } = BODY;
    const t = await create({ ...rest, frequency: 600, query_id: DEMO.savedQueries.gw5xx }, only('nullForUnset'));
    assert.deepEqual(
      [t.description, t.tags, t.evaluation_schedule, t.baseline_details, t.query],
      [null, null, null, null, null],
    );
  });
});

describe('floats', () => {
  test('on: whole numbers are answered as floats, and read back as the same numbers', async () => {
    sb.handle.rewrites.set(only('floats'));
    const res = await sb.v1('POST', `/1/triggers/${GW}`, BODY);
    assert.match(res.text, /"threshold":\{"op":">","value":5\.0\},"frequency":300\.0,/);
    assert.deepEqual([(res.json() as Json).frequency, ((res.json() as Json).threshold as Json).value], [300, 5]);
  });
});

describe('queryIdInline', () => {
  test('on: a trigger on a saved query is answered, listed and read with the saved query inline beside its query_id', async () => {
    const { query: _inline, ...rest } = BODY;
    const t = await create({ ...rest, frequency: 600, query_id: DEMO.savedQueries.gw5xx }, only('queryIdInline'));
    const saved = (await sb.v1('GET', `/1/queries/${GW}/${DEMO.savedQueries.gw5xx}`)).json() as Json;
    const { id: _id, ...savedQuery } = saved;
    assert.deepEqual([t.query_id, t.query], [DEMO.savedQueries.gw5xx, savedQuery]);
    const listed = ((await sb.v1('GET', `/1/triggers/${GW}`)).json() as Json[]).find((l) => l.id === t.id);
    assert.deepEqual(listed?.query, savedQuery);
  });
});

describe('timeRangeFromFrequency', () => {
  const query = { calculations: [{ op: 'COUNT' }] };

  test('on: a query without time_range is stored with the frequency as its time_range', async () => {
    assert.deepEqual((await create({ ...BODY, query }, only('timeRangeFromFrequency'))).query, {
      calculations: [{ op: 'COUNT' }],
      time_range: 300,
    });
  });

  test('off: it is refused, as the spec requires time_range', async () => {
    sb.handle.rewrites.set(only());
    assertValidation(await sb.v1('POST', `/1/triggers/${GW}`, { ...BODY, query }), sb.base, [
      { field: 'query.time_range', code: 'missing' },
    ]);
  });
});
