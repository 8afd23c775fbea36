// The grid the preview and the trigger tests evaluate, built from the series of query results: the same
// grid, and so the same evaluation, as the plain algorithm (each point's time read, a label made per point)
// on random series. The work it does is counted in backtest-grid-work.test.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateTrigger, type Grid, type TriggerRules } from '../../src/backtest/evaluate';
import { epochSeconds, gridFromSeries } from '../../src/backtest/series';
import type { QueryResultData } from '../../src/api/schemas';

type Plan = Parameters<typeof gridFromSeries>[0];

/**
 * The oracle, written for this test: every point's time read by Date.parse, a label made for every point, the
 * groups kept by label in the order their first readable point came.
 */
function plainGrid(plan: Plan, results: readonly (QueryResultData | null | undefined)[]): Grid {
  const length = Math.round((plan.to - plan.fetchStart) / plan.step);
  const keysOf = (row: Record<string, unknown>) =>
    plan.breakdowns.map((b) => (row[b] === null || row[b] === undefined ? null : String(row[b])));
  const groups = new Map<string, Grid['groups'][number] & { havings: Float64Array[] }>();
  const groupOf = (row: Record<string, unknown>) => {
    const keys = keysOf(row);
    const label = keys.map((k) => k ?? '(none)').join(' · ');
    const known = groups.get(label);
    if (known) return known;
    const made = {
      label,
      values: new Float64Array(length).fill(NaN),
      havings: plan.havingKeys.map(() => new Float64Array(length).fill(NaN)),
      keys,
    };
    groups.set(label, made);
    return made;
  };
  if (plan.breakdowns.length === 0) groupOf({});
  for (const data of results)
    for (const point of data?.series ?? []) {
      const t =
        typeof point.time === 'number'
          ? point.time > 1e12
            ? Math.floor(point.time / 1000)
            : point.time
          : Math.floor(Date.parse(point.time) / 1000);
      const i = Math.floor((t - plan.fetchStart) / plan.step);
      if (!Number.isFinite(t) || i < 0 || i >= length || !point.data) continue;
      const group = groupOf(point.data);
      const v = point.data[plan.valueKey];
      if (typeof v === 'number' && Number.isFinite(v)) group.values[i] = v;
      plan.havingKeys.forEach((key, h) => {
        const hv = point.data?.[key];
        const buckets = group.havings[h];
        if (buckets && typeof hv === 'number' && Number.isFinite(hv)) buckets[i] = hv;
      });
    }
  return {
    start: plan.fetchStart,
    step: plan.step,
    length,
    groups: [...groups.values()].map(({ havings, ...g }) => (plan.havingKeys.length > 0 ? { ...g, havings } : g)),
    missingIsZero: plan.rules.combine === 'sum',
  };
}

/** Where the grids start: the service's times, and times of the years 0 to 99, which Date.UTC would misread. */
const STARTS = ['2025-06-02T00:00:00Z', '1950-06-02T00:00:00Z', '0050-06-02T00:00:00Z'].map(
  (t) => Date.parse(t) / 1000,
);
const STEP = 60;
const BUCKETS = 40;
const rules = (over: Partial<TriggerRules> = {}): TriggerRules => ({
  frequency: STEP,
  timeRange: 3 * STEP,
  op: '>',
  value: 4,
  exceededLimit: 2,
  alertType: 'on_change',
  disabled: false,
  combine: 'sum',
  ...over,
});
const planOf = (start: number, breakdowns: string[], havingKeys: string[], r: TriggerRules): Plan => ({
  to: start + BUCKETS * STEP,
  fetchStart: start,
  step: STEP,
  havingKeys,
  breakdowns,
  valueKey: 'COUNT',
  rules: r,
});

/** A time as the service or a recording may write it, some just outside the grid, some unreadable. */
const timeArb = (start: number) =>
  fc.oneof(
    fc
      .integer({ min: -2, max: BUCKETS + 1 })
      .chain((b) =>
        fc.constantFrom(
          new Date((start + b * STEP) * 1000).toISOString(),
          new Date((start + b * STEP) * 1000).toISOString().replace('.000', ''),
          start + b * STEP,
          (start + b * STEP) * 1000,
          (start + b * STEP + 30) * 1000,
          new Date((start + b * STEP + 59) * 1000).toISOString(),
        ),
      ),
    fc.constantFrom('2025-06-02T00:05:00+00:00', '2025-06-02 00:07:00Z', 'yesterday', '2025-13-02T00:00:00Z', ''),
  );
/** Breakdown values that read the same as others: 1 and "1", null, a missing member and "(none)", " · " in a value. */
const valueArb = fc.constantFrom<unknown>('a', 'b', '1', 1, true, 'true', null, undefined, '(none)', 'a · b', 'b · a');
const numberArb = fc.oneof(fc.integer({ min: 0, max: 9 }), fc.constantFrom<unknown>(null, 'x', Infinity, NaN));
const pointArb = (start: number) =>
  fc.record({
    time: timeArb(start),
    data: fc.option(
      fc.record({ x: valueArb, y: valueArb, COUNT: numberArb, errors: numberArb }, { requiredKeys: ['COUNT'] }),
      { nil: null, freq: 8 },
    ),
  });
/** A grid's start and the results of its queries. */
const resultsArb = fc
  .constantFrom(...STARTS)
  .chain((start) =>
    fc.tuple(
      fc.constant(start),
      fc.array(
        fc.option(
          fc.record({ series: fc.option(fc.array(pointArb(start), { maxLength: 60 }), { nil: null, freq: 8 }) }),
          { nil: null, freq: 10 },
        ),
        { maxLength: 4 },
      ),
    ),
  );

describe('the grid of a preview or a trigger test', () => {
  test('is the grid, and gives the evaluation, of reading every point on its own (property)', () => {
    fc.assert(
      fc.property(
        resultsArb,
        fc.constantFrom<string[]>([], ['x'], ['x', 'y']),
        fc.constantFrom<string[]>([], ['errors'], ['COUNT', 'errors']),
        fc.constantFrom<TriggerRules['combine']>('sum', 'max', 'mean'),
        ([start, results], breakdowns, havingKeys, combine) => {
          const r = rules({
            combine,
            havings: havingKeys.map((_, h) => ({ op: '>=', value: h + 1, combine: 'sum' })),
          });
          const plan = planOf(start, breakdowns, havingKeys, r);
          const got = gridFromSeries(plan, results);
          const expected = plainGrid(plan, results);
          assert.deepEqual(got, expected);
          const [from, to] = [start + 3 * STEP, start + BUCKETS * STEP];
          assert.deepEqual(evaluateTrigger(r, got, from, to), evaluateTrigger(r, expected, from, to));
        },
      ),
      { numRuns: 1500 },
    );
  });
});

test('a series time in the years 0 to 99 reads as Date.parse reads it, not as a year of the 1900s', () => {
  assert.equal(epochSeconds('0050-03-01T12:00:00Z'), Date.parse('0050-03-01T12:00:00Z') / 1000);
  assert.equal(epochSeconds('0000-01-01T00:00:00.000Z'), Date.parse('0000-01-01T00:00:00.000Z') / 1000);
});
