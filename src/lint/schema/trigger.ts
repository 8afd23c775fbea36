import * as z from 'zod';
import { isDeprecatedRecipient, RecipientWrite } from '../../api/schemas/common';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../api/schemas/trigger';

// Spec 2.6 and part 8; members the spec leaves "not shown" from the service-facts note.
// The linter builds its rules on these constants and schemas; the read side is src/api/schemas/trigger.ts.

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

// --- Writing a trigger (spec 2.6, 2.6.1, part 8; service facts) --------------------------------
// `TriggerWrite` is strict: it is the single source of the linter's rules (src/lint/) and of
// schemas/trigger.schema.json. Member checks are zod checks; the relational rules of 2.6.1 are one
// refinement whose issues carry their rule id in `params.rule`.

/** Ops a trigger query accepts: the known ops without the refused ones, plus the metrics-only ops. */
export const TRIGGER_CALCULATION_OPS = [
  ...CALCULATION_OPS.filter((op) => !(TRIGGER_REFUSED_OPS as readonly string[]).includes(op)),
  ...METRICS_CALCULATION_OPS,
] as const;
export const TAG_KEY_PATTERN = new RegExp(`^[a-z]{1,${TRIGGER_LIMITS.tagKeyMax}}$`);
/** `HH:mm`, 24-hour clock (service facts: window times are UTC). */
export const WINDOW_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** Extra data a relational issue carries for the linter. */
export interface TriggerIssueParams {
  /** Stable linter rule id. */
  rule: string;
  /** The value that makes the member valid, when exactly one is the obvious fix. */
  replaceWith?: number;
  /** Other places that explain the issue, relative to the trigger. */
  related?: { path: (string | number)[]; message: string }[];
}

type RawIssue = z.core.$ZodRawIssue;

/** Any JSON value as message text; parsers may hand over objects without a prototype, which String() refuses. */
function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null) {
    const json = JSON.stringify(v);
    return json.length > 40 ? `${json.slice(0, 40)}...` : json;
  }
  return `${v as number | boolean | null | undefined | bigint}`;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return `a string (${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)})`;
    case 'number':
      return Number.isInteger(v) ? `the number ${v}` : `the fraction ${v}`;
    case 'boolean':
      return `the boolean ${v}`;
    case 'object':
      return 'an object';
    default:
      return typeof v;
  }
}

function problem(label: string, iss: RawIssue): string {
  const input = iss.input;
  if (input === undefined && iss.code !== 'unrecognized_keys') return `${label} is missing`;
  switch (iss.code) {
    case 'invalid_type':
      if (iss.expected === 'int' && typeof input === 'number') return `${label} ${input} is not a whole number`;
      return `${label} is ${kindOf(input)}`;
    case 'too_big':
    case 'too_small':
      if (typeof input === 'string') return `${label} has ${input.length} characters`;
      if (Array.isArray(input)) return `${label} holds ${input.length} ${input.length === 1 ? 'item' : 'items'}`;
      return `${label} is ${show(input)}`;
    case 'not_multiple_of':
      return `${label} ${show(input)} is not a multiple of ${show(iss.divisor)}`;
    case 'invalid_value':
    case 'invalid_format':
      return `${label} ${JSON.stringify(input)} is not allowed`;
    case 'unrecognized_keys':
      return `${label} has unknown members`;
    default:
      return `${label} is not valid`;
  }
}

/** Zod error option: says what is wrong with the actual value, then what is allowed. */
function says(label: string, allowed: string) {
  return { error: (iss: RawIssue) => `${problem(label, iss)}; expected ${allowed}` };
}
/** The same for a strict object: unknown members get the list of known ones. */
function objectSays(label: string, allowed: string, known: readonly string[]) {
  return {
    error: (iss: RawIssue) =>
      iss.code === 'unrecognized_keys'
        ? `is not a member of ${label}; known members: ${known.join(', ')}`
        : `${problem(label, iss)}; expected ${allowed}`,
  };
}
function strict<S extends z.core.$ZodLooseShape>(label: string, allowed: string, shape: S) {
  return z.strictObject(shape, objectSays(label, allowed, Object.keys(shape)));
}

const list = (values: readonly (string | number)[]) => values.join(', ');

