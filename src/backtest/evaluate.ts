// Evaluates a trigger the way the service would, at each evaluation time of a past window: its
// time_range window over the series, its threshold per group, exceeded_limit consecutive evaluations,
// on_change / on_true notifications, its evaluation schedule, a dynamic baseline and the query's HAVING
// clauses. All in UTC. The preview and the trigger tests both evaluate here. No vscode import.
import { inSchedule, type ScheduleWindow } from './schedule';
import { isExact, windowValues, type Combine } from './windows';

export type ThresholdOp = '>' | '>=' | '<' | '<=';
export type HavingOp = ThresholdOp | '=' | '!=';

/** A HAVING clause of the query: a group is in a result only while its value of that calculation passes. */
export interface HavingRule {
  op: HavingOp;
  value: number;
  /** How buckets make the window's value of the having's calculation. */
  combine: Combine;
}

export interface TriggerRules {
  /** Seconds between evaluations (a multiple of 60). */
  frequency: number;
  /** Seconds of data each evaluation looks at. */
  timeRange: number;
  op: ThresholdOp;
  value: number;
  /** Consecutive evaluations that must meet the threshold before it fires (1 to 5). */
  exceededLimit: number;
  alertType: 'on_change' | 'on_true';
  disabled: boolean;
  schedule?: ScheduleWindow;
  baseline?: { type: 'percentage' | 'value'; offsetMinutes: number };
  combine: Combine;
  /** The query's HAVING clauses: a group is in a result only while it passes every one of them. */
  havings?: readonly HavingRule[];
}

/** Bucketed series of every group: bucket i covers [start + i * step, start + (i + 1) * step). */
export interface Grid {
  start: number;
  step: number;
  length: number;
  /**
   * `havings`: the buckets of each HAVING clause's calculation, in the order of the rules' `havings`.
   * `keys`: the group's breakdown values, in the order of the query's breakdowns (null: the event had none).
   */
  groups: { label: string; values: Float64Array; havings?: Float64Array[]; keys?: readonly (string | null)[] }[];
  /** A bucket without data is a 0 (COUNT, SUM) rather than no value. */
  missingIsZero: boolean;
}

export interface Firing {
  /** Evaluation time it fired at (epoch seconds). */
  start: number;
  /** Evaluation time it resolved at; null when still firing at the end of the window. */
  end: number | null;
  /** Groups that met the threshold while it fired, most often first. */
  groups: string[];
}

export interface PreviewOutcome {
  /** Evaluation times (epoch seconds), every multiple of the frequency in the window. */
  times: number[];
  /** Per group, the value compared with the threshold at each time (NaN: not evaluated). */
  values: { label: string; values: Float64Array }[];
  /** Evaluations made (inside the schedule) and skipped (outside it). */
  evaluated: number;
  outsideSchedule: number;
  firings: Firing[];
  /** on_change: one notification at each firing, and a resolve when it ends. */
  onChange: { notifications: number; resolves: number };
  /** on_true: one notification at every evaluation while it fires. */
  onTrue: { notifications: number };
  /** Groups that met the threshold while it fired, with how many evaluations each, most first. */
  groups: { label: string; evaluations: number }[];
  /** False when some window value was estimated (an op that is not additive over several buckets). */
  exact: boolean;
  /** Per evaluation time: 0 outside the schedule, 1 evaluated and not firing, 2 evaluated and firing. */
  states: Uint8Array;
}

export const STATE_SKIPPED = 0;
export const STATE_QUIET = 1;
export const STATE_FIRING = 2;

export function meets(v: number, op: HavingOp, threshold: number): boolean {
  switch (op) {
    case '=':
      return v === threshold;
    case '!=':
      return v !== threshold;
    case '>':
      return v > threshold;
    case '>=':
      return v >= threshold;
    case '<':
      return v < threshold;
    case '<=':
      return v <= threshold;
  }
}

/** The first evaluation time after `from`: the next multiple of the frequency, UTC. */
export function firstEvaluation(frequency: number, from: number): number {
  return Math.floor(from / frequency) * frequency + frequency;
}

/** Evaluation times in (from, to]: the multiples of the frequency, UTC. */
export function evaluationTimes(frequency: number, from: number, to: number): number[] {
  const first = firstEvaluation(frequency, from);
  const out = new Array<number>(first > to ? 0 : Math.floor((to - first) / frequency) + 1);
  for (let j = 0, t = first; j < out.length; j++, t += frequency) out[j] = t;
  return out;
}

