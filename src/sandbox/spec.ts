// Names and values the service's interface fixes (spec parts 2 and 4, service facts), as the sandbox
// knows them. Written here, not taken from the client (src/api), so the sandbox is the client's peer:
// it decides what the service accepts from the spec, and a mistake in the client cannot hide in both.

/** Path segment that addresses every dataset of the environment (spec part 4). */
export const ENVIRONMENT_WIDE = '__all__';
/** `dataset_slug` of an environment-wide trigger (spec 2.6). */
export const ENVIRONMENT_WIDE_TRIGGER_SLUG = 'all';

/** JSON:API resource type of an API key (spec 2.1). */
export const API_KEY_TYPE = 'api-keys';
/** Key types the sandbox creates: `ingest` (spec 2.1) and `configuration` (service facts). */
export const SANDBOX_KEY_TYPES = ['ingest', 'configuration'] as const;

/** Burn alert types (spec 2.2). */
export const BURN_ALERT_TYPES = ['exhaustion_time', 'budget_rate'] as const;
export type BurnAlertType = (typeof BURN_ALERT_TYPES)[number];
/** Read-only members of a burn alert, ignored in a PUT body (spec 2.2, service facts). */
export const BURN_ALERT_READ_ONLY = ['id', 'slo', 'triggered', 'created_at', 'updated_at'] as const;

/** Column types (spec 2.5). */
export const COLUMN_TYPES = ['string', 'float', 'integer', 'boolean', 'histogram'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** The 16 definition types of spec 2.7, in the spec's order. */
export const DEFINITION_TYPES = [
  'span_id',
  'trace_id',
  'parent_id',
  'name',
  'service_name',
  'duration_ms',
  'span_kind',
  'annotation_type',
  'link_trace_id',
  'link_span_id',
  'error',
  'status',
  'route',
  'user',
  'log_severity',
  'log_message',
] as const;
export type DefinitionType = (typeof DEFINITION_TYPES)[number];

/** Limits of spec part 8 and the service facts that the sandbox enforces. */
export const LIMITS = {
  burnAlertDescriptionMax: 1023,
  budgetRateWindowMinutesMin: 60,
  budgetRateThresholdMin: 1,
  budgetRateThresholdMax: 1_000_000,
  queryResultLimitMax: 10_000,
  queryResultLimitDefault: 1_000,
  triggerDescriptionMax: 1023,
  triggerNameMax: 120,
  columnDescriptionMax: 255,
  columnKeyNameMax: 255,
} as const;
