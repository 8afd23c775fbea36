// What the service refuses when a trigger is written, beyond spec 2.6.1 (docs/rules.md names each rule):
// the definitions those rules rest on, held to what they stand for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint, type RuleId } from '../../src/lint';
import { triggerFileText } from '../../src/triggerFiles';
import { NOT_BLANK_PATTERN, TriggerWriteObject } from '../../src/lint/schema';
import { BOUND, compactJsonBytes, WRITTEN_MEMBERS, writeBodyBytes } from '../../src/lint/schema/bodySize';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../src/api/schemas/trigger';
import { trigger } from './lint-helpers';

test('a blank name is one of Unicode White_Space characters only: the pattern finds every other code point, and none of those', () => {
  const whiteSpace = /^\p{White_Space}$/u;
  const misjudged: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (NOT_BLANK_PATTERN.test(ch) === whiteSpace.test(ch)) misjudged.push(cp.toString(16));
  }
  assert.deepEqual(misjudged, []);
});

const utf8Json = (v: unknown) => Buffer.byteLength(JSON.stringify(v), 'utf8');
/** Strings of any UTF-16 code units: escapes, every UTF-8 length, surrogate pairs and lone surrogates. */
const anyUnits = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
  .map((units) => String.fromCharCode(...units));

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyUnits,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(anyUnits, tie('value'), { maxKeys: 5 }),
})).value;

test('the bytes of a JSON value are those of JSON.stringify in UTF-8, whatever its strings hold (3,000 runs)', () => {
  fc.assert(
    fc.property(json, (v) => assert.equal(compactJsonBytes(v), utf8Json(v), JSON.stringify(v))),
    { numRuns: 3000, seed: 36 },
  );
});

test('the bound that reads no character is never below the bytes (3,000 runs), and meets them on the longest number and a control character', () => {
  fc.assert(
    fc.property(json, (v) => assert.ok(compactJsonBytes(v, BOUND) >= utf8Json(v), JSON.stringify(v))),
    { numRuns: 3000, seed: 37 },
  );
  const longest = [-0.0000012345678901234567, '\u0000'];
  assert.deepEqual([compactJsonBytes(longest, BOUND), utf8Json(longest)], [36, 36]);
});

test('a value nested 100,000 levels deep is counted without overflowing the call stack', () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(compactJsonBytes(deep), 200_003);
});

test("the members a write sends are the trigger schema's, without id, dataset_slug and the read-only members", () => {
  const notSent = new Set<string>(['dataset_slug', ...TRIGGER_READ_ONLY_MEMBERS]);
  assert.deepEqual(
    [...WRITTEN_MEMBERS],
    Object.keys(TriggerWriteObject.shape).filter((m) => !notSent.has(m)),
  );
});

test('a write body is measured as the compact JSON of the written members alone: not id, dataset_slug, read-only or unknown members', () => {
  const written = {
    name: 'Caf\u00e9 \u{1F6A8}',
    frequency: 900,
    threshold: { op: '>', value: 1.5 },
    query: { calculations: [{ op: 'COUNT' }], time_range: 1800 },
  };
  const listed = {
    id: 't1',
    dataset_slug: 'api',
    ...written,
    triggered: false,
    created_at: '2026-01-01T00:00:00Z',
    auto_investigate: { huge: 'x'.repeat(200_000) },
  };
  assert.equal(writeBodyBytes(listed), utf8Json(written));
});

test('read-only and unknown members do not make a trigger too large to write', () => {
  const doc = trigger('"triggered": true', `"auto_investigate": "${'x'.repeat(150_000)}"`);
  assert.deepEqual(
    lint(doc).map((d) => d.rule),
    ['trigger/read-only-member', 'trigger/unknown-member'],
  );
});

/** The rules of what the service refuses on write beyond spec 2.6.1, and the rules they changed. */
const WRITE_RULES: readonly RuleId[] = [
  'trigger/name',
  'trigger/baseline-details',
  'trigger/baseline-threshold',
  'trigger/baseline-frequency',
  'trigger/recipient-type',
  'trigger/pagerduty-severity',
  'trigger/webhook-variable',
  'trigger/body-size',
];

/** A trigger as the service lists it, with what it fills in and the recipients a trigger may hold. */
const LISTED = {
  id: 'tr_9',
  dataset_slug: 'api',
  name: 'Checkout errors over baseline',
  description: '',
  tags: [],
  threshold: { op: '>=', value: 20, exceeded_limit: 1 },
  frequency: 900,
  alert_type: 'on_change',
  disabled: false,
  triggered: false,
  recipients: [
    { id: 'rcp_pd', type: 'pagerduty', target: '', details: { pagerduty_severity: 'critical' } },
    { id: 'rcp_marker', type: 'marker', target: 'deploys' },
    {
      id: 'rcp_hook',
      type: 'webhook',
      target: 'Checkout hook',
      details: { variables: [{ name: 'runBook', value: 'https://wiki.example.com/checkout' }] },
    },
    { id: 'rcp_only' },
  ],
  evaluation_schedule_type: 'frequency',
  evaluation_schedule: null,
  baseline_details: { type: 'percentage', offset_minutes: 1440 },
  query: { calculations: [{ op: 'COUNT' }], time_range: 1800 },
  query_id: 'q_inline',
  auto_investigate: false,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
};

test('a pulled trigger draws none of these rules: the file pull writes, and the trigger as listed, as a file and as listed', () => {
  const mine = (text: string, form?: 'listed') =>
    lint(text, form === undefined ? {} : { form })
      .filter((d) => WRITE_RULES.includes(d.rule))
      .map((d) => d.message);
  const listed = JSON.stringify(LISTED, null, 2);
  const cleared = JSON.stringify({ ...LISTED, baseline_details: {}, threshold: { op: '>', value: 20 } }, null, 2);
  assert.deepEqual(
    [triggerFileText(LISTED), listed, cleared, triggerFileText(JSON.parse(cleared))].flatMap((t) => [
      ...mine(t),
      ...mine(t, 'listed'),
    ]),
    [],
  );
});
