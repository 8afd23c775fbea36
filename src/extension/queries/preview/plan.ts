// What a trigger preview asks of the service: the trigger's rules as the evaluation needs them, the
// window and bucket step, and the queries (at most 1,000 buckets each: a query's granularity may not go
// below its time_range/1000) that fetch the series, each saved and run separately. No vscode import.
import type { CreateQueryRequest } from '../../../api/schemas';
import type { HavingOp, HavingRule, TriggerRules } from './evaluate';
import { readSchedule } from './schedule';
import { spanLabel } from './summary';
import { combineFor } from './windows';
import * as l10n from '@vscode/l10n';

/** Query data exists for the past 7 days only (service facts). */
export const RETENTION_SECONDS = 7 * 86_400;
export const MAX_BUCKETS = 1_000;
export const PREVIEW_WINDOWS = [3_600, 21_600, 86_400, 604_800] as const;
export const DEFAULT_PREVIEW_WINDOW = 86_400;
/** The newest minutes may still be filling up. */
const SAFETY = 120;
/** A preview's queries run over minutes (the rate limit): its oldest data must stay inside the 7 days until the last runs. */
const RETENTION_SLACK = 900;

export interface TriggerInput {
  name: string;
  frequency?: number | undefined;
  threshold?: { op?: unknown; value?: unknown; exceeded_limit?: unknown } | undefined;
  alert_type?: string | undefined;
  disabled?: boolean | undefined;
  evaluation_schedule_type?: string | undefined;
  evaluation_schedule?: unknown;
  baseline_details?: unknown;
}

export interface PreviewPlan {
  rules: TriggerRules;
  /** Key of the value compared with the threshold in the series rows (`COUNT`, `P99(duration_ms)`, a formula). */
  valueKey: string;
  /** Key of the HAVING clause's calculation in the series rows, when the query has one. */
  havingKey?: string | undefined;
  breakdowns: string[];
  /** Evaluations in (from, to]. */
  from: number;
  to: number;
  windowSeconds: number;
  /** Bucket length of the series, and where they start (a multiple of the step). */
  step: number;
  fetchStart: number;
  /** One query per chunk, [start, end). */
  chunks: { start: number; end: number }[];
  /** Sentences the panel shows under the summary: what is approximate, shortened or left out. */
  notes: string[];
  /** The coarser-step note when the plan uses coarser buckets (also in notes): the chart repeats it. */
  coarseNote?: string | undefined;
}

export type PlanMode = 'exact' | 'coarse';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function calcKey(c: Record<string, unknown>): string {
  if (typeof c.name === 'string' && c.name !== '') return c.name;
  return typeof c.column === 'string' ? `${String(c.op)}(${c.column})` : String(c.op);
}

/** A having corresponds to the calculation with the same op and column (a null column is no column). */
function corresponds(h: Record<string, unknown>, c: Record<string, unknown>): boolean {
  return h.calculate_op === c.op && (h.column ?? undefined) === (c.column ?? undefined);
}

/** The calculation the threshold applies to: the formula, or the one not used only by a having. */
function thresholdTarget(query: Record<string, unknown>): { key: string; op: string | undefined } | undefined {
  const formulas = Array.isArray(query.formulas) ? query.formulas.filter(isRecord) : [];
  const first = formulas[0];
  if (first && typeof first.name === 'string') return { key: first.name, op: undefined };
  const calcs = Array.isArray(query.calculations) ? query.calculations.filter(isRecord) : [];
  const havings = Array.isArray(query.havings) ? query.havings.filter(isRecord) : [];
  const havingOnly = (c: Record<string, unknown>) => havings.some((h) => typeof h.calculate_op === 'string' && corresponds(h, c));
  const target = calcs.find((c) => !havingOnly(c)) ?? calcs[0];
  return target && typeof target.op === 'string' ? { key: calcKey(target), op: target.op } : undefined;
}

const HAVING_OPS: readonly string[] = ['=', '!=', '>', '>=', '<', '<='];