const RECIPIENT_MEMBERS = Object.keys(RecipientWrite.shape);
const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((out, k) => (typeof k === 'number' ? `${out}[${k}]` : out === '' ? String(k) : `${out}.${String(k)}`), '');
const withArticle = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/**
 * Messages in the linter's words for the issues of schemas shared with the service client
 * (common.ts: recipients), which keep zod's defaults. Pass as `safeParse(value, { error: triggerIssueMessage })`;
 * the messages of the trigger's own schemas take precedence.
 */
export function triggerIssueMessage(iss: RawIssue): string | undefined {
  if (iss.code === 'unrecognized_keys') {
    return iss.inst === RecipientWrite ? `is not a member of a recipient; known members: ${list(RECIPIENT_MEMBERS)}` : 'is not a known member';
  }
  const label = pathText(iss.path ?? []) || 'the value';
  return iss.code === 'invalid_type' ? `${problem(label, iss)}; expected ${withArticle(iss.expected)}` : problem(label, iss);
}

const readOnly = (what: string) =>
  z.unknown().optional().describe(`${what} Read-only: the service sets it and ignores it on write.`);
const refusedInQuery = (member: string) =>
  z
    .never({
      error: () =>
        `${member} must not be set in a trigger query: results are ordered by the threshold operator and all matching groups are evaluated (spec 2.6.1 rule 3)`,
    })
    .optional()
    .describe(`Not allowed in a trigger query (spec 2.6.1 rule 3).`);

const TagWrite = strict('a tag', 'an object with string members key and value', {
  key: z
    .string(says('tag key', `1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters a-z`))
    .regex(TAG_KEY_PATTERN, says('tag key', `1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters a-z`))
    .describe(`Tag key: 1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters.`),
  value: z.string(says('tag value', 'a string')).describe('Tag value.'),
});

const thresholdAllowed = `an object with op (${list(THRESHOLD_OPS)}), a numeric value and optionally exceeded_limit`;
export const ThresholdWrite = strict('threshold', thresholdAllowed, {
  op: z.enum(THRESHOLD_OPS, says('threshold op', `one of ${list(THRESHOLD_OPS)}`)).describe('Comparison of the query result with value.'),
  value: z.number(says('threshold value', 'a number')).describe('Value the query result is compared with.'),
  exceeded_limit: z
    .number(says('exceeded_limit', `a whole number from ${TRIGGER_LIMITS.exceededLimitMin} to ${TRIGGER_LIMITS.exceededLimitMax}`))
    .int(says('exceeded_limit', `a whole number from ${TRIGGER_LIMITS.exceededLimitMin} to ${TRIGGER_LIMITS.exceededLimitMax}`))
    .min(TRIGGER_LIMITS.exceededLimitMin, says('exceeded_limit', `a whole number from ${TRIGGER_LIMITS.exceededLimitMin} to ${TRIGGER_LIMITS.exceededLimitMax}`))
    .max(TRIGGER_LIMITS.exceededLimitMax, says('exceeded_limit', `a whole number from ${TRIGGER_LIMITS.exceededLimitMin} to ${TRIGGER_LIMITS.exceededLimitMax}`))
    .optional().meta({ default: 1 })
    .describe('Consecutive evaluations over the threshold before the trigger fires.'),
}).describe('Threshold over which the trigger fires, given as an operator and a value (spec 2.6; members from the service facts).');

const windowDaysAllowed = `1 to 7 different lowercase day names (${list(DAYS_OF_WEEK)})`;
const windowTimeAllowed = 'a UTC time "HH:mm" (00:00 to 23:59)';
export const EvaluationWindowWrite = strict('the window', 'an object with days_of_week, start_time and end_time', {
  days_of_week: z
    .array(z.enum(DAYS_OF_WEEK, says('day', windowDaysAllowed)), says('days_of_week', windowDaysAllowed))
    .min(1, says('days_of_week', windowDaysAllowed))
    .max(DAYS_OF_WEEK.length, says('days_of_week', windowDaysAllowed))
    .refine((days) => new Set(days).size === days.length, {
      error: (iss) => `days_of_week repeats a day (${JSON.stringify(iss.input)}); ${windowDaysAllowed}`,
    })
    .describe('Days on which the trigger runs.'),
  start_time: z
    .string(says('start_time', windowTimeAllowed))
    .regex(WINDOW_TIME_PATTERN, says('start_time', windowTimeAllowed))
    .describe('Start of the window, UTC, HH:mm.'),
  end_time: z
    .string(says('end_time', windowTimeAllowed))
    .regex(WINDOW_TIME_PATTERN, says('end_time', windowTimeAllowed))
    .describe('End of the window, UTC, HH:mm; at or before the start means the next day.'),
});
export const EvaluationScheduleWrite = strict('evaluation_schedule', 'an object with a window', {
  window: EvaluationWindowWrite,
}).describe('The window in which the trigger runs when evaluation_schedule_type is window (spec 2.6).');

