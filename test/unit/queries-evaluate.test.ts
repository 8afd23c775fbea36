// The trigger preview's evaluation: windows over buckets, threshold, exceeded_limit, on_change and
// on_true, schedules, baselines, disabled triggers and the summary sentence.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evaluateTrigger, evaluationTimes, meets, type Grid, type TriggerRules } from '../../src/backtest/evaluate';
import { describeSchedule, inSchedule, readSchedule } from '../../src/backtest/schedule';
import { previewSummary } from '../../src/backtest/summary';
import { combineFor, isExact, windowValues } from '../../src/backtest/windows';

const MIN = 60;
const rules = (over: Partial<TriggerRules> = {}): TriggerRules => ({
  frequency: MIN,
  timeRange: MIN,
  op: '>',
  value: 5,
  exceededLimit: 1,
  alertType: 'on_change',
  disabled: false,
  combine: 'sum',
  ...over,
});
/** A grid of one-minute buckets from t=0, one group per entry. */
const grid = (groups: Record<string, (number | null)[]>, missingIsZero = true): Grid => {
  const entries = Object.entries(groups);
  const length = entries[0]?.[1].length ?? 0;
  return {
    start: 0,
    step: MIN,
    length,
    missingIsZero,
    groups: entries.map(([label, values]) => ({
      label,
      values: Float64Array.from(values, (v) => (v === null ? NaN : v)),
    })),
  };
};
/** Evaluates over every minute of the grid (evaluations at 60, 120, ... length*60). */
const run = (r: TriggerRules, g: Grid) => evaluateTrigger(r, g, 0, g.length * MIN);
const num = (a: Float64Array) => [...a].map((v) => (Number.isNaN(v) ? null : v));

describe('evaluation times', () => {
  test('are the multiples of the frequency in (from, to]', () => {
    assert.deepEqual(evaluationTimes(300, 100, 1000), [300, 600, 900]);
    assert.deepEqual(evaluationTimes(300, 300, 900), [600, 900]);
    assert.deepEqual(evaluationTimes(300, 0, 299), []);
  });
});

