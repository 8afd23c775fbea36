// The backtest engine beyond the preview: several HAVING clauses applied together, the state before a
// window (exceeded_limit, schedules running past midnight, baselines) found from the evaluations before it,
// what happened inside a window counted, and the verdict sentences.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  evaluateTrigger,
  STATE_FIRING,
  STATE_QUIET,
  STATE_SKIPPED,
  type Grid,
  type PreviewOutcome,
  type TriggerRules,
} from '../../src/backtest/evaluate';
import { countWindow, judge } from '../../src/backtest/judge';
import { planPreview } from '../../src/backtest/plan';
import { readTriggerRules } from '../../src/backtest/rules';
import { epochSeconds, gridFromSeries } from '../../src/backtest/series';
import type { Expectation } from '../../src/backtest/testFile';
import { readTime } from '../../src/backtest/times';
import { warmUpFrom } from '../../src/backtest/history';
import { resolveWindow } from '../../src/backtest/window';

const MIN = 60;
const DAY = 86_400;
/** Monday 2025-06-02 00:00 UTC. */
const MONDAY = Date.parse('2025-06-02T00:00:00Z') / 1000;
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
const row = (values: readonly (number | null)[]) => Float64Array.from(values, (v) => (v === null ? NaN : v));
const num = (a: Float64Array | undefined) => [...(a ?? [])].map((v) => (Number.isNaN(v) ? null : v));

