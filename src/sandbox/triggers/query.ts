// What a trigger's query may hold (spec 2.6.1, and the service facts' "Queries (what a trigger's inline
// query may hold)"), whether it comes inline or as the saved query named by query_id. The query is read by
// the saved-query reader (queries/spec.ts: ops, columns an op needs, filters, formulas, granularity
// bounds), then held to the trigger rules on top of it.
import { calculationKey, type Calculation } from '../queries/aggregate';
import { readSpec, type Having, type QuerySpec } from '../queries/spec';
import type { TypeDetail } from '../responses';
import { HAVING_OPS, LIMITS, METRICS_ONLY_OPS, TRIGGER_QUERY_REFUSED_MEMBERS, TRIGGER_REFUSED_OPS } from '../spec';

export interface TriggerQueryContext {
  /** The trigger's frequency in seconds (its default when the body leaves it out). */
  frequency: number;
  /** True when the trigger's dataset is a metrics dataset (never for `__all__`). */
  metrics: boolean;
  nowSeconds: number;
}

type Bad = (field: string, code: TypeDetail['code'], description: string) => void;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const FILTER_COMBINATIONS = new Set(['AND', 'OR']);

/** The problems of a trigger's query, fields named within the query (`calculations[0].op`); none when it is fit. */
export function triggerQueryProblems(raw: unknown, ctx: TriggerQueryContext): TypeDetail[] {
  if (!isRecord(raw))
    return [{ field: '(body)', code: 'incorrect_type', description: 'a query must be a JSON object' }];
  const problems: TypeDetail[] = [];
  const bad: Bad = (field, code, description) => problems.push({ field, code, description });
  const rest = presenceProblems(raw, ctx, bad);
  // Without calculations there is nothing more to read (the reader would take a COUNT for them).
  if (!Array.isArray(rest.calculations) || rest.calculations.length === 0) return problems;
  const read = readSpec(rest, ctx.nowSeconds);
  if (!read.ok) return [...problems, ...read.reason];
  ruleProblems(read.spec, ctx, bad);
  return problems;
}

/** Members a trigger's query must have or must not have; the query without those refused, for reading. */
function presenceProblems(raw: Record<string, unknown>, ctx: TriggerQueryContext, bad: Bad): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...raw };
  for (const member of TRIGGER_QUERY_REFUSED_MEMBERS) {
    if (raw[member] === undefined) continue;
    bad(member, 'invalid', `${member} must not be set in a trigger's query`);
    delete rest[member];
  }
  if (raw.calculations === undefined)
    bad('calculations', 'missing', "a trigger's query needs at least one calculation");
  else if (!Array.isArray(raw.calculations) || raw.calculations.length === 0)
    bad('calculations', 'invalid', "a trigger's query needs at least one calculation");
  for (const member of ['havings', 'formulas'] as const) {
    if (raw[member] !== undefined && !Array.isArray(raw[member]))
      bad(member, 'incorrect_type', `${member} must be an array`);
  }
  if (raw.time_range === undefined) bad('time_range', 'missing', "a trigger's query needs a time_range");
  if (raw.granularity !== undefined && !ctx.metrics) {
    bad('granularity', 'invalid', 'granularity is supported in metrics datasets only');
    delete rest.granularity;
  }
  if (raw.filter_combination !== undefined && !FILTER_COMBINATIONS.has(raw.filter_combination as string)) {
    bad('filter_combination', 'invalid', 'filter_combination must be AND or OR');
  }
  return rest;
}

function ruleProblems(spec: QuerySpec, ctx: TriggerQueryContext, bad: Bad): void {
  spec.calculations.forEach((c, i) => {
    if ((TRIGGER_REFUSED_OPS as readonly string[]).includes(c.op))
      bad(`calculations[${i}].op`, 'invalid', `${c.op} is not allowed in a trigger's query`);
    if ((METRICS_ONLY_OPS as readonly string[]).includes(c.op) && !ctx.metrics)
      bad(`calculations[${i}].op`, 'invalid', `${c.op} works in metrics datasets only`);
    if (c.filter_combination !== undefined && !FILTER_COMBINATIONS.has(c.filter_combination)) {
      bad(`calculations[${i}].filter_combination`, 'invalid', 'filter_combination must be AND or OR');
    }
  });
  timeRangeProblems(spec, ctx.frequency, bad);
  const having = havingProblems(spec, bad);
  if (spec.formulas.length > 0) formulaProblems(spec, bad);
  else plainProblems(spec, having, bad);
}

