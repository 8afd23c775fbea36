// Relational rules of spec 2.6 and 2.6.1: what one member of a trigger allows depends on another.
// They run as one refinement of the write schema; each issue carries its rule id in `params.rule`.
import { isDeprecatedRecipient } from '../../api/schemas/common';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../api/schemas/trigger';
import type { RuleId } from '../rules';
import type { MetricsDatasetHint, TriggerForm } from '../types';
import { isRecord } from '../util';
import { COLUMNLESS_OPS, isValidFrequency, METRICS_CALCULATION_OPS, OPTIONAL_COLUMN_OPS, TRIGGER_CALCULATION_OPS, TRIGGER_LIMITS, timeRangeBounds } from './limits';
import { list, show } from './wording';

/** Extra data a relational issue carries for the linter. */
export interface TriggerIssueParams {
  /** Stable linter rule id; typed so that an id missing from the registry does not compile. */
  rule: RuleId;
  /** The value that makes the member valid, when exactly one is the obvious fix. */
  replaceWith?: number;
  /** The same for a string (a column name nearest to an unknown one). */
  replaceText?: string;
  /** Other places that explain the issue, relative to the trigger. */
  related?: { path: (string | number)[]; message: string }[];
}

type Path = (string | number)[];
type Report = (path: Path, message: string, params: TriggerIssueParams) => void;

const present = (v: unknown) => v !== undefined && v !== null;
const optionalText = (v: unknown) => (v === undefined ? undefined : show(v));
const calcLabel = (op: unknown, column: unknown) => (typeof column === 'string' ? `${show(op)}(${column})` : show(op));
/** At most 10 of a list in a message: a query may hold thousands of calculations, and each message names them. */
const someOf = (labels: readonly string[]) => (labels.length > 10 ? `${labels.slice(0, 10).join(', ')} and ${labels.length - 10} more` : labels.join(', '));

/** The hint when the caller gives none: the rules do not know whether a flag or a setting declares a metrics dataset. */
export const NEUTRAL_METRICS_DATASET_HINT: MetricsDatasetHint = () => 'declare it as one to the linter';

/** The read-only members a file is told about: `id` is not one of them, it links the file to the service's trigger. */
const REPORTED_READ_ONLY = TRIGGER_READ_ONLY_MEMBERS.filter((m) => m !== 'id');

/**
 * Relational rules of spec 2.6 and 2.6.1; reads the value defensively because it runs on invalid input too.
 * In the `listed` form (a trigger as the service lists it) what only a write must not carry is not reported:
 * read-only members, and the query_id the service lists beside an inline query.
 */
