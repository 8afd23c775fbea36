// The work of building a preview's or a trigger test's grid and evaluating it, counted from outside (V8's
// coverage, and the built-ins it calls): each distinct time of the series read once, whatever the order of
// the points, each group's label made once, not once per point, and each point's group found without a lookup
// when the groups come in the service's order; an evaluation makes its result and nothing per bucket. In a file
// of its own: the counts are read before anything else has run the grid code often enough for V8 to inline its
// small functions, whose calls it then no longer counts.
import { callsOf, measured } from './outside-work';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateTrigger, type TriggerRules } from '../../src/backtest/evaluate';
import { gridFromSeries } from '../../src/backtest/series';
import type { QueryResultData } from '../../src/api/schemas';

const START = Date.parse('2025-06-02T00:00:00Z') / 1000;
const STEP = 60;
const BUCKETS = 40;
const GROUPS = 25;
const rules: TriggerRules = {
  frequency: STEP,
  timeRange: 3 * STEP,
  op: '>',
  value: 4,
  exceededLimit: 2,
  alertType: 'on_change',
  disabled: false,
  combine: 'sum',
};
const planOf = (breakdowns: string[]): Parameters<typeof gridFromSeries>[0] => ({
  to: START + BUCKETS * STEP,
  fetchStart: START,
  step: STEP,
  havingKeys: [],
  breakdowns,
  valueKey: 'COUNT',
  rules,
});
const SERIES = '/src/backtest/series.ts';

/** T buckets x G groups, as the service lists them (each bucket's groups together) or group after group. */
function series(times: number, groups: number, order: 'by time' | 'by group'): QueryResultData[] {
  const point = (b: number, g: number) => ({
    time: new Date((START + b * STEP) * 1000).toISOString(),
    data: { x: `group-${g}`, COUNT: b + g },
  });
  const points = [];
  for (let outer = 0; outer < (order === 'by time' ? times : groups); outer++)
    for (let inner = 0; inner < (order === 'by time' ? groups : times); inner++)
      points.push(order === 'by time' ? point(outer, inner) : point(inner, outer));
  return [{ series: points }];
}

describe('the grid of a preview or a trigger test, counted', () => {
  for (const order of ['by time', 'by group'] as const)
    test(`reads each distinct time once and makes each group's label once, points listed ${order}`, () => {
      const plan = planOf(['x']);
      const work = measured(() => gridFromSeries(plan, series(BUCKETS, GROUPS, order)));
      assert.equal(work.result.groups.length, GROUPS);
      assert.equal(work.calls(SERIES, 'utcSeconds'), BUCKETS);
      assert.equal(work.calls(SERIES, 'groupKeys'), GROUPS);
    });
});

describe('finding the group of a point, counted', () => {
  test("looks a group up by its values the first time round only, then tries the row after the last point's", () => {
    const { result, calls } = callsOf(Map.prototype, 'get', () =>
      gridFromSeries(planOf(['x']), series(BUCKETS, GROUPS, 'by time')),
    );
    assert.equal(result.groups.length, GROUPS);
    // Per distinct time one look for its text; per group its first point's lookups (its value, its label, its
    // place in the order), and one more when the second bucket starts: not one per point (1,000 here).
    assert.equal(calls, BUCKETS + 3 * GROUPS + 1);
  });
});

/** The typed arrays made while `fn` runs, and their elements: the constructors are wrapped, then restored. */
function typedArraysMade<T>(fn: () => T): { result: T; arrays: number; elements: number } {
  const made = { arrays: 0, elements: 0 };
  const kinds = { Float64Array, Int32Array, Uint8Array };
  const counting = (Kind: typeof Float64Array | typeof Int32Array | typeof Uint8Array) =>
    new Proxy(Kind, {
      construct(target, args, newTarget) {
        const array: object = Reflect.construct(target, args, newTarget);
        made.arrays++;
        if (ArrayBuffer.isView(array)) made.elements += array.byteLength / target.BYTES_PER_ELEMENT;
        return array;
      },
    });
  const define = (name: keyof typeof kinds, value: object) =>
    Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  const names = ['Float64Array', 'Int32Array', 'Uint8Array'] as const;
  for (const name of names) define(name, counting(kinds[name]));
  try {
    return { result: fn(), ...made };
  } finally {
    for (const name of names) define(name, kinds[name]);
  }
}

describe('an evaluation, counted', () => {
  test('makes arrays for its result and the window ends, none per bucket or per group and time', () => {
    const grid = gridFromSeries(planOf(['x']), series(BUCKETS, GROUPS, 'by time'));
    const { result, arrays, elements } = typedArraysMade(() =>
      evaluateTrigger(rules, grid, START, START + BUCKETS * STEP),
    );
    const times = result.times.length;
    assert.equal(result.values.length, GROUPS);
    // Per group its values at each time; per time the window's end and the state; per group two counts. Not
    // the running sums of each group's buckets, nor a count of groups per time beside the states.
    assert.equal(arrays, GROUPS + 4);
    assert.equal(elements, GROUPS * times + 2 * times + 2 * GROUPS);
  });
});
