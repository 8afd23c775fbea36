// The smallest change of a noisy trigger's threshold (or of its exceeded_limit) that would have kept it to at
// most N notifications over the evaluated window, while it still fires in every window its tests say it must
// fire in. Searched on evaluations already made (no query per candidate): per evaluation, the group value
// most likely to meet the threshold; a threshold between two of those values gives the same outcome as any
// other there, so only they are candidates, and one sweep counts the notifications at all of them.
// No vscode import.
import { STATE_SKIPPED, type PreviewOutcome, type ThresholdOp, type TriggerRules } from './evaluate';

/** The service takes exceeded_limit from 1 to 5. */
const MAX_EXCEEDED_LIMIT = 5;

/** A window a test says the trigger fires in: its evaluation (starting before `from`) and the window. */
export interface MustFire {
  name: string;
  outcome: PreviewOutcome;
  from: number;
  to: number;
}

export interface SuggestRequest {
  rules: Pick<TriggerRules, 'op' | 'value' | 'exceededLimit' | 'alertType'>;
  /** The evaluation of the window the budget is for (the report's 7 days), which may start before it. */
  outcome: PreviewOutcome;
  /**
   * Where the window opens: the evaluations at or before it only decide the state at its start, so a firing
   * already on then sends no notification in it (as `obs test` counts). None: the whole outcome is the window.
   */
  from?: number;
  maxNotifications: number;
  mustFire: readonly MustFire[];
}

type Change = { member: 'value'; value: number } | { member: 'exceeded_limit'; value: number };

interface Suggestion {
  change: Change;
  /** Notifications over the window with the change. */
  notifications: number;
}

export interface SuggestResult {
  /** Notifications over the window as the trigger is. */
  notifications: number;
  /** A threshold first, then an exceeded_limit, each where one exists; none when it is within the budget. */
  suggestions: Suggestion[];
  /** Windows it must fire in but does not even now: they constrain no change. */
  missed: string[];
  /** The window that stops a change from reaching the budget, where one does. */
  blockedBy?: string;
}

/** Values become "sensitivity": the larger, the more readily the threshold is met, whatever its op. */
const signOf = (op: ThresholdOp): 1 | -1 => (op === '>' || op === '>=' ? 1 : -1);
const strictOf = (op: ThresholdOp): boolean => op === '>' || op === '<';
const metBy = (e: number, t: number, strict: boolean): boolean => (strict ? e > t : e >= t);

interface Sequence {
  /** Per evaluation inside the schedule: the largest sensitivity of any group (-Infinity: no group had a value). */
  e: Float64Array;
  times: Float64Array;
  /** The first evaluation inside the window: those before it only decide the state at its start. */
  first: number;
}

/** The evaluations made (those outside the schedule leave the state as it was, so they are left out). */
function sequenceOf(outcome: PreviewOutcome, sign: 1 | -1, from = -Infinity): Sequence {
  const at: number[] = [];
  outcome.times.forEach((_t, j) => {
    if (outcome.states[j] !== STATE_SKIPPED) at.push(j);
  });
  const e = new Float64Array(at.length).fill(-Infinity);
  const times = new Float64Array(at.length);
  at.forEach((j, p) => {
    times[p] = outcome.times[j] as number;
    for (const g of outcome.values) {
      const v = (g.values[j] as number) * sign;
      if (v === v && v > (e[p] as number)) e[p] = v;
    }
  });
  const first = times.findIndex((t) => t > from);
  return { e, times, first: first < 0 ? at.length : first };
}

/** How the notifications of a run of evaluations meeting the threshold are counted. */
interface Counting {
  k: number;
  alertType: 'on_change' | 'on_true';
  /** The first evaluation inside the window. */
  first: number;
}

/**
 * Notifications inside the window of one run of consecutive evaluations meeting the threshold, from `s` to
 * `e`: it fires from its k-th evaluation on; on_change sends one if that is inside the window, on_true one
 * at each of its firing evaluations inside the window.
 */