describe('several HAVING clauses', () => {
  // P99 per route (compared with the threshold), COUNT and errors per route (the two havings' calculations).
  const grid: Grid = {
    start: 0,
    step: MIN,
    length: 3,
    missingIsZero: false,
    groups: [
      { label: '/a', values: row([900, 900, 900]), havings: [row([50, 50, 50]), row([0, 3, 0])] },
      { label: '/b', values: row([900, 900, 900]), havings: [row([2, 50, 50]), row([5, 5, 5])] },
    ],
  };
  const count = { op: '>=', value: 10, combine: 'sum' } as const;
  const errors = { op: '>', value: 1, combine: 'sum' } as const;

  test('a group is compared with the threshold only while it passes every one of them', () => {
    const out = evaluateTrigger(rules({ value: 100, combine: 'max', havings: [count, errors] }), grid, 0, 3 * MIN);
    // /a: errors 0, 3, 0 (only the second passes both); /b: COUNT 2, 50, 50 (the first fails the COUNT).
    assert.deepEqual(num(out.values[0]?.values), [null, 900, null]);
    assert.deepEqual(num(out.values[1]?.values), [null, 900, 900]);
  });

  test('the result is the AND of each clause alone, in any order (property)', () => {
    const ops = ['>', '>=', '<', '<=', '=', '!='] as const;
    const having = fc.record({
      op: fc.constantFrom(...ops),
      value: fc.integer({ min: 0, max: 6 }),
      combine: fc.constantFrom('sum' as const, 'max' as const, 'mean' as const),
    });
    const bucket = fc.option(fc.integer({ min: 0, max: 6 }), { nil: null, freq: 5 });
    const series = fc.array(bucket, { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(having, having, series, series, series, fc.integer({ min: 1, max: 3 }), (h1, h2, v, s1, s2, k) => {
        const g: Grid = {
          start: 0,
          step: MIN,
          length: 12,
          missingIsZero: true,
          groups: [{ label: 'g', values: row(v), havings: [row(s1), row(s2)] }],
        };
        const one = (hs: TriggerRules['havings'], order: Float64Array[]) =>
          num(
            evaluateTrigger(
              rules({ timeRange: k * MIN, havings: hs }),
              { ...g, groups: [{ label: 'g', values: row(v), havings: order }] },
              0,
              12 * MIN,
            ).values[0]?.values,
          );
        const both = one([h1, h2], [row(s1), row(s2)]);
        const first = one([h1], [row(s1)]);
        const second = one([h2], [row(s2)]);
        const expected = first.map((x, j) => (x === null || second[j] === null ? null : x));
        assert.deepEqual(both, expected);
        assert.deepEqual(one([h2, h1], [row(s2), row(s1)]), both);
      }),
      { numRuns: 300 },
    );
  });

  test('the rules read every having of the query, and the grid fetches each calculation they name', () => {
    const query = {
      calculations: [
        { op: 'P99', column: 'duration_ms' },
        { op: 'COUNT' },
        { op: 'COUNT', name: 'errors', filters: [{ column: 'error', op: '=', value: true }] },
      ],
      formulas: [{ name: 'p99', expression: 'MAX($P99(duration_ms))' }],
      breakdowns: ['http.route'],
      havings: [
        { calculate_op: 'COUNT', op: '>=', value: 10 },
        { column: 'errors', op: '>', value: 1 },
      ],
      time_range: 900,
    };
    const read = readTriggerRules({ name: 't', frequency: 900, threshold: { op: '>', value: 1000 } }, query);
    assert.ok(read.ok);
    assert.deepEqual(read.read.havingKeys, ['COUNT', 'errors']);
    assert.deepEqual(read.read.rules.havings, [
      { op: '>=', value: 10, combine: 'sum' },
      { op: '>', value: 1, combine: 'sum' },
    ]);
    assert.deepEqual(read.read.notes, []);
    const planned = planPreview(
      { name: 't', frequency: 900, threshold: { op: '>', value: 1000 } },
      query,
      3_600,
      MONDAY + DAY,
      'exact',
    );
    assert.ok(planned.ok);
    const start = planned.plan.fetchStart;
    const g = gridFromSeries(planned.plan, [
      { series: [{ time: start, data: { 'http.route': '/a', p99: 1200, COUNT: 30, errors: 4 } }] },
    ]);
    assert.deepEqual(g.groups[0]?.keys, ['/a']);
    assert.deepEqual(
      g.groups[0]?.havings?.map((h) => num(h)[0]),
      [30, 4],
    );
  });

  test('one having that cannot be read among several is named by its place, and the others still apply', () => {
    const query = {
      calculations: [{ op: 'COUNT' }],
      havings: [
        { calculate_op: 'COUNT', op: '>', value: 1 },
        { calculate_op: 'MAX', column: 'x', op: '>', value: 1 },
      ],
      time_range: 900,
    };
    const read = readTriggerRules({ name: 't', frequency: 900, threshold: { op: '>', value: 5 } }, query);
    assert.ok(read.ok);
    assert.deepEqual(read.read.rules.havings, [{ op: '>', value: 1, combine: 'sum' }]);
    assert.equal(read.read.unreadableHavings, 1);
    assert.deepEqual(read.read.notes, ['HAVING clause 2 of 2 could not be read, so it is not applied.']);
  });
});

describe('the state before a window', () => {
  test('is found from the exceeded_limit evaluations before it, skipping those outside the schedule', () => {
    // Every 5 min, 22:00-02:00 UTC on Mondays only: the window opening Tuesday 00:10 looks back across midnight.
    const r = rules({
      frequency: 300,
      exceededLimit: 3,
      schedule: { days: new Set([1]), startMinute: 22 * 60, endMinute: 2 * 60 },
    });
    const from = MONDAY + DAY + 10 * MIN;
    // The three evaluations at or before 00:10 Tuesday are 00:00, 00:05, 00:10: evaluation starts one frequency before.
    assert.equal(warmUpFrom(r, from), from - 3 * 300);
    // Tuesday 22:00 is outside (Tuesday is not a day of the window): the last three are Tuesday 01:45, 01:50, 01:55.
    const later = MONDAY + DAY + 22 * 3600;
    assert.equal(warmUpFrom(r, later), MONDAY + DAY + 1 * 3600 + 40 * MIN);
  });

  test('counting a window from that state equals counting it from the whole history, schedules past midnight and baselines included (property)', () => {
    const schedule = fc.option(
      fc.record({
        days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 2, maxLength: 7 }),
        startMinute: fc.integer({ min: 0, max: 1439 }),
        minutes: fc.integer({ min: 120, max: 1440 }),
      }),
      { nil: undefined },
    );
    const scenario = fc.record({
      frequency: fc.constantFrom(300, 900),
      ranges: fc.integer({ min: 1, max: 3 }),
      exceededLimit: fc.integer({ min: 1, max: 5 }),
      alertType: fc.constantFrom('on_change' as const, 'on_true' as const),
      baseline: fc.option(fc.constantFrom(60, 1440), { nil: undefined }),
      schedule,
      firstDay: fc.integer({ min: 0, max: 6 }),
      fromBack: fc.integer({ min: 0, max: 20 * 60 }),
      length: fc.integer({ min: 1, max: 8 * 60 }),
      seed: fc.integer(),
      threshold: fc.integer({ min: 3, max: 9 }),
    });
    fc.assert(
      fc.property(scenario, (s) => {
        const start = MONDAY + s.firstDay * DAY;
        const buckets = Math.round((10 * DAY) / s.frequency);
        let x = s.seed >>> 0;
        const next = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x % 12);
        const g: Grid = {
          start,
          step: s.frequency,
          length: buckets,
          missingIsZero: true,
          groups: [0, 1].map((i) => ({
            label: `g${i}`,
            values: Float64Array.from({ length: buckets }, () => (next() === 11 ? NaN : next() - 3 * i)),
          })),
        };
        const sch = s.schedule && {
          days: new Set(s.schedule.days),
          startMinute: s.schedule.startMinute,
          endMinute: (s.schedule.startMinute + s.schedule.minutes) % 1440,
        };
        const r = rules({
          frequency: s.frequency,
          timeRange: s.ranges * s.frequency,
          exceededLimit: s.exceededLimit,
          alertType: s.alertType,
          value: s.threshold,
          ...(sch ? { schedule: sch } : {}),
          ...(s.baseline !== undefined
            ? {
                baseline: { type: 'value' as const, offsetMinutes: s.baseline },
                op: '>=' as const,
                value: s.threshold - 6,
              }
            : {}),
        });
        const from = start + 9 * DAY - s.fromBack * MIN;
        const to = Math.min(from + s.length * MIN, start + 10 * DAY);
        const whole = evaluateTrigger(r, g, start + 2 * DAY, to);
        const warm = evaluateTrigger(r, g, warmUpFrom(r, from), to);
        assert.deepEqual(countWindow(warm, from, to), countWindow(whole, from, to));
      }),
      { numRuns: 150 },
    );
  });
});

