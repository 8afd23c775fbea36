// The evaluation the preview and the trigger tests share, held to the plain algorithm over random grids and
// rules: every window's value added up, or its largest, smallest or mean taken, bucket by bucket at each
// evaluation time; the HAVING clauses and the baseline the same way; then the evaluations walked one by one.
// The engine makes its windows with running sums and a queue and walks typed arrays: whatever it does to be
// fast, its outcome must be this one, value for value.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  evaluateTrigger,
  type Firing,
  type Grid,
  type HavingOp,
  type PreviewOutcome,
  type TriggerRules,
} from '../../src/backtest/evaluate';
import { windowValues, type Combine } from '../../src/backtest/windows';

const STEP = 60;
const DAY = 86_400;
/** Monday 2025-06-02 00:00 UTC. */
const START = Date.parse('2025-06-02T00:00:00Z') / 1000;

function passes(v: number, op: HavingOp, threshold: number): boolean {
  if (op === '=') return v === threshold;
  if (op === '!=') return v !== threshold;
  if (op === '>') return v > threshold;
  if (op === '>=') return v >= threshold;
  if (op === '<') return v < threshold;
  return v <= threshold;
}

/** The value of the buckets [s, e): added up, largest, smallest or mean of those with a value. */
function windowOf(buckets: Float64Array, s: number, e: number, combine: Combine, missingIsZero: boolean): number {
  if (s < 0 || e > buckets.length) return NaN;
  const present = [...buckets.subarray(s, e)].filter((v) => !Number.isNaN(v));
  if (present.length === 0) return combine !== 'mean' && missingIsZero ? 0 : NaN;
  if (combine === 'max') return Math.max(...present);
  if (combine === 'min') return Math.min(...present);
  const total = present.reduce((a, b) => a + b, 0);
  return combine === 'sum' ? total : total / present.length;
}

/** The value compared with the threshold for one group at time `t` shifted back by `shift`, HAVING applied. */
function valueAt(rules: TriggerRules, grid: Grid, g: Grid['groups'][number], t: number, shift: number): number {
  const k = Math.max(1, Math.round(rules.timeRange / grid.step));
  const e = Math.round((t - shift - grid.start) / grid.step);
  const v = windowOf(g.values, e - k, e, rules.combine, grid.missingIsZero);
  for (const [i, h] of (rules.havings ?? []).entries()) {
    const buckets = g.havings?.[i];
    const hv = buckets ? windowOf(buckets, e - k, e, h.combine, false) : NaN;
    if (Number.isNaN(hv) || !passes(hv, h.op, h.value)) return NaN;
  }
  return v;
}

function comparedAt(rules: TriggerRules, grid: Grid, g: Grid['groups'][number], t: number): number {
  const v = valueAt(rules, grid, g, t, 0);
  if (!rules.baseline) return v;
  const b = valueAt(rules, grid, g, t, rules.baseline.offsetMinutes * 60);
  if (rules.baseline.type === 'value') return v - b;
  return b === 0 || Number.isNaN(b) ? NaN : ((v - b) / Math.abs(b)) * 100;
}

function inWindow(rules: TriggerRules, t: number): boolean {
  const w = rules.schedule;
  if (!w) return true;
  const minute = (t % DAY) / 60;
  const weekday = (Math.floor(t / DAY) + 4) % 7; // 1970-01-01 was a Thursday
  if (w.endMinute > w.startMinute) return w.days.has(weekday) && minute >= w.startMinute && minute < w.endMinute;
  return (w.days.has(weekday) && minute >= w.startMinute) || (w.days.has((weekday + 6) % 7) && minute < w.endMinute);
}

const byCount = (counts: Map<string, number>): string[] =>
  [...counts]
    .filter(([, n]) => n > 0)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([label]) => label);

/** The outcome, evaluation by evaluation, written for this test. */
function plainEvaluation(rules: TriggerRules, grid: Grid, from: number, to: number): PreviewOutcome {
  const times: number[] = [];
  for (let t = Math.floor(from / rules.frequency) * rules.frequency + rules.frequency; t <= to; t += rules.frequency)
    times.push(t);
  const values = grid.groups.map((g) => ({
    label: g.label,
    values: Float64Array.from(times, (t) => comparedAt(rules, grid, g, t)),
  }));
  const overall = new Map(values.map((v) => [v.label, 0]));
  const states = new Uint8Array(times.length);
  const firings: Firing[] = [];
  let current: { firing: Firing; counts: Map<string, number> } | undefined;
  let consecutive = 0;
  let evaluated = 0;
  let onTrue = 0;
  times.forEach((t, j) => {
    if (!inWindow(rules, t)) return;
    evaluated++;
    const met = values.filter(
      (v) => !Number.isNaN(v.values[j] ?? NaN) && passes(v.values[j] ?? NaN, rules.op, rules.value),
    );
    consecutive = met.length > 0 ? consecutive + 1 : 0;
    if (consecutive < rules.exceededLimit) {
      states[j] = 1;
      if (current) {
        current.firing.end = t;
        current.firing.groups = byCount(current.counts);
        current = undefined;
      }
      return;
    }
    states[j] = 2;
    onTrue++;
    if (!current) {
      current = { firing: { start: t, end: null, groups: [] }, counts: new Map() };
      firings.push(current.firing);
    }
    for (const v of met) {
      overall.set(v.label, (overall.get(v.label) ?? 0) + 1);
      current.counts.set(v.label, (current.counts.get(v.label) ?? 0) + 1);
    }
  });
  if (current) current.firing.groups = byCount(current.counts);
  const k = Math.max(1, Math.round(rules.timeRange / grid.step));
  const exactOp = (c: Combine) => k === 1 || c !== 'mean';
  return {
    times,
    values,
    evaluated,
    outsideSchedule: times.length - evaluated,
    firings,
    onChange: { notifications: firings.length, resolves: firings.filter((f) => f.end !== null).length },
    onTrue: { notifications: onTrue },
    groups: byCount(overall).map((label) => ({ label, evaluations: overall.get(label) ?? 0 })),
    exact:
      exactOp(rules.combine) &&
      (rules.havings ?? []).every((h) => exactOp(h.combine)) &&
      Math.abs(rules.timeRange / grid.step - k) < 1e-9,
    states,
  };
}

