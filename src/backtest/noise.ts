// How noisy a trigger was: what it would have sent over the last 7 days as the service would have
// evaluated it (notifications by its alert type, resolves), how often it flapped (fired again soon after
// resolving), and its notifications per day for a sparkline. The window ends at a quarter-hour boundary, so
// the report run again within the quarter asks for the same queries (the session's cache has them).
// No vscode import.
import { STATE_FIRING, STATE_SKIPPED, type PreviewOutcome, type TriggerRules } from './evaluate';
import { exactStep, lookBack, planFetch, planOf, RETENTION_SECONDS, RETENTION_SLACK_SECONDS, SAFETY_SECONDS, type PlanMode, type PreviewPlan } from './plan';
import type { ReadRules } from './rules';
import { spanLabel } from './summary';
import * as l10n from '@vscode/l10n';

export const NOISE_WINDOW_SECONDS = 7 * 86_400;
/** The window's end moves in steps of about this much (a multiple of the frequency). */
export const NOISE_ALIGN_SECONDS = 900;
/** A firing that begins at most this long after the previous one resolved is a flap. */
export const FLAP_SECONDS = 3_600;
const DAY = 86_400;

export type NoisePlan = { ok: true; plan: PreviewPlan; queriesIfExact: number } | { ok: false; reason: string };

/** The step the window's end moves by: a multiple of the frequency, about a quarter of an hour. */
export function alignmentOf(frequency: number): number {
  return frequency * Math.max(1, Math.floor(NOISE_ALIGN_SECONDS / frequency));
}

/**
 * The evaluations of the last 7 days, less what the service no longer keeps by the time the queries run (the
 * time_range of the first evaluation, a baseline's offset), ending at the newest aligned evaluation with
 * complete data: 6 d 23 h for most triggers.
 */
export function planNoise(read: ReadRules, nowSeconds: number, mode: PlanMode): NoisePlan {
  const { rules } = read;
  const align = alignmentOf(rules.frequency);
  const to = Math.floor((nowSeconds - SAFETY_SECONDS) / align) * align;
  // Sized for the latest `now` that gives this `to`, so every run within the quarter asks for the same window.
  const room = RETENTION_SECONDS - RETENTION_SLACK_SECONDS - (align + SAFETY_SECONDS) - lookBack(rules) - exactStep(rules);
  const offset = (rules.baseline?.offsetMinutes ?? 0) * 60;
  if (room < rules.frequency) return { ok: false, reason: l10n.t('the service keeps 7 days of data, too little for a {0} baseline over {1}', spanLabel(offset), spanLabel(rules.timeRange)) };
  const unit = room >= align ? align : rules.frequency;
  const window = Math.min(NOISE_WINDOW_SECONDS, Math.floor(room / unit) * unit);
  const notes = offset > 0 ? [l10n.t('Evaluated over the last {0}: the service keeps 7 days of data, and the baseline looks {1} further back.', durationWords(window), spanLabel(offset))] : [];
  const fetch = planFetch(rules, to - window, to, mode);
  if (fetch.coarseNote !== undefined) notes.push(fetch.coarseNote);
  return { ok: true, queriesIfExact: fetch.queriesIfExact, plan: planOf(read, to - window, to, fetch, [...notes, ...read.notes]) };
}

/** "6 d 23 h 45 min": each unit that is not 0. */
export function durationWords(seconds: number): string {
  const d = Math.floor(seconds / DAY);
  const h = Math.floor((seconds % DAY) / 3_600);
  const m = Math.round((seconds % 3_600) / 60);
  return [d > 0 ? l10n.t('{0} d', d) : '', h > 0 ? l10n.t('{0} h', h) : '', m > 0 ? l10n.t('{0} min', m) : ''].filter((p) => p !== '').join(' ');
}

export interface NoiseCounts {
  /** As the service would send them: on_change one per firing, on_true one per evaluation while firing. */
  notifications: number;
  /** Firings that ended in the window. */
  resolves: number;
  firings: number;
  /** Firings that began at most FLAP_SECONDS after the previous one resolved: fire/resolve cycles. */
  flaps: number;
  /** Evaluations made (inside the schedule). */
  evaluated: number;
  /** Notifications per day of the window, oldest first (the last day may be shorter). */
  perDay: number[];
  windowSeconds: number;
  /** False when some value was estimated (then every count is an estimate). */
  exact: boolean;
}

/** The noise of an evaluation over (from, to]. */
export function countNoise(outcome: PreviewOutcome, rules: Pick<TriggerRules, 'alertType'>, from: number, to: number): NoiseCounts {
  const days = Math.max(1, Math.ceil((to - from) / DAY));
  const perDay = new Array<number>(days).fill(0);
  const dayOf = (t: number) => Math.min(days - 1, Math.floor((t - from - 1) / DAY));
  let notifications = 0;
  let flaps = 0;
  let firing = false;
  let resolvedAt: number | undefined;
  outcome.times.forEach((t, j) => {
    const state = outcome.states[j];
    if (state === STATE_SKIPPED) return;
    const now = state === STATE_FIRING;
    const begins = now && !firing;
    if (begins && resolvedAt !== undefined && t - resolvedAt <= FLAP_SECONDS) flaps++;
    if (!now && firing) resolvedAt = t;
    if (rules.alertType === 'on_true' ? now : begins) {
      notifications++;
      const d = dayOf(t);
      perDay[d] = (perDay[d] ?? 0) + 1;
    }
    firing = now;
  });
  return {
    notifications,
    resolves: outcome.onChange.resolves,
    firings: outcome.firings.length,
    flaps,
    evaluated: outcome.evaluated,
    perDay,
    windowSeconds: to - from,
    exact: outcome.exact,
  };
}

const BLOCKS = '▁▂▃▄▅▆▇█';

/** One block character per value, scaled to the largest: none is the lowest block, the largest the full one. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 || v <= 0 ? BLOCKS[0] : BLOCKS[Math.max(1, Math.ceil((v / max) * (BLOCKS.length - 1)))])).join('');
}
