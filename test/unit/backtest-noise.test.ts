// The noise report's counting (notifications as sent, resolves, flapping cycles, per day), its 7-day plan
// (the same queries for a quarter of an hour), and the tuning suggestion: the threshold or exceeded_limit it
// names, applied, meets the budget and still fires in every window that must, and no smaller change does.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  evaluateTrigger,
  type Grid,
  type PreviewOutcome,
  type ThresholdOp,
  type TriggerRules,
} from '../../src/backtest/evaluate';
import { countWindow } from '../../src/backtest/judge';
import { countNoise, planNoise, sparkline, FLAP_SECONDS } from '../../src/backtest/noise';
import { chunkQuery } from '../../src/backtest/plan';
import { readTriggerRules, type ReadRules } from '../../src/backtest/rules';
import { roundIn, suggestChange, type MustFire, type SuggestResult } from '../../src/backtest/suggest';

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
const grid = (...groups: (number | null)[][]): Grid => ({
  start: 0,
  step: MIN,
  length: groups[0]?.length ?? 0,
  missingIsZero: true,
  groups: groups.map((values, i) => ({
    label: `g${i}`,
    values: Float64Array.from(values, (v) => (v === null ? NaN : v)),
  })),
});
const evaluate = (r: TriggerRules, g: Grid, to = g.length * MIN): PreviewOutcome => evaluateTrigger(r, g, 0, to);

describe('noise counting', () => {
  test('a firing that begins within an hour of the previous resolve is a flap; one after longer is not', () => {
    // Minutes 1-2 fire, 3 resolves, 4 fires again (a flap), 5 resolves; 66 fires again 61 min later (no
    // flap) and 67 resolves.
    const values = new Array<number>(70).fill(0);
    for (const m of [1, 2, 4, 66]) values[m - 1] = 9;
    const outcome = evaluate(rules(), grid(values));
    const counts = countNoise(outcome, { alertType: 'on_change' }, 0, 70 * MIN);
    assert.deepEqual([counts.notifications, counts.resolves, counts.firings, counts.flaps], [3, 3, 3, 1]);
    assert.equal(FLAP_SECONDS, 3600);
  });

  test('on_true sends one notification per firing evaluation; on_change one per firing', () => {
    const values = [9, 9, 9, 0, 9, 0];
    const onTrue = countNoise(
      evaluate(rules({ alertType: 'on_true' }), grid(values)),
      { alertType: 'on_true' },
      0,
      6 * MIN,
    );
    const onChange = countNoise(evaluate(rules(), grid(values)), { alertType: 'on_change' }, 0, 6 * MIN);
    assert.deepEqual([onTrue.notifications, onChange.notifications], [4, 2]);
  });

  test('notifications are counted on the day they are sent', () => {
    const DAY = 86_400;
    const r = rules({ frequency: 3_600, timeRange: 3_600 });
    const g: Grid = {
      start: 0,
      step: 3_600,
      length: 72,
      missingIsZero: true,
      groups: [
        { label: '', values: Float64Array.from({ length: 72 }, (_v, h) => (h === 5 || h === 30 || h === 32 ? 9 : 0)) },
      ],
    };
    const counts = countNoise(evaluateTrigger(r, g, 0, 3 * DAY), r, 0, 3 * DAY);
    assert.deepEqual(counts.perDay, [1, 2, 0]);
  });

  test('the sparkline scales to the largest day, and a day without notifications is the lowest block', () => {
    assert.equal(sparkline([0, 1, 2, 4, 8, 0, 8]), '▁▂▃▅█▁█');
    assert.equal(sparkline([0, 0, 0]), '▁▁▁');
  });
});