describe('window values', () => {
  const values = Float64Array.from([1, 2, NaN, 4, 5]);
  const ends = Int32Array.from([2, 3, 4, 5]);
  test('sum adds the buckets of each window; a missing bucket counts as 0 for additive ops', () => {
    assert.deepEqual(num(windowValues(values, ends, 2, 'sum', true)), [3, 2, 4, 9]);
  });
  test('a window with no data at all is 0 for additive ops and no value otherwise', () => {
    const empty = Float64Array.from([NaN, NaN]);
    assert.deepEqual(num(windowValues(empty, Int32Array.from([2]), 2, 'sum', true)), [0]);
    assert.deepEqual(num(windowValues(empty, Int32Array.from([2]), 2, 'sum', false)), [null]);
    assert.deepEqual(num(windowValues(empty, Int32Array.from([2]), 2, 'mean', false)), [null]);
  });
  test('max and min take the largest and smallest bucket, skipping missing ones', () => {
    assert.deepEqual(num(windowValues(values, ends, 2, 'max', false)), [2, 2, 4, 5]);
    assert.deepEqual(num(windowValues(values, ends, 3, 'min', false)), [null, 1, 2, 4]);
  });
  test('mean averages the buckets that have data', () => {
    assert.deepEqual(num(windowValues(values, ends, 2, 'mean', false)), [1.5, 2, 4, 4.5]);
  });
  test('a window reaching before the first bucket has no value', () => {
    assert.deepEqual(num(windowValues(values, Int32Array.from([1]), 2, 'sum', true)), [null]);
  });
  test('additive window sums equal a direct sum (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (xs, k) => {
          const v = Float64Array.from(xs, (x) => (x === null ? NaN : x));
          const ends = Int32Array.from({ length: xs.length }, (_, i) => i + 1);
          const got = windowValues(v, ends, k, 'sum', true);
          ends.forEach((e, j) => {
            const expected = e - k < 0 ? NaN : xs.slice(e - k, e).reduce<number>((s, x) => s + (x ?? 0), 0);
            assert.ok(
              Object.is(got[j], expected) || got[j] === expected,
              `window ending ${e}: ${got[j]} vs ${expected}`,
            );
          });
        },
      ),
    );
  });
  test('max and min over a sliding window equal a direct scan (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: -50, max: 50 }), { nil: null }), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 3 }),
        (xs, k, stride) => {
          const v = Float64Array.from(xs, (x) => (x === null ? NaN : x));
          const ends = Int32Array.from({ length: Math.floor(xs.length / stride) }, (_, i) => (i + 1) * stride);
          for (const combine of ['max', 'min'] as const) {
            const got = windowValues(v, ends, k, combine, false);
            ends.forEach((e, j) => {
              const inWindow = e - k < 0 ? [] : xs.slice(e - k, e).filter((x): x is number => x !== null);
              const expected =
                inWindow.length === 0 ? NaN : combine === 'max' ? Math.max(...inWindow) : Math.min(...inWindow);
              assert.ok(Object.is(got[j], expected), `${combine} ending ${e}: ${got[j]} vs ${expected}`);
            });
          }
        },
      ),
    );
  });
  test('ops: COUNT, SUM and the counting ops are summed; MAX and MIN exact; the rest estimated', () => {
    assert.deepEqual(
      ['COUNT', 'SUM', 'COUNT_DATAPOINTS', 'HISTOGRAM_COUNT', 'MAX', 'MIN', 'AVG', 'P99', undefined].map(combineFor),
      ['sum', 'sum', 'sum', 'sum', 'max', 'min', 'mean', 'mean', 'mean'],
    );
    assert.equal(isExact('mean', 1), true);
    assert.equal(isExact('mean', 2), false);
    assert.equal(isExact('sum', 4), true);
  });
});

describe('threshold', () => {
  test('each op compares the value with the threshold', () => {
    assert.deepEqual(
      [meets(5, '>', 5), meets(5, '>=', 5), meets(5, '<', 5), meets(5, '<=', 5), meets(4, '<', 5), meets(6, '>', 5)],
      [false, true, false, true, true, true],
    );
  });
});

