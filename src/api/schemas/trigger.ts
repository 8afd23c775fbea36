import { z } from 'zod';
import { DateTime, Recipient } from './common';

// Spec 2.6 and part 8; members the spec leaves "not shown" from the service-facts note.
// The linter (src/lint/) builds its rules on these constants and schemas.

export const TRIGGER_LIMITS = {
  nameMin: 1,
  nameMax: 120,
  descriptionMax: 1023,
  tagsMax: 10,
  tagKeyMax: 32,
  frequencyMin: 60,
  frequencyMax: 86_400,
  frequencyStep: 60,
  frequencyDefault: 900,
  timeRangeFactor: 4,
  timeRangeMax: 86_400,
  formulasMax: 1,
  formulaAggregatesMax: 100,
  havingsMax: 1,
  nonHavingAggregatesMax: 1,
  exceededLimitMin: 1,
  exceededLimitMax: 5,
  granularityMinDivisor: 1000,
  granularityMaxDivisor: 10,
} as const;

export const TRIGGER_ALERT_TYPES = ['on_change', 'on_true'] as const;
export const EVALUATION_SCHEDULE_TYPES = ['frequency', 'window'] as const;
export const THRESHOLD_OPS = ['>', '>=', '<', '<='] as const;
export const DAYS_OF_WEEK = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export const BASELINE_TYPES = ['percentage', 'value'] as const;
export const BASELINE_OFFSET_MINUTES = [60, 1440, 10080, 40320] as const;

/** Calculation ops a trigger query may name at all (service facts). */
export const CALCULATION_OPS = [
  'COUNT', 'CONCURRENCY', 'SUM', 'AVG', 'COUNT_DISTINCT', 'MAX', 'MIN',
  'P001', 'P01', 'P05', 'P10', 'P20', 'P25', 'P50', 'P75', 'P80', 'P90', 'P95', 'P99', 'P999',
  'HEATMAP', 'RATE_AVG', 'RATE_SUM', 'RATE_MAX',
] as const;
/** Ops only metrics datasets know. */
export const METRICS_CALCULATION_OPS = ['COUNT_DATAPOINTS', 'HISTOGRAM_COUNT'] as const;
/** Ops spec 2.6.1 rule 1 refuses in a trigger. */
export const TRIGGER_REFUSED_OPS = ['HEATMAP', 'CONCURRENCY'] as const;
/** Ops that take no column. */
export const COLUMNLESS_OPS = ['COUNT', 'CONCURRENCY', 'COUNT_DATAPOINTS'] as const;
/** Query members spec 2.6.1 rule 3 refuses in a trigger query. */
export const TRIGGER_REFUSED_QUERY_MEMBERS = ['orders', 'limit', 'start_time', 'end_time', 'usage_mode'] as const;

export const FILTER_OPS = [
  '=', '!=', '>', '>=', '<', '<=', 'starts-with', 'does-not-start-with', 'ends-with', 'does-not-end-with',
  'exists', 'does-not-exist', 'contains', 'does-not-contain', 'in', 'not-in',
] as const;
export const HAVING_OPS = ['=', '!=', '>', '>=', '<', '<='] as const;
export const FILTER_COMBINATIONS = ['AND', 'OR'] as const;

/** Members the service sets and ignores on write. */
export const TRIGGER_READ_ONLY_MEMBERS = ['id', 'triggered', 'created_at', 'updated_at'] as const;

/** A trigger as `GET /1/triggers/<dataset>` returns it: unknown members kept, few required. */
export const Trigger = z.looseObject({
  id: z.string().min(1),
  dataset_slug: z.string().optional(),
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.looseObject({ key: z.string(), value: z.string() })).optional(),
  threshold: z.looseObject({ op: z.string(), value: z.number(), exceeded_limit: z.number().optional() }).optional(),
  frequency: z.number().int().optional(),
  alert_type: z.string().optional(),
  disabled: z.boolean().optional(),
  triggered: z.boolean().optional(),
  recipients: z.array(Recipient).optional(),
  evaluation_schedule_type: z.string().optional(),
  evaluation_schedule: z.looseObject({}).nullable().optional(),
  created_at: DateTime.optional(),
  updated_at: DateTime.optional(),
  baseline_details: z.looseObject({}).nullable().optional(),
  query: z.looseObject({}).nullable().optional(),
  query_id: z.string().nullable().optional(),
});
export type Trigger = z.infer<typeof Trigger>;

export const TriggerList = z.array(Trigger);
