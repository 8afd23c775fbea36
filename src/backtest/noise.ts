// How noisy a trigger was: what it would have sent over the last 7 days as the service would have
// evaluated it (notifications by its alert type, resolves), how often it flapped (fired again soon after
// resolving), and its notifications per day for a sparkline. Counted as `obs test` counts an at-most
// expectation over the same window: the evaluation starts before the window (history.ts), so a firing
// already under way when it opens sent its notification before and is not one of the window's. The window
// ends at a quarter-hour boundary, so the report run again within the quarter asks for the same queries
// (the session's cache has them). No vscode import.
import { STATE_FIRING, STATE_SKIPPED, type PreviewOutcome, type TriggerRules } from './evaluate';
import { earliestStart, oldestKept, warmUpFrom } from './history';
import { exactStep, planFetch, planOf, SAFETY_SECONDS, type PlanMode, type PreviewPlan } from './plan';
import type { ReadRules } from './rules';
import { spanLabel } from './summary';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

const NOISE_WINDOW_SECONDS = 7 * 86_400;
/** The window's end moves in steps of about this much (a multiple of the frequency). */
const NOISE_ALIGN_SECONDS = 900;
/** A firing that begins at most this long after the previous one resolved is a flap. */
export const FLAP_SECONDS = 3_600;
const DAY = 86_400;

/** The plan evaluates from before the window (`plan.from`); the window itself is (from, to]. */
export type NoisePlan = Outcome<{ plan: PreviewPlan; from: number; to: number; queriesIfExact: number }>;

/** The step the window's end moves by: a multiple of the frequency, about a quarter of an hour. */
function alignmentOf(frequency: number): number {
  return frequency * Math.max(1, Math.floor(NOISE_ALIGN_SECONDS / frequency));
}

/**
 * The evaluations of the last `days` days (7 at most), less what the service no longer keeps by the time the
 * queries run (the evaluations that decide the state at the window's start, the time_range of the first of
 * them, a baseline's offset), ending at the newest aligned evaluation with complete data: 6 d 23 h for most
 * triggers over 7 days.
 */
export function planNoise(read: ReadRules, nowSeconds: number, mode: PlanMode, days = 7): NoisePlan {
  const { rules } = read;
  const align = alignmentOf(rules.frequency);
  const to = Math.floor((nowSeconds - SAFETY_SECONDS) / align) * align;
  // Sized for the latest `now` that gives this `to`, so every run within the quarter asks for the same window.
  const earliest = earliestStart(rules, oldestKept(to + align + SAFETY_SECONDS), exactStep(rules), true);
  const room = earliest === undefined ? 0 : to - earliest;
  const offset = (rules.baseline?.offsetMinutes ?? 0) * 60;
  if (room < rules.frequency) {
    let reason: string;
    if (earliest === undefined)
      reason = l10n.t(
        'its schedule holds fewer than {0} evaluations in the days the service keeps, so the state at any start of the window is older than its data',
        rules.exceededLimit,
      );
    else if (offset > 0)
      reason = l10n.t(
        'the service keeps 7 days of data, too little for a {0} baseline over {1}',
        spanLabel(offset),
        spanLabel(rules.timeRange),
      );
    else
      reason = l10n.t(
        'the service keeps 7 days of data, too little for a window after the evaluations that decide its state when the window opens (every {0} over {1}, exceeded_limit {2}, its schedule)',
        spanLabel(rules.frequency),
        spanLabel(rules.timeRange),
        rules.exceededLimit,
      );
    return { ok: false, reason };
  }
  const unit = room >= align ? align : rules.frequency;
  const window = Math.min(Math.min(days * DAY, NOISE_WINDOW_SECONDS), Math.floor(room / unit) * unit);
  const from = to - window;
  const notes =
    offset > 0
      ? [
          l10n.t(
            'Evaluated over the last {0}: the service keeps 7 days of data, and the baseline looks {1} further back.',
            durationWords(window),
            spanLabel(offset),
          ),
        ]
      : [];
  const evalFrom = warmUpFrom(rules, from);
  const fetch = planFetch(rules, evalFrom, to, mode);
  if (fetch.coarseNote !== undefined) notes.push(fetch.coarseNote);
  return {
    ok: true,
    from,
    to,
    queriesIfExact: fetch.queriesIfExact,
    plan: planOf(read, evalFrom, to, fetch, [...notes, ...read.notes]),
  };
}

