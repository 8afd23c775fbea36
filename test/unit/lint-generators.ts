// The documents the linter's property tests are made of: triggers generated near every boundary of the
// rules, the same mutated as typing breaks them, and JSON written any way. lint-fuzz.test.ts checks the
// linter on them; test/sameOutput.ts compares the output of two versions of the linter on them.
import fc from 'fast-check';
import type { LintOptions } from '../../src/lint';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../src/api/schemas/trigger';
import { CALCULATION_OPS, FILTER_OPS, METRICS_CALCULATION_OPS } from '../../src/lint/schema';

export const OPTIONS: LintOptions = { metricsDatasets: ['metrics'] };

// Values near every boundary of the rules, plus values of the wrong type.
const seconds = fc.oneof(
  fc.constantFrom(0, 30, 59, 60, 61, 90, 120, 240, 241, 900, 899, 901, 3600, 3601, 43200, 86400, 86401, 86460, 345600),
  fc.integer({ min: -100, max: 100_000 }),
  fc.integer({ min: 1, max: 1440 }).map((n) => n * 60),
  fc.double({ min: 0, max: 100_000, noNaN: true }),
  fc.constant('900'),
);
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'team', 'Team', 'a'.repeat(121), 'x'.repeat(33)),
);
const op = fc.constantFrom(...CALCULATION_OPS, ...METRICS_CALCULATION_OPS, 'MEDIAN', 42);
const column = fc.constantFrom('duration_ms', 'status', 'c1', '');
const calculation = fc.record(
  {
    op,
    column,
    name: fc.constantFrom('a', 'b', ''),
    filters: fc.constant([{ column: 'x', op: 'exists' }]),
    alias: fc.constant(1),
  },
  { requiredKeys: ['op'] },
);
const having = fc.record(
  { calculate_op: op, column, op: fc.constantFrom('>', '<', '~'), value: fc.oneof(fc.integer(), fc.constant('5')) },
  { requiredKeys: [] },
);
const query = fc.record(
  {
    calculations: fc.array(calculation, { maxLength: 4 }),
    filters: fc.array(
      fc.record({
        column,
        op: fc.constantFrom(...FILTER_OPS, 'like'),
        value: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })),
      }),
      { maxLength: 2 },
    ),
    filter_combination: fc.constantFrom('AND', 'OR', 'XOR'),
    breakdowns: fc.array(fc.oneof(column, fc.integer()), { maxLength: 2 }),
    havings: fc.array(having, { maxLength: 2 }),
    formulas: fc.array(fc.record({ name: text, expression: text }, { requiredKeys: [] }), { maxLength: 2 }),
    time_range: seconds,
    granularity: fc.oneof(fc.integer({ min: -1, max: 5000 }), fc.constant('60')),
    orders: fc.constant([]),
    limit: fc.integer(),
    start_time: fc.integer(),
    end_time: fc.integer(),
    usage_mode: fc.boolean(),
    timerange: fc.integer(),
  },
  { requiredKeys: [] },
);
const readOnly = fc.record(
  Object.fromEntries(TRIGGER_READ_ONLY_MEMBERS.map((m) => [m, fc.constantFrom('x', false, null)])),
  { requiredKeys: [] },
);
export const triggerValue = fc
  .tuple(
    fc.record(
      {
        dataset_slug: fc.constantFrom('api', 'metrics', '', 'all'),
        name: text,
        description: text,
        tags: fc.array(fc.record({ key: text, value: fc.oneof(text, fc.integer()) }), { maxLength: 12 }),
        threshold: fc.record(
          {
            op: fc.constantFrom('>', '>=', '<', '<=', '='),
            value: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant('1')),
            exceeded_limit: fc.integer({ min: -1, max: 7 }),
          },
          { requiredKeys: [] },
        ),
        frequency: seconds,
        alert_type: fc.constantFrom('on_change', 'on_true', 'always'),
        disabled: fc.oneof(fc.boolean(), fc.constant('no')),
        recipients: fc.array(
          fc.oneof(fc.record({ id: text }), fc.record({ type: text, target: text }), fc.constant({})),
          { maxLength: 2 },
        ),
        evaluation_schedule_type: fc.constantFrom('frequency', 'window', 'hourly'),
        evaluation_schedule: fc.oneof(
          fc.constant(null),
          fc.record({
            window: fc.record({
              days_of_week: fc.array(fc.constantFrom('monday', 'sunday', 'Monday'), { maxLength: 8 }),
              start_time: fc.constantFrom('09:00', '9:00', '24:00'),
              end_time: fc.constantFrom('17:00', '23:59'),
            }),
          }),
        ),
        baseline_details: fc.oneof(
          fc.constant(null),
          fc.record({
            type: fc.constantFrom('percentage', 'value', 'ratio'),
            offset_minutes: fc.constantFrom(60, 1440, 30),
          }),
        ),
        query: fc.oneof(query, fc.constant(null), fc.constant('q')),
        query_id: fc.oneof(fc.constant('q1'), fc.constant(null)),
        frequncy: fc.integer(),
      },
      { requiredKeys: [] },
    ),
    readOnly,
  )
  .map(([t, r]) => ({ ...r, ...t }));