export const BaselineDetailsWrite = strict('baseline_details', `an object with type and offset_minutes`, {
  type: z.enum(BASELINE_TYPES, says('baseline type', `one of ${list(BASELINE_TYPES)}`)).describe('How the baseline is compared.'),
  offset_minutes: z
    .literal(BASELINE_OFFSET_MINUTES, says('offset_minutes', `one of ${list(BASELINE_OFFSET_MINUTES)}`))
    .describe('How far back the baseline lies, in minutes.'),
}).describe('Extra settings for a dynamic baseline threshold (spec 2.6; values from the service facts).');

const filterAllowed = `an object with column, op (${list(FILTER_OPS)}) and value`;
const FilterValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number(), z.boolean()])),
], says('filter value', 'a string, number, boolean or an array of them'));
export const FilterWrite = strict('a filter', filterAllowed, {
  column: z.string(says('filter column', 'a column name')).min(1, says('filter column', 'a column name')),
  op: z.enum(FILTER_OPS, says('filter op', `one of ${list(FILTER_OPS)}`)),
  value: FilterValue.optional(),
});
const FilterCombination = z
  .enum(FILTER_COMBINATIONS, says('filter_combination', `one of ${list(FILTER_COMBINATIONS)}`))
  .optional().meta({ default: 'AND' });

const opsAllowed = `one of ${list(TRIGGER_CALCULATION_OPS)}`;
export const CalculationWrite = strict('a calculation', `an object with op and, for every op but ${list(COLUMNLESS_OPS)}, a column`, {
  op: z.enum(TRIGGER_CALCULATION_OPS, {
    error: (iss) =>
      (TRIGGER_REFUSED_OPS as readonly unknown[]).includes(iss.input)
        ? `calculation op ${show(iss.input)} is not allowed in a trigger (spec 2.6.1 rule 1); expected ${opsAllowed}`
        : `${problem('calculation op', iss)}; expected ${opsAllowed}`,
  }).describe(`Aggregate. ${list(TRIGGER_REFUSED_OPS)} are refused in triggers (spec 2.6.1 rule 1); ${list(METRICS_CALCULATION_OPS)} need a metrics dataset.`),
  column: z.string(says('calculation column', 'a column name')).min(1, says('calculation column', 'a column name')).optional(),
  name: z
    .string(says('calculation name', 'a non-empty string'))
    .min(1, says('calculation name', 'a non-empty string'))
    .optional()
    .describe('Makes the calculation a named aggregate; not combinable with global filters (spec 2.6.1 rule 7).'),
  filters: z.array(FilterWrite, says('calculation filters', 'an array of filters')).optional(),
  filter_combination: FilterCombination.optional(),
});

export const HavingWrite = strict('a having', `an object with calculate_op, column (unless the op takes none), op (${list(HAVING_OPS)}) and a numeric value`, {
  calculate_op: z.enum(TRIGGER_CALCULATION_OPS, says('having calculate_op', opsAllowed)),
  column: z.string(says('having column', 'a column name')).min(1, says('having column', 'a column name')).optional(),
  op: z.enum(HAVING_OPS, says('having op', `one of ${list(HAVING_OPS)}`)),
  value: z.number(says('having value', 'a number')),
});

const namedExpression = (what: string) =>
  strict(`a ${what}`, 'an object with a name and an expression', {
    name: z.string(says(`${what} name`, 'a non-empty string')).min(1, says(`${what} name`, 'a non-empty string')),
    expression: z.string(says(`${what} expression`, 'a non-empty string')).min(1, says(`${what} expression`, 'a non-empty string')),
  });

