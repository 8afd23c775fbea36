// The inline query of a trigger write (spec 2.6.1); its relations to the trigger are in relations.ts.
import * as z from 'zod';
import { TRIGGER_LIMITS } from './limits';
import { CalculationWrite, FilterCombination, FilterWrite, HavingWrite } from './members';
import { says, strict } from './wording';

const refusedInQuery = (member: string) =>
  z
    .never({
      error: () =>
        `${member} must not be set in a trigger query: results are ordered by the threshold operator and all matching groups are evaluated (spec 2.6.1 rule 3)`,
    })
    .optional()
    .describe(`Not allowed in a trigger query (spec 2.6.1 rule 3).`);

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
      `Seconds per bucket; metrics datasets only, from time_range/${TRIGGER_LIMITS.granularityMinDivisor} to time_range (spec 2.6.1 rules 8 and 9); above time_range/${TRIGGER_LIMITS.granularityCoarseDivisor} is accepted but coarse.`,
    ),
  orders: refusedInQuery('orders'),
  limit: refusedInQuery('limit'),
  start_time: refusedInQuery('start_time'),
  end_time: refusedInQuery('end_time'),
  usage_mode: refusedInQuery('usage_mode'),
}).describe('Inline query specification; exactly one of query and query_id is given (spec 2.6, 2.6.1).');