describe('what happened inside a window', () => {
  /** An outcome from a list of states at evaluations every minute from t=60. */
  const outcomeOf = (states: string): PreviewOutcome => {
    const codes = [...states].map((c) => (c === 'F' ? STATE_FIRING : c === '.' ? STATE_QUIET : STATE_SKIPPED));
    return {
      times: codes.map((_, j) => (j + 1) * MIN),
      values: [],
      evaluated: 0,
      outsideSchedule: 0,
      firings: [],
      onChange: { notifications: 0, resolves: 0 },
      onTrue: { notifications: 0 },
      groups: [],
      exact: true,
      states: Uint8Array.from(codes),
    };
  };

  test('a firing already on at the window start counts as a firing, not as a notification on_change', () => {
    // F F | F . F F  (window after t=120): two firings inside, one begun inside.
    const c = countWindow(outcomeOf('FFF.FF'), 2 * MIN, 6 * MIN);
    assert.deepEqual(c, { firings: 2, firstFiringAt: 3 * MIN, firingEvaluations: 3, firingsBegun: 1 });
  });

  test('evaluations skipped outside the schedule do not split a firing', () => {
    const c = countWindow(outcomeOf('.F-F.'), 0, 5 * MIN);
    assert.deepEqual(c, { firings: 1, firstFiringAt: 2 * MIN, firingEvaluations: 2, firingsBegun: 1 });
  });

  test('evaluations after the window are not counted', () => {
    assert.deepEqual(countWindow(outcomeOf('..FF'), 0, 2 * MIN), {
      firings: 0,
      firstFiringAt: undefined,
      firingEvaluations: 0,
      firingsBegun: 0,
    });
  });
});

