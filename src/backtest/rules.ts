// A trigger's rules as the evaluation needs them, read from the trigger and its query: the threshold and
// the calculation it compares, exceeded_limit, the alert type, the schedule, the baseline and every HAVING
// clause, with what the evaluation cannot apply said in notes. No vscode import.
import type { HavingOp, HavingRule, TriggerRules } from './evaluate';
import { readSchedule } from './schedule';
import { combineFor } from './windows';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

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

export interface ReadRules {
  rules: TriggerRules;
  /** Key of the value compared with the threshold in the series rows (`COUNT`, `P99(duration_ms)`, a formula). */
  valueKey: string;
  /** Keys of the HAVING clauses' calculations in the series rows, in the order of `rules.havings`. */
  havingKeys: string[];
  breakdowns: string[];
  /** HAVING clauses that could not be read, so are not applied. */
  unreadableHavings: number;
  /** What the evaluation leaves out or skips, in sentences for the user. */
  notes: string[];
}

export type RulesResult = Outcome<{ read: ReadRules }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);

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
  const first = records(query.formulas)[0];
  if (first && typeof first.name === 'string') return { key: first.name, op: undefined };
  const calcs = records(query.calculations);
  const havings = records(query.havings);
  const havingOnly = (c: Record<string, unknown>) =>
    havings.some((h) => typeof h.calculate_op === 'string' && corresponds(h, c));
  const target = calcs.find((c) => !havingOnly(c)) ?? calcs[0];
  return target && typeof target.op === 'string' ? { key: calcKey(target), op: target.op } : undefined;
}

const HAVING_OPS: readonly string[] = ['=', '!=', '>', '>=', '<', '<='];

/**
 * One HAVING clause as the evaluation applies it: the calculation it corresponds to (same op and column, or
 * a calculation or formula it names in `column` without an op), its key in the series rows and how its
 * window is made; undefined when it cannot be read.
 */
function readHaving(h: unknown, query: Record<string, unknown>): { key: string; rule: HavingRule } | undefined {
  if (
    !isRecord(h) ||
    typeof h.op !== 'string' ||
    !HAVING_OPS.includes(h.op) ||
    typeof h.value !== 'number' ||
    !Number.isFinite(h.value)
  )
    return undefined;
  const op = h.op as HavingOp;
  const calcs = records(query.calculations);
  if (typeof h.calculate_op === 'string') {
    const calc = calcs.find((c) => corresponds(h, c));
    return calc ? { key: calcKey(calc), rule: { op, value: h.value, combine: combineFor(h.calculate_op) } } : undefined;
  }
  if (typeof h.column !== 'string') return undefined;
  const named = calcs.find((c) => c.name === h.column);
  if (named)
    return {
      key: h.column,
      rule: { op, value: h.value, combine: combineFor(typeof named.op === 'string' ? named.op : undefined) },
    };
  return records(query.formulas).some((f) => f.name === h.column)
    ? { key: h.column, rule: { op, value: h.value, combine: 'mean' } }
    : undefined;
}

/**
 * Every HAVING clause of the query. Spec 2.6.1 allows a trigger one; the service also takes havings naming
 * calculations or formulas, and a saved query may hold several: a group is in a result only while it passes
 * all of them.
 */
function readHavings(query: Record<string, unknown>): {
  keys: string[];
  rules: HavingRule[];
  unreadable: number;
  notes: string[];
} {
  const havings: unknown[] = Array.isArray(query.havings) ? query.havings : [];
  const out = { keys: [] as string[], rules: [] as HavingRule[], unreadable: 0, notes: [] as string[] };
  havings.forEach((h, i) => {
    const read = readHaving(h, query);
    if (read) {
      out.keys.push(read.key);
      out.rules.push(read.rule);
      return;
    }
    out.unreadable++;
    out.notes.push(
      havings.length === 1
        ? l10n.t('The HAVING clause could not be read, so it is not applied: every group is evaluated.')
        : l10n.t('HAVING clause {0} of {1} could not be read, so it is not applied.', i + 1, havings.length),
    );
  });
  return out;
}

