// The comparison drift, plan and apply's read-back make (src/triggerFiles/compare.ts) against each rewrite
// the service makes of a trigger it stores (docs/TRIGGER-FILES.md, "Drift"): a file and what the service
// answers after that rewrite are in sync, and a real change is still found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareTriggers, differenceText, storedDifferently, writeBody } from '../../src/triggerFiles';

type Json = Record<string, unknown>;

/** A trigger as someone writes it in a file. */
const written: Json = {
  dataset_slug: 'api',
  name: 'Errors',
  threshold: { op: '>', value: 5 },
  frequency: 300,
  recipients: [{ id: 'rcp_mail' }],
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
};

/** The same trigger as the service answers it when it rewrote nothing. */
const stored = (over: Json = {}): Json => ({
  id: 'trig_1',
  ...written,
  recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
  query_id: 'q_made_inline',
  ...over,
});

const differences = (local: Json, service: Json): string[] =>
  compareTriggers(local, service).map((d) => differenceText(d, 200));

test('recipients answered in another order are in sync', () => {
  const local = {
    ...written,
    recipients: [{ id: 'rcp_b' }, { id: 'rcp_a' }, { type: 'email', target: 'z@example.com' }],
  };
  const service = stored({
    recipients: [{ type: 'email', target: 'z@example.com' }, { id: 'rcp_a' }, { id: 'rcp_b' }],
  });
  assert.deepEqual(differences(local, service), []);
});

test('tags answered in another order are in sync; a tag changed is still a difference', () => {
  const tags = [
    { key: 'team', value: 'edge' },
    { key: 'severity', value: 'high' },
  ];
  assert.deepEqual(differences({ ...written, tags }, stored({ tags: [...tags].reverse() })), []);
  assert.deepEqual(
    differences(
      { ...written, tags },
      stored({
        tags: [
          { key: 'team', value: 'core' },
          { key: 'severity', value: 'high' },
        ],
      }),
    ),
    ['tags[1].value: "core" -> "edge"'],
  );
});

test("the query's filters answered in another order are in sync", () => {
  const filters = [
    { column: 'status_code', op: '>=', value: 500 },
    { column: 'error', op: '=', value: true },
    { column: 'http.route', op: 'exists' },
  ];
  const query = (f: Json[]) => ({
    calculations: [{ op: 'COUNT' }],
    filters: f,
    filter_combination: 'OR',
    time_range: 600,
  });
  assert.deepEqual(
    differences(
      { ...written, query: query(filters) },
      stored({ query: query([filters[2], filters[0], filters[1]] as Json[]) }),
    ),
    [],
  );
});

test("the query's havings answered in another order are in sync", () => {
  const havings = [
    { calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1000 },
    { calculate_op: 'COUNT', op: '>', value: 10 },
  ];
  const query = (h: Json[]) => ({
    calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
    havings: h,
    time_range: 600,
  });
  assert.deepEqual(
    differences({ ...written, query: query(havings) }, stored({ query: query([...havings].reverse()) })),
    [],
  );
});

test('calculated fields answered in another order are in sync', () => {
  const fields = [
    { name: 'slow', expression: 'GT($duration_ms, 1000)' },
    { name: 'failed', expression: 'EQUALS($error, true)' },
  ];
  const query = (c: Json[]) => ({ calculations: [{ op: 'COUNT' }], calculated_fields: c, time_range: 600 });
  assert.deepEqual(
    differences({ ...written, query: query(fields) }, stored({ query: query([...fields].reverse()) })),
    [],
  );
});

test('an element given twice is the element once, in every list compared as a set', () => {
  const tag = { key: 'team', value: 'edge' };
  const filter = { column: 'error', op: '=', value: true };
  const local = {
    ...written,
    tags: [tag, tag],
    query: { calculations: [{ op: 'COUNT' }], filters: [filter, filter], time_range: 600 },
  };
  assert.deepEqual(
    differences(
      local,
      stored({ tags: [tag], query: { calculations: [{ op: 'COUNT' }], filters: [filter], time_range: 600 } }),
    ),
    [],
  );
});

test('a recipient sent by type and target, answered with the id the service gave it, is in sync', () => {
  const local = { ...written, recipients: [{ type: 'email', target: 'legacy@example.com' }, { id: 'rcp_mail' }] };
  const service = stored({
    recipients: [
      { id: 'rcp_mail', type: 'email', target: 'oncall@example.com' },
      { id: 'rcp_new', type: 'email', target: 'legacy@example.com' },
    ],
  });
  assert.deepEqual(differences(local, service), []);
});

test('a recipient the file names by id with its type and target is in sync with the service holding it by type and target alone', () => {
  const local = { ...written, recipients: [{ id: 'rcp_legacy', type: 'email', target: 'legacy@example.com' }] };
  assert.deepEqual(differences(local, stored({ recipients: [{ type: 'email', target: 'legacy@example.com' }] })), []);
});

test('two recipients of different ids are never one recipient, whatever their type and target', () => {
  const local = { ...written, recipients: [{ id: 'rcp_a', type: 'email', target: 'x@example.com' }] };
  assert.deepEqual(
    differences(local, stored({ recipients: [{ id: 'rcp_b', type: 'email', target: 'x@example.com' }] })),
    ['recipients[0].id: "rcp_b" -> "rcp_a"'],
  );
});

test('a recipient given by type and target that the service holds with another address is a difference', () => {
  const local = { ...written, recipients: [{ type: 'email', target: 'new@example.com' }] };
  assert.deepEqual(
    differences(local, stored({ recipients: [{ id: 'rcp_old', type: 'email', target: 'old@example.com' }] })),
    [
      'recipients[0].type: (none) -> "email"',
      'recipients[0].target: (none) -> "new@example.com"',
      'recipients[0].id: "rcp_old" -> (none)',
    ],
  );
});

