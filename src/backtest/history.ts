// The history an evaluation reads, worked out here and nowhere else: the evaluations it makes before a window
// so that the state at the window's start is the service's (exceeded_limit, firing or not), and the oldest
// data those evaluations read (the first one's time_range, a baseline's offset before it). The trigger
// tests, the noise report and the preview plan their queries from it and judge it against the 7 days the
// service keeps, so none asks for an evaluation more than it needs. No vscode import.
import type { TriggerRules } from './evaluate';
import { inSchedule } from './schedule';

/** Query data exists for the past 7 days only (service facts). */
const RETENTION_SECONDS = 7 * 86_400;
/** Queries run over minutes (the rate limit): the oldest data must stay inside the 7 days until the last runs. */
const RETENTION_SLACK_SECONDS = 900;
/** How far back the state at a window's start is looked for (a weekly schedule has a window in any 8 days). */
const WARM_UP_LIMIT = 8 * 86_400;

/** How far before an evaluation its data reaches: its time_range, and a baseline's offset before that. */
function lookBack(rules: Pick<TriggerRules, 'timeRange' | 'baseline'>): number {
  return rules.timeRange + (rules.baseline?.offsetMinutes ?? 0) * 60;
}

/** The first evaluation after `t`: the next multiple of the frequency (UTC). */
function firstEvaluationAfter(frequency: number, t: number): number {
  return Math.floor(t / frequency) * frequency + frequency;
}

/** The oldest bucket a query may still start at, for queries run over the next minutes. */
export function oldestKept(nowSeconds: number): number {
  return nowSeconds - RETENTION_SECONDS + RETENTION_SLACK_SECONDS;
}

/**
 * Where the evaluation of a window opening at `from` starts (evaluations are made after it) so that its first
 * evaluation inside the window sees the state the service had: the `exceeded_limit` evaluations at or before
 * `from` inside the schedule, which may be days back. Those decide whether a firing begins at the window's
 * first evaluation (the one before it was firing or not, and how many in a row met the threshold).
 */
export function warmUpFrom(
  rules: Pick<TriggerRules, 'frequency' | 'exceededLimit' | 'schedule'>,
  from: number,
): number {
  const f = rules.frequency;
  let t = Math.floor(from / f) * f;
  for (let found = 0; t > from - WARM_UP_LIMIT; t -= f) {
    if (!rules.schedule || inSchedule(rules.schedule, t)) found++;
    if (found >= rules.exceededLimit) break;
  }
  // The earliest of them is the first evaluation made: the evaluation starts one frequency before it.
  return t - f;
}

/**
 * The start of the first bucket an evaluation over (evalFrom, ...] reads, in buckets of `step`: its first
 * evaluation's time_range and a baseline's offset before it, and nothing earlier.
 */
export function fetchStartFor(
  rules: Pick<TriggerRules, 'frequency' | 'timeRange' | 'baseline'>,
  evalFrom: number,
  step: number,
): number {
  return Math.floor((firstEvaluationAfter(rules.frequency, evalFrom) - lookBack(rules)) / step) * step;
}

/**
 * The earliest window start (a multiple of the frequency) whose evaluation reads no bucket of `step` before
 * `oldest`: warmed up (the trigger tests, the noise report) or not (the preview). Undefined when the
 * evaluations that decide the state at a window's start are not found within WARM_UP_LIMIT of the data kept.
 * A later start reads nothing older (the history only moves forward with the window).
 */
export function earliestStart(
  rules: Pick<TriggerRules, 'frequency' | 'timeRange' | 'baseline' | 'exceededLimit' | 'schedule'>,
  oldest: number,
  step: number,
  warmUp: boolean,
): number | undefined {
  const f = rules.frequency;
  // The first evaluation whose buckets all start at or after `oldest`.
  const first = Math.ceil((Math.ceil(oldest / step) * step + lookBack(rules)) / f) * f;
  if (!warmUp) return first - f;
  // The window may open at the exceeded_limit-th evaluation inside the schedule from there on.
  let found = 0;
  for (let t = first; t < first + WARM_UP_LIMIT; t += f) {
    if (!rules.schedule || inSchedule(rules.schedule, t)) found++;
    if (found >= rules.exceededLimit) return t;
  }
  return undefined;
}