/**
 * The query's HAVING clause (at most one, spec 2.6.1) as the evaluation applies it: the calculation it
 * corresponds to (same op and column, or a calculation or formula it names in `column` without an op),
 * its key in the series rows and how its window is made. Undefined when there is none; a reason when it
 * cannot be read.
 */
function readHaving(query: Record<string, unknown>): { key: string; rule: HavingRule } | { unreadable: true } | undefined {
  const havings = Array.isArray(query.havings) ? query.havings : [];
  const h = havings[0];
  if (h === undefined) return undefined;
  if (havings.length > 1 || !isRecord(h) || typeof h.op !== 'string' || !HAVING_OPS.includes(h.op) || typeof h.value !== 'number' || !Number.isFinite(h.value)) return { unreadable: true };
  const op = h.op as HavingOp;
  const calcs = Array.isArray(query.calculations) ? query.calculations.filter(isRecord) : [];
  if (typeof h.calculate_op === 'string') {
    const calc = calcs.find((c) => corresponds(h, c));
    return calc ? { key: calcKey(calc), rule: { op, value: h.value, combine: combineFor(h.calculate_op) } } : { unreadable: true };
  }
  if (typeof h.column !== 'string') return { unreadable: true };
  const named = calcs.find((c) => c.name === h.column);
  if (named) return { key: h.column, rule: { op, value: h.value, combine: combineFor(typeof named.op === 'string' ? named.op : undefined) } };
  const formulas = Array.isArray(query.formulas) ? query.formulas.filter(isRecord) : [];
  return formulas.some((f) => f.name === h.column) ? { key: h.column, rule: { op, value: h.value, combine: 'mean' } } : { unreadable: true };
}

export type PlanResult = { ok: true; plan: PreviewPlan; queriesIfExact: number } | { ok: false; reason: string };