function perRun(s: number, e: number, c: Counting): number {
  const fires = s + c.k - 1;
  if (c.alertType === 'on_true') return Math.max(0, e - Math.max(fires, c.first) + 1);
  return fires <= e && fires >= c.first ? 1 : 0;
}

/** Notifications when the evaluations `on` says meet the threshold. */
function notificationsWhere(n: number, on: (p: number) => boolean, c: Counting): number {
  let total = 0;
  let start = 0;
  for (let p = 0; p <= n; p++) {
    if (p < n && on(p)) continue;
    if (p > start) total += perRun(start, p - 1, c);
    start = p + 1;
  }
  return total;
}

/**
 * The distinct sensitivities, ascending, and the notifications when exactly the evaluations above each one
 * meet the threshold: evaluations switched on from the largest down, runs merged as they meet (linear after sorting).
 */
function notificationsByLevel(e: Float64Array, c: Counting): { levels: number[]; notifications: number[] } {
  const n = e.length;
  const order = [...e.keys()]
    .filter((p) => (e[p] as number) > -Infinity)
    .sort((a, b) => (e[b] as number) - (e[a] as number));
  const on = new Uint8Array(n);
  // A run's other end, kept at its two ends.
  const otherEnd = new Int32Array(n);
  const levels: number[] = [];
  const notifications: number[] = [];
  let total = 0;
  let i = 0;
  while (i < order.length) {
    const level = e[order[i] as number] as number;
    // Before switching on the evaluations at `level`: exactly those above it are on.
    levels.push(level);
    notifications.push(total);
    for (; i < order.length && e[order[i] as number] === level; i++) {
      const p = order[i] as number;
      on[p] = 1;
      const start = p > 0 && on[p - 1] === 1 ? (otherEnd[p - 1] as number) : p;
      const end = p < n - 1 && on[p + 1] === 1 ? (otherEnd[p + 1] as number) : p;
      if (start < p) total -= perRun(start, p - 1, c);
      if (end > p) total -= perRun(p + 1, end, c);
      total += perRun(start, end, c);
      otherEnd[start] = end;
      otherEnd[end] = start;
    }
  }
  return { levels: levels.reverse(), notifications: notifications.reverse() };
}

/** The largest threshold (sensitivity) at which a window still fires: its best run of k evaluations' smallest value. */
function fireLimit(w: MustFire, sign: 1 | -1, k: number): number {
  const { e, times } = sequenceOf(w.outcome, sign);
  let limit = -Infinity;
  for (let q = k - 1; q < e.length; q++) {
    const t = times[q] as number;
    if (t <= w.from || t > w.to) continue;
    let min = Infinity;
    for (let p = q - k + 1; p <= q; p++) min = Math.min(min, e[p] as number);
    limit = Math.max(limit, min);
  }
  return limit;
}

/**
 * A number in the interval, as round as the interval allows, near its low end: a whole number when one is in
 * it and the values are 10 or less (a count's threshold stays a count), else two significant digits if such
 * a number is in it, three if not, and so on; the low end itself when it is in and nothing rounder is.
 */
export function roundIn(lo: number, loIn: boolean, hi: number, hiIn: boolean): number {
  const inside = (x: number) => (loIn ? x >= lo : x > lo) && (hiIn ? x <= hi : x < hi);
  const at = (step: number): number | undefined => {
    let x = Number((Math.ceil(lo / step) * step).toPrecision(15));
    if (!inside(x)) x = Number((x + step).toPrecision(15));
    return inside(x) ? x : undefined;
  };
  const magnitude = lo !== 0 ? Math.abs(lo) : Number.isFinite(hi) && hi !== 0 ? Math.abs(hi) : 1;
  let first = Math.floor(Math.log10(magnitude)) - 1;
  if (first < 0 && at(1) !== undefined) first = 0;
  for (let digits = first; digits > first - 15; digits--) {
    const x = at(10 ** digits);
    if (x !== undefined) return x;
  }
  return loIn ? lo : Number.isFinite(hi) ? (lo + hi) / 2 : lo + Math.max(1e-9, Math.abs(lo) * 1e-9);
}