describe('the 7-day plan', () => {
  const read = (trigger: object, query: object): ReadRules => {
    const r = readTriggerRules({ name: 't', ...trigger }, query);
    assert.ok(r.ok);
    return r.read;
  };
  const demo = read(
    { frequency: 300, threshold: { op: '>', value: 5 } },
    { calculations: [{ op: 'COUNT' }], time_range: 1200 },
  );
  const specs = (nowSeconds: number) => {
    const p = planNoise(demo, nowSeconds, 'exact');
    assert.ok(p.ok);
    return p.plan.chunks.map((c) => JSON.stringify(chunkQuery({ calculations: [{ op: 'COUNT' }] }, p.plan, c)));
  };

  test('ends at the quarter hour: run again within it, the report asks for the same queries', () => {
    const at = Date.parse('2025-06-02T12:02:00Z') / 1000;
    assert.deepEqual(specs(at + 14 * MIN), specs(at));
    assert.notDeepEqual(specs(at + 15 * MIN), specs(at));
    const p = planNoise(demo, at, 'exact');
    assert.ok(p.ok);
    assert.equal(p.plan.to, Date.parse('2025-06-02T12:00:00Z') / 1000);
  });

  test('7 days at a 5-minute step take 3 queries, or one at a coarser step said in a note', () => {
    const now = Date.parse('2025-06-02T12:02:00Z') / 1000;
    const exact = planNoise(demo, now, 'exact');
    const coarse = planNoise(demo, now, 'coarse');
    assert.ok(exact.ok && coarse.ok);
    assert.deepEqual([exact.plan.chunks.length, exact.queriesIfExact, coarse.plan.chunks.length], [3, 3, 1]);
    assert.match(coarse.plan.notes.join(' '), /^Coarser steps: buckets of 15 min instead of 5 min/);
  });

  test('the window is the last 7 days less the time_range of the evaluation before it and the quarter it may run late: 6 d 23 h', () => {
    const p = planNoise(demo, Date.parse('2025-06-02T12:02:00Z') / 1000, 'exact');
    assert.ok(p.ok);
    assert.deepEqual([p.to - p.from, p.plan.notes], [6 * 86_400 + 23 * 3_600, []]);
    // Evaluated from the evaluation at the window's start (the state there), its data from 20 min before it.
    assert.deepEqual([p.from - p.plan.from, p.plan.from + 300 - p.plan.fetchStart], [300, 1_200]);
  });

  test('a baseline looking a day back shortens the window by that day, and says so', () => {
    const baseline = read(
      {
        frequency: 900,
        threshold: { op: '>=', value: 10 },
        baseline_details: { type: 'percentage', offset_minutes: 1440 },
      },
      { calculations: [{ op: 'COUNT' }], time_range: 900 },
    );
    const p = planNoise(baseline, Date.parse('2025-06-02T12:02:00Z') / 1000, 'exact');
    assert.ok(p.ok);
    assert.equal(p.to - p.from, 5 * 86_400 + 23 * 3_600);
    assert.equal(
      p.plan.notes[0],
      'Evaluated over the last 5 d 23 h: the service keeps 7 days of data, and the baseline looks 24 h further back.',
    );
  });
});

describe('rounding a suggested threshold', () => {
  test('a whole number where one fits and the values are small, else two significant digits, else more', () => {
    assert.equal(roundIn(7, true, 9, false), 7);
    assert.equal(roundIn(7, false, 9, true), 8);
    assert.equal(roundIn(14, false, 30, true), 15);
    assert.equal(roundIn(1234, true, 1500, false), 1300);
    assert.equal(roundIn(1234, true, 1240, false), 1234);
    assert.equal(roundIn(0.532, false, 0.6, true), 0.54);
    assert.equal(roundIn(-12.5, true, -3, false), -12);
  });
});

