// The trigger preview applies the query's HAVING clause the way the service does: per evaluation, over
// the same time_range window, a group whose value of the having's calculation fails it is not in that
// evaluation's result, so it is not compared with the threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateTrigger, type Grid, type TriggerRules } from '../../src/backtest/evaluate';
import { planPreview } from '../../src/backtest/plan';
import { gridFromSeries } from '../../src/backtest/series';

const MIN = 60;
const rules = (over: Partial<TriggerRules> = {}): TriggerRules => ({
  frequency: MIN,
  timeRange: MIN,
  op: '>',
  value: 100,
  exceededLimit: 1,
  alertType: 'on_change',
  disabled: false,
  combine: 'max',
  ...over,
});
const row = (values: (number | null)[]) => Float64Array.from(values, (v) => (v === null ? NaN : v));
const num = (a: Float64Array | undefined) => [...(a ?? [])].map((v) => (Number.isNaN(v) ? null : v));

/** P99 latency per route (the threshold's value) and COUNT per route (the having's), one-minute buckets. */
const grid: Grid = {
  start: 0,
  step: MIN,
  length: 4,
  missingIsZero: false,
  groups: [
    { label: '/busy', values: row([150, 150, 150, 150]), havings: [row([50, 50, 50, 50])] },
    { label: '/quiet', values: row([900, 900, 900, 900]), havings: [row([2, null, 2, 2])] },
  ],
};

test('a group the HAVING clause leaves out is not compared with the threshold at that evaluation', () => {
  const out = evaluateTrigger(rules({ havings: [{ op: '>=', value: 10, combine: 'sum' }] }), grid, 0, 4 * MIN);
  assert.deepEqual(num(out.values[0]?.values), [150, 150, 150, 150]);
  assert.deepEqual(num(out.values[1]?.values), [null, null, null, null]);
  assert.deepEqual(out.groups, [{ label: '/busy', evaluations: 4 }]);
});

test('without its HAVING clause the quiet group would have been the loudest', () => {
  const out = evaluateTrigger(rules(), grid, 0, 4 * MIN);
  assert.deepEqual(out.groups, [
    { label: '/busy', evaluations: 4 },
    { label: '/quiet', evaluations: 4 },
  ]);
});

test('the having is taken over the whole time_range window, a missing COUNT bucket counting as 0', () => {
  // Two-minute windows: /quiet has 2+0, 0+2, 2+2 events; only the last reaches 4.
  const out = evaluateTrigger(
    rules({ frequency: MIN, timeRange: 2 * MIN, havings: [{ op: '>=', value: 4, combine: 'sum' }] }),
    grid,
    MIN,
    4 * MIN,
  );
  assert.deepEqual(out.times, [2 * MIN, 3 * MIN, 4 * MIN]);
  assert.deepEqual(num(out.values[1]?.values), [null, null, 900]);
});

test('= keeps only the group whose value equals it, != only the others', () => {
  const equal = evaluateTrigger(rules({ havings: [{ op: '=', value: 50, combine: 'sum' }] }), grid, 0, 4 * MIN);
  assert.deepEqual(
    [num(equal.values[0]?.values), num(equal.values[1]?.values)],
    [
      [150, 150, 150, 150],
      [null, null, null, null],
    ],
  );
  const other = evaluateTrigger(rules({ havings: [{ op: '!=', value: 50, combine: 'sum' }] }), grid, 0, 4 * MIN);
  assert.deepEqual(
    [num(other.values[0]?.values), num(other.values[1]?.values)],
    [
      [null, null, null, null],
      [900, null, 900, 900],
    ],
  );
});

test('a group with no value of the having in the whole window is not in that result, even for COUNT < 5', () => {
  // /quiet has no COUNT in its second minute: that one-minute window has no rows of it at all.
  const out = evaluateTrigger(rules({ havings: [{ op: '<', value: 5, combine: 'sum' }] }), grid, 0, 4 * MIN);
  assert.deepEqual(num(out.values[1]?.values), [900, null, 900, 900]);
});