const timeRangeAllowed = `a whole number of seconds from frequency to min(${TRIGGER_LIMITS.timeRangeFactor} x frequency, ${TRIGGER_LIMITS.timeRangeMax})`;
export const TriggerQueryWrite = strict('the query', 'an object (spec 2.6.1)', {
  calculations: z
    .array(CalculationWrite, says('calculations', 'an array of at least one aggregate calculation (spec 2.6.1 rule 1)'))
    .min(1, says('calculations', 'at least one aggregate calculation (spec 2.6.1 rule 1)'))
    .describe('Aggregates; at least one (spec 2.6.1 rule 1).'),
  filters: z.array(FilterWrite, says('filters', 'an array of filters')).optional().describe('Global filters.'),
  filter_combination: FilterCombination.optional().describe('How the global filters combine: AND (default) or OR.'),
  breakdowns: z
    .array(z.string(says('breakdown', 'a column name')).min(1, says('breakdown', 'a column name')), says('breakdowns', 'an array of column names'))
    .optional()
    .describe('Columns to group results by; each group is evaluated against the threshold.'),
  havings: z
    .array(HavingWrite, says('havings', `an array of at most ${TRIGGER_LIMITS.havingsMax} having`))
    .max(TRIGGER_LIMITS.havingsMax, says('havings', `at most ${TRIGGER_LIMITS.havingsMax} HAVING clause (spec 2.6.1 rule 6)`))
    .optional()
    .describe('At most one HAVING clause, matching a calculation (spec 2.6.1 rule 6).'),
  formulas: z
    .array(namedExpression('formula'), says('formulas', `an array of at most ${TRIGGER_LIMITS.formulasMax} formula`))
    .max(TRIGGER_LIMITS.formulasMax, says('formulas', `at most ${TRIGGER_LIMITS.formulasMax} formula (spec 2.6.1 rule 5)`))
    .optional()
    .describe(`At most one formula, over up to ${TRIGGER_LIMITS.formulaAggregatesMax} aggregates (spec 2.6.1 rule 5).`),
  calculated_fields: z
    .array(namedExpression('calculated field'), says('calculated_fields', 'an array of calculated fields'))
    .optional()
    .describe('Derived columns, each a name and an expression, for use in the query.'),
  time_range: z
    .number(says('time_range', timeRangeAllowed))
    .int(says('time_range', timeRangeAllowed))
    .min(TRIGGER_LIMITS.frequencyMin, says('time_range', timeRangeAllowed))
    .max(TRIGGER_LIMITS.timeRangeMax, says('time_range', timeRangeAllowed))
    .describe(`Query duration in seconds; required, ${timeRangeAllowed} (spec 2.6.1 rule 2).`),
  granularity: z
    .number(says('granularity', 'a whole number of seconds'))
    .int(says('granularity', 'a whole number of seconds'))
    .positive(says('granularity', 'a whole number of seconds'))
    .optional()
    .describe(
      `Seconds per bucket; metrics datasets only, from time_range/${TRIGGER_LIMITS.granularityMinDivisor} to time_range/${TRIGGER_LIMITS.granularityMaxDivisor} (spec 2.6.1 rules 8 and 9).`,
    ),
  orders: refusedInQuery('orders'),
  limit: refusedInQuery('limit'),
  start_time: refusedInQuery('start_time'),
  end_time: refusedInQuery('end_time'),
  usage_mode: refusedInQuery('usage_mode'),
}).describe('Inline query specification; exactly one of query and query_id is given (spec 2.6, 2.6.1).');

const nameAllowed = `a string of ${TRIGGER_LIMITS.nameMin} to ${TRIGGER_LIMITS.nameMax} characters`;
const frequencyAllowed = `a whole number of seconds from ${TRIGGER_LIMITS.frequencyMin} to ${TRIGGER_LIMITS.frequencyMax}, a multiple of ${TRIGGER_LIMITS.frequencyStep}`;
const recipientsAllowed = 'an array of recipients';