export function checkTriggerRelations(
  trigger: unknown,
  isMetrics: (slug: string | undefined) => boolean,
  metricsDatasetHint: MetricsDatasetHint,
  form: TriggerForm,
  report: Report,
): void {
  if (!isRecord(trigger)) return;
  if (form === 'file') {
    for (const member of REPORTED_READ_ONLY) {
      if (member in trigger) {
        report([member], `${member} is read-only: the service sets it and ignores it on write`, { rule: 'trigger/read-only-member' });
      }
    }
  }

  const hasQuery = present(trigger.query);
  const hasQueryId = present(trigger.query_id);
  if (!hasQuery && !hasQueryId) {
    report([], 'the trigger has neither query nor query_id; give exactly one: an inline query or the id of a saved query', {
      rule: 'trigger/query-source',
    });
  } else if (hasQuery && hasQueryId && form === 'file') {
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

  if (isRecord(trigger.query)) {
    const slug = typeof trigger.dataset_slug === 'string' ? trigger.dataset_slug : undefined;
    // The caller words how to declare a metrics dataset; the rest of the sentence is the rules'.
    const metricsHint = () =>
      `if ${slug ?? 'the dataset'} is a metrics dataset, ${slug === undefined ? 'give dataset_slug and ' : ''}${metricsDatasetHint(slug)}`;
    checkQueryRelations(trigger, trigger.query, isMetrics(slug), metricsHint, report);
  }
}

function checkQueryRelations(
  trigger: Record<string, unknown>,
  query: Record<string, unknown>,
  metrics: boolean,
  metricsHint: () => string,
  report: Report,
): void {
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
      report(q('calculations', i, 'op'), `${calc.op} needs a metrics dataset, and ${dataset} is standard; ${metricsHint()}`, {
        rule: 'query/calculation-op-metrics-only',
      });
    }
    const columnless = (COLUMNLESS_OPS as readonly string[]).includes(calc.op);
    const optional = (OPTIONAL_COLUMN_OPS as readonly string[]).includes(calc.op);
    if (columnless && present(calc.column)) {
      report(q('calculations', i, 'column'), `${calc.op} takes no column; only ${list(COLUMNLESS_OPS)} take none`, { rule: 'query/calculation-column' });
    } else if (!columnless && !optional && !present(calc.column) && (TRIGGER_CALCULATION_OPS as readonly string[]).includes(calc.op)) {
      const without = [...COLUMNLESS_OPS, ...OPTIONAL_COLUMN_OPS];
      report(q('calculations', i), `${calc.op} needs a column; every op but ${list(without)} takes one`, { rule: 'query/calculation-column' });
    }
  });

  checkCalculationNames(calculations, formulas, q, report);

  // A having "corresponds" to the calculation with the same op and column; without calculate_op its
  // column names a calculation or a formula (service facts). Calculations are indexed once, by op and
  // column and by name, so each having finds its match in one lookup.
  const byOpAndColumn = new Map<unknown, Map<unknown, number[]>>();
  const byName = new Map<string, number[]>();
  const add = <K>(map: Map<K, number[]>, key: K, i: number): void => {
    const same = map.get(key);
    if (same === undefined) map.set(key, [i]);
    else same.push(i);
  };
  calculations.forEach((c, i) => {
    if (!isRecord(c)) return;
    let byColumn = byOpAndColumn.get(c.op);
    if (byColumn === undefined) byOpAndColumn.set(c.op, (byColumn = new Map()));
    add(byColumn, c.column ?? undefined, i);
    if (typeof c.name === 'string') add(byName, c.name, i);
  });
  const none: number[] = [];
  const matching = (h: Record<string, unknown>): number[] => {
    if (!present(h.calculate_op)) return typeof h.column === 'string' ? (byName.get(h.column) ?? none) : none;
    return byOpAndColumn.get(h.calculate_op)?.get(h.column ?? undefined) ?? none;
  };
  const namesOf = (items: unknown[]) => items.filter(isRecord).map((x) => x.name).filter((n): n is string => typeof n === 'string');
  const formulaNames = new Set(namesOf(formulas));
  const known = someOf(calculations.filter(isRecord).map((c) => calcLabel(c.op, c.column)));
  havings.forEach((h, i) => {
    if (!isRecord(h)) return;
    if (!present(h.calculate_op)) {
      if (!present(h.column)) {
        report(q('havings', i), 'the having has neither calculate_op nor a column; give calculate_op (with its column), or a column naming a calculation or formula', {
          rule: 'query/having',
        });
      } else if (typeof h.column === 'string' && matching(h).length === 0 && !formulaNames.has(h.column)) {
        report(q('havings', i), `the having on ${JSON.stringify(h.column)} names no calculation or formula; without calculate_op its column is the name of a calculation or formula; calculation names: ${someOf(namesOf(calculations)) || 'none'}; formula names: ${someOf([...formulaNames]) || 'none'}`, {
          rule: 'query/having-calculation',
          related: [{ path: q('calculations'), message: 'the calculations' }],
        });
      }
      return;
    }
    if (typeof h.calculate_op !== 'string') return;
    if (matching(h).length === 0) {
      report(q('havings', i), `the having on ${calcLabel(h.calculate_op, h.column)} matches no calculation; it needs a calculation with the same op and column (spec 2.6.1 rule 6); calculations: ${known || 'none'}`, {
        rule: 'query/having-calculation',
        related: [{ path: q('calculations'), message: 'the calculations' }],
      });
    }
  });

  if (formulas.length === 0) {
    // A calculation used only by a having does not count (service facts). A having uses one
    // calculation: of identical ones, the others still count.
    const usedByHaving = new Set<number>();
    const taken = new Map<number[], number>();
    for (const h of havings) {
      if (!isRecord(h)) continue;
      const same = matching(h);
      const n = taken.get(same) ?? 0;
      const i = same[n];
      if (i !== undefined) {
        usedByHaving.add(i);
        taken.set(same, n + 1);
      }
    }
    const nonHaving = calculations
      .map((c, i) => ({ c, i }))
      .filter(({ c, i }) => isRecord(c) && !usedByHaving.has(i));
    const limit = TRIGGER_LIMITS.nonHavingAggregatesMax;
    if (nonHaving.length > limit) {
      const names = someOf(nonHaving.map(({ c }) => (isRecord(c) ? calcLabel(c.op, c.column) : '?')));
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
    const names = someOf(named.map((c) => (isRecord(c) ? show(c.name) : '')));
    report(q('filters'), `global filters cannot be combined with named aggregates (${names}) (spec 2.6.1 rule 7); move the filters into each calculation's filters`, {
      rule: 'query/named-aggregate-filters',
    });
  }

  if (query.granularity !== undefined) {
    if (!metrics) {
      const dataset = typeof trigger.dataset_slug === 'string' ? `dataset ${trigger.dataset_slug} is standard` : 'the dataset is standard';
      report(q('granularity'), `granularity is supported only on metrics datasets and ${dataset} (spec 2.6.1 rule 9); ${metricsHint()}`, {
        rule: 'query/granularity-standard',
      });
    } else if (typeof query.granularity === 'number' && typeof timeRange === 'number') {
      // The service accepts time_range/1000 to time_range (service facts); above time_range/10 is legal
      // but coarse, which some of the service's own documentation advises against.
      const low = timeRange / TRIGGER_LIMITS.granularityMinDivisor;
      const coarse = timeRange / TRIGGER_LIMITS.granularityCoarseDivisor;
      const related = [{ path: q('time_range'), message: `time_range ${timeRange}` }];
      if (query.granularity < low || query.granularity > timeRange) {
        report(q('granularity'), `granularity ${query.granularity} lies outside ${low} = time_range ${timeRange} / ${TRIGGER_LIMITS.granularityMinDivisor} to ${timeRange} = time_range (spec 2.6.1 rule 8)`, {
          rule: 'query/granularity-range',
          related,
        });
      } else if (query.granularity > coarse) {
        const points = Math.floor(timeRange / query.granularity);
        report(q('granularity'), `granularity ${query.granularity} is above ${coarse} = time_range ${timeRange} / ${TRIGGER_LIMITS.granularityCoarseDivisor}: each evaluation sees ${points} ${points === 1 ? 'point' : 'points'}; the service accepts it, but fewer than ${TRIGGER_LIMITS.granularityCoarseDivisor} points make a coarse signal`, {
          rule: 'query/granularity-coarse',
          related,
        });
      }
    }
  }
}