/** Spec 2.6.1 rule 2: frequency <= time_range <= min(4 x frequency, 86400). */
function timeRangeProblems(spec: QuerySpec, frequency: number, bad: Bad): void {
  const range = spec.time_range;
  if (range === undefined) return;
  const most = Math.min(LIMITS.triggerTimeRangeFrequencies * frequency, LIMITS.triggerTimeRangeMax);
  if (range < frequency)
    bad('time_range', 'invalid', `time_range must be at least the frequency (${frequency} seconds)`);
  else if (range > most)
    bad(
      'time_range',
      'invalid',
      `time_range must be at most ${most} seconds (4 times the frequency, and at most a day)`,
    );
}

/** Rule 6: at most one having, corresponding to a calculation (or naming a named calculation or formula). The calculation it uses. */
function havingProblems(spec: QuerySpec, bad: Bad): Calculation | undefined {
  if (spec.havings.length > 1) bad('havings', 'invalid', "a trigger's query may have at most 1 having");
  const [h] = spec.havings;
  if (h === undefined) return undefined;
  if (!(HAVING_OPS as readonly string[]).includes(h.op))
    bad('havings[0].op', 'invalid', `having op must be one of ${HAVING_OPS.join(' ')}`);
  const used = spec.calculations.find((c) => corresponds(h, c));
  const namesFormula = h.calculate_op === undefined && spec.formulas.some((f) => f.name === h.column);
  if (used === undefined && !namesFormula)
    bad('havings[0]', 'invalid', 'the having corresponds to no calculation of the query');
  return used;
}

function corresponds(h: Having, c: Calculation): boolean {
  if (h.calculate_op === undefined) return h.column !== undefined && c.name === h.column;
  return c.op === h.calculate_op && c.column === h.column;
}

/** Rules 5 and 7 and the facts: one formula over at most 100 aggregates, named ones without global filters. */
function formulaProblems(spec: QuerySpec, bad: Bad): void {
  if (spec.formulas.length > LIMITS.triggerFormulasMax)
    bad('formulas', 'invalid', `a trigger's query may have at most ${LIMITS.triggerFormulasMax} formula`);
  if (spec.calculations.length > LIMITS.triggerFormulaAggregatesMax) {
    bad(
      'calculations',
      'invalid',
      `a trigger's query with a formula may have at most ${LIMITS.triggerFormulaAggregatesMax} aggregates`,
    );
  }
  if (spec.filters.length > 0 && spec.calculations.some((c) => c.name !== undefined)) {
    bad('filters', 'invalid', 'named aggregates cannot be combined with global filters');
  }
  const names = new Set(spec.calculations.map(calculationKey));
  spec.formulas.forEach((f, i) => {
    if (names.has(f.name))
      bad(`formulas[${i}].name`, 'invalid', `the formula is named like a calculation ("${f.name}")`);
  });
}

/** Rule 4 and the facts: without formulas, one aggregate besides the having's, unnamed and without filters of its own. */
function plainProblems(spec: QuerySpec, having: Calculation | undefined, bad: Bad): void {
  spec.calculations.forEach((c, i) => {
    if (c.name !== undefined) bad(`calculations[${i}].name`, 'invalid', 'named calculations need a formula');
    if (c.filters !== undefined) bad(`calculations[${i}].filters`, 'invalid', 'calculation filters need a formula');
  });
  const others = spec.calculations.filter((c) => c !== having);
  if (others.length > 1)
    bad(
      'calculations',
      'invalid',
      "without a formula, a trigger's query may have 1 calculation besides the one its having uses",
    );
}
