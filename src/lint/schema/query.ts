// The inline query of a trigger write (spec 2.6.1); its relations to the trigger are in relations.ts.
import * as l10n from '@vscode/l10n';
import * as z from 'zod';
import { TRIGGER_LIMITS } from './limits';
import {
  aColumnName,
  anArrayOfFilters,
  aNonEmptyString,
  CalculationWrite,
  FilterCombination,
  FilterWrite,
  HavingWrite,
} from './members';
import { member, says, strict, type Words } from './wording';

const refusedInQuery = (name: string) =>
  z
    .never({
      error: () =>
        l10n.t(
          '{0} must not be set in a trigger query: results are ordered by the threshold operator and all matching groups are evaluated',
          name,
        ),
    })
    .optional()
    .describe(`Not allowed in a trigger query.`);

/** The labels of a named expression's messages: the object, its name and its expression. */
interface ExpressionLabels {
  object: Words;
  name: Words;
  expression: Words;
}
const namedExpression = (labels: ExpressionLabels) =>
  strict(labels.object, () => l10n.t('an object with a {0} and an {1}', 'name', 'expression'), {
    name: z.string(says(labels.name, aNonEmptyString)).min(1, says(labels.name, aNonEmptyString)),
    expression: z.string(says(labels.expression, aNonEmptyString)).min(1, says(labels.expression, aNonEmptyString)),
  });
const FORMULA: ExpressionLabels = {
  object: () => l10n.t('a formula'),
  name: () => l10n.t('formula name'),
  expression: () => l10n.t('formula expression'),
};
const CALCULATED_FIELD: ExpressionLabels = {
  object: () => l10n.t('a calculated field'),
  name: () => l10n.t('calculated field name'),
  expression: () => l10n.t('calculated field expression'),
};

const timeRangeAllowed: Words = () =>
  l10n.t(
    'a whole number of seconds from {0} to min({1} x {0}, {2})',
    'frequency',
    TRIGGER_LIMITS.timeRangeFactor,
    TRIGGER_LIMITS.timeRangeMax,
  );
const wholeSeconds: Words = () => l10n.t('a whole number of seconds');
const breakdown: Words = () => l10n.t('breakdown');
export const TriggerQueryWrite = strict(
  () => l10n.t('the query'),
  () => l10n.t('an object'),
  {
    calculations: z
      .array(
        CalculationWrite,
        says(member('calculations'), () => l10n.t('an array of at least one aggregate calculation')),
      )
      .min(
        1,
        says(member('calculations'), () => l10n.t('at least one aggregate calculation')),
      )
      .describe('Aggregates; at least one.'),
    filters: z
      .array(FilterWrite, says(member('filters'), anArrayOfFilters))
      .optional()
      .describe('Global filters.'),
    filter_combination: FilterCombination.optional().describe('How the global filters combine: AND (default) or OR.'),
    breakdowns: z
      .array(
        z.string(says(breakdown, aColumnName)).min(1, says(breakdown, aColumnName)),
        says(member('breakdowns'), () => l10n.t('an array of column names')),
      )
      .optional()
      .describe('Columns to group results by; each group is evaluated against the threshold.'),
    havings: z
      .array(
        HavingWrite,
        says(member('havings'), () => l10n.t('an array of at most {0} having', TRIGGER_LIMITS.havingsMax)),
      )
      .max(
        TRIGGER_LIMITS.havingsMax,
        says(member('havings'), () => l10n.t('at most {0} HAVING clause', TRIGGER_LIMITS.havingsMax)),
      )
      .optional()
      .describe('At most one HAVING clause, matching a calculation.'),
    formulas: z
      .array(
        namedExpression(FORMULA),
        says(member('formulas'), () => l10n.t('an array of at most {0} formula', TRIGGER_LIMITS.formulasMax)),
      )
      .max(
        TRIGGER_LIMITS.formulasMax,
        says(member('formulas'), () => l10n.t('at most {0} formula', TRIGGER_LIMITS.formulasMax)),
      )
      .optional()
      .describe(`At most one formula, over up to ${TRIGGER_LIMITS.formulaAggregatesMax} aggregates.`),
    calculated_fields: z
      .array(
        namedExpression(CALCULATED_FIELD),
        says(member('calculated_fields'), () => l10n.t('an array of calculated fields')),
      )
      .optional()
      .describe('Derived columns, each a name and an expression, for use in the query.'),
    time_range: z
      .number(says(member('time_range'), timeRangeAllowed))
      .int(says(member('time_range'), timeRangeAllowed))
      .min(TRIGGER_LIMITS.frequencyMin, says(member('time_range'), timeRangeAllowed))
      .max(TRIGGER_LIMITS.timeRangeMax, says(member('time_range'), timeRangeAllowed))
      .describe(
        `Query duration in seconds; required, a whole number of seconds from frequency to min(${TRIGGER_LIMITS.timeRangeFactor} x frequency, ${TRIGGER_LIMITS.timeRangeMax}).`,
      ),
    granularity: z
      .number(says(member('granularity'), wholeSeconds))
      .int(says(member('granularity'), wholeSeconds))
      .positive(says(member('granularity'), wholeSeconds))
      .optional()
      .describe(
        `Seconds per bucket; metrics datasets only, from time_range/${TRIGGER_LIMITS.granularityMinDivisor} to time_range; above time_range/${TRIGGER_LIMITS.granularityCoarseDivisor} is accepted but coarse.`,
      ),
    orders: refusedInQuery('orders'),
    limit: refusedInQuery('limit'),
    start_time: refusedInQuery('start_time'),
    end_time: refusedInQuery('end_time'),
    usage_mode: refusedInQuery('usage_mode'),
  },
).describe('Inline query specification; exactly one of query and query_id is given.');
