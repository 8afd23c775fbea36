// Schemas of the members of a trigger write and of its query's parts (spec 2.6, 2.6.1, part 8).
// Labels and "what is allowed" are Words (wording.ts): read when a message is made, so they are translated.
import * as l10n from '@vscode/l10n';
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
import { isRecord } from '../util';
import { setsBaseline } from './relationWords';
import { expected, list, member, oneOf, problem, says, show, strict, worded, type Words } from './wording';

export const readOnly = (what: string) =>
  z.unknown().optional().describe(`${what} Read-only: the service sets it and ignores it on write.`);

/** "a whole number from 1 to 5" and the like. */
const wholeNumberFrom =
  (min: number, max: number): Words =>
  () =>
    l10n.t('a whole number from {0} to {1}', min, max);
export const aColumnName: Words = () => l10n.t('a column name');
const aNumber: Words = () => l10n.t('a number');
export const aNonEmptyString: Words = () => l10n.t('a non-empty string');
export const anArrayOfFilters: Words = () => l10n.t('an array of filters');

const tagKey: Words = () => l10n.t('tag key');
const tagKeyAllowed: Words = () => l10n.t('{0} to {1} lowercase letters a-z', 1, TRIGGER_LIMITS.tagKeyMax);
const tagValue: Words = () => l10n.t('tag value');
const tagValueAllowed: Words = () =>
  l10n.t('a lowercase letter, then {0} to {1} lowercase letters, digits, "/" or "-"', 1, 128);
export const TagWrite = strict(
  () => l10n.t('a tag'),
  () => l10n.t('an object with string members {0} and {1}', 'key', 'value'),
  {
    key: z
      .string(says(tagKey, tagKeyAllowed))
      .regex(TAG_KEY_PATTERN, says(tagKey, tagKeyAllowed))
      .describe(`Tag key: 1 to ${TRIGGER_LIMITS.tagKeyMax} lowercase letters.`),
    value: z
      .string(says(tagValue, tagValueAllowed))
      .regex(TAG_VALUE_PATTERN, says(tagValue, tagValueAllowed))
      .describe('Tag value: a lowercase letter, then 1 to 128 lowercase letters, digits, "/" or "-".'),
  },
);

const exceededLimitAllowed = wholeNumberFrom(TRIGGER_LIMITS.exceededLimitMin, TRIGGER_LIMITS.exceededLimitMax);
const thresholdAllowed: Words = () =>
  l10n.t(
    'an object with {0} ({1}), a numeric {2} and optionally {3}',
    'op',
    list(THRESHOLD_OPS),
    'value',
    'exceeded_limit',
  );
export const ThresholdWrite = strict(member('threshold'), thresholdAllowed, {
  op: z
    .enum(
      THRESHOLD_OPS,
      says(() => l10n.t('threshold op'), oneOf(THRESHOLD_OPS)),
    )
    .describe('Comparison of the query result with value.'),
  value: z.number(says(() => l10n.t('threshold value'), aNumber)).describe('Value the query result is compared with.'),
  exceeded_limit: z
    .number(says(member('exceeded_limit'), exceededLimitAllowed))
    .int(says(member('exceeded_limit'), exceededLimitAllowed))
    .min(TRIGGER_LIMITS.exceededLimitMin, says(member('exceeded_limit'), exceededLimitAllowed))
    .max(TRIGGER_LIMITS.exceededLimitMax, says(member('exceeded_limit'), exceededLimitAllowed))
    .optional()
    .meta({ default: 1 })
    .describe('Consecutive evaluations over the threshold before the trigger fires.'),
}).describe('Threshold over which the trigger fires, given as an operator and a value.');

const windowDaysAllowed: Words = () =>
  l10n.t('{0} to {1} different lowercase day names ({2})', 1, DAYS_OF_WEEK.length, list(DAYS_OF_WEEK));