const layout = fc.constantFrom<string | number>(0, 2, '\t');
export const document = fc.oneof(
  fc.tuple(triggerValue, layout).map(([t, indent]) => JSON.stringify(t, null, indent)),
  fc.tuple(fc.array(triggerValue, { maxLength: 3 }), layout).map(([ts, indent]) => JSON.stringify(ts, null, indent)),
);

/** Text mutations that break JSON the way typing does: cut, insert, truncate, CRLF. */
const edits = fc.array(
  fc.tuple(
    fc.nat(),
    fc.nat({ max: 8 }),
    fc.constantFrom('', ',', '}', ']', '"', ':', '{', '1', ' ', '\n', '//', 'é', '\u0000'),
  ),
  { minLength: 1, maxLength: 3 },
);
const mutation = ([doc, cuts, crlf]: [string, [number, number, string][], boolean]) => {
  let out = doc;
  for (const [at, cut, insert] of cuts) {
    const i = out.length === 0 ? 0 : at % (out.length + 1);
    out = out.slice(0, i) + insert + out.slice(i + cut);
  }
  return crlf ? out.replace(/\n/g, '\r\n') : out;
};
export const mutated = fc
  .tuple(document, edits, fc.boolean())
  .map(mutation)
  .chain((doc) => fc.constantFrom(doc, `\uFEFF${doc}`));

/** Files of many triggers broken the same way: what a broken file's trigger-by-trigger reading meets. */
export const mutatedMany = fc
  .tuple(
    fc.array(triggerValue, { minLength: 5, maxLength: 60 }).map((ts) => JSON.stringify(ts, null, 2)),
    edits,
    fc.boolean(),
  )
  .map(mutation);

// JSON as people and other tools write it, not as JSON.stringify does: any whitespace (CRLF and lone
// CR too), every kind of escape (short, \u in either case, escaped surrogate pairs and lone
// surrogates), number forms, full Unicode, and duplicate keys spelled differently ("a" and "\u0061").
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '/': '\\/',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};
const space = fc.array(fc.constantFrom(' ', '\t', '\n', '\r\n', '\r'), { maxLength: 2 }).map((a) => a.join(''));
const character = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom(
    '"',
    '\\',
    '/',
    '\b',
    '\f',
    '\n',
    '\r',
    '\t',
    '\u0000',
    '\u001f',
    '\u2028',
    '\u{1F642}',
    '\ud800',
    '\udfff',
    '{',
    ']',
    ',',
    ':',
  ),
);
function encode(c: string, how: number): string {
  const units = Array.from({ length: c.length }, (_, i) => c.charCodeAt(i));
  const mustEscape = c === '"' || c === '\\' || units.some((u) => u < 0x20);
  const short = SHORT_ESCAPES[c];
  if (how === 0 && !mustEscape) return c;
  if (how === 1 && short !== undefined) return short;
  const hex = (u: number) => u.toString(16).padStart(4, '0');
  return units.map((u) => `\\u${how === 2 ? hex(u).toUpperCase() : hex(u)}`).join('');
}
const jsonString = fc
  .array(fc.tuple(character, fc.nat({ max: 3 })), { maxLength: 6 })
  .map((parts) => `"${parts.map(([c, how]) => encode(c, how)).join('')}"`);