/** The members of a trigger in a create or update body; relations are checked by `triggerWriteSchema`. */
export const TriggerWriteObject = strict('the trigger', 'a trigger object (spec 2.6)', {
  id: readOnly('Identifier assigned by the service.'),
  dataset_slug: z
    .string(says('dataset_slug', 'a dataset slug'))
    .min(1, says('dataset_slug', 'a dataset slug'))
    .optional()
    .describe('Slug of the dataset the trigger belongs to; `all` for environment-wide triggers.'),
  name: z
    .string(says('name', nameAllowed))
    .min(TRIGGER_LIMITS.nameMin, says('name', nameAllowed))
    .max(TRIGGER_LIMITS.nameMax, says('name', nameAllowed))
    .describe(`Shown in the UI and when the trigger fires. Length ${TRIGGER_LIMITS.nameMin} to ${TRIGGER_LIMITS.nameMax} (spec 2.6, part 8).`),
  description: z
    .string(says('description', `a string of at most ${TRIGGER_LIMITS.descriptionMax} characters`))
    .max(TRIGGER_LIMITS.descriptionMax, says('description', `a string of at most ${TRIGGER_LIMITS.descriptionMax} characters`))
    .optional()
    .describe(`Maximum length ${TRIGGER_LIMITS.descriptionMax} (spec 2.6, part 8).`),
  tags: z
    .array(TagWrite, says('tags', `an array of at most ${TRIGGER_LIMITS.tagsMax} tags`))
    .max(TRIGGER_LIMITS.tagsMax, says('tags', `at most ${TRIGGER_LIMITS.tagsMax} tags`))
    .optional()
    .describe(`Each has key and value (strings). Maximum ${TRIGGER_LIMITS.tagsMax} items (spec 2.6, part 8).`),
  threshold: ThresholdWrite,
  frequency: z
    .number(says('frequency', frequencyAllowed))
    .int(says('frequency', frequencyAllowed))
    .min(TRIGGER_LIMITS.frequencyMin, says('frequency', frequencyAllowed))
    .max(TRIGGER_LIMITS.frequencyMax, says('frequency', frequencyAllowed))
    .multipleOf(TRIGGER_LIMITS.frequencyStep, says('frequency', frequencyAllowed))
    .optional().meta({ default: TRIGGER_LIMITS.frequencyDefault })
    .describe(
      `Seconds between evaluations of the query calculation against the threshold. Minimum ${TRIGGER_LIMITS.frequencyMin}, maximum ${TRIGGER_LIMITS.frequencyMax}, multiple of ${TRIGGER_LIMITS.frequencyStep}, default ${TRIGGER_LIMITS.frequencyDefault}. The query duration must satisfy duration <= frequency * ${TRIGGER_LIMITS.timeRangeFactor} (spec 2.6).`,
    ),
  alert_type: z
    .enum(TRIGGER_ALERT_TYPES, says('alert_type', `one of ${list(TRIGGER_ALERT_TYPES)}`))
    .optional().meta({ default: 'on_change' })
    .describe('on_change (default): one notification at the crossing; on_true: a notification at every frequency interval while the threshold is met (spec 2.6, part 3).'),
  disabled: z.boolean(says('disabled', 'true or false')).optional().meta({ default: false }).describe('Default false. When true the trigger is not evaluated and sends no alerts (spec 2.6).'),
  triggered: readOnly('True while the trigger is over its threshold.'),
  recipients: z.array(RecipientWrite, says('recipients', recipientsAllowed)).optional().describe('Who is notified when the trigger fires. Name each by id; type plus target is deprecated (spec 2.3, 9).'),
  evaluation_schedule_type: z
    .enum(EVALUATION_SCHEDULE_TYPES, says('evaluation_schedule_type', `one of ${list(EVALUATION_SCHEDULE_TYPES)}`))
    .optional().meta({ default: 'frequency' })
    .describe('frequency (default; runs at the frequency) or window (runs at the frequency, only inside the window given in evaluation_schedule) (spec 2.6).'),
  evaluation_schedule: EvaluationScheduleWrite.nullable()
    .optional()
    .describe('The window in which the trigger runs; needed when evaluation_schedule_type is window, without effect otherwise (spec 2.6).'),
  created_at: readOnly('Creation time.'),
  updated_at: readOnly('Last update time.'),
  baseline_details: BaselineDetailsWrite.nullable()
    .optional()
    .describe('Extra settings for a dynamic baseline threshold: type and offset_minutes; the threshold is then >= 0 or <= 0 (spec 2.6).'),
  query: TriggerQueryWrite.nullable()
    .optional()
    .describe('Inline query specification (spec 2.6.1); give exactly one of query and query_id.'),
  query_id: z
    .string(says('query_id', 'the id of a saved query'))
    .min(1, says('query_id', 'the id of a saved query'))
    .nullable()
    .optional()
    .describe('Id of an existing saved query that meets the same requirements as an inline query (spec 2.6, 2.6.1). Exactly one of query and query_id is given.'),
}).describe('A trigger as created or updated (spec 2.6, 2.6.1, part 8).');

