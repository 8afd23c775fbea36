// Exact windows: a trigger test asks the service for exactly the history its window needs, no evaluation more
// and none less. A property over any frequency, time_range, window, exceeded_limit, alert type, threshold and
// schedule compares `obs test`'s engine (its run against a service of the tests' own making) with an
// evaluator written here from the service's rules alone, which evaluates the trigger over its whole history
// of 60 days: the same counts in the window, the same verdict on what the 7 days kept allow, and the oldest
// data the engine asked for is the oldest data the window needs. Nothing of src/backtest is used to judge.
// And the noise report counts as `obs test` does: its notifications over its window are those of an at-most
// expectation over the same window, and the whole history's.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CreationPacer,
  parseTestFile,
  prepareTrigger,
  ResultCache,
  runTriggerTests,
  type ExpectationOutcome,
  type RunnerClock,
} from '../../src/backtest';
import { evaluateNoise, prepareNoise, type NoiseEntry } from '../../src/backtest/noiseReport';
import { eventsIn, fakeQueryService } from './fake-query-service';

const DAY = 86_400;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
type Op = '>' | '>=' | '<' | '<=';

interface Scenario {
  seed: number;
  frequency: number;
  timeRange: number;
  op: Op;
  value: number;
  exceededLimit: number;
  alertType: 'on_change' | 'on_true';
  /** Days it starts on (0 = Sunday), start and end in minutes of the day (UTC); an end at or before the start is the next day's. */
  schedule?: { days: number[]; start: number; end: number } | undefined;
  now: number;
  from: number;
  /** Undefined: the window ends "now". */
  to: number | undefined;
}

// ---- The independent evaluator: the service's rules as documented, over the whole history ----

/** Whether the schedule runs the trigger at `t`: inside a window opened on one of its days, that day or the one before. */
function runsAt(s: Scenario, t: number): boolean {
  if (!s.schedule) return true;
  const { days, start, end } = s.schedule;
  const today = t - (t % DAY);
  return [today, today - DAY].some((d) => {
    const opens = d + start * 60;
    const closes = d + (end > start ? end : end + 1_440) * 60;
    return days.includes(new Date(d * 1000).getUTCDay()) && t >= opens && t < closes;
  });
}

const meets = (s: Scenario, v: number): boolean =>
  s.op === '>' ? v > s.value : s.op === '>=' ? v >= s.value : s.op === '<' ? v < s.value : v <= s.value;

type Truth =
  | { kind: 'not-yet' | 'empty' | 'too-old' }
  | { kind: 'counted'; oldest: number; firings: number; firstAt: number | undefined; notifications: number };

/** What the service did in the window, and the oldest data that decides it; or why the window cannot be tested. */
function truth(s: Scenario): Truth {
  const f = s.frequency;
  const asked = s.to ?? s.now;
  if (asked <= s.from) return { kind: 'empty' };
  // The newest evaluation whose minutes are complete: two minutes back, then down to the frequency.
  const newest = s.now - 120 - ((s.now - 120) % f);
  if (s.from >= newest) return { kind: 'not-yet' };
  const cut = Math.min(asked, newest);
  const last = cut - (cut % f);
  const times: number[] = [];
  const since = s.from - 60 * DAY;
  for (let t = since - (since % f) + f; t <= last; t += f) if (runsAt(s, t)) times.push(t);
  if (last <= s.from) return { kind: 'empty' };
  // The state at the window's first evaluation comes from the exceeded_limit evaluations made at or before `from`.
  const before = times.filter((t) => t <= s.from);
  const decisive = before[before.length - s.exceededLimit];
  if (decisive === undefined || decisive - s.timeRange < s.now - 7 * DAY + 900) return { kind: 'too-old' };
  let run = 0;
  let wasFiring = false;
  let firings = 0;
  let firstAt: number | undefined;
  let notifications = 0;
  let inWindowBefore = false;
  for (const t of times) {
    run = meets(s, eventsIn(s.seed, t - s.timeRange, t)) ? run + 1 : 0;
    const firing = run >= s.exceededLimit;
    if (t > s.from && firing) {
      // A firing already on when the window opens is one of its firings, but sent its notification before.
      if (!wasFiring || !inWindowBefore) firings++;
      firstAt ??= t;
      if (s.alertType === 'on_true' || !wasFiring) notifications++;
    }
    wasFiring = firing;
    inWindowBefore = t > s.from;
  }
  return { kind: 'counted', oldest: decisive - s.timeRange, firings, firstAt, notifications };
}