describe('on_change and on_true', () => {
  const series = { '': [0, 9, 9, 0, 0, 9, 0, 9, 9, 9] };
  test('on_change notifies once at each crossing and resolves when it ends', () => {
    const o = run(rules(), grid(series));
    assert.deepEqual(
      o.firings.map((f) => [f.start, f.end]),
      [
        [120, 240],
        [360, 420],
        [480, null],
      ],
    );
    assert.deepEqual(o.onChange, { notifications: 3, resolves: 2 });
    assert.deepEqual(o.onTrue, { notifications: 6 });
    assert.equal(o.evaluated, 10);
  });
  test('exceeded_limit: it fires only after that many consecutive evaluations meet the threshold', () => {
    const o = run(rules({ exceededLimit: 2 }), grid(series));
    assert.deepEqual(
      o.firings.map((f) => [f.start, f.end]),
      [
        [180, 240],
        [540, null],
      ],
    );
    assert.deepEqual(o.onTrue, { notifications: 3 });
  });
  test('exceeded_limit larger than any streak never fires', () => {
    assert.equal(run(rules({ exceededLimit: 4 }), grid(series)).firings.length, 0);
  });
  test('the window is time_range long: a 3-minute window sums three buckets', () => {
    const o = run(rules({ timeRange: 3 * MIN, value: 10 }), grid({ '': [4, 4, 4, 0, 0, 0] }));
    assert.deepEqual(num(o.values[0]?.values ?? new Float64Array()), [null, null, 12, 8, 4, 0]);
    assert.deepEqual(
      o.firings.map((f) => [f.start, f.end]),
      [[180, 240]],
    );
  });
  test('per group: the trigger fires when any group meets it, naming the groups most often first', () => {
    const o = run(rules(), grid({ a: [9, 0, 9, 9], b: [0, 0, 9, 0], c: [0, 0, 0, 0] }));
    assert.deepEqual(
      o.firings.map((f) => [f.start, f.end, f.groups]),
      [
        [60, 120, ['a']],
        [180, null, ['a', 'b']],
      ],
    );
    assert.deepEqual(o.groups, [
      { label: 'a', evaluations: 3 },
      { label: 'b', evaluations: 1 },
    ]);
  });
  test('a group without data is not evaluated (a non-additive op over missing buckets)', () => {
    const o = run(rules({ combine: 'mean', op: '<', value: 1 }), grid({ a: [null, null], b: [5, 0.5] }, false));
    assert.deepEqual(
      o.firings.map((f) => [f.start, f.groups]),
      [[120, ['b']]],
    );
  });
  test('on_true notifications are never fewer than on_change firings (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 4 }),
        (xs, limit, k) => {
          const o = run(rules({ exceededLimit: limit, timeRange: k * MIN, value: 5 * k }), grid({ '': xs }));
          assert.ok(o.onTrue.notifications >= o.onChange.notifications);
          assert.ok(
            o.onChange.resolves <= o.onChange.notifications && o.onChange.resolves >= o.onChange.notifications - 1,
          );
          const spans = o.firings.reduce((n, f) => n + ((f.end ?? (xs.length + 1) * MIN) - f.start) / MIN, 0);
          assert.equal(spans, o.onTrue.notifications, 'every evaluation while firing notifies on_true');
        },
      ),
    );
  });
});

describe('evaluation schedule (UTC)', () => {
  const weekdays = readSchedule({
    window: {
      days_of_week: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'],
      start_time: '09:00',
      end_time: '17:00',
    },
  });
  const overnight = readSchedule({ window: { days_of_week: ['friday'], start_time: '22:00', end_time: '02:00' } });
  const at = (iso: string) => Date.parse(iso) / 1000;
  test('a day window includes its start and excludes its end', () => {
    assert.ok(weekdays.ok);
    assert.deepEqual(
      [
        '2024-03-04T08:59:00Z',
        '2024-03-04T09:00:00Z',
        '2024-03-04T16:59:00Z',
        '2024-03-04T17:00:00Z',
        '2024-03-09T12:00:00Z',
      ].map((t) => inSchedule(weekdays.window, at(t))),
      [false, true, true, false, false],
    );
    assert.equal(describeSchedule(weekdays.window), 'mon, tue, wed, thu, fri 09:00-17:00 UTC');
  });
  test('an end at or before the start runs into the next day, counted from the starting day', () => {
    assert.ok(overnight.ok);
    assert.deepEqual(
      [
        '2024-03-08T21:59:00Z',
        '2024-03-08T22:00:00Z',
        '2024-03-09T01:59:00Z',
        '2024-03-09T02:00:00Z',
        '2024-03-09T23:00:00Z',
        '2024-03-08T01:00:00Z',
      ].map((t) => inSchedule(overnight.window, at(t))),
      [false, true, true, false, false, false],
    );
    const whole = readSchedule({ window: { days_of_week: ['sunday'], start_time: '06:00', end_time: '06:00' } });
    assert.ok(whole.ok);
    assert.deepEqual(
      ['2024-03-10T06:00:00Z', '2024-03-11T05:59:00Z', '2024-03-11T06:00:00Z'].map((t) =>
        inSchedule(whole.window, at(t)),
      ),
      [true, true, false],
    );
  });
  test('unreadable schedules are refused with the reason', () => {
    assert.deepEqual(readSchedule({}), { ok: false, reason: 'evaluation_schedule has no window' });
    assert.deepEqual(readSchedule({ window: { days_of_week: ['funday'], start_time: '09:00', end_time: '10:00' } }), {
      ok: false,
      reason: '"funday" is not a day of the week',
    });
    assert.deepEqual(readSchedule({ window: { days_of_week: ['monday'], start_time: '9:00', end_time: '10:00' } }), {
      ok: false,
      reason: 'start_time and end_time must be HH:mm (UTC)',
    });
    assert.deepEqual(readSchedule({ window: { days_of_week: [], start_time: '09:00', end_time: '10:00' } }), {
      ok: false,
      reason: 'the schedule names no day of the week',
    });
  });
  test('evaluations outside the window are skipped and leave the state as it was', () => {
    // Monday 2024-03-04 from 08:58: two evaluations before 09:00 are skipped.
    const start = at('2024-03-04T08:57:00Z');
    assert.ok(weekdays.ok);
    const g: Grid = {
      start,
      step: MIN,
      length: 5,
      missingIsZero: true,
      groups: [{ label: '', values: Float64Array.from([9, 9, 9, 9, 0]) }],
    };
    const o = evaluateTrigger(rules({ schedule: weekdays.window, exceededLimit: 2 }), g, start, start + 5 * MIN);
    assert.equal(o.outsideSchedule, 2);
    assert.equal(o.evaluated, 3);
    assert.deepEqual(
      o.firings.map((f) => [f.start - start, f.end === null ? null : f.end - start]),
      [[240, 300]],
    );
  });
});