/** Datasets the query runs on decide which rules of 2.6.1 rules 8 and 9 apply. */
export interface TriggerWriteOptions {
  /** Dataset slugs that are metrics datasets; every other dataset is standard. */
  metricsDatasets?: readonly string[];
}

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

type Path = (string | number)[];
type Report = (path: Path, message: string, params: TriggerIssueParams) => void;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const present = (v: unknown) => v !== undefined && v !== null;
const optionalText = (v: unknown) => (v === undefined ? undefined : show(v));
const calcLabel = (op: unknown, column: unknown) => (typeof column === 'string' ? `${show(op)}(${column})` : show(op));

/** How to tell the linter that a trigger's dataset is a metrics dataset: the CLI flag and the editor setting feed the same option. */
function metricsHint(slug: unknown): string {
  return typeof slug === 'string'
    ? `if ${slug} is a metrics dataset, name it with --metrics-dataset ${slug} (editor setting obs.metricsDatasets)`
    : 'if the dataset is a metrics dataset, give dataset_slug and name it with --metrics-dataset (editor setting obs.metricsDatasets)';
}

/** Relational rules of spec 2.6 and 2.6.1; reads the value defensively because it runs on invalid input too. */
function checkTriggerRelations(trigger: unknown, isMetrics: (slug: unknown) => boolean, report: Report): void {
  if (!isRecord(trigger)) return;
  for (const member of TRIGGER_READ_ONLY_MEMBERS) {
    if (member in trigger) {
      report([member], `${member} is read-only: the service sets it and ignores it on write`, { rule: 'trigger/read-only-member' });
    }
  }

  const hasQuery = present(trigger.query);
  const hasQueryId = present(trigger.query_id);
  if (!hasQuery && !hasQueryId) {
    report([], 'the trigger has neither query nor query_id; give exactly one: an inline query or the id of a saved query', {
      rule: 'trigger/query-source',
    });
  } else if (hasQuery && hasQueryId) {
    report(['query_id'], 'the trigger has both query and query_id; give exactly one: an inline query or the id of a saved query', {
      rule: 'trigger/query-source',
      related: [{ path: ['query'], message: 'the inline query' }],
    });
  }

  if (trigger.evaluation_schedule_type === 'window' && !present(trigger.evaluation_schedule)) {
    report([], 'evaluation_schedule_type is window but evaluation_schedule is missing; give evaluation_schedule with a window (days_of_week, start_time, end_time)', {
      rule: 'trigger/evaluation-schedule',
      related: [{ path: ['evaluation_schedule_type'], message: 'the schedule type' }],
    });
  }
  // A window with the frequency schedule type is ignored: the trigger runs around the clock, which
  // is rarely what whoever wrote the window meant. Which of the two to change is the user's call.
  const scheduleType = trigger.evaluation_schedule_type;
  if (isRecord(trigger.evaluation_schedule) && (scheduleType === undefined || scheduleType === 'frequency')) {
    const typeText = scheduleType === undefined ? 'evaluation_schedule_type is absent (frequency, the default)' : 'evaluation_schedule_type is frequency';
    report(['evaluation_schedule'], `evaluation_schedule has no effect: ${typeText}, so the trigger runs at every frequency interval, also outside the window; set evaluation_schedule_type to window, or remove evaluation_schedule`, {
      rule: 'trigger/evaluation-schedule-unused',
      related: scheduleType === undefined ? [] : [{ path: ['evaluation_schedule_type'], message: 'the schedule type' }],
    });
  }

  if (Array.isArray(trigger.recipients)) {
    trigger.recipients.forEach((r, i) => {
      if (isRecord(r) && isDeprecatedRecipient({ id: optionalText(r.id), type: optionalText(r.type), target: optionalText(r.target) })) {
        report(['recipients', i], `recipient ${show(r.type)} ${show(r.target)} is named by type and target, which is deprecated (spec 9); name it by id`, {
          rule: 'trigger/recipient-deprecated',
        });
      }
    });
  }

  const threshold = trigger.threshold;
  if (isRecord(trigger.baseline_details) && isRecord(threshold) && typeof threshold.value === 'number' && typeof threshold.op === 'string') {
    const { op, value } = threshold;
    const ok = (op === '>=' && value >= 0) || (op === '<=' && value <= 0);
    if (!ok) {
      report(['threshold'], `threshold ${op} ${value} does not suit a baseline; with baseline_details the threshold is >= with a value of 0 or more, or <= with a value of 0 or less`, {
        rule: 'trigger/baseline-threshold',
        related: [{ path: ['baseline_details'], message: 'the baseline' }],
      });
    }
  }

  if (isRecord(trigger.query)) checkQueryRelations(trigger, trigger.query, isMetrics(trigger.dataset_slug), report);
}