type Outcome = { suggestion: Suggestion } | { blockedBy: string } | undefined;

function thresholdChange(req: SuggestRequest, seq: Sequence, must: readonly MustFire[]): Outcome {
  const { op, value, exceededLimit: k, alertType } = req.rules;
  const sign = signOf(op);
  const strict = strictOf(op);
  const { levels, notifications } = notificationsByLevel(seq.e, { k, alertType, first: seq.first });
  const limits = must.map((w) => ({ name: w.name, limit: fireLimit(w, sign, k) }));
  const cap = limits.reduce((a, b) => (b.limit < a.limit ? b : a), { name: '', limit: Infinity });
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as number;
    if (!metBy(level, sign * value, strict) || (notifications[i] as number) > req.maxNotifications) continue;
    // Any threshold in [level, next) (strict op) or (level, next] leaves exactly the evaluations above `level`
    // meeting it; below `cap` (at most `cap`) every window that must fire still does.
    const hi = Math.min(levels[i + 1] ?? Infinity, cap.limit);
    if (!(level < hi)) return { blockedBy: cap.name };
    const t = roundIn(level, strict, hi, !strict);
    return {
      suggestion: { change: { member: 'value', value: sign * t + 0 }, notifications: notifications[i] as number },
    };
  }
  return undefined;
}

function exceededLimitChange(req: SuggestRequest, seq: Sequence, must: readonly MustFire[]): Outcome {
  const { op, value, exceededLimit, alertType } = req.rules;
  const sign = signOf(op);
  const strict = strictOf(op);
  const on = (p: number) => metBy(seq.e[p] as number, sign * value, strict);
  // The evaluations before the window decide the state for the trigger's own exceeded_limit: with a larger one,
  // a run under way when the window opens is taken to begin at the first evaluation made, which counts at
  // most one notification too many, so the limit suggested is never too small.
  for (let k = exceededLimit + 1; k <= MAX_EXCEEDED_LIMIT; k++) {
    const n = notificationsWhere(seq.e.length, on, { k, alertType, first: seq.first });
    if (n > req.maxNotifications) continue;
    // A longer run needed fires in fewer windows: past the first one that stops firing, none does better.
    const stops = must.find((w) => !metBy(fireLimit(w, sign, k), sign * value, strict));
    return stops
      ? { blockedBy: stops.name }
      : { suggestion: { change: { member: 'exceeded_limit', value: k }, notifications: n } };
  }
  return undefined;
}

export function suggestChange(req: SuggestRequest): SuggestResult {
  const { op, value, exceededLimit, alertType } = req.rules;
  const sign = signOf(op);
  const strict = strictOf(op);
  const seq = sequenceOf(req.outcome, sign, req.from);
  const notifications = notificationsWhere(seq.e.length, (p) => metBy(seq.e[p] as number, sign * value, strict), {
    k: exceededLimit,
    alertType,
    first: seq.first,
  });
  const missed = req.mustFire
    .filter((w) => !metBy(fireLimit(w, sign, exceededLimit), sign * value, strict))
    .map((w) => w.name);
  if (notifications <= req.maxNotifications) return { notifications, suggestions: [], missed };
  const must = req.mustFire.filter((w) => !missed.includes(w.name));
  const found = [thresholdChange(req, seq, must), exceededLimitChange(req, seq, must)];
  const suggestions = found.flatMap((f) => (f && 'suggestion' in f ? [f.suggestion] : []));
  const blocked = found.find((f): f is { blockedBy: string } => f !== undefined && 'blockedBy' in f);
  return { notifications, suggestions, missed, ...(blocked ? { blockedBy: blocked.blockedBy } : {}) };
}