export function evaluateTrigger(rules: TriggerRules, grid: Grid, from: number, to: number): PreviewOutcome {
  const times = evaluationTimes(rules.frequency, from, to);
  const k = Math.max(1, Math.round(rules.timeRange / grid.step));
  const havings = rules.havings ?? [];
  const values = comparedValues(rules, grid, times, k);
  const walk = walkEvaluations(rules, times, values);
  const { firings, counts } = walk;
  return {
    times,
    values,
    evaluated: walk.evaluated,
    outsideSchedule: walk.outsideSchedule,
    firings,
    onChange: { notifications: firings.length, resolves: firings.filter((f) => f.end !== null).length },
    onTrue: { notifications: walk.onTrue },
    groups: byCount(values, counts).map((g) => ({ label: values[g]?.label ?? '', evaluations: counts[g] ?? 0 })),
    exact:
      isExact(rules.combine, k) &&
      havings.every((h) => isExact(h.combine, k)) &&
      Math.abs(rules.timeRange / grid.step - k) < 1e-9,
    states: walk.states,
  };
}

/** What a walk over the evaluation times found. */
interface EvaluationWalk {
  firings: Firing[];
  states: Uint8Array;
  /** Per group (in the order of the compared values), evaluations it met the threshold at while firing. */
  counts: Int32Array;
  evaluated: number;
  outsideSchedule: number;
  /** Evaluations made while firing: one on_true notification each. */
  onTrue: number;
}

/**
 * Evaluates the trigger at each time in turn: the schedule, whether any group meets the threshold, the
 * consecutive evaluations needed to fire, and each firing's start and end; then the groups of each firing.
 * Whether any group meets the threshold at each time is marked group by group first, one tight loop each (7
 * days at 60 s for 50 groups is 504,000 comparisons), in the array that then holds the states: the walk reads
 * one byte per evaluation.
 */
function walkEvaluations(
  rules: TriggerRules,
  times: readonly number[],
  values: readonly ComparedValues[],
): EvaluationWalk {
  const bound = boundOf(rules.op, rules.value);
  const states = new Uint8Array(times.length);
  for (const v of values) markMeeting(bound, v.values, states);
  const firings: Firing[] = [];
  /** The index of each firing's first evaluation, and of the evaluation that ended it. */
  const spans: number[] = [];
  let evaluated = 0;
  let consecutive = 0;
  let alerting = false;
  let onTrue = 0;
  const { schedule, exceededLimit } = rules;
  for (let j = 0; j < times.length; j++) {
    const t = times[j] as number;
    const met = states[j] !== 0;
    states[j] = STATE_SKIPPED;
    if (schedule && !inSchedule(schedule, t)) continue;
    evaluated++;
    consecutive = met ? consecutive + 1 : 0;
    const now = consecutive >= exceededLimit;
    if (now && !alerting) {
      firings.push({ start: t, end: null, groups: [] });
      spans.push(j, times.length);
    } else if (!now && alerting) {
      const last = firings.length - 1;
      (firings[last] as Firing).end = t;
      spans[2 * last + 1] = j;
    }
    states[j] = now ? STATE_FIRING : STATE_QUIET;
    if (now) onTrue++;
    alerting = now;
  }
  const counts = groupsOfFirings(bound, values, states, firings, spans);
  return { firings, states, counts, evaluated, outsideSchedule: times.length - evaluated, onTrue };
}

/**
 * A threshold as a loop tests it without a switch per value: `<` and `<=` compare the negated value with the
 * negated threshold (negating is exact, and NaN meets none).
 */
interface Bound {
  sign: number;
  strict: boolean;
  at: number;
}

function boundOf(op: ThresholdOp, threshold: number): Bound {
  const sign = op === '>' || op === '>=' ? 1 : -1;
  return { sign, strict: op === '>' || op === '<', at: sign * threshold };
}

/** Sets `marks` to 1 at each time `values` meets the threshold. */
function markMeeting({ sign, strict, at }: Bound, values: Float64Array, marks: Uint8Array): void {
  for (let j = 0; j < marks.length; j++) {
    const x = sign * (values[j] as number);
    if (strict ? x > at : x >= at) marks[j] = 1;
  }
}

/**
 * The groups of each firing, most evaluations first, and per group its evaluations meeting the threshold while
 * firing over all of them: only the firings' evaluations are read again.
 */