describe('baseline', () => {
  test('percentage: the change against the value offset_minutes earlier is compared; a baseline of 0 is not evaluated', () => {
    const g = grid({ '': [10, 10, 20, 10, 0, 30] });
    const o = run(rules({ baseline: { type: 'percentage', offsetMinutes: 1 }, op: '>=', value: 50 }), g);
    assert.deepEqual(num(o.values[0]?.values ?? new Float64Array()), [null, 0, 100, -50, -100, null]);
    assert.deepEqual(
      o.firings.map((f) => [f.start, f.end]),
      [[180, 240]],
    );
  });
  test('value: the difference is compared', () => {
    const o = run(
      rules({ baseline: { type: 'value', offsetMinutes: 1 }, op: '<=', value: -5 }),
      grid({ '': [10, 3, 3] }),
    );
    assert.deepEqual(num(o.values[0]?.values ?? new Float64Array()), [null, -7, 0]);
    assert.equal(o.firings.length, 1);
  });
});

describe('summary', () => {
  const fired = run(rules(), grid({ '/api/cart': [9, 0, 9, 0, 9, 9], '/health': [0, 0, 9, 0, 0, 0] }));
  test('on_change: firings, notifications and resolves, what on_true would send, and the groups', () => {
    assert.equal(
      previewSummary(fired, 'on_change', 86_400, false),
      'It would have fired 3 times (3 notifications and 2 resolves on_change; 4 notifications if on_true) in the last 24 h, for groups /api/cart, /health. It would still be firing at the end.',
    );
  });
  test('on_true leads with its notifications', () => {
    assert.equal(
      previewSummary(fired, 'on_true', 3_600, false),
      'It would have notified 4 times (on_true, over 3 firings; 3 notifications and 2 resolves if on_change) in the last 1 h, for groups /api/cart, /health. It would still be firing at the end.',
    );
  });
  test('quiet and disabled triggers say so', () => {
    const quiet = run(rules({ value: 100 }), grid({ '': [1, 2, 3] }));
    assert.equal(
      previewSummary(quiet, 'on_change', 604_800, true),
      'It is disabled, so the service would not have evaluated it; enabled, it would not have fired in the last 7 d (3 evaluations).',
    );
  });
  test('a single group without breakdowns names no group', () => {
    const one = run(rules(), grid({ '': [9] }));
    assert.equal(
      previewSummary(one, 'on_change', 21_600, false),
      'It would have fired 1 time (1 notification and 0 resolves on_change; 1 notification if on_true) in the last 6 h. It would still be firing at the end.',
    );
  });
});
