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

/** Trigger alert types (spec 2.6); the first is the default. */
export const TRIGGER_ALERT_TYPES = ['on_change', 'on_true'] as const;
/** Evaluation schedule types (spec 2.6); the first is the default. */
export const EVALUATION_SCHEDULE_TYPES = ['frequency', 'window'] as const;
/** Threshold operators (service facts). */
export const THRESHOLD_OPS = ['>', '>=', '<', '<='] as const;
/** Baseline types and offsets (service facts). */
export const BASELINE_TYPES = ['percentage', 'value'] as const;
export const BASELINE_OFFSET_MINUTES = [60, 1440, 10080, 40320] as const;
/** Days of a window schedule (service facts): lowercase English names. */
export const DAYS_OF_WEEK = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
/** Tag keys and values of a trigger (service facts). */
export const TAG_KEY_PATTERN = /^[a-z]{1,32}$/;
export const TAG_VALUE_PATTERN = /^[a-z][a-z0-9/-]{1,128}$/;
/** Recipient types a trigger may name, and a paging recipient's severities (service facts: refused otherwise on a trigger write). */
export const TRIGGER_RECIPIENT_TYPES = [
  'email',
  'slack',
  'pagerduty',
  'webhook',
  'msteams',
  'msteams_workflow',
  'marker',
] as const;
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
/** A webhook recipient's variable name on a trigger (service facts). */
export const WEBHOOK_VARIABLE_NAME_PATTERN = /^[a-z](?:[a-zA-Z0-9]+$)?$/;
/** Having operators (service facts). */
export const HAVING_OPS = ['=', '!=', '>', '>=', '<', '<='] as const;
/** Calculation ops a trigger's query may not use (spec 2.6.1 rule 1). */
export const TRIGGER_REFUSED_OPS = ['HEATMAP', 'CONCURRENCY'] as const;
/** Calculation ops of metrics datasets only (service facts). */
export const METRICS_ONLY_OPS = ['COUNT_DATAPOINTS', 'HISTOGRAM_COUNT'] as const;
/** Query members a trigger's query may not set (spec 2.6.1 rule 3). */
export const TRIGGER_QUERY_REFUSED_MEMBERS = ['orders', 'limit', 'start_time', 'end_time', 'usage_mode'] as const;

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
  triggerTagsMax: 10,
  triggerFrequencyMin: 60,
  triggerFrequencyMax: 86_400,
  triggerFrequencyStep: 60,
  triggerFrequencyDefault: 900,
  /** A baseline trigger runs this often at most (service facts). */
  baselineFrequencyMin: 900,
  /** A webhook recipient's variable value on a trigger, in characters (service facts). */
  webhookVariableValueMax: 256,
  exceededLimitMin: 1,
  exceededLimitMax: 5,
  /** A trigger's query: time_range at most this, and at most this many times the frequency (spec 2.6.1 rule 2). */
  triggerTimeRangeMax: 86_400,
  triggerTimeRangeFrequencies: 4,
  /** With formulas: at most this many formulas and aggregates (spec 2.6.1 rule 5). */
  triggerFormulasMax: 1,
  triggerFormulaAggregatesMax: 100,
  /** Query annotations (service facts). */
  queryAnnotationNameMax: 320,
  queryAnnotationDescriptionMax: 1023,
  columnDescriptionMax: 255,
  columnKeyNameMax: 255,
} as const;