test('a recipient sent by id, answered with its type and target filled in, is in sync', () => {
  assert.deepEqual(differences({ ...written, recipients: [{ id: 'rcp_mail' }] }, stored()), []);
});

test('a paging recipient sent by id, answered with target "", is in sync', () => {
  const local = { ...written, recipients: [{ id: 'rcp_pd', details: { pagerduty_severity: 'warning' } }] };
  assert.deepEqual(
    differences(
      local,
      stored({
        recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: '', details: { pagerduty_severity: 'warning' } }],
      }),
    ),
    [],
  );
});

test('a paging recipient sent without a severity, answered with "critical", is in sync; another severity is a difference', () => {
  const local = { ...written, recipients: [{ id: 'rcp_pd' }] };
  const answered = (severity: string) =>
    stored({
      recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: '', details: { pagerduty_severity: severity } }],
    });
  assert.deepEqual(differences(local, answered('critical')), []);
  assert.deepEqual(differences(local, answered('info')), [
    'recipients[0].details: {"pagerduty_severity":"info"} -> (none)',
  ]);
});

test('a trigger written with query_id, answered with the saved query inline beside that id, is in sync', () => {
  const { query: _inline, ...rest } = written;
  const local = { ...rest, query_id: 'q_saved' };
  const service = stored({
    query_id: 'q_saved',
    query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'error', op: '=', value: true }], time_range: 1800 },
  });
  assert.deepEqual(differences(local, service), []);
  assert.deepEqual(differences(local, { ...service, query_id: 'q_other' }), ['query_id: "q_other" -> "q_saved"']);
});

test('a trigger written with an inline query, listed with the query_id of the saved query made of it, is in sync', () => {
  assert.deepEqual(differences(written, stored({ query_id: 'q_made_inline' })), []);
});

test('numbers answered as floats (100.0 for 100) are in sync', () => {
  const service = JSON.parse(
    '{"id":"trig_1","dataset_slug":"api","name":"Errors","threshold":{"op":">","value":5.0,"exceeded_limit":1.0},"frequency":300.0,' +
      '"recipients":[{"id":"rcp_mail"}],"query":{"calculations":[{"op":"COUNT"}],"time_range":600.0}}',
  ) as Json;
  assert.deepEqual(differences(written, service), []);
});

test('filter_combination "AND", never echoed by the service, is in sync with a file that gives it, in the query and in a calculation', () => {
  const local = {
    ...written,
    query: {
      calculations: [{ op: 'COUNT', filters: [{ column: 'error', op: 'exists' }], filter_combination: 'AND' }],
      filter_combination: 'AND',
      time_range: 600,
    },
  };
  assert.deepEqual(
    differences(
      local,
      stored({
        query: { calculations: [{ op: 'COUNT', filters: [{ column: 'error', op: 'exists' }] }], time_range: 600 },
      }),
    ),
    [],
  );
});

test('optional members the service answers as null are in sync with a file that leaves them out', () => {
  const service = stored({
    description: null,
    tags: null,
    evaluation_schedule: null,
    baseline_details: null,
    query: { calculations: [{ op: 'COUNT' }], filters: null, time_range: 600 },
  });
  assert.deepEqual(differences(written, service), []);
});

test('the defaults the service fills in are in sync with a file that leaves them out', () => {
  const service = stored({
    alert_type: 'on_change',
    evaluation_schedule_type: 'frequency',
    threshold: { op: '>', value: 5, exceeded_limit: 1 },
    description: '',
    tags: [],
    disabled: false,
  });
  assert.deepEqual(differences(written, service), []);
});

test('a query without time_range, stored with the frequency as its time_range, is in sync; another time_range is a difference', () => {
  const local = { ...written, query: { calculations: [{ op: 'COUNT' }] } };
  assert.deepEqual(differences(local, stored({ query: { calculations: [{ op: 'COUNT' }], time_range: 300 } })), []);
  assert.deepEqual(differences(local, stored({ query: { calculations: [{ op: 'COUNT' }], time_range: 600 } })), [
    'query.time_range: 600 -> 300',
  ]);
});

test("apply's read-back: the body a file sends and the service's answer after every rewrite are not stored differently", () => {
  const file = {
    ...written,
    tags: [
      { key: 'team', value: 'edge' },
      { key: 'severity', value: 'high' },
    ],
    recipients: [{ type: 'email', target: 'legacy@example.com' }, { id: 'rcp_pd' }],
    query: {
      calculations: [{ op: 'COUNT' }],
      filters: [
        { column: 'a', op: 'exists' },
        { column: 'b', op: 'exists' },
      ],
      filter_combination: 'AND',
      time_range: 600,
    },
  };
  const readBack = {
    id: 'trig_1',
    dataset_slug: 'api',
    name: 'Errors',
    description: '',
    tags: [
      { key: 'severity', value: 'high' },
      { key: 'team', value: 'edge' },
    ],
    threshold: { op: '>', value: 5, exceeded_limit: 1 },
    frequency: 300,
    alert_type: 'on_change',
    disabled: false,
    triggered: false,
    recipients: [
      { id: 'rcp_pd', type: 'pagerduty', target: '', details: { pagerduty_severity: 'critical' } },
      { id: 'rcp_9', type: 'email', target: 'legacy@example.com' },
    ],
    evaluation_schedule_type: 'frequency',
    evaluation_schedule: null,
    query: {
      calculations: [{ op: 'COUNT' }],
      filters: [
        { column: 'b', op: 'exists' },
        { column: 'a', op: 'exists' },
      ],
      time_range: 600,
    },
    query_id: 'q_new',
  };
  assert.deepEqual(storedDifferently(writeBody(file), 'api', readBack), []);
});