describe('the suggestion', () => {
  const mustFire = (name: string, r: TriggerRules, g: Grid, from: number, to: number): MustFire => ({
    name,
    outcome: evaluate(r, g, to * MIN),
    from: from * MIN,
    to: to * MIN,
  });

  test('raises the threshold just past the values that made the extra notifications', () => {
    // Three separate bursts (7, 12, 30) against "> 5": at most 1 notification leaves only the 30.
    const g = grid([0, 7, 0, 12, 0, 30, 0]);
    const out = suggestChange({ rules: rules(), outcome: evaluate(rules(), g), maxNotifications: 1, mustFire: [] });
    assert.deepEqual(out, {
      notifications: 3,
      suggestions: [
        { change: { member: 'value', value: 12 }, notifications: 1 },
        { change: { member: 'exceeded_limit', value: 2 }, notifications: 0 },
      ],
      missed: [],
    });
  });

  test('stops short where a test says it must fire: the burst of 12 stays caught, so the threshold stays below it', () => {
    const g = grid([0, 7, 0, 12, 0, 30, 0]);
    const out = suggestChange({
      rules: rules(),
      outcome: evaluate(rules(), g),
      maxNotifications: 2,
      mustFire: [mustFire('the 12', rules(), g, 3, 4)],
    });
    assert.deepEqual(out.suggestions[0], { change: { member: 'value', value: 7 }, notifications: 2 });
    const blocked = suggestChange({
      rules: rules(),
      outcome: evaluate(rules(), g),
      maxNotifications: 0,
      mustFire: [mustFire('the 12', rules(), g, 3, 4)],
    });
    assert.deepEqual([blocked.suggestions, blocked.blockedBy], [[], 'the 12']);
  });

  test('a window it does not fire in even now constrains nothing and is named', () => {
    const g = grid([0, 7, 0, 12, 0, 30, 0]);
    const out = suggestChange({
      rules: rules(),
      outcome: evaluate(rules(), g),
      maxNotifications: 1,
      mustFire: [mustFire('quiet minute', rules(), g, 0, 1)],
    });
    assert.deepEqual([out.missed, out.suggestions[0]?.change], [['quiet minute'], { member: 'value', value: 12 }]);
  });

  test('for a "below" threshold it lowers the value', () => {
    const r = rules({ op: '<', value: 10 });
    const g = grid([20, 5, 20, 1, 20]);
    const out = suggestChange({ rules: r, outcome: evaluate(r, g), maxNotifications: 1, mustFire: [] });
    assert.deepEqual(out.suggestions[0], { change: { member: 'value', value: 5 }, notifications: 1 });
  });

  test('within the budget, nothing is suggested', () => {
    const g = grid([0, 7, 0]);
    assert.deepEqual(
      suggestChange({ rules: rules(), outcome: evaluate(rules(), g), maxNotifications: 1, mustFire: [] }).suggestions,
      [],
    );
  });
});

/** The notifications an evaluation sends, by the engine itself. */
const sent = (o: PreviewOutcome, r: TriggerRules) =>
  r.alertType === 'on_true' ? o.onTrue.notifications : o.firings.length;
const fires = (r: TriggerRules, g: Grid, w: MustFire) => countWindow(evaluate(r, g, w.to), w.from, w.to).firings > 0;
const OPS: ThresholdOp[] = ['>', '>=', '<', '<='];

/** Whether a change meets the budget and every window that must fire (and fires now). */
function acceptable(r: TriggerRules, g: Grid, budget: number, must: readonly MustFire[]): boolean {
  return sent(evaluate(r, g), r) <= budget && must.every((w) => fires(r, g, w));
}

