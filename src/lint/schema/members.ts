// Schemas of the members of a trigger write and of its query's parts (spec 2.6, 2.6.1, part 8).
import * as z from 'zod';
import {
  BASELINE_OFFSET_MINUTES,
  BASELINE_TYPES,
  COLUMNLESS_OPS,
  DAYS_OF_WEEK,
  FILTER_COMBINATIONS,
  FILTER_OPS,
  HAVING_OPS,
  METRICS_CALCULATION_OPS,
  OPTIONAL_COLUMN_OPS,
  TAG_KEY_PATTERN,
  TAG_VALUE_PATTERN,
  THRESHOLD_OPS,
  TRIGGER_CALCULATION_OPS,
  TRIGGER_LIMITS,
  TRIGGER_REFUSED_OPS,
  WINDOW_TIME_PATTERN,
} from './limits';
import { list, problem, says, show, strict } from './wording';

export const readOnly = (what: string) =>
  z.unknown().optional().describe(`${what} Read-only: the service sets it and ignores it on write.`);

const tagValueAllowed = 'a lowercase letter, then 1 to 128 lowercase letters, digits, "/" or "-"';
export const TagWrite = strict('a tag', 'an object with string members key and value', {
  key: z
    .string(says('tag key', `1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters a-z`))
    .regex(TAG_KEY_PATTERN, says('tag key', `1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters a-z`))
    .describe(`Tag key: 1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters.`),
  value: z
    .string(says('tag value', tagValueAllowed))
    .regex(TAG_VALUE_PATTERN, says('tag value', tagValueAllowed))
    .describe(`Tag value: ${tagValueAllowed}.`),
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
export const FilterCombination = z
  .enum(FILTER_COMBINATIONS, says('filter_combination', `one of ${list(FILTER_COMBINATIONS)}`))
  .optional().meta({ default: 'AND' });

const opsAllowed = `one of ${list(TRIGGER_CALCULATION_OPS)}`;
export const CalculationWrite = strict('a calculation', `an object with op and, for every op but ${list([...COLUMNLESS_OPS, ...OPTIONAL_COLUMN_OPS])}, a column`, {
  op: z.enum(TRIGGER_CALCULATION_OPS, {
    error: (iss) =>
      (TRIGGER_REFUSED_OPS as readonly unknown[]).includes(iss.input)
        ? `calculation op ${show(iss.input)} is not allowed in a trigger (spec 2.6.1 rule 1); expected ${opsAllowed}`
        : `${problem('calculation op', iss)}; expected ${opsAllowed}`,
  }).describe(`Aggregate. ${list(TRIGGER_REFUSED_OPS)} are refused in triggers (spec 2.6.1 rule 1); ${list(METRICS_CALCULATION_OPS)} need a metrics dataset.`),
  column: z
    .string(says('calculation column', 'a column name'))
    .min(1, says('calculation column', 'a column name'))
    .optional()
    .describe(`The column aggregated; ${list(COLUMNLESS_OPS)} take none, ${list(OPTIONAL_COLUMN_OPS)} one optionally (to scope it to one metric), every other op one.`),
  name: z
    .string(says('calculation name', 'a non-empty string'))
    .min(1, says('calculation name', 'a non-empty string'))
    .optional()
    .describe('Makes the calculation a named aggregate; not combinable with global filters (spec 2.6.1 rule 7).'),
  filters: z.array(FilterWrite, says('calculation filters', 'an array of filters')).optional(),
  filter_combination: FilterCombination.optional(),
});

const havingAllowed = `an object with calculate_op and its column (unless the op takes none), or without calculate_op a column naming a calculation or formula; op (${list(HAVING_OPS)}) and a numeric value`;
export const HavingWrite = strict('a having', havingAllowed, {
  calculate_op: z
    .enum(TRIGGER_CALCULATION_OPS, says('having calculate_op', opsAllowed))
    .optional()
    .describe('The op of the calculation the having filters on; leave it out when column names a calculation or a formula.'),
  column: z.string(says('having column', 'a column name')).min(1, says('having column', 'a column name')).optional(),
  op: z.enum(HAVING_OPS, says('having op', `one of ${list(HAVING_OPS)}`)),
  value: z.number(says('having value', 'a number')),
});
