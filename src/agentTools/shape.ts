// The service's objects as the tools answer them: named fields only, picked one by one, so a member the
// service adds later (or a recipient's credentials) never reaches an answer; free text cut to LIMITS.text and
// names to LIMITS.name, each saying how long it was. Each shape's schema is beside it: the answers' output
// schemas are made of them, and the shapes are typed by them.
import * as z from 'zod';
import type { BurnAlert, Column, Dataset, Slo, Trigger } from '../api/schemas';
import { clip, clipName, defined, firstOf, LIMITS } from './answer';
import { baselineText, queryWords, QueryWords, scheduleText, triggerInWords } from './queryWords';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const text = z.string().optional();
const count = z.number().int().min(0);

/** Whether `text` contains `part`, case aside. */
export const containsText = (text: string | undefined, part: string | undefined): boolean =>
  part === undefined || (text ?? '').toLowerCase().includes(part.toLowerCase());

export const DatasetRow = z.object({
  slug: z.string(),
  name: text,
  description: text,
  last_written_at: text,
  columns: z.number().optional(),
});

export function datasetSummary(d: Dataset): z.infer<typeof DatasetRow> {
  return defined({
    slug: d.slug,
    name: clipName(str(d.name)),
    description: clip(str(d.description)),
    last_written_at: str(d.last_written_at),
    columns: num(d.regular_columns_count),
  });
}

export const ColumnRow = z.object({
  key_name: z.string(),
  type: text,
  hidden: z.boolean().optional(),
  description: text,
  last_written: text,
});

export function columnSummary(c: Column): z.infer<typeof ColumnRow> {
  return defined({
    key_name: clipName(c.key_name),
    type: str(c.type),
    hidden: bool(c.hidden),
    description: clip(str(c.description)),
    last_written: str(c.last_written),
  });
}

const RecipientRow = z.object({ id: text, type: text, target: text });

/**
 * A recipient of a trigger or burn alert: id, type and target only. `details` (severity, variables) and any
 * other member are left out: a member the service adds could be a credential.
 */
function recipientSummary(r: unknown): z.infer<typeof RecipientRow> {
  if (!isRecord(r)) return {};
  return defined({ id: str(r.id), type: str(r.type), target: clip(str(r.target), 120) });
}

const recipients = (list: unknown): z.infer<typeof RecipientRow>[] | undefined =>
  Array.isArray(list) ? list.slice(0, 20).map(recipientSummary) : undefined;

const ThresholdRow = z.object({ op: text, value: z.number().optional(), exceeded_limit: z.number().optional() });

function thresholdSummary(t: unknown): z.infer<typeof ThresholdRow> | undefined {
  if (!isRecord(t)) return undefined;
  return defined({ op: str(t.op), value: num(t.value), exceeded_limit: num(t.exceeded_limit) });
}

export const TriggerRow = z.object({
  id: z.string(),
  name: z.string(),
  dataset: text,
  description: text,
  disabled: z.boolean().optional(),
  triggered: z.boolean().optional(),
  frequency: z.number().optional(),
  alert_type: text,
  threshold: ThresholdRow.optional(),
  query_id: text,
  query: QueryWords.optional().describe(
    'Every member of the inline query, each in words (a saved query by query_id is not read).',
  ),
  schedule: z.string().describe('How often and when the service evaluates the trigger.'),
  baseline: text.describe('What the threshold is compared with when the trigger has a baseline.'),
  in_words: z.string().describe('What the trigger does, in one sentence.'),
  evaluation_schedule_type: text,
  recipients: z.array(RecipientRow).optional(),
  updated_at: text,
});

export function triggerSummary(t: Trigger): z.infer<typeof TriggerRow> {
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
    query: queryWords(t.query),
    schedule: scheduleText(t),
    baseline: baselineText(t.baseline_details),
    in_words: triggerInWords(t),
    evaluation_schedule_type: str(t.evaluation_schedule_type),
    recipients: recipients(t.recipients),
    updated_at: str(t.updated_at),
  });
}

export const SloRow = z.object({
  id: z.string(),
  name: text,
  description: text,
  sli: text,
  time_period_days: z.number().optional(),
  target_per_million: z.number().optional(),
  datasets: z.array(z.string()).optional(),
});

export function sloSummary(s: Slo): z.infer<typeof SloRow> {
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

export const BurnAlertRow = z.object({
  id: z.string(),
  alert_type: text,
  description: text,
  triggered: z.boolean().optional(),
  exhaustion_minutes: z.number().optional(),
  budget_rate_window_minutes: z.number().optional(),
  budget_rate_decrease_threshold_per_million: z.number().optional(),
  slo_id: text,
  recipients: z.array(RecipientRow).optional(),
});

export function burnAlertSummary(b: BurnAlert): z.infer<typeof BurnAlertRow> {
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

/** The schema of a list answer of `key`: how many there are, match and came back, and the entries. */
export function listOutput<K extends string, R extends z.ZodType>(key: K, row: R) {
  return z
    .object({ total: count, matching: count, returned: count, truncated: z.boolean() })
    .extend({ [key]: z.array(row) } as Record<K, z.ZodArray<R>>);
}

type ListAnswer<K extends string, R> = {
  total: number;
  matching: number;
  returned: number;
  truncated: boolean;
} & Record<K, R[]>;

/** A list answer: the first `limit` entries shaped, with how many there were and how many matched. */
export function listAnswer<K extends string, T, R>(
  key: K,
  all: readonly T[],
  keep: (item: T) => boolean,
  shape: (item: T) => R,
  limit: number = LIMITS.listRows,
): ListAnswer<K, R> {
  const matching = all.filter(keep);
  const { items, truncated } = firstOf(matching, limit);
  return {
    total: all.length,
    matching: matching.length,
    returned: items.length,
    truncated,
    [key]: items.map(shape),
  } as ListAnswer<K, R>;
}