function checkSuggestion(r: TriggerRules, g: Grid, budget: number, windows: MustFire[], out: SuggestResult): void {
  assert.equal(out.notifications, sent(evaluate(r, g), r));
  const firing = windows.filter((w) => fires(r, g, w));
  assert.deepEqual(
    out.missed,
    windows.filter((w) => !firing.includes(w)).map((w) => w.name),
  );
  if (out.notifications <= budget) return assert.deepEqual(out.suggestions, []);
  const sign = r.op === '>' || r.op === '>=' ? 1 : -1;
  // Every value of the data and every half-way point: all the outcomes a threshold can have.
  const candidates = [
    ...new Set(
      g.groups
        .flatMap((x) => [...x.values])
        .filter((v) => !Number.isNaN(v))
        .flatMap((v) => [v - 0.5, v, v + 0.5]),
    ),
  ].filter((c) => sign * c > sign * r.value);
  const byValue = out.suggestions.find((s) => s.change.member === 'value');
  if (byValue) {
    const changed = { ...r, value: byValue.change.value };
    assert.ok(acceptable(changed, g, budget, firing), `threshold ${byValue.change.value}`);
    assert.equal(sent(evaluate(changed, g), changed), byValue.notifications);
    // No smaller change of the threshold would do, but one between it and the data's next value (rounding).
    const states = (x: TriggerRules) => [...evaluate(x, g).states].join('');
    for (const c of candidates.filter((c) => sign * c < sign * byValue.change.value)) {
      assert.ok(
        !acceptable({ ...r, value: c }, g, budget, firing) || states({ ...r, value: c }) === states(changed),
        `${c} would do`,
      );
    }
  } else {
    assert.ok(out.blockedBy !== undefined);
    for (const c of candidates) assert.ok(!acceptable({ ...r, value: c }, g, budget, firing), `${c} would do`);
  }
  const byLimit = out.suggestions.find((s) => s.change.member === 'exceeded_limit');
  const limits = [2, 3, 4, 5].filter((k) => k > r.exceededLimit);
  for (const k of limits.filter((k) => byLimit === undefined || k < byLimit.change.value))
    assert.ok(!acceptable({ ...r, exceededLimit: k }, g, budget, firing), `exceeded_limit ${k} would do`);
  if (byLimit) assert.ok(acceptable({ ...r, exceededLimit: byLimit.change.value }, g, budget, firing));
}

test('property: the suggested change, applied, meets the budget and still fires where it must, and no smaller one does', () => {
  const L = 40;
  const series = fc.array(
    fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 0, max: 20 }) }, { weight: 1, arbitrary: fc.constant(null) }),
    { minLength: L, maxLength: L },
  );
  const scenario = fc.record({
    groups: fc.array(series, { minLength: 1, maxLength: 3 }),
    op: fc.constantFrom(...OPS),
    value: fc.integer({ min: 0, max: 20 }),
    exceededLimit: fc.integer({ min: 1, max: 3 }),
    alertType: fc.constantFrom('on_change' as const, 'on_true' as const),
    timeRange: fc.constantFrom(MIN, 2 * MIN),
    combine: fc.constantFrom('sum' as const, 'max' as const),
    budget: fc.integer({ min: 0, max: 4 }),
    windows: fc.array(
      fc.record({ from: fc.integer({ min: 0, max: L - 2 }), length: fc.integer({ min: 1, max: 12 }) }),
      { maxLength: 3 },
    ),
    // Evaluations outside a schedule (the first day, a Thursday, from minute a to minute b) are skipped.
    schedule: fc.option(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 21, max: 40 }))),
  });
  fc.assert(
    fc.property(scenario, (s) => {
      const g = { ...grid(...s.groups), missingIsZero: s.combine === 'sum' };
      const schedule = s.schedule
        ? { schedule: { days: new Set([4]), startMinute: s.schedule[0], endMinute: s.schedule[1] } }
        : {};
      const r = rules({
        op: s.op,
        value: s.value,
        exceededLimit: s.exceededLimit,
        alertType: s.alertType,
        timeRange: s.timeRange,
        combine: s.combine,
        ...schedule,
      });
      const windows = s.windows.map((w, i) => ({
        name: `w${i}`,
        outcome: evaluate(r, g, Math.min(L, w.from + w.length) * MIN),
        from: w.from * MIN,
        to: Math.min(L, w.from + w.length) * MIN,
      }));
      checkSuggestion(
        r,
        g,
        s.budget,
        windows,
        suggestChange({ rules: r, outcome: evaluate(r, g), maxNotifications: s.budget, mustFire: windows }),
      );
    }),
    { numRuns: 400 },
  );
});