/** "6 d 23 h 45 min": each unit that is not 0. */
export function durationWords(seconds: number): string {
  const d = Math.floor(seconds / DAY);
  const h = Math.floor((seconds % DAY) / 3_600);
  const m = Math.round((seconds % 3_600) / 60);
  return [d > 0 ? l10n.t('{0} d', d) : '', h > 0 ? l10n.t('{0} h', h) : '', m > 0 ? l10n.t('{0} min', m) : '']
    .filter((p) => p !== '')
    .join(' ');
}

export interface NoiseCounts {
  /** As the service would send them in the window: on_change one per firing begun in it, on_true one per evaluation in it while firing. */
  notifications: number;
  /** Firings that ended in the window. */
  resolves: number;
  /** Firings with an evaluation in the window at which it was firing (one under way when it opens too). */
  firings: number;
  /** Firings that began in the window at most FLAP_SECONDS after the previous one resolved: fire/resolve cycles. */
  flaps: number;
  /** Evaluations made in the window (inside the schedule). */
  evaluated: number;
  /** Notifications per day of the window, oldest first (the last day may be shorter). */
  perDay: number[];
  windowSeconds: number;
  /** False when some value was estimated (then every count is an estimate). */
  exact: boolean;
}

/**
 * The noise in (from, to] of an evaluation that may start before `from` (the evaluations that decide the state
 * at the window's start): what happens at those earlier evaluations only sets the state.
 */
export function countNoise(
  outcome: PreviewOutcome,
  rules: Pick<TriggerRules, 'alertType'>,
  from: number,
  to: number,
): NoiseCounts {
  return walkNoise(outcome, rules, from, to).counts;
}

/** The counts, and the evaluations (indexes into `outcome.times`) at which a notification is sent, oldest first. */
export interface NoiseWalk {
  counts: NoiseCounts;
  sentAt: number[];
}

/** countNoise, with the evaluations that sent a notification. */
export function walkNoise(
  outcome: PreviewOutcome,
  rules: Pick<TriggerRules, 'alertType'>,
  from: number,
  to: number,
): NoiseWalk {
  const sentAt: number[] = [];
  const days = Math.max(1, Math.ceil((to - from) / DAY));
  const perDay = new Array<number>(days).fill(0);
  const dayOf = (t: number) => Math.min(days - 1, Math.floor((t - from - 1) / DAY));
  const counts = { notifications: 0, resolves: 0, firings: 0, flaps: 0, evaluated: 0 };
  let firing = false;
  let inWindowBefore = false;
  let resolvedAt: number | undefined;
  outcome.times.forEach((t, j) => {
    const state = outcome.states[j];
    if (state === STATE_SKIPPED || t > to) return;
    const now = state === STATE_FIRING;
    const begins = now && !firing;
    const inWindow = t > from;
    if (inWindow) {
      counts.evaluated++;
      if (now && (begins || !inWindowBefore)) counts.firings++;
      if (begins && resolvedAt !== undefined && t - resolvedAt <= FLAP_SECONDS) counts.flaps++;
      if (!now && firing) counts.resolves++;
      if (rules.alertType === 'on_true' ? now : begins) {
        counts.notifications++;
        sentAt.push(j);
        const d = dayOf(t);
        perDay[d] = (perDay[d] ?? 0) + 1;
      }
    }
    if (!now && firing) resolvedAt = t;
    firing = now;
    inWindowBefore = inWindow;
  });
  return { counts: { ...counts, perDay, windowSeconds: to - from, exact: outcome.exact }, sentAt };
}

const BLOCKS = '▁▂▃▄▅▆▇█';

/** One block character per value, scaled to the largest: none is the lowest block, the largest the full one. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((v) => (max === 0 || v <= 0 ? BLOCKS[0] : BLOCKS[Math.max(1, Math.ceil((v / max) * (BLOCKS.length - 1)))]))
    .join('');
}