// ---- The engine, as `obs test` runs it ----

const minute = (t: number): string => new Date(t * 1000).toISOString().slice(0, 16);
const utc = (t: number): string => `${minute(t).replace('T', ' ')} UTC`;

function triggerText(s: Scenario): string {
  return JSON.stringify({
    name: 'any trigger',
    dataset_slug: 'events',
    frequency: s.frequency,
    threshold: { op: s.op, value: s.value, exceeded_limit: s.exceededLimit },
    alert_type: s.alertType,
    query: { calculations: [{ op: 'COUNT' }], time_range: s.timeRange },
    ...(s.schedule
      ? {
          evaluation_schedule_type: 'window',
          evaluation_schedule: {
            window: {
              days_of_week: s.schedule.days.map((d) => WEEKDAYS[d]),
              start_time: hhmm(s.schedule.start),
              end_time: hhmm(s.schedule.end),
            },
          },
        }
      : {}),
  });
}

const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** A virtual clock from `seconds`: a wait for the pacer moves it on at once (the service's `now` stays put). */
function clockAt(seconds: number): RunnerClock {
  let ms = seconds * 1000;
  return {
    now: () => ms,
    sleep: async (wait) => {
      ms += wait;
    },
  };
}

async function engine(
  s: Scenario,
  budget = 0,
): Promise<{ outcomes: ExpectationOutcome[]; oldestAsked: number | undefined; created: number }> {
  const service = fakeQueryService(s.seed, () => s.now);
  const window = { from: `${minute(s.from)}Z`, to: s.to === undefined ? 'now' : `${minute(s.to)}Z` };
  const parsed = parseTestFile(
    JSON.stringify({
      expectations: [
        { name: 'fires', expect: 'fires', ...window },
        { name: 'sends', expect: 'at-most', notifications: budget, ...window },
      ],
    }),
  );
  assert.ok(parsed.ok);
  const signal = new AbortController().signal;
  const prepared = await prepareTrigger(triggerText(s), parsed.file, service.api, signal);
  assert.ok(prepared.ok, prepared.ok ? '' : prepared.reason);
  const clock = clockAt(s.now);
  const outcomes = await runTriggerTests(parsed.file, prepared.tested, {
    api: service.api,
    pacer: new CreationPacer(clock),
    clock,
    signal,
    report: () => undefined,
    cache: new ResultCache(),
    nowSeconds: s.now,
  });
  const starts = service.saved.map((q) => q.start);
  return { outcomes, oldestAsked: starts.length === 0 ? undefined : Math.min(...starts), created: service.created() };
}

/** "2 firings, first at 2025-06-01 15:05 UTC" and "3 notifications (on_change)" as the truth says them. */
function said(t: Extract<Truth, { kind: 'counted' }>, alertType: string): [string | undefined, string | undefined] {
  const firings = `${t.firings} ${t.firings === 1 ? 'firing' : 'firings'}${t.firstAt === undefined ? '' : `, first at ${utc(t.firstAt)}`}`;
  return [firings, `${t.notifications} ${t.notifications === 1 ? 'notification' : 'notifications'} (${alertType})`];
}

// ---- Scenarios ----

const FREQUENCIES = [60, 300, 900, 3_600, 86_400];
const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.integer(),
    frequency: fc.oneof(
      fc.constantFrom(...FREQUENCIES),
      fc.integer({ min: 1, max: 1_440 }).map((m) => m * 60),
    ),
    rangeShare: fc.integer({ min: 0, max: 1_000 }),
    op: fc.constantFrom<Op>('>', '>=', '<', '<='),
    // The threshold in events a minute over the time_range: bursts run at 5 to 9, quiet minutes at 0 to 2.
    perMinute: fc.constantFrom(0.5, 1, 2, 4, 6),
    exceededLimit: fc.integer({ min: 1, max: 5 }),
    alertType: fc.constantFrom<'on_change' | 'on_true'>('on_change', 'on_true'),
    schedule: fc.option(
      fc.record({
        days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
        start: fc.integer({ min: 0, max: 1_439 }),
        end: fc.integer({ min: 0, max: 1_439 }),
      }),
      { nil: undefined },
    ),
    // Any minute of 2025.
    now: fc.integer({ min: 0, max: 365 * 1_440 - 1 }).map((m) => Date.parse('2025-01-01T00:00:00Z') / 1000 + m * 60),
    fromBack: fc.integer({ min: 0, max: 8 * 1_440 }),
    length: fc.option(fc.integer({ min: 1, max: 8 * 1_440 }), { nil: undefined }),
  })
  .map((r) => {
    // time_range: from the frequency up to 4 times it, at most a day, in whole minutes.
    const low = r.frequency / 60;
    const high = Math.min(4 * r.frequency, DAY) / 60;
    const timeRange = 60 * (low + Math.round(((high - low) * r.rangeShare) / 1_000));
    const from = r.now - r.fromBack * 60;
    return {
      seed: r.seed,
      frequency: r.frequency,
      timeRange,
      op: r.op,
      value: Math.round((r.perMinute * timeRange) / 60),
      exceededLimit: r.exceededLimit,
      alertType: r.alertType,
      schedule: r.schedule,
      now: r.now,
      from,
      to: r.length === undefined ? undefined : from + r.length * 60,
    };
  });

