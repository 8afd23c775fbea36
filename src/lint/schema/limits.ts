// Limits and value lists of a trigger write (spec 2.6, 2.6.1, part 8); members the spec leaves
// "not shown" come from the service-facts note. The member schemas and the relational rules build on them.

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
  /** The least frequency of a trigger with a baseline, in seconds (service facts). */
  baselineFrequencyMin: 900,
  /** A webhook variable's value, in characters (service facts). */
  webhookVariableValueMax: 256,
  /** The largest body the service takes in a write, in bytes (service facts: over it, 413). */
  writeBodyMaxBytes: 100_000,
  timeRangeFactor: 4,
  timeRangeMax: 86_400,
  formulasMax: 1,
  formulaAggregatesMax: 100,
  havingsMax: 1,
  nonHavingAggregatesMax: 1,
  exceededLimitMin: 1,
  exceededLimitMax: 5,
  /** granularity lies within time_range/1000 and time_range (service facts). */
  granularityMinDivisor: 1000,
  /** Above time_range/10 the service still accepts granularity; the linter notes it as coarse. */
  granularityCoarseDivisor: 10,
} as const;

export const TRIGGER_ALERT_TYPES = ['on_change', 'on_true'] as const;
export const EVALUATION_SCHEDULE_TYPES = ['frequency', 'window'] as const;
export const THRESHOLD_OPS = ['>', '>=', '<', '<='] as const;
export const DAYS_OF_WEEK = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export const BASELINE_TYPES = ['percentage', 'value'] as const;
export const BASELINE_OFFSET_MINUTES = [60, 1440, 10080, 40320] as const;
/** Recipient types a trigger may name (service facts): those the recipients list holds, and marker, which only triggers do. */
export const RECIPIENT_TYPES = [
  'email',
  'slack',
  'pagerduty',
  'webhook',
  'msteams',
  'msteams_workflow',
  'marker',
] as const;
/** Severities of a PagerDuty recipient's incident (service facts). */
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
/** A webhook variable's name: a lowercase letter, then letters and digits (service facts, as the service writes it). */
export const WEBHOOK_VARIABLE_NAME_PATTERN = /^[a-z](?:[a-zA-Z0-9]+$)?$/;

/** Calculation ops a trigger query may name at all (service facts). */
export const CALCULATION_OPS = [
  'COUNT',
  'CONCURRENCY',
  'SUM',
  'AVG',
  'COUNT_DISTINCT',
  'MAX',
  'MIN',
  'P001',
  'P01',
  'P05',
  'P10',
  'P20',
  'P25',
  'P50',
  'P75',
  'P80',
  'P90',
  'P95',
  'P99',
  'P999',
  'HEATMAP',
  'RATE_AVG',
  'RATE_SUM',
  'RATE_MAX',
] as const;
/** Ops only metrics datasets know. */
export const METRICS_CALCULATION_OPS = ['COUNT_DATAPOINTS', 'HISTOGRAM_COUNT'] as const;
/** Ops spec 2.6.1 rule 1 refuses in a trigger. */
export const TRIGGER_REFUSED_OPS = ['HEATMAP', 'CONCURRENCY'] as const;
/** Ops that take no column. */
export const COLUMNLESS_OPS = ['COUNT', 'CONCURRENCY'] as const;
/** Ops whose column is optional: COUNT_DATAPOINTS counts every metric without one, one metric with one (service facts). */
export const OPTIONAL_COLUMN_OPS = ['COUNT_DATAPOINTS'] as const;

export const FILTER_OPS = [
  '=',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
  'starts-with',
  'does-not-start-with',
  'ends-with',
  'does-not-end-with',
  'exists',
  'does-not-exist',
  'contains',
  'does-not-contain',
  'in',
  'not-in',
] as const;
export const HAVING_OPS = ['=', '!=', '>', '>=', '<', '<='] as const;
export const FILTER_COMBINATIONS = ['AND', 'OR'] as const;

/** Ops a trigger query accepts: the known ops without the refused ones, plus the metrics-only ops. */
export const TRIGGER_CALCULATION_OPS = [
  ...CALCULATION_OPS.filter((op) => !(TRIGGER_REFUSED_OPS as readonly string[]).includes(op)),
  ...METRICS_CALCULATION_OPS,
] as const;
export const TAG_KEY_PATTERN = new RegExp(`^[a-z]{1,${TRIGGER_LIMITS.tagKeyMax}}$`);
/** A lowercase letter, then 1 to 128 lowercase letters, digits, `/` and `-` (service facts). */
export const TAG_VALUE_PATTERN = /^[a-z][a-z0-9/-]{1,128}$/;
/**
 * A name that is not blank holds a character other than white space (service facts: a name blank after
 * trimming "cannot be blank"). White space is Unicode's White_Space, spelt out so that the JSON Schema's
 * pattern means the same in every regular expression dialect.
 */
export const NOT_BLANK_PATTERN = /[^\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;
/** `HH:mm`, 24-hour clock (service facts: window times are UTC). */
export const WINDOW_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The nearest valid frequency to `n` (spec 2.6: 60..86400, multiple of 60); ties round up. */
export function nearestValidFrequency(n: number): number {
  const { frequencyMin, frequencyMax, frequencyStep } = TRIGGER_LIMITS;
  if (Number.isNaN(n)) return TRIGGER_LIMITS.frequencyDefault;
  const rounded = Math.round(n / frequencyStep) * frequencyStep;
  return Math.min(frequencyMax, Math.max(frequencyMin, rounded));
}

/** Whether `f` is a frequency the service accepts. */
export function isValidFrequency(f: unknown): f is number {
  return (
    typeof f === 'number' &&
    Number.isInteger(f) &&
    f >= TRIGGER_LIMITS.frequencyMin &&
    f <= TRIGGER_LIMITS.frequencyMax &&
    f % TRIGGER_LIMITS.frequencyStep === 0
  );
}

/** Bounds of time_range for a frequency (spec 2.6.1 rule 2). */
export function timeRangeBounds(frequency: number): { min: number; max: number; maxByFrequency: boolean } {
  const byFrequency = TRIGGER_LIMITS.timeRangeFactor * frequency;
  return {
    min: frequency,
    max: Math.min(byFrequency, TRIGGER_LIMITS.timeRangeMax),
    maxByFrequency: byFrequency <= TRIGGER_LIMITS.timeRangeMax,
  };
}