const windowTimeAllowed: Words = () => l10n.t('a UTC time "{0}" ({1} to {2})', 'HH:mm', '00:00', '23:59');
const EvaluationWindowWrite = strict(
  () => l10n.t('the window'),
  () => l10n.t('an object with {0}, {1} and {2}', 'days_of_week', 'start_time', 'end_time'),
  {
    days_of_week: z
      .array(
        z.enum(
          DAYS_OF_WEEK,
          says(() => l10n.t('day'), windowDaysAllowed),
        ),
        says(member('days_of_week'), windowDaysAllowed),
      )
      .min(1, says(member('days_of_week'), windowDaysAllowed))
      .max(DAYS_OF_WEEK.length, says(member('days_of_week'), windowDaysAllowed))
      .refine((days) => new Set(days).size === days.length, {
        error: (iss) =>
          worded(() =>
            l10n.t('{0} repeats a day ({1}); {2}', 'days_of_week', JSON.stringify(iss.input), windowDaysAllowed()),
          ),
      })
      .describe('Days on which the trigger runs.'),
    start_time: z
      .string(says(member('start_time'), windowTimeAllowed))
      .regex(WINDOW_TIME_PATTERN, says(member('start_time'), windowTimeAllowed))
      .describe('Start of the window, UTC, HH:mm.'),
    end_time: z
      .string(says(member('end_time'), windowTimeAllowed))
      .regex(WINDOW_TIME_PATTERN, says(member('end_time'), windowTimeAllowed))
      .describe('End of the window, UTC, HH:mm; at or before the start means the next day.'),
  },
);
export const EvaluationScheduleWrite = strict(
  member('evaluation_schedule'),
  () => l10n.t('an object with a {0}', 'window'),
  {
    window: EvaluationWindowWrite,
  },
).describe('The window in which the trigger runs when evaluation_schedule_type is window.');

const baselineType: Words = () => l10n.t('baseline type');
const BASELINE_HALVES = [
  { key: 'type', label: baselineType, allowed: oneOf(BASELINE_TYPES) },
  { key: 'offset_minutes', label: member('offset_minutes'), allowed: oneOf(BASELINE_OFFSET_MINUTES) },
] as const;
/** A baseline gives both members; `{}` gives neither, and clears the baseline (service facts). */
function bothHalves(value: unknown, ctx: z.core.$RefinementCtx): void {
  if (!setsBaseline(value)) return;
  for (const h of BASELINE_HALVES) {
    if ((value as Record<string, unknown>)[h.key] !== undefined) continue;
    ctx.addIssue({
      code: 'custom',
      path: [h.key],
      message: worded(() => expected(l10n.t('{0} is missing', h.label()), h.allowed())),
      continue: true,
    });
  }
}
export const BaselineDetailsWrite = strict(
  member('baseline_details'),
  () => l10n.t('an object with {0} and {1}, or {2} (no baseline)', 'type', 'offset_minutes', '{}'),
  {
    type: z
      .enum(BASELINE_TYPES, says(baselineType, BASELINE_HALVES[0].allowed))
      .optional()
      .describe('How the baseline is compared.'),
    offset_minutes: z
      .literal(BASELINE_OFFSET_MINUTES, says(member('offset_minutes'), BASELINE_HALVES[1].allowed))
      .optional()
      .describe('How far back the baseline lies, in minutes.'),
  },
)
  // Run on an object whose members are wrong too, so a wrong type and a missing offset are both told.
  .superRefine(bothHalves, { when: (payload) => isRecord(payload.value) })
  // What the refinement says, in the JSON Schema's words: each member needs the other.
  .meta({ dependencies: { type: ['offset_minutes'], offset_minutes: ['type'] } })
  .describe('Extra settings for a dynamic baseline threshold: both members, or {} to clear the baseline.');

const filterAllowed: Words = () =>
  l10n.t('an object with {0}, {1} ({2}) and {3}', 'column', 'op', list(FILTER_OPS), 'value');
