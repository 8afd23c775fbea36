// The canonical trigger file (src/triggerFiles/normalize.ts): what each rewrite of the service maps to,
// member order, and the text pull and export write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalize, triggerFileText } from '../../src/triggerFiles';

const listed = {
  id: 'tr_1',
  dataset_slug: 'api',
  name: 'Slow requests',
  description: 'p99 over 2s',
  tags: [{ key: 'team', value: 'edge' }],
  threshold: { op: '>', value: 2000, exceeded_limit: 1 },
  frequency: 900,
  alert_type: 'on_change',
  disabled: false,
  triggered: false,
  recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
  evaluation_schedule_type: 'frequency',
  evaluation_schedule: null,
  baseline_details: null,
  query: { calculations: [{ op: 'P99', column: 'duration_ms' }], time_range: 1800 },
  query_id: 'q_made_inline',
  auto_investigate: false,
  created_at: '2025-06-01T10:00:00Z',
  updated_at: '2025-06-01T10:00:00Z',
};

test('a listed trigger keeps id and its writable members, without read-only members, added members, nulls, defaults or the query_id of an inline query', () => {
  assert.deepEqual(normalize(listed), {
    id: 'tr_1',
    dataset_slug: 'api',
    name: 'Slow requests',
    description: 'p99 over 2s',
    tags: [{ key: 'team', value: 'edge' }],
    threshold: { op: '>', value: 2000 },
    recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
    query: { calculations: [{ op: 'P99', column: 'duration_ms' }], time_range: 1800 },
  });
});

test('members come in the file order whatever order they were given in', () => {
  const shuffled = Object.fromEntries(Object.entries(listed).reverse());
  assert.deepEqual(Object.keys(normalize(shuffled) as object), [
    'id',
    'dataset_slug',
    'name',
    'description',
    'tags',
    'threshold',
    'recipients',
    'query',
  ]);
  assert.equal(triggerFileText(shuffled), triggerFileText(listed));
});

test('query_id is kept when there is no inline query', () => {
  assert.deepEqual(normalize({ name: 'n', query: null, query_id: 'q_saved' }), { name: 'n', query_id: 'q_saved' });
});

test('an empty or null description is left out; a non-empty one kept', () => {
  assert.deepEqual(normalize({ name: 'n', description: '' }), { name: 'n' });
  assert.deepEqual(normalize({ name: 'n', description: null }), { name: 'n' });
  assert.deepEqual(normalize({ name: 'n', description: ' ' }), { name: 'n', description: ' ' });
});

test('environment-wide triggers say dataset_slug all, whether given as all or __all__', () => {
  assert.deepEqual(normalize({ dataset_slug: '__all__', name: 'n' }), { dataset_slug: 'all', name: 'n' });
  assert.deepEqual(normalize({ dataset_slug: 'all', name: 'n' }), { dataset_slug: 'all', name: 'n' });
});

test('defaults are left out and other values kept: frequency, alert_type, disabled, schedule type, exceeded_limit, filter_combination', () => {
  assert.deepEqual(
    normalize({
      name: 'n',
      frequency: 900,
      alert_type: 'on_change',
      disabled: false,
      evaluation_schedule_type: 'frequency',
      threshold: { op: '>', value: 1, exceeded_limit: 1 },
    }),
    { name: 'n', threshold: { op: '>', value: 1 } },
  );
  assert.deepEqual(
    normalize({
      name: 'n',
      frequency: 300,
      alert_type: 'on_true',
      disabled: true,
      evaluation_schedule_type: 'window',
      threshold: { exceeded_limit: 3, value: 1, op: '>' },
    }),
    {
      name: 'n',
      threshold: { op: '>', value: 1, exceeded_limit: 3 },
      frequency: 300,
      alert_type: 'on_true',
      disabled: true,
      evaluation_schedule_type: 'window',
    },
  );
  assert.deepEqual(
    normalize({
      query: {
        time_range: 600,
        filter_combination: 'AND',
        filters: [{ value: 1, op: '=', column: 'a' }],
        calculations: [{ op: 'COUNT', filter_combination: 'AND', filters: [] }],
      },
    }),
    { query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'a', op: '=', value: 1 }], time_range: 600 } },
  );
  assert.deepEqual(
    normalize({ query: { calculations: [{ op: 'COUNT' }], filter_combination: 'OR', time_range: 600 } }),
    {
      query: { calculations: [{ op: 'COUNT' }], filter_combination: 'OR', time_range: 600 },
    },
  );
});

test('a query without calculations is the explicit COUNT the service makes of it', () => {
  assert.deepEqual(normalize({ query: { time_range: 600 } }), {
    query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  });
  assert.deepEqual(normalize({ query: { calculations: [], time_range: 600 } }), {
    query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  });
});