/**
 * Rules the service enforces on a trigger's query beyond spec 2.6.1 (service facts): without formulas,
 * calculations carry no name and no filters of their own; calculation names are unique; no formula is
 * named like a calculation.
 */
function checkCalculationNames(calculations: unknown[], formulas: unknown[], q: (...rest: Path) => Path, report: Report): void {
  const firstByName = new Map<string, number>();
  calculations.forEach((c, i) => {
    if (!isRecord(c)) return;
    if (formulas.length === 0 && present(c.name)) {
      report(q('calculations', i, 'name'), `the calculation is named (${JSON.stringify(c.name)}) but the query has no formula; without formulas calculations carry no name`, {
        rule: 'query/calculation-needs-formula',
      });
    }
    if (formulas.length === 0 && Array.isArray(c.filters) && c.filters.length > 0) {
      report(q('calculations', i, 'filters'), "the calculation has its own filters but the query has no formula; without formulas, filter the whole query with the query's filters", {
        rule: 'query/calculation-needs-formula',
      });
    }
    if (typeof c.name !== 'string') return;
    const first = firstByName.get(c.name);
    if (first === undefined) {
      firstByName.set(c.name, i);
      return;
    }
    report(q('calculations', i, 'name'), `calculation name ${JSON.stringify(c.name)} is already used by calculation ${first + 1}; each calculation name is used once`, {
      rule: 'query/calculation-name-duplicate',
      related: [{ path: q('calculations', first, 'name'), message: `calculation ${first + 1}` }],
    });
  });
  formulas.forEach((f, i) => {
    if (!isRecord(f) || typeof f.name !== 'string') return;
    const calc = firstByName.get(f.name);
    if (calc === undefined) return;
    report(q('formulas', i, 'name'), `formula name ${JSON.stringify(f.name)} is also the name of calculation ${calc + 1}; a formula needs a name of its own`, {
      rule: 'query/formula-name',
      related: [{ path: q('calculations', calc, 'name'), message: `calculation ${calc + 1}` }],
    });
  });
}