const key = fc.oneof(jsonString, fc.constantFrom('"a"', '"\\u0061"', '"b"', '""'));
const jsonNumber = fc.oneof(
  fc.constantFrom(
    '0',
    '-0',
    '1',
    '-12',
    '3.25',
    '1e5',
    '1E+5',
    '-2.5e-3',
    '0.0',
    '1e0',
    '123456789012345678901234567890',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);
const { written } = fc.letrec<{ written: string; array: string; object: string }>((tie) => ({
  written: fc.oneof(
    { depthSize: 'small', maxDepth: 5 },
    jsonString,
    jsonNumber,
    fc.constantFrom('true', 'false', 'null'),
    tie('array'),
    tie('object'),
  ),
  array: fc
    .tuple(fc.array(fc.tuple(space, tie('written'), space), { maxLength: 4 }), space)
    .map(([items, inside]) =>
      items.length === 0 ? `[${inside}]` : `[${items.map(([a, v, b]) => a + v + b).join(',')}]`,
    ),
  object: fc
    .tuple(fc.array(fc.tuple(space, key, space, space, tie('written'), space), { maxLength: 4 }), space)
    .map(([members, inside]) =>
      members.length === 0
        ? `{${inside}}`
        : `{${members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`,
    ),
}));
export const writtenDocument = fc.tuple(space, written, space).map(([a, v, b]) => a + v + b);

// Triggers valid member by member, or nearly: each member drawn from what the rules allow, then now and
// then one member given any JSON value. Most pass the member checks (the linter's fast path, which skips
// zod for them: accepts.ts), and the relational rules still find plenty (time range against frequency,
// havings, names, schedules, baselines).
const days = fc.uniqueArray(
  fc.constantFrom('sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'),
  { minLength: 1, maxLength: 7 },
);
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const triggerOp = fc.constantFrom(
  'COUNT',
  'SUM',
  'AVG',
  'MAX',
  'P99',
  'P50',
  'COUNT_DISTINCT',
  'RATE_AVG',
  'COUNT_DATAPOINTS',
  'HISTOGRAM_COUNT',
);
const someColumn = fc.constantFrom('duration_ms', 'status', 'route', 'c1');
const minutes = (min: number, max: number) => fc.integer({ min, max }).map((n) => n * 60);
const validQuery = fc.record(
  {
    calculations: fc.array(
      fc.record({ op: triggerOp, column: someColumn, name: fc.constantFrom('a', 'b') }, { requiredKeys: ['op'] }),
      { minLength: 1, maxLength: 3 },
    ),
    filters: fc.array(
      fc.record(
        {
          column: someColumn,
          op: fc.constantFrom('=', '!=', 'exists', 'in'),
          value: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.array(fc.integer(), { maxLength: 2 })),
        },
        { requiredKeys: ['column', 'op'] },
      ),
      { maxLength: 2 },
    ),
    filter_combination: fc.constantFrom('AND', 'OR'),
    breakdowns: fc.array(someColumn, { maxLength: 2 }),
    havings: fc.array(
      fc.record(
        {
          calculate_op: triggerOp,
          column: someColumn,
          op: fc.constantFrom('>', '<=', '='),
          value: fc.integer({ min: -5, max: 5 }),
        },
        { requiredKeys: ['op', 'value'] },
      ),
      { maxLength: 1 },
    ),
    formulas: fc.array(fc.record({ name: fc.constantFrom('f', 'a'), expression: fc.constantFrom('$a / $b', 'x') }), {
      maxLength: 1,
    }),
    time_range: fc.oneof(minutes(1, 1440), fc.integer({ min: 60, max: 86_400 })),
    granularity: fc.integer({ min: 1, max: 3600 }),
  },
  { requiredKeys: ['calculations', 'time_range'] },
);
const validTrigger = fc.record(
  {
    id: fc.constantFrom('t1', 'trg_2'),
    dataset_slug: fc.constantFrom('api', 'metrics', 'all'),
    name: fc.string({ minLength: 1, maxLength: 20 }),
    description: fc.string({ maxLength: 40 }),
    tags: fc.array(
      fc.record({ key: fc.stringMatching(/^[a-z]{1,8}$/), value: fc.stringMatching(/^[a-z][a-z0-9/-]{1,10}$/) }),
      { maxLength: 3 },
    ),
    threshold: fc.record(
      {
        op: fc.constantFrom('>', '>=', '<', '<='),
        value: fc.oneof(fc.integer({ min: -10, max: 10 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
        exceeded_limit: fc.integer({ min: 1, max: 5 }),
      },
      { requiredKeys: ['op', 'value'] },
    ),
    frequency: minutes(1, 1440),
    alert_type: fc.constantFrom('on_change', 'on_true'),
    disabled: fc.boolean(),
    recipients: fc.array(
      fc.oneof(
        fc.record({ id: fc.constantFrom('rcp_1', 'r2') }),
        fc.record({ type: fc.constantFrom('email', 'slack'), target: fc.constantFrom('a@example.com', '#ops') }),
      ),
      { maxLength: 2 },
    ),
    evaluation_schedule_type: fc.constantFrom('frequency', 'window'),
    evaluation_schedule: fc.oneof(
      fc.constant(null),
      fc.record({ window: fc.record({ days_of_week: days, start_time: hhmm, end_time: hhmm }) }),
    ),
    baseline_details: fc.oneof(
      fc.constant(null),
      fc.record({
        type: fc.constantFrom('percentage', 'value'),
        offset_minutes: fc.constantFrom(60, 1440, 10080, 40320),
      }),
    ),
    query: validQuery,
    query_id: fc.constantFrom('q1'),
    triggered: fc.boolean(),
    created_at: fc.constant('2025-06-01T10:00:00Z'),
  },
  { requiredKeys: ['name', 'threshold'] },
);
const members = [
  'dataset_slug',
  'name',
  'description',
  'tags',
  'threshold',
  'frequency',
  'alert_type',
  'recipients',
  'evaluation_schedule',
  'baseline_details',
  'query',
  'query_id',
  'id',
];
export const nearValidTrigger = fc
  .tuple(validTrigger, fc.option(fc.tuple(fc.constantFrom(...members), fc.jsonValue({ maxDepth: 2 })), { freq: 4 }))
  .map(([t, change]) => (change === null ? t : { ...t, [change[0]]: change[1] }));

/** Files of near-valid triggers: what the fast path meets most (and its findings, shown or past the limit). */
export const nearValidFile = fc
  .array(nearValidTrigger, { minLength: 1, maxLength: 30 })
  .map((ts) => JSON.stringify(ts, null, 2));