describe('verdicts', () => {
  const from = Date.parse('2025-06-02T09:10:00Z') / 1000;
  const to = Date.parse('2025-06-02T09:40:00Z') / 1000;
  const none = { firings: 0, firstFiringAt: undefined, firingEvaluations: 0, firingsBegun: 0 };
  const twice = { firings: 2, firstFiringAt: from + 5 * MIN, firingEvaluations: 4, firingsBegun: 1 };
  const e = (over: Partial<Expectation> & Pick<Expectation, 'expect'>): Expectation =>
    ({ name: 'x', from: 'now-1h', to: 'now', ...over }) as Expectation;

  test('fires: "fired 0 times between 09:10 and 09:40 UTC; expected at least 1"', () => {
    assert.deepEqual(judge(e({ expect: 'fires' }), none, 'on_change', from, to), {
      passed: false,
      message: 'fired 0 times between 2025-06-02 09:10 and 09:40 UTC; expected at least 1',
      expected: 'at least 1 firing',
      actual: '0 firings',
    });
    assert.equal(
      judge(e({ expect: 'fires' }), twice, 'on_change', from, to).message,
      'fired 2 times between 2025-06-02 09:10 and 09:40 UTC, first at 2025-06-02 09:15 UTC',
    );
  });

  test('does-not-fire names the first firing; for one group it says which', () => {
    const v = judge(
      e({ expect: 'does-not-fire', group: { 'http.route': '/api/cart', 'http.method': null } }),
      twice,
      'on_change',
      from,
      to,
    );
    assert.equal(v.passed, false);
    assert.equal(
      v.message,
      'fired 2 times between 2025-06-02 09:10 and 09:40 UTC for group http.route = /api/cart, http.method = (none), first at 2025-06-02 09:15 UTC; expected none',
    );
    assert.equal(v.actual, '2 firings, first at 2025-06-02 09:15 UTC');
  });

  test('at-most counts the notifications of the alert type: firings begun on_change, firing evaluations on_true', () => {
    const onChange = judge(e({ expect: 'at-most', notifications: 1 }), twice, 'on_change', from, to);
    assert.deepEqual(
      [onChange.passed, onChange.message],
      [true, 'sent 1 notification (on_change) between 2025-06-02 09:10 and 09:40 UTC; at most 1 allowed'],
    );
    const onTrue = judge(e({ expect: 'at-most', notifications: 1 }), twice, 'on_true', from, to);
    assert.deepEqual(
      [onTrue.passed, onTrue.message, onTrue.expected, onTrue.actual],
      [
        false,
        'sent 4 notifications (on_true) between 2025-06-02 09:10 and 09:40 UTC; expected at most 1',
        'at most 1 notification',
        '4 notifications (on_true)',
      ],
    );
  });

  test('a window across midnight names both days', () => {
    const night = judge(
      e({ expect: 'fires' }),
      none,
      'on_change',
      Date.parse('2025-06-01T23:00:00Z') / 1000,
      Date.parse('2025-06-02T01:00:00Z') / 1000,
    );
    assert.equal(night.message, 'fired 0 times between 2025-06-01 23:00 and 2025-06-02 01:00 UTC; expected at least 1');
  });
});

