// The service's objects as the tools answer them: named fields only, picked one by one, so a member the
// service adds later (or a recipient's credentials) never reaches an answer; free text cut to LIMITS.text and
// names to LIMITS.name, each saying how long it was.
import type { BurnAlert, Column, Dataset, Slo, Trigger } from '../api/schemas';
import { clip, clipName, defined, firstOf, LIMITS } from './answer';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether `text` contains `part`, case aside. */
export const containsText = (text: string | undefined, part: string | undefined): boolean => part === undefined || (text ?? '').toLowerCase().includes(part.toLowerCase());

export function datasetSummary(d: Dataset): Record<string, unknown> {
  return defined({
    slug: d.slug,
    name: clipName(str(d.name)),
    description: clip(str(d.description)),
    last_written_at: str(d.last_written_at),
    columns: num(d.regular_columns_count),
  });
}

export function columnSummary(c: Column): Record<string, unknown> {
  return defined({ key_name: clipName(c.key_name), type: str(c.type), hidden: bool(c.hidden), description: clip(str(c.description)), last_written: str(c.last_written) });
}

/**
 * A recipient of a trigger or burn alert: id, type and target only. `details` (severity, variables) and any
 * other member are left out: a member the service adds could be a credential.
 */
function recipientSummary(r: unknown): Record<string, unknown> {
  if (!isRecord(r)) return {};
  return defined({ id: str(r.id), type: str(r.type), target: clip(str(r.target), 120) });
}

const recipients = (list: unknown): Record<string, unknown>[] | undefined => (Array.isArray(list) ? list.slice(0, 20).map(recipientSummary) : undefined);

function thresholdSummary(t: unknown): Record<string, unknown> | undefined {
  if (!isRecord(t)) return undefined;
  return defined({ op: str(t.op), value: num(t.value), exceeded_limit: num(t.exceeded_limit) });
}

/** What a query does, in short: its calculations, breakdowns and time range (the full query is the trigger file's). */
function querySummary(q: unknown): Record<string, unknown> | undefined {
  if (!isRecord(q)) return undefined;
  const calcs = Array.isArray(q.calculations) ? q.calculations.slice(0, 10).flatMap((c) => (isRecord(c) ? [`${str(c.op) ?? '?'}${str(c.column) === undefined ? '' : `(${str(c.column)})`}`] : [])) : undefined;
  const breakdowns = Array.isArray(q.breakdowns) ? q.breakdowns.slice(0, 10).flatMap((b) => (typeof b === 'string' ? [b] : [])) : undefined;
  const filters = Array.isArray(q.filters) ? q.filters.length : undefined;
  return defined({ calculations: calcs, breakdowns, filters, time_range: num(q.time_range) });
}

export function triggerSummary(t: Trigger): Record<string, unknown> {
  return defined({
    id: t.id,
    name: clipName(t.name),
    dataset: str(t.dataset_slug),
    description: clip(str(t.description)),
    disabled: bool(t.disabled),
    triggered: bool(t.triggered),
    frequency: num(t.frequency),
    alert_type: str(t.alert_type),
    threshold: thresholdSummary(t.threshold),
    query_id: str(t.query_id),
    query: querySummary(t.query),
    evaluation_schedule_type: str(t.evaluation_schedule_type),
    recipients: recipients(t.recipients),
    updated_at: str(t.updated_at),
  });
}

export function sloSummary(s: Slo): Record<string, unknown> {
  return defined({
    id: s.id,
    name: clipName(str(s.name)),
    description: clip(str(s.description)),
    sli: isRecord(s.sli) ? str(s.sli.alias) : undefined,
    time_period_days: num(s.time_period_days),
    target_per_million: num(s.target_per_million),
    datasets: Array.isArray(s.dataset_slugs) ? s.dataset_slugs.slice(0, 20) : undefined,
  });
}

export function burnAlertSummary(b: BurnAlert): Record<string, unknown> {
  return defined({
    id: b.id,
    alert_type: str(b.alert_type),
    description: clip(str(b.description)),
    triggered: bool(b.triggered),
    exhaustion_minutes: num(b.exhaustion_minutes),
    budget_rate_window_minutes: num(b.budget_rate_window_minutes),
    budget_rate_decrease_threshold_per_million: num(b.budget_rate_decrease_threshold_per_million),
    slo_id: isRecord(b.slo) ? str(b.slo.id) : undefined,
    recipients: recipients(b.recipients),
  });
}

/** A list answer: the first `limit` entries shaped, with how many there were and how many matched. */
export function listAnswer<T>(
  key: string,
  all: readonly T[],
  keep: (item: T) => boolean,
  shape: (item: T) => Record<string, unknown>,
  limit: number = LIMITS.listRows,
): Record<string, unknown> {
  const matching = all.filter(keep);
  const { items, truncated } = firstOf(matching, limit);
  return { total: all.length, matching: matching.length, returned: items.length, truncated, [key]: items.map(shape) };
}