test('with a baseline, the earlier window is filtered by the having too: a group it left out then has no change', () => {
  const g: Grid = {
    ...grid,
    groups: [{ label: '/a', values: row([100, 100, 300, 300]), havings: [row([1, 50, 50, 50])] }],
  };
  const out = evaluateTrigger(
    rules({
      baseline: { type: 'value', offsetMinutes: 1 },
      value: 0,
      havings: [{ op: '>=', value: 10, combine: 'sum' }],
    }),
    g,
    MIN,
    4 * MIN,
  );
  assert.deepEqual(out.times, [2 * MIN, 3 * MIN, 4 * MIN]);
  // At 2 min the baseline window (minute 0) had COUNT 1 < 10: no change; then 100 - 100 and 300 - 100.
  assert.deepEqual(num(out.values[0]?.values), [null, 200, 0]);
});

test('a mean having over several buckets makes the preview approximate', () => {
  const out = evaluateTrigger(
    rules({ timeRange: 2 * MIN, havings: [{ op: '>', value: 0, combine: 'mean' }] }),
    grid,
    MIN,
    4 * MIN,
  );
  assert.equal(out.exact, false);
  assert.equal(evaluateTrigger(rules({ timeRange: 2 * MIN }), grid, MIN, 4 * MIN).exact, true);
});

const trigger = { name: 't', frequency: 900, threshold: { op: '>', value: 1000 } };
const NOW = Date.parse('2025-06-02T12:00:00Z') / 1000;

test('the plan reads the having by its calculation and fetches that calculation per group', () => {
  const query = {
    calculations: [{ op: 'P99', column: 'duration_ms' }, { op: 'COUNT' }],
    breakdowns: ['http.route'],
    havings: [{ calculate_op: 'COUNT', op: '>', value: 10 }],
    time_range: 900,
  };
  const planned = planPreview(trigger, query, 3_600, NOW, 'exact');
  assert.ok(planned.ok);
  assert.equal(planned.plan.valueKey, 'P99(duration_ms)');
  assert.deepEqual(planned.plan.havingKeys, ['COUNT']);
  assert.deepEqual(planned.plan.rules.havings, [{ op: '>', value: 10, combine: 'sum' }]);
  assert.deepEqual(planned.plan.notes, []);
  const start = planned.plan.fetchStart;
  const grid = gridFromSeries(planned.plan, [
    {
      series: [
        { time: start, data: { 'http.route': '/a', 'P99(duration_ms)': 1200, COUNT: 3 } },
        { time: start + 900, data: { 'http.route': '/a', 'P99(duration_ms)': 1300 } },
      ],
    },
  ]);
  assert.deepEqual(num(grid.groups[0]?.values).slice(0, 2), [1200, 1300]);
  assert.deepEqual(num(grid.groups[0]?.havings?.[0]).slice(0, 2), [3, null]);
});

test("a having naming a calculation by its name in its column is read, with that calculation's way of adding up", () => {
  const query = {
    calculations: [
      { op: 'COUNT', name: 'errors', filters: [{ column: 'error', op: 'exists' }] },
      { op: 'COUNT', name: 'all' },
    ],
    formulas: [{ name: 'ratio', expression: '$errors / $all' }],
    havings: [{ column: 'all', op: '>=', value: 100 }],
    time_range: 900,
  };
  const planned = planPreview(trigger, query, 3_600, NOW, 'exact');
  assert.ok(planned.ok);
  assert.equal(planned.plan.valueKey, 'ratio');
  assert.deepEqual(planned.plan.havingKeys, ['all']);
  assert.deepEqual(planned.plan.rules.havings, [{ op: '>=', value: 100, combine: 'sum' }]);
});

test("a having with a null column corresponds to the calculation without one, which is then not the threshold's", () => {
  const query = {
    calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
    havings: [{ calculate_op: 'COUNT', column: null, op: '>', value: 10 }],
    time_range: 900,
  };
  const planned = planPreview(trigger, query, 3_600, NOW, 'exact');
  assert.ok(planned.ok);
  assert.equal(planned.plan.valueKey, 'P99(duration_ms)');
  assert.deepEqual(planned.plan.havingKeys, ['COUNT']);
});

test('a having that corresponds to no calculation is not applied, and the panel says so', () => {
  const query = {
    calculations: [{ op: 'COUNT' }],
    havings: [{ calculate_op: 'MAX', column: 'x', op: '>', value: 1 }],
    time_range: 900,
  };
  const planned = planPreview(trigger, query, 3_600, NOW, 'exact');
  assert.ok(planned.ok);
  assert.deepEqual(planned.plan.havingKeys, []);
  assert.equal(planned.plan.rules.havings, undefined);
  assert.deepEqual(planned.plan.notes, [
    'The HAVING clause could not be read, so it is not applied: every group is evaluated.',
  ]);
});