test('series times are read as Date.parse reads them, the usual ISO form without it (property)', () => {
  const two = (max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(2, '0'));
  const iso = fc
    .tuple(
      fc.integer({ min: 1970, max: 2200 }),
      two(13),
      two(32),
      two(25),
      two(60),
      two(61),
      fc.constantFrom('', '.000', '.5', '.123', '.1234', ',000'),
      fc.constantFrom('Z', 'z', '+00:00', ''),
    )
    .map(([y, mo, d, h, mi, sec, frac, zone]) => `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac}${zone}`);
  fc.assert(
    fc.property(iso, (text) => {
      const expected = Math.floor(Date.parse(text) / 1000);
      const got = epochSeconds(text);
      assert.ok(Number.isNaN(expected) ? Number.isNaN(got) : got === expected, `${text}: ${got} against ${expected}`);
    }),
    { numRuns: 3000 },
  );
  assert.equal(epochSeconds('2025-06-02T09:10:00Z'), Date.parse('2025-06-02T09:10:00Z') / 1000);
  assert.equal(epochSeconds(1_748_855_400_000), 1_748_855_400);
});

describe('the 7 days the service keeps', () => {
  const NOW_S = Date.parse('2025-06-02T12:00:00Z') / 1000;
  const spec = (from: string, to: string) => {
    const f = readTime(from);
    const t = readTime(to);
    assert.ok(f && t);
    return { from: f, to: t, fromText: from, toText: to };
  };

  test('a baseline looks further back: a window testable without one is not with a day-old baseline', () => {
    const plain = rules({ frequency: 300, timeRange: 1200 });
    assert.equal(resolveWindow(plain, spec('now-6d', 'now-5d'), NOW_S).kind, 'window');
    const withBaseline = rules({
      frequency: 300,
      timeRange: 1200,
      baseline: { type: 'percentage', offsetMinutes: 1440 },
      op: '>=',
      value: 50,
    });
    assert.deepEqual(resolveWindow(withBaseline, spec('now-6d', 'now-5d'), NOW_S), {
      kind: 'not-testable',
      reason:
        'the service keeps query results for 7 days, and this window needs data from 2025-05-26 11:40 UTC (1 d 20 min before it starts); the earliest window testable now starts at 2025-05-27 12:35 UTC',
    });
    // The start it names is testable, and one evaluation earlier is not.
    assert.equal(resolveWindow(withBaseline, spec('2025-05-27T12:35Z', 'now-5d'), NOW_S).kind, 'window');
    assert.equal(resolveWindow(withBaseline, spec('2025-05-27T12:34Z', 'now-5d'), NOW_S).kind, 'not-testable');
  });

  test("the preview's 7 days reach back to the oldest data kept and not a bucket further: 6 d 23 h 25 min at 5 minutes over 20", () => {
    const planned = planPreview(
      { name: 't', frequency: 300, threshold: { op: '>', value: 5 } },
      { calculations: [{ op: 'COUNT' }], time_range: 1200 },
      7 * DAY,
      NOW_S,
      'exact',
    );
    assert.ok(planned.ok);
    assert.deepEqual(
      [planned.plan.fetchStart, planned.plan.windowSeconds, planned.plan.notes],
      [
        NOW_S - 7 * DAY + 900,
        6 * DAY + 23 * 3600 + 25 * MIN,
        ['The window is shortened to 10045 min: the service keeps 7 days of data.'],
      ],
    );
  });

  test('exceeded_limit looks further back too: its evaluations before the window decide the state at its start', () => {
    const five = rules({ frequency: 300, timeRange: 1200, exceededLimit: 5 });
    const r = resolveWindow(five, spec('2025-05-26T12:40Z', 'now'), NOW_S);
    assert.deepEqual(
      r.kind === 'not-testable' ? r.reason : r.kind,
      'the service keeps query results for 7 days, and this window needs data from 2025-05-26 12:00 UTC (40 min before it starts); the earliest window testable now starts at 2025-05-26 12:55 UTC',
    );
  });
});