test('recipients are a set: sorted (by id, then type and target), each once', () => {
  const recipients = [
    { type: 'webhook', target: 'https://hook.example' },
    { target: 'b@example.com', id: 'rcp_b', type: 'email' },
    { type: 'email', target: 'z@example.com' },
    { id: 'rcp_a' },
    { id: 'rcp_b', type: 'email', target: 'b@example.com' },
  ];
  assert.deepEqual((normalize({ recipients }) as { recipients: unknown }).recipients, [
    { id: 'rcp_a' },
    { id: 'rcp_b', type: 'email', target: 'b@example.com' },
    { type: 'email', target: 'z@example.com' },
    { type: 'webhook', target: 'https://hook.example' },
  ]);
});

test('the lists the service answers in its own order are sorted in the file, each element once: tags, filters, havings, calculated fields', () => {
  const tags = [
    { value: 'edge', key: 'team' },
    { key: 'severity', value: 'high' },
    { key: 'team', value: 'edge' },
  ];
  const query = {
    calculations: [{ op: 'COUNT' }],
    filters: [
      { column: 'b', op: 'exists' },
      { column: 'a', op: '=', value: 1 },
    ],
    havings: [
      { calculate_op: 'P99', column: 'd', op: '>', value: 1 },
      { calculate_op: 'COUNT', op: '>', value: 2 },
    ],
    calculated_fields: [
      { name: 'z', expression: '$b' },
      { name: 'a', expression: '$a' },
    ],
    formulas: [
      { name: 'z', expression: '$b' },
      { name: 'a', expression: '$a' },
    ],
    time_range: 60,
  };
  assert.deepEqual(normalize({ tags, query }), {
    tags: [
      { key: 'severity', value: 'high' },
      { key: 'team', value: 'edge' },
    ],
    query: {
      calculations: [{ op: 'COUNT' }],
      filters: [
        { column: 'a', op: '=', value: 1 },
        { column: 'b', op: 'exists' },
      ],
      havings: [
        { calculate_op: 'COUNT', op: '>', value: 2 },
        { calculate_op: 'P99', column: 'd', op: '>', value: 1 },
      ],
      formulas: [
        { name: 'z', expression: '$b' },
        { name: 'a', expression: '$a' },
      ],
      calculated_fields: [
        { name: 'a', expression: '$a' },
        { name: 'z', expression: '$b' },
      ],
      time_range: 60,
    },
  });
});

test('compared, a recipient named by id is the id alone (the service fills in its type and target)', () => {
  const recipients = [
    { id: 'rcp_b', type: 'email', target: 'b@example.com' },
    { id: 'rcp_b' },
    { type: 'email', target: 'z@example.com' },
  ];
  assert.deepEqual((normalize({ recipients }, { recipientsById: true }) as { recipients: unknown }).recipients, [
    { id: 'rcp_b' },
    { type: 'email', target: 'z@example.com' },
  ]);
});

test('the default paging severity is left out, with the details it empties; other details are kept', () => {
  const pd = (details: unknown) =>
    normalize({ recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: 'Primary', details }] });
  assert.deepEqual(pd({ pagerduty_severity: 'critical' }), {
    recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: 'Primary' }],
  });
  assert.deepEqual(pd({ pagerduty_severity: 'critical', variables: [] }), {
    recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: 'Primary' }],
  });
  assert.deepEqual(pd({ variables: [{ value: 'edge', name: 'team' }], pagerduty_severity: 'warning' }), {
    recipients: [
      {
        id: 'rcp_pd',
        type: 'pagerduty',
        target: 'Primary',
        details: { pagerduty_severity: 'warning', variables: [{ name: 'team', value: 'edge' }] },
      },
    ],
  });
});

test('empty lists are left out: tags, recipients, filters, breakdowns, havings, formulas, calculated fields', () => {
  assert.deepEqual(
    normalize({
      name: 'n',
      tags: [],
      recipients: [],
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [],
        breakdowns: [],
        havings: [],
        formulas: [],
        calculated_fields: [],
        time_range: 60,
      },
    }),
    { name: 'n', query: { calculations: [{ op: 'COUNT' }], time_range: 60 } },
  );
});

test('members inside the query that the file format does not name are kept, after the known ones, sorted', () => {
  assert.deepEqual(
    Object.keys(
      (
        normalize({ query: { zeta: 1, time_range: 60, alpha: 2, calculations: [{ op: 'COUNT' }] } }) as {
          query: object;
        }
      ).query,
    ),
    ['calculations', 'time_range', 'alpha', 'zeta'],
  );
});

test('normalize is idempotent and leaves what is not an object as it is', () => {
  const once = normalize(listed);
  assert.deepEqual(normalize(once), once);
  assert.equal(normalize(42), 42);
  assert.equal(normalize(null), null);
  assert.deepEqual(normalize({}), {});
});

test('the file text is two-space JSON with a final newline', () => {
  assert.equal(
    triggerFileText({ name: 'n', threshold: { value: 1, op: '>' } }),
    '{\n  "name": "n",\n  "threshold": {\n    "op": ">",\n    "value": 1\n  }\n}\n',
  );
});
