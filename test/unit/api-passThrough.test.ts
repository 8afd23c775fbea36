// The cheap path for large list responses: a list whose elements all pass their schema unchanged is
// returned as parsed, and is then exactly what zod would have returned; anything else is zod's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type * as z from 'zod';
import { passThroughCheck, validateResponse } from '../../src/api/passThrough';
import { BurnAlertList, ColumnList, TriggerList } from '../../src/api/schemas';

const column = (i: number) => ({
  id: `c${i}`,
  key_name: `col_${i}`,
  type: 'integer',
  description: '',
  hidden: false,
  // A column that received data; one that never did has no last_written (a null is read as absent, which
  // takes zod's path: see api-tolerant.test.ts).
  last_written: '2024-03-01T10:00:00Z',
  created_at: '2024-03-01T10:00:00Z',
  updated_at: '2024-03-01T10:00:00Z',
  extra_member_from_the_service: { kept: true },
});

test('a list of complete columns is returned as parsed: no copy', () => {
  const list = Array.from({ length: 1000 }, (_, i) => column(i));
  const result = validateResponse(ColumnList, list);
  assert.ok(result.success);
  assert.equal(result.data, list);
});

test('a column missing a member with a default goes through zod, which fills it in', () => {
  const { hidden: _hidden, ...partial } = column(1);
  const result = validateResponse(ColumnList, [column(0), partial]);
  assert.ok(result.success);
  assert.equal(result.data[1]?.hidden, false);
});

test("a bad element is refused with zod's own error", () => {
  const bad = [column(0), { ...column(1), key_name: 42 }];
  const result = validateResponse(ColumnList, bad);
  assert.equal(result.success, false);
  assert.deepEqual(!result.success && result.error.issues, ColumnList.safeParse(bad).error?.issues);
});

test('the list schemas the client reads in bulk all have a cheap path', () => {
  for (const schema of [ColumnList, TriggerList, BurnAlertList] as z.ZodType[])
    assert.equal(typeof passThroughCheck(schema), 'function');
});

// Values near the schemas: right and wrong types, nulls, missing and unknown members.
const anyValue = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant([]),
  fc.constant({}),
);
const near = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc
    .tuple(
      fc.record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, fc.oneof(a, anyValue)])), {
        requiredKeys: [],
      }),
      fc.dictionary(fc.string({ maxLength: 3 }), anyValue, { maxKeys: 2 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known }));
const recipient = near({
  id: fc.string(),
  type: fc.constantFrom('email', 'pagerduty'),
  target: fc.string(),
  details: fc.constant({ pagerduty_severity: 'critical' }),
});
const columnish = near({
  id: fc.string(),
  key_name: fc.string(),
  type: fc.constantFrom('string', 'integer'),
  description: fc.string(),
  hidden: fc.boolean(),
  last_written: fc.oneof(fc.string(), fc.constant(null)),
  created_at: fc.string(),
  updated_at: fc.string(),
});
const triggerish = near({
  id: fc.string(),
  dataset_slug: fc.string(),
  name: fc.string(),
  tags: fc.array(near({ key: fc.string(), value: fc.string() }), { maxLength: 2 }),
  threshold: near({
    op: fc.constantFrom('>', '<'),
    value: fc.integer(),
    exceeded_limit: fc.integer({ min: 1, max: 5 }),
  }),
  frequency: fc.integer({ min: 60, max: 900 }),
  disabled: fc.boolean(),
  recipients: fc.array(recipient, { maxLength: 2 }),
  evaluation_schedule: fc.oneof(fc.constant(null), fc.constant({ window: {} })),
  query: fc.oneof(fc.constant(null), fc.constant({ time_range: 900 })),
  query_id: fc.oneof(fc.string(), fc.constant(null)),
});

for (const [name, schema, element] of [
  ['columns', ColumnList, columnish],
  ['triggers', TriggerList, triggerish],
] as const) {
  test(`${name}: whatever the cheap path lets through, zod accepts and returns unchanged (2,000 runs)`, () => {
    const check = passThroughCheck(schema as z.ZodType);
    assert.ok(check);
    let through = 0;
    fc.assert(
      fc.property(fc.array(element, { maxLength: 3 }), (list) => {
        const value: unknown = JSON.parse(JSON.stringify(list));
        if (!check(value)) return;
        through++;
        const zod = (schema as z.ZodType).safeParse(value);
        assert.ok(zod.success, JSON.stringify(value));
        assert.deepEqual(zod.data, value);
      }),
      { numRuns: 2000, seed: 3 },
    );
    // Not vacuous: many generated lists take the cheap path.
    assert.ok(through >= 200, `${through} of 2,000 took the cheap path`);
  });
}