describe('exact windows', () => {
  test('the engine counts what the whole history counts, asks for exactly the oldest data the window needs, and is not testable exactly when that is older than the service keeps (property)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const expected = truth(s);
        const got = await engine(s);
        const statuses = got.outcomes.map((o) => o.status);
        if (expected.kind === 'empty') {
          assert.deepEqual(statuses, ['error', 'error']);
          return;
        }
        if (expected.kind !== 'counted') {
          assert.deepEqual(statuses, ['not-testable', 'not-testable'], got.outcomes[0]?.message);
          assert.equal(got.created, 0);
          return;
        }
        assert.deepEqual(
          [got.outcomes[0]?.actual, got.outcomes[1]?.actual],
          said(expected, s.alertType),
          got.outcomes[0]?.message,
        );
        assert.equal(got.oldestAsked, expected.oldest, 'the oldest data asked for is the oldest the window needs');
      }),
      { numRuns: 150 },
    );
  });
});

// ---- The noise report, as the editor, `obs noise` and obs_noise run it ----

async function noise(s: Scenario, days: number): Promise<NoiseEntry> {
  const service = fakeQueryService(s.seed, () => s.now);
  const target = { key: 'k', label: 'any.trigger.json', text: triggerText(s), tests: [] };
  const signal = new AbortController().signal;
  const prepared = await prepareNoise(target, { api: service.api, signal });
  assert.ok('tested' in prepared, JSON.stringify(prepared));
  const clock = clockAt(s.now);
  // A budget nothing reaches: no suggestion is looked for.
  return evaluateNoise(
    prepared,
    {
      api: service.api,
      pacer: new CreationPacer(clock),
      clock,
      signal,
      report: () => undefined,
      cache: new ResultCache(),
      nowSeconds: s.now,
    },
    { mode: 'exact', days, budget: 1_000_000 },
  );
}

describe("the noise report counts as obs test's at-most does", () => {
  test("over its window, its notifications and firings are those of an at-most expectation over the same window, and the whole history's (property)", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, fc.integer({ min: 1, max: 7 }), async (s, days) => {
        const entry = await noise(s, days);
        if (entry.kind === 'skipped') {
          // Only a schedule too sparse, or evaluations too far apart, for the days kept leave a trigger out.
          assert.match(
            entry.reason,
            /^its schedule holds fewer than \d evaluations in the days the service keeps|^the service keeps 7 days of data, too little for a window after the evaluations that decide its state/,
          );
          return;
        }
        const c = entry.counts;
        assert.equal(
          c.perDay.reduce((a, b) => a + b, 0),
          c.notifications,
        );
        const over = { ...s, from: entry.from, to: entry.to };
        const tested = await engine(over, 1_000_000);
        assert.deepEqual(
          tested.outcomes.map((o) => o.status),
          ['passed', 'passed'].map((p, i) => (i === 0 && c.firings === 0 ? 'failed' : p)),
        );
        const expected = truth(over);
        assert.equal(expected.kind, 'counted');
        if (expected.kind !== 'counted') return;
        const [firings, notifications] = said(expected, s.alertType);
        assert.deepEqual([tested.outcomes[0]?.actual, tested.outcomes[1]?.actual], [firings, notifications]);
        assert.deepEqual([c.firings, c.notifications], [expected.firings, expected.notifications]);
      }),
      { numRuns: 150 },
    );
  });
});