/** Queries an exact preview of this window needs (1 when a coarser step is not needed). */
export function planPreview(trigger: TriggerInput, query: unknown, windowSeconds: number, nowSeconds: number, mode: PlanMode): PlanResult {
  if (!isRecord(query)) return { ok: false, reason: l10n.t('the trigger has no query to preview') };
  const frequency = trigger.frequency ?? 900;
  if (!Number.isInteger(frequency) || frequency < 60) return { ok: false, reason: l10n.t('frequency must be a whole number of seconds, at least 60') };
  const timeRange = query.time_range;
  if (typeof timeRange !== 'number' || !Number.isInteger(timeRange) || timeRange <= 0) return { ok: false, reason: l10n.t("the query's time_range must be a whole number of seconds") };
  const th = trigger.threshold;
  const op = th?.op;
  if (op !== '>' && op !== '>=' && op !== '<' && op !== '<=') return { ok: false, reason: l10n.t('the threshold needs an op of >, >=, < or <=') };
  if (typeof th?.value !== 'number' || !Number.isFinite(th.value)) return { ok: false, reason: l10n.t('the threshold needs a numeric value') };
  const exceeded = th.exceeded_limit === undefined ? 1 : th.exceeded_limit;
  if (typeof exceeded !== 'number' || !Number.isInteger(exceeded) || exceeded < 1) return { ok: false, reason: l10n.t('threshold.exceeded_limit must be a whole number of at least 1') };
  const target = thresholdTarget(query);
  if (!target) return { ok: false, reason: l10n.t('the query has no calculation') };

  const notes: string[] = [];
  let schedule: TriggerRules['schedule'];
  if (trigger.evaluation_schedule_type === 'window') {
    const read = readSchedule(trigger.evaluation_schedule);
    if (!read.ok) return { ok: false, reason: l10n.t('its evaluation schedule cannot be read: {0}', read.reason) };
    schedule = read.window;
  }
  let baseline: TriggerRules['baseline'];
  if (isRecord(trigger.baseline_details)) {
    const b = trigger.baseline_details;
    if ((b.type !== 'percentage' && b.type !== 'value') || typeof b.offset_minutes !== 'number' || b.offset_minutes <= 0) {
      return { ok: false, reason: l10n.t('baseline_details needs a type of percentage or value and offset_minutes') };
    }
    baseline = { type: b.type, offsetMinutes: b.offset_minutes };
  }
  const offset = (baseline?.offsetMinutes ?? 0) * 60;

  const to = Math.floor((nowSeconds - SAFETY) / frequency) * frequency;
  // The oldest data a window needs: its first evaluation's time_range, and the baseline before that.
  const room = RETENTION_SECONDS - RETENTION_SLACK - (nowSeconds - to) - timeRange - offset - gcd(frequency, timeRange);
  let window = windowSeconds;
  if (room < frequency) return { ok: false, reason: l10n.t('the service keeps 7 days of data, too little for a {0} baseline over {1}', spanLabel(offset), spanLabel(timeRange)) };
  if (window > room) {
    window = Math.floor(room / frequency) * frequency;
    notes.push(
      offset > 0
        ? l10n.t('The window is shortened to {0}: the service keeps 7 days of data, and the baseline looks {1} further back.', spanLabel(window), spanLabel(offset))
        : l10n.t('The window is shortened to {0}: the service keeps 7 days of data.', spanLabel(window)),
    );
  }
  const from = to - window;
  let step = gcd(frequency, timeRange);
  const fetchStartFor = (s: number) => Math.floor((from - timeRange - offset) / s) * s;
  const span = (s: number) => to - fetchStartFor(s);
  const queriesIfExact = Math.ceil(span(step) / (step * MAX_BUCKETS));
  let coarseNote: string | undefined;
  if (mode === 'coarse' && queriesIfExact > 1) {
    const exactStep = step;
    step = step * Math.ceil(span(step) / (step * MAX_BUCKETS));
    while (span(step) > step * MAX_BUCKETS) step += exactStep;
    coarseNote = l10n.t('Coarser steps: buckets of {0} instead of {1} (one query instead of {2}), so every window value is estimated.', spanLabel(step), spanLabel(exactStep), queriesIfExact);
    notes.push(coarseNote);
  }
  const fetchStart = fetchStartFor(step);
  const chunkSeconds = step * MAX_BUCKETS;
  const chunks: { start: number; end: number }[] = [];
  for (let s = fetchStart; s < to; s += chunkSeconds) chunks.push({ start: s, end: Math.min(to, s + chunkSeconds) });

  const combine = target.op === undefined ? 'mean' : combineFor(target.op);
  const having = readHaving(query);
  if (having !== undefined && 'unreadable' in having) notes.push(l10n.t('The HAVING clause could not be read, so it is not applied: every group is evaluated.'));
  const havingApplied = having !== undefined && 'rule' in having ? having : undefined;
  if (schedule) notes.push(l10n.t('Evaluations outside its schedule window are skipped.'));
  const rules: TriggerRules = {
    frequency,
    timeRange,
    op,
    value: th.value,
    exceededLimit: exceeded,
    alertType: trigger.alert_type === 'on_true' ? 'on_true' : 'on_change',
    disabled: trigger.disabled === true,
    ...(schedule ? { schedule } : {}),
    ...(baseline ? { baseline } : {}),
    combine,
    ...(havingApplied ? { having: havingApplied.rule } : {}),
  };
  const breakdowns = Array.isArray(query.breakdowns) ? query.breakdowns.filter((b): b is string => typeof b === 'string') : [];
  return { ok: true, queriesIfExact, plan: { rules, valueKey: target.key, havingKey: havingApplied?.key, breakdowns, from, to, windowSeconds: window, step, fetchStart, chunks, notes, coarseNote } };
}

/** The saved query that fetches one chunk: the trigger's query at the preview's step, over the chunk. */
export function chunkQuery(query: Record<string, unknown>, plan: PreviewPlan, chunk: { start: number; end: number }): CreateQueryRequest {
  const keep = ['calculations', 'filters', 'filter_combination', 'breakdowns', 'formulas', 'calculated_fields'];
  const out: Record<string, unknown> = {};
  for (const key of keep) if (query[key] !== undefined && query[key] !== null) out[key] = query[key];
  return { ...out, start_time: chunk.start, end_time: chunk.end, granularity: plan.step };
}