const FilterValue = z.union(
  [z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))],
  says(
    () => l10n.t('filter value'),
    () => l10n.t('a string, number, boolean or an array of them'),
  ),
);
const filterColumn: Words = () => l10n.t('filter column');
export const FilterWrite = strict(() => l10n.t('a filter'), filterAllowed, {
  column: z.string(says(filterColumn, aColumnName)).min(1, says(filterColumn, aColumnName)),
  op: z.enum(
    FILTER_OPS,
    says(() => l10n.t('filter op'), oneOf(FILTER_OPS)),
  ),
  value: FilterValue.optional(),
});
export const FilterCombination = z
  .enum(FILTER_COMBINATIONS, says(member('filter_combination'), oneOf(FILTER_COMBINATIONS)))
  .optional()
  .meta({ default: 'AND' });

const opsAllowed = oneOf(TRIGGER_CALCULATION_OPS);
const calculationColumn: Words = () => l10n.t('calculation column');
const calculationName: Words = () => l10n.t('calculation name');
const calculationAllowed: Words = () =>
  l10n.t(
    'an object with {0} and, for every op but {1}, a column',
    'op',
    list([...COLUMNLESS_OPS, ...OPTIONAL_COLUMN_OPS]),
  );
export const CalculationWrite = strict(() => l10n.t('a calculation'), calculationAllowed, {
  op: z
    .enum(TRIGGER_CALCULATION_OPS, {
      // Worded like every member check (wording.ts): not for a trigger whose problems cannot be shown.
      error: (iss) =>
        worded(() =>
          (TRIGGER_REFUSED_OPS as readonly unknown[]).includes(iss.input)
            ? l10n.t('calculation op {0} is not allowed in a trigger; expected {1}', show(iss.input), opsAllowed())
            : expected(problem(l10n.t('calculation op'), iss), opsAllowed()),
        ),
    })
    .describe(
      `Aggregate. ${list(TRIGGER_REFUSED_OPS)} are refused in triggers; ${list(METRICS_CALCULATION_OPS)} need a metrics dataset.`,
    ),
  column: z
    .string(says(calculationColumn, aColumnName))
    .min(1, says(calculationColumn, aColumnName))
    .optional()
    .describe(
      `The column aggregated; ${list(COLUMNLESS_OPS)} take none, ${list(OPTIONAL_COLUMN_OPS)} one optionally (to scope it to one metric), every other op one.`,
    ),
  name: z
    .string(says(calculationName, aNonEmptyString))
    .min(1, says(calculationName, aNonEmptyString))
    .optional()
    .describe('Makes the calculation a named aggregate; not combinable with global filters.'),
  filters: z
    .array(
      FilterWrite,
      says(() => l10n.t('calculation filters'), anArrayOfFilters),
    )
    .optional(),
  filter_combination: FilterCombination.optional(),
});

const havingAllowed: Words = () =>
  l10n.t(
    'an object with {0} and its column (unless the op takes none), or without {0} a column naming a calculation or formula; {1} ({2}) and a numeric {3}',
    'calculate_op',
    'op',
    list(HAVING_OPS),
    'value',
  );
const havingColumn: Words = () => l10n.t('having column');
export const HavingWrite = strict(() => l10n.t('a having'), havingAllowed, {
  calculate_op: z
    .enum(
      TRIGGER_CALCULATION_OPS,
      says(() => l10n.t('having {0}', 'calculate_op'), opsAllowed),
    )
    .optional()
    .describe(
      'The op of the calculation the having filters on; leave it out when column names a calculation or a formula.',
    ),
  column: z.string(says(havingColumn, aColumnName)).min(1, says(havingColumn, aColumnName)).optional(),
  op: z.enum(
    HAVING_OPS,
    says(() => l10n.t('having op'), oneOf(HAVING_OPS)),
  ),
  value: z.number(says(() => l10n.t('having value'), aNumber)),
});