/** The threshold, exceeded_limit and baseline, or the reason they cannot be read. */
function readThreshold(trigger: TriggerInput): Outcome<{ op: TriggerRules['op']; value: number; exceeded: number }> {
  const th = trigger.threshold;
  const op = th?.op;
  if (op !== '>' && op !== '>=' && op !== '<' && op !== '<=')
    return { ok: false, reason: l10n.t('the threshold needs an op of >, >=, < or <=') };
  if (typeof th?.value !== 'number' || !Number.isFinite(th.value))
    return { ok: false, reason: l10n.t('the threshold needs a numeric value') };
  const exceeded = th.exceeded_limit === undefined ? 1 : th.exceeded_limit;
  if (typeof exceeded !== 'number' || !Number.isInteger(exceeded) || exceeded < 1)
    return { ok: false, reason: l10n.t('threshold.exceeded_limit must be a whole number of at least 1') };
  return { ok: true, op, value: th.value, exceeded };
}

export function readTriggerRules(trigger: TriggerInput, query: unknown): RulesResult {
  if (!isRecord(query)) return { ok: false, reason: l10n.t('the trigger has no query to preview') };
  const frequency = trigger.frequency ?? 900;
  if (!Number.isInteger(frequency) || frequency < 60)
    return { ok: false, reason: l10n.t('frequency must be a whole number of seconds, at least 60') };
  const timeRange = query.time_range;
  if (typeof timeRange !== 'number' || !Number.isInteger(timeRange) || timeRange <= 0)
    return { ok: false, reason: l10n.t("the query's time_range must be a whole number of seconds") };
  const threshold = readThreshold(trigger);
  if (!threshold.ok) return threshold;
  const target = thresholdTarget(query);
  if (!target) return { ok: false, reason: l10n.t('the query has no calculation') };
  let schedule: TriggerRules['schedule'];
  if (trigger.evaluation_schedule_type === 'window') {
    const read = readSchedule(trigger.evaluation_schedule);
    if (!read.ok) return { ok: false, reason: l10n.t('its evaluation schedule cannot be read: {0}', read.reason) };
    schedule = read.window;
  }
  let baseline: TriggerRules['baseline'];
  if (isRecord(trigger.baseline_details)) {
    const b = trigger.baseline_details;
    if (
      (b.type !== 'percentage' && b.type !== 'value') ||
      typeof b.offset_minutes !== 'number' ||
      b.offset_minutes <= 0
    ) {
      return { ok: false, reason: l10n.t('baseline_details needs a type of percentage or value and offset_minutes') };
    }
    baseline = { type: b.type, offsetMinutes: b.offset_minutes };
  }
  const havings = readHavings(query);
  const notes = [...havings.notes];
  if (schedule) notes.push(l10n.t('Evaluations outside its schedule window are skipped.'));
  const rules: TriggerRules = {
    frequency,
    timeRange,
    op: threshold.op,
    value: threshold.value,
    exceededLimit: threshold.exceeded,
    alertType: trigger.alert_type === 'on_true' ? 'on_true' : 'on_change',
    disabled: trigger.disabled === true,
    ...(schedule ? { schedule } : {}),
    ...(baseline ? { baseline } : {}),
    combine: target.op === undefined ? 'mean' : combineFor(target.op),
    ...(havings.rules.length > 0 ? { havings: havings.rules } : {}),
  };
  const breakdowns = Array.isArray(query.breakdowns)
    ? query.breakdowns.filter((b): b is string => typeof b === 'string')
    : [];
  return {
    ok: true,
    read: {
      rules,
      valueKey: target.key,
      havingKeys: havings.keys,
      breakdowns,
      unreadableHavings: havings.unreadable,
      notes,
    },
  };
}

/** Said wherever a disabled trigger is evaluated (a test, the noise report): the service sends nothing for it. */
export const disabledNote = (): string =>
  l10n.t('The trigger is disabled: the service does not evaluate it; it was evaluated as if enabled.');