const BUCKETS = 90;
/** A minute of the day, most often inside the grid's first 90 minutes, so that schedules cut the evaluations. */
const minuteArb = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 1439 }));
const combineArb = fc.constantFrom<Combine>('sum', 'max', 'min', 'mean');
const opArb = fc.constantFrom<HavingOp>('>', '>=', '<', '<=', '=', '!=');
/** Whole numbers, so that a sum in any order is the same number; NaN where a bucket has no value. */
const bucketsArb = fc
  .array(fc.option(fc.integer({ min: -3, max: 12 }), { nil: null, freq: 4 }), {
    minLength: BUCKETS,
    maxLength: BUCKETS,
  })
  .map((vs) => Float64Array.from(vs, (v) => v ?? NaN));
const groupArb = (havings: number) =>
  fc.record({
    values: bucketsArb,
    havings: fc.array(fc.option(bucketsArb, { nil: undefined, freq: 6 }), { minLength: havings, maxLength: havings }),
  });
const scenarioArb = fc
  .record({
    frequency: fc.constantFrom(60, 120, 300),
    // Buckets of a minute, as exact plans make them, or longer than the frequency, as coarse plans do.
    step: fc.constantFrom(STEP, STEP, 90, 150),
    buckets: fc.integer({ min: 1, max: 12 }),
    op: fc.constantFrom<TriggerRules['op']>('>', '>=', '<', '<='),
    value: fc.integer({ min: -2, max: 30 }),
    exceededLimit: fc.integer({ min: 1, max: 5 }),
    alertType: fc.constantFrom<TriggerRules['alertType']>('on_change', 'on_true'),
    combine: combineArb,
    missingIsZero: fc.boolean(),
    havings: fc.array(fc.record({ op: opArb, value: fc.integer({ min: -2, max: 20 }), combine: combineArb }), {
      maxLength: 2,
    }),
    baseline: fc.option(
      fc.record({
        type: fc.constantFrom<'percentage' | 'value'>('percentage', 'value'),
        minutes: fc.integer({ min: 1, max: 30 }),
      }),
      { nil: undefined },
    ),
    schedule: fc.option(
      fc.record({
        days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
        startMinute: minuteArb,
        endMinute: minuteArb,
      }),
      { nil: undefined },
    ),
    dayShift: fc.integer({ min: 0, max: 6 }),
    from: fc.integer({ min: -10, max: BUCKETS }),
    length: fc.integer({ min: 0, max: BUCKETS + 10 }),
  })
  .chain((s) => fc.tuple(fc.constant(s), fc.array(groupArb(s.havings.length), { minLength: 0, maxLength: 4 })));

/** The buckets of the first havings up to one a group has none of: the group then has none of the later ones either. */
function leading(havings: readonly (Float64Array | undefined)[]): Float64Array[] {
  const out: Float64Array[] = [];
  for (const h of havings) {
    if (h === undefined) break;
    out.push(h);
  }
  return out;
}

describe('the evaluation of a preview or a trigger test', () => {
  test('is the evaluation made window by window and evaluation by evaluation (property)', () => {
    fc.assert(
      fc.property(scenarioArb, ([s, groups]) => {
        const rules: TriggerRules = {
          frequency: s.frequency,
          timeRange: s.buckets * STEP,
          op: s.op,
          value: s.value,
          exceededLimit: s.exceededLimit,
          alertType: s.alertType,
          disabled: false,
          combine: s.combine,
          havings: s.havings,
          ...(s.baseline ? { baseline: { type: s.baseline.type, offsetMinutes: s.baseline.minutes } } : {}),
          ...(s.schedule ? { schedule: { ...s.schedule, days: new Set(s.schedule.days) } } : {}),
        };
        const start = START + s.dayShift * DAY;
        const grid: Grid = {
          start,
          step: s.step,
          length: BUCKETS,
          missingIsZero: s.missingIsZero,
          // Labels that sort differently by code unit and by locale, so the order of groups is checked too.
          groups: groups.map((g, i) => ({
            label: ['b', 'A', 'a', 'B'][i] ?? String(i),
            values: g.values,
            ...(s.havings.length > 0 ? { havings: leading(g.havings) } : {}),
          })),
        };
        const from = start + s.from * STEP;
        const to = from + s.length * STEP;
        assert.deepEqual(evaluateTrigger(rules, grid, from, to), plainEvaluation(rules, grid, from, to));
      }),
      { numRuns: 2000 },
    );
  });
});

test('a COUNT window without data is 0, also after the running sum of the buckets before it overflowed', () => {
  const buckets = Float64Array.from([1e308, 1e308, NaN, NaN]);
  assert.deepEqual([...windowValues(buckets, Int32Array.from([2, 4]), 2, 'sum', true)], [Infinity, 0]);
  assert.deepEqual([...windowValues(buckets, Int32Array.from([2, 4]), 2, 'mean', true)], [Infinity, NaN]);
});