function checkQueryRelations(trigger: Record<string, unknown>, query: Record<string, unknown>, metrics: boolean, report: Report): void {
  const q = (...rest: Path): Path => ['query', ...rest];
  const frequency = trigger.frequency === undefined ? TRIGGER_LIMITS.frequencyDefault : trigger.frequency;
  const frequencyText = trigger.frequency === undefined ? `frequency ${frequency} (the default)` : `frequency ${show(frequency)}`;
  const timeRange = query.time_range;

  if (typeof timeRange === 'number' && isValidFrequency(frequency)) {
    const { min, max, maxByFrequency } = timeRangeBounds(frequency);
    const related = trigger.frequency === undefined ? [] : [{ path: ['frequency'], message: `frequency ${frequency}` }];
    const allowed = `expected ${min} (the frequency) to ${max} (${maxByFrequency ? `${TRIGGER_LIMITS.timeRangeFactor} x frequency` : 'the maximum'}) (spec 2.6.1 rule 2)`;
    if (timeRange < min) {
      report(q('time_range'), `time_range ${timeRange} is below ${frequencyText}; ${allowed}`, { rule: 'query/time-range-min', replaceWith: min, related });
    } else if (timeRange > max) {
      const exceeded = maxByFrequency ? `${max} = ${TRIGGER_LIMITS.timeRangeFactor} x ${frequencyText}` : `the maximum ${max}`;
      report(q('time_range'), `time_range ${timeRange} exceeds ${exceeded}; ${allowed}`, { rule: 'query/time-range-max', replaceWith: max, related });
    }
  }

  const calculations = Array.isArray(query.calculations) ? query.calculations : [];
  const havings = Array.isArray(query.havings) ? query.havings : [];
  const formulas = Array.isArray(query.formulas) ? query.formulas : [];

  calculations.forEach((calc, i) => {
    if (!isRecord(calc) || typeof calc.op !== 'string') return;
    if (!metrics && (METRICS_CALCULATION_OPS as readonly string[]).includes(calc.op)) {
      const dataset = typeof trigger.dataset_slug === 'string' ? `dataset ${trigger.dataset_slug}` : 'the dataset (no dataset_slug)';
      report(q('calculations', i, 'op'), `${calc.op} needs a metrics dataset, and ${dataset} is standard; ${metricsHint(trigger.dataset_slug)}`, {
        rule: 'query/calculation-op-metrics-only',
      });
    }
    const columnless = (COLUMNLESS_OPS as readonly string[]).includes(calc.op);
    if (columnless && present(calc.column)) {
      report(q('calculations', i, 'column'), `${calc.op} takes no column; only ${list(COLUMNLESS_OPS)} go without one`, { rule: 'query/calculation-column' });
    } else if (!columnless && !present(calc.column) && (TRIGGER_CALCULATION_OPS as readonly string[]).includes(calc.op)) {
      report(q('calculations', i), `${calc.op} needs a column; every op but ${list(COLUMNLESS_OPS)} takes one`, { rule: 'query/calculation-column' });
    }
  });

  // A having "corresponds" to the calculation with the same op and column (service facts).
  const matches = (h: unknown, c: unknown) =>
    isRecord(h) && isRecord(c) && h.calculate_op === c.op && (h.column ?? undefined) === (c.column ?? undefined);
  havings.forEach((h, i) => {
    if (!isRecord(h) || typeof h.calculate_op !== 'string') return;
    if (!calculations.some((c) => matches(h, c))) {
      const known = calculations.filter(isRecord).map((c) => calcLabel(c.op, c.column));
      report(q('havings', i), `the having on ${calcLabel(h.calculate_op, h.column)} matches no calculation; it needs a calculation with the same op and column (spec 2.6.1 rule 6); calculations: ${known.join(', ') || 'none'}`, {
        rule: 'query/having-calculation',
        related: [{ path: q('calculations'), message: 'the calculations' }],
      });
    }
  });

  if (formulas.length === 0) {
    // A calculation used only by a having does not count (service facts). A having uses one
    // calculation: of identical ones, the others still count.
    const usedByHaving = new Set<number>();
    for (const h of havings) {
      const i = calculations.findIndex((c, k) => !usedByHaving.has(k) && matches(h, c));
      if (i >= 0) usedByHaving.add(i);
    }
    const nonHaving = calculations
      .map((c, i) => ({ c, i }))
      .filter(({ c, i }) => isRecord(c) && !usedByHaving.has(i));
    const limit = TRIGGER_LIMITS.nonHavingAggregatesMax;
    if (nonHaving.length > limit) {
      const names = nonHaving.map(({ c }) => (isRecord(c) ? calcLabel(c.op, c.column) : '?')).join(', ');
      for (const { c, i } of nonHaving.slice(limit)) {
        report(q('calculations', i), `${isRecord(c) ? calcLabel(c.op, c.column) : 'this calculation'} is one aggregate too many: the query has ${nonHaving.length} aggregates not used by a having (${names}); without formulas at most ${limit} is allowed (spec 2.6.1 rule 4)`, {
          rule: 'query/non-having-aggregates',
          related: [{ path: q('calculations', nonHaving[0]?.i ?? 0), message: 'the first aggregate' }],
        });
      }
    }
  } else if (calculations.length > TRIGGER_LIMITS.formulaAggregatesMax) {
    report(q('calculations'), `calculations hold ${calculations.length} aggregates; with a formula at most ${TRIGGER_LIMITS.formulaAggregatesMax} are allowed (spec 2.6.1 rule 5)`, {
      rule: 'query/formula-aggregates-max',
    });
  }

  const named = calculations.filter((c) => isRecord(c) && present(c.name));
  if (named.length > 0 && Array.isArray(query.filters) && query.filters.length > 0) {
    const names = named.map((c) => (isRecord(c) ? show(c.name) : '')).join(', ');
    report(q('filters'), `global filters cannot be combined with named aggregates (${names}) (spec 2.6.1 rule 7); move the filters into each calculation's filters`, {
      rule: 'query/named-aggregate-filters',
    });
  }

  if (query.granularity !== undefined) {
    if (!metrics) {
      const dataset = typeof trigger.dataset_slug === 'string' ? `dataset ${trigger.dataset_slug} is standard` : 'the dataset is standard';
      report(q('granularity'), `granularity is supported only on metrics datasets and ${dataset} (spec 2.6.1 rule 9); ${metricsHint(trigger.dataset_slug)}`, {
        rule: 'query/granularity-standard',
      });
    } else if (typeof query.granularity === 'number' && typeof timeRange === 'number') {
      const low = timeRange / TRIGGER_LIMITS.granularityMinDivisor;
      const high = timeRange / TRIGGER_LIMITS.granularityMaxDivisor;
      if (query.granularity < low || query.granularity > high) {
        report(q('granularity'), `granularity ${query.granularity} lies outside ${low} = time_range ${timeRange} / ${TRIGGER_LIMITS.granularityMinDivisor} to ${high} = time_range / ${TRIGGER_LIMITS.granularityMaxDivisor} (spec 2.6.1 rule 8)`, {
          rule: 'query/granularity-range',
          related: [{ path: q('time_range'), message: `time_range ${timeRange}` }],
        });
      }
    }
  }
}

/**
 * The strict trigger write schema with the relational rules for the given datasets. The refinement
 * runs even when members are invalid (a half-typed file still gets every rule that applies).
 */
export function triggerWriteSchema(options: TriggerWriteOptions = {}) {
  const metrics = new Set(options.metricsDatasets ?? []);
  const isMetrics = (slug: unknown) => typeof slug === 'string' && metrics.has(slug);
  return TriggerWriteObject.superRefine(
    (trigger, ctx) =>
      checkTriggerRelations(trigger, isMetrics, (path, message, params) => {
        ctx.addIssue({ code: 'custom', path, message, params: { ...params }, continue: true });
      }),
    { when: () => true },
  );
}

/** Triggers on standard datasets. */
export const TriggerWrite = triggerWriteSchema();
export type TriggerWrite = z.input<typeof TriggerWriteObject>;

/** A trigger file: one trigger, or an array as `GET /1/triggers` returns them. */
export const TriggerWriteFile = z
  .union([TriggerWrite, z.array(TriggerWrite)])
  .describe('One trigger, or an array of triggers as GET /1/triggers/<dataset> returns them (spec 2.6, 4.7).');