function groupsOfFirings(
  { sign, strict, at }: Bound,
  values: readonly ComparedValues[],
  states: Uint8Array,
  firings: readonly Firing[],
  spans: readonly number[],
): Int32Array {
  const counts = new Int32Array(values.length);
  const inFiring = new Int32Array(values.length);
  for (let f = 0; f < firings.length; f++) {
    const end = spans[2 * f + 1] as number;
    for (let g = 0; g < values.length; g++) {
      const v = (values[g] as ComparedValues).values;
      let c = 0;
      for (let j = spans[2 * f] as number; j < end; j++) {
        const x = sign * (v[j] as number);
        if (states[j] === STATE_FIRING && (strict ? x > at : x >= at)) c++;
      }
      inFiring[g] = c;
      counts[g] = (counts[g] as number) + c;
    }
    (firings[f] as Firing).groups = byCount(values, inFiring).map((g) => values[g]?.label ?? '');
  }
  return counts;
}

/** The indexes of the groups with a count, most first, then by label. */
function byCount(values: readonly ComparedValues[], c: Int32Array): number[] {
  const idx: number[] = [];
  for (let g = 0; g < c.length; g++) if ((c[g] as number) > 0) idx.push(g);
  return idx.sort(
    (x, y) => (c[y] as number) - (c[x] as number) || (values[x]?.label ?? '').localeCompare(values[y]?.label ?? ''),
  );
}

type ComparedValues = { label: string; values: Float64Array };

/**
 * The bucket each evaluation's window ends at (exclusive), `shift` seconds earlier. In whole seconds, with the
 * evaluations a whole number of buckets apart and the first ending on a bucket's edge, each end is the first's
 * plus a whole stride: the same numbers as dividing each time, which is then not needed.
 */
function windowEnds(times: readonly number[], shift: number, grid: Grid, frequency: number): Int32Array {
  const ends = new Int32Array(times.length);
  const { start, step } = grid;
  const first = times[0] ?? 0;
  if ([first, shift, start, step, frequency].every(Number.isInteger) && (first - shift - start) % step === 0) {
    const stride = frequency / step;
    const at = (first - shift - start) / step;
    if (Number.isInteger(stride)) {
      for (let j = 0; j < ends.length; j++) ends[j] = at + j * stride;
      return ends;
    }
  }
  for (let j = 0; j < ends.length; j++) ends[j] = Math.round(((times[j] as number) - shift - start) / step);
  return ends;
}

/**
 * Per group, the value compared with the threshold at each time: the window's value, NaN where a HAVING
 * clause leaves the group out, and with a baseline the change against the same window offset_minutes earlier.
 */
function comparedValues(rules: TriggerRules, grid: Grid, times: readonly number[], k: number): ComparedValues[] {
  const ends = windowEnds(times, 0, grid, rules.frequency);
  const havings = rules.havings ?? [];
  const baseEnds = rules.baseline
    ? windowEnds(times, rules.baseline.offsetMinutes * 60, grid, rules.frequency)
    : undefined;
  return grid.groups.map((g) => {
    const now = windowValues(g.values, ends, k, rules.combine, grid.missingIsZero);
    havings.forEach((h, i) => dropWhereHavingFails(now, h, g.havings?.[i], ends, k));
    if (!rules.baseline || !baseEnds) return { label: g.label, values: now };
    const before = windowValues(g.values, baseEnds, k, rules.combine, grid.missingIsZero);
    // The baseline is the same query offset_minutes earlier, HAVING included: a group it left out then has no baseline.
    havings.forEach((h, i) => dropWhereHavingFails(before, h, g.havings?.[i], baseEnds, k));
    const change = new Float64Array(now.length);
    for (let j = 0; j < now.length; j++) {
      const v = now[j] as number;
      const b = before[j] as number;
      if (rules.baseline.type === 'value') change[j] = v - b;
      else change[j] = b === 0 || Number.isNaN(b) ? NaN : ((v - b) / Math.abs(b)) * 100;
    }
    return { label: g.label, values: change };
  });
}

/**
 * A group a HAVING clause leaves out of an evaluation's result is not compared with the threshold then:
 * its value becomes NaN. Inside a window a bucket without a value of an added-up calculation (COUNT, SUM)
 * counts as 0; a group with no value of it in the whole window is not in that result at all, whatever the
 * clause (`COUNT < 5` does not keep a group that had no rows).
 */
function dropWhereHavingFails(
  values: Float64Array,
  having: HavingRule,
  buckets: Float64Array | undefined,
  ends: Int32Array,
  k: number,
): void {
  if (!buckets) {
    values.fill(NaN);
    return;
  }
  const windows = windowValues(buckets, ends, k, having.combine, false);
  for (let j = 0; j < values.length; j++) {
    const h = windows[j] as number;
    if (Number.isNaN(h) || !meets(h, having.op, having.value)) values[j] = NaN;
  }
}
