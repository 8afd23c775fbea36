// Relational rules of spec 2.6 and 2.6.1: what one member of a trigger allows depends on another.
// They run as one refinement of the write schema; each issue carries its rule id in `params.rule`.
// Every message is one l10n.t sentence; member names, values and lists are its placeholder arguments.
import * as l10n from '@vscode/l10n';
import { isDeprecatedRecipient } from '../../api/schemas/common';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../api/schemas/trigger';
import type { RuleId } from '../rules';
import type { MetricsDatasetHint, TriggerForm } from '../types';
import { isRecord } from '../util';
import { COLUMNLESS_OPS, isValidFrequency, METRICS_CALCULATION_OPS, OPTIONAL_COLUMN_OPS, TRIGGER_CALCULATION_OPS, TRIGGER_LIMITS, timeRangeBounds } from './limits';
import { expected, list, show } from './wording';

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
const someOf = (labels: readonly string[]) => (labels.length > 10 ? l10n.t('{0} and {1} more', labels.slice(0, 10).join(', '), labels.length - 10) : labels.join(', '));
/** A list in a message, or the word for an empty one. */
const someOrNone = (labels: readonly string[]) => someOf(labels) || l10n.t('none');
/** A member and its value, as in `frequency 900`: the same in every language. */
const memberValue = (name: string, value: unknown) => [name, show(value)].join(' ');

/** The hint when the caller gives none: the rules do not know whether a flag or a setting declares a metrics dataset. */
export const NEUTRAL_METRICS_DATASET_HINT: MetricsDatasetHint = () => l10n.t('declare it as one to the linter');

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
        report([member], l10n.t('{0} is read-only: the service sets it and ignores it on write', member), { rule: 'trigger/read-only-member' });
      }
    }
  }

  const hasQuery = present(trigger.query);
  const hasQueryId = present(trigger.query_id);
  if (!hasQuery && !hasQueryId) {
    report([], l10n.t('the trigger has neither {0} nor {1}; give exactly one: an inline query or the id of a saved query', 'query', 'query_id'), {
      rule: 'trigger/query-source',
    });
  } else if (hasQuery && hasQueryId && form === 'file') {
    report(['query_id'], l10n.t('the trigger has both {0} and {1}; give exactly one: an inline query or the id of a saved query', 'query', 'query_id'), {
      rule: 'trigger/query-source',
      related: [{ path: ['query'], message: l10n.t('the inline query') }],
    });
  }

  if (trigger.evaluation_schedule_type === 'window' && !present(trigger.evaluation_schedule)) {
    const message = l10n.t(
      '{0} is {1} but {2} is missing; give {2} with a window ({3})',
      'evaluation_schedule_type',
      'window',
      'evaluation_schedule',
      list(['days_of_week', 'start_time', 'end_time']),
    );
    report([], message, {
      rule: 'trigger/evaluation-schedule',
      related: [{ path: ['evaluation_schedule_type'], message: l10n.t('the schedule type') }],
    });
  }
  // A window with the frequency schedule type is ignored: the trigger runs around the clock, which
  // is rarely what whoever wrote the window meant. Which of the two to change is the user's call.
  const scheduleType = trigger.evaluation_schedule_type;
  if (isRecord(trigger.evaluation_schedule) && (scheduleType === undefined || scheduleType === 'frequency')) {
    const message =
      scheduleType === undefined
        ? l10n.t(
            '{0} has no effect: {1} is absent ({2}, the default), so the trigger runs at every frequency interval, also outside the window; set {1} to {3}, or remove {0}',
            'evaluation_schedule',
            'evaluation_schedule_type',
            'frequency',
            'window',
          )
        : l10n.t(
            '{0} has no effect: {1} is {2}, so the trigger runs at every frequency interval, also outside the window; set {1} to {3}, or remove {0}',
            'evaluation_schedule',
            'evaluation_schedule_type',
            'frequency',
            'window',
          );
    report(['evaluation_schedule'], message, {
      rule: 'trigger/evaluation-schedule-unused',
      related: scheduleType === undefined ? [] : [{ path: ['evaluation_schedule_type'], message: l10n.t('the schedule type') }],
    });
  }

  if (Array.isArray(trigger.recipients)) {
    trigger.recipients.forEach((r, i) => {
      if (isRecord(r) && isDeprecatedRecipient({ id: optionalText(r.id), type: optionalText(r.type), target: optionalText(r.target) })) {
        const message = l10n.t('recipient {0} {1} is named by {2} and {3}, which is deprecated (spec 9); name it by {4}', show(r.type), show(r.target), 'type', 'target', 'id');
        report(['recipients', i], message, {
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
      const message = l10n.t(
        '{0} {1} {2} does not suit a baseline; with {3} the threshold is >= with a value of 0 or more, or <= with a value of 0 or less',
        'threshold',
        op,
        value,
        'baseline_details',
      );
      report(['threshold'], message, {
        rule: 'trigger/baseline-threshold',
        related: [{ path: ['baseline_details'], message: l10n.t('the baseline') }],
      });
    }
  }

  if (isRecord(trigger.query)) {
    const slug = typeof trigger.dataset_slug === 'string' ? trigger.dataset_slug : undefined;
    // The caller words how to declare a metrics dataset; the rest of the sentence is the rules'.
    const metricsHint = () =>
      slug === undefined
        ? l10n.t('if the dataset is a metrics dataset, give {0} and {1}', 'dataset_slug', metricsDatasetHint(slug))
        : l10n.t('if {0} is a metrics dataset, {1}', slug, metricsDatasetHint(slug));
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
  const defaultFrequency = trigger.frequency === undefined;
  const frequency = defaultFrequency ? TRIGGER_LIMITS.frequencyDefault : trigger.frequency;
  const timeRange = query.time_range;

  if (typeof timeRange === 'number' && isValidFrequency(frequency)) {
    const { min, max, maxByFrequency } = timeRangeBounds(frequency);
    const factor = TRIGGER_LIMITS.timeRangeFactor;
    const related = defaultFrequency ? [] : [{ path: ['frequency'], message: memberValue('frequency', frequency) }];
    const allowed = () =>
      maxByFrequency
        ? l10n.t('{0} (the frequency) to {1} ({2} x frequency) (spec 2.6.1 rule 2)', min, max, factor)
        : l10n.t('{0} (the frequency) to {1} (the maximum) (spec 2.6.1 rule 2)', min, max);
    const range = memberValue('time_range', timeRange);
    const current = memberValue('frequency', frequency);
    if (timeRange < min) {
      const below = defaultFrequency ? l10n.t('{0} is below {1} (the default)', range, current) : l10n.t('{0} is below {1}', range, current);
      report(q('time_range'), expected(below, allowed()), { rule: 'query/time-range-min', replaceWith: min, related });
    } else if (timeRange > max) {
      const exceeds = !maxByFrequency
        ? l10n.t('{0} exceeds the maximum {1}', range, max)
        : defaultFrequency
          ? l10n.t('{0} exceeds {1} = {2} x {3} (the default)', range, max, factor, current)
          : l10n.t('{0} exceeds {1} = {2} x {3}', range, max, factor, current);
      report(q('time_range'), expected(exceeds, allowed()), { rule: 'query/time-range-max', replaceWith: max, related });
    }
  }

  const calculations = Array.isArray(query.calculations) ? query.calculations : [];
  const havings = Array.isArray(query.havings) ? query.havings : [];
  const formulas = Array.isArray(query.formulas) ? query.formulas : [];

  calculations.forEach((calc, i) => {
    if (!isRecord(calc) || typeof calc.op !== 'string') return;
    if (!metrics && (METRICS_CALCULATION_OPS as readonly string[]).includes(calc.op)) {
      const message =
        typeof trigger.dataset_slug === 'string'
          ? l10n.t('{0} needs a metrics dataset, and dataset {1} is standard; {2}', calc.op, trigger.dataset_slug, metricsHint())
          : l10n.t('{0} needs a metrics dataset, and the dataset (no {1}) is standard; {2}', calc.op, 'dataset_slug', metricsHint());
      report(q('calculations', i, 'op'), message, {
        rule: 'query/calculation-op-metrics-only',
      });
    }
    const columnless = (COLUMNLESS_OPS as readonly string[]).includes(calc.op);
    const optional = (OPTIONAL_COLUMN_OPS as readonly string[]).includes(calc.op);
    if (columnless && present(calc.column)) {
      report(q('calculations', i, 'column'), l10n.t('{0} takes no column; only {1} take none', calc.op, list(COLUMNLESS_OPS)), { rule: 'query/calculation-column' });
    } else if (!columnless && !optional && !present(calc.column) && (TRIGGER_CALCULATION_OPS as readonly string[]).includes(calc.op)) {
      const without = [...COLUMNLESS_OPS, ...OPTIONAL_COLUMN_OPS];
      report(q('calculations', i), l10n.t('{0} needs a column; every op but {1} takes one', calc.op, list(without)), { rule: 'query/calculation-column' });
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
  const known = calculations.filter(isRecord).map((c) => calcLabel(c.op, c.column));
  havings.forEach((h, i) => {
    if (!isRecord(h)) return;
    if (!present(h.calculate_op)) {
      if (!present(h.column)) {
        report(q('havings', i), l10n.t('the having has neither {0} nor a column; give {0} (with its column), or a column naming a calculation or formula', 'calculate_op'), {
          rule: 'query/having',
        });
      } else if (typeof h.column === 'string' && matching(h).length === 0 && !formulaNames.has(h.column)) {
        const message = l10n.t(
          'the having on {0} names no calculation or formula; without {1} its column is the name of a calculation or formula; calculation names: {2}; formula names: {3}',
          JSON.stringify(h.column),
          'calculate_op',
          someOrNone(namesOf(calculations)),
          someOrNone([...formulaNames]),
        );
        report(q('havings', i), message, {
          rule: 'query/having-calculation',
          related: [{ path: q('calculations'), message: l10n.t('the calculations') }],
        });
      }
      return;
    }
    if (typeof h.calculate_op !== 'string') return;
    if (matching(h).length === 0) {
      const message = l10n.t(
        'the having on {0} matches no calculation; it needs a calculation with the same op and column (spec 2.6.1 rule 6); calculations: {1}',
        calcLabel(h.calculate_op, h.column),
        someOrNone(known),
      );
      report(q('havings', i), message, {
        rule: 'query/having-calculation',
        related: [{ path: q('calculations'), message: l10n.t('the calculations') }],
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
        const message = isRecord(c)
          ? l10n.t(
              '{0} is one aggregate too many: the query has {1} aggregates not used by a having ({2}); without formulas at most {3} is allowed (spec 2.6.1 rule 4)',
              calcLabel(c.op, c.column),
              nonHaving.length,
              names,
              limit,
            )
          : l10n.t(
              'this calculation is one aggregate too many: the query has {0} aggregates not used by a having ({1}); without formulas at most {2} is allowed (spec 2.6.1 rule 4)',
              nonHaving.length,
              names,
              limit,
            );
        report(q('calculations', i), message, {
          rule: 'query/non-having-aggregates',
          related: [{ path: q('calculations', nonHaving[0]?.i ?? 0), message: l10n.t('the first aggregate') }],
        });
      }
    }
  } else if (calculations.length > TRIGGER_LIMITS.formulaAggregatesMax) {
    const message = l10n.t(
      '{0} hold {1} aggregates; with a formula at most {2} are allowed (spec 2.6.1 rule 5)',
      'calculations',
      calculations.length,
      TRIGGER_LIMITS.formulaAggregatesMax,
    );
    report(q('calculations'), message, {
      rule: 'query/formula-aggregates-max',
    });
  }

  const named = calculations.filter((c) => isRecord(c) && present(c.name));
  if (named.length > 0 && Array.isArray(query.filters) && query.filters.length > 0) {
    const names = someOf(named.map((c) => (isRecord(c) ? show(c.name) : '')));
    report(q('filters'), l10n.t("global filters cannot be combined with named aggregates ({0}) (spec 2.6.1 rule 7); move the filters into each calculation's filters", names), {
      rule: 'query/named-aggregate-filters',
    });
  }

  if (query.granularity !== undefined) {
    if (!metrics) {
      const message =
        typeof trigger.dataset_slug === 'string'
          ? l10n.t('{0} is supported only on metrics datasets and dataset {1} is standard (spec 2.6.1 rule 9); {2}', 'granularity', trigger.dataset_slug, metricsHint())
          : l10n.t('{0} is supported only on metrics datasets and the dataset is standard (spec 2.6.1 rule 9); {1}', 'granularity', metricsHint());
      report(q('granularity'), message, {
        rule: 'query/granularity-standard',
      });
    } else if (typeof query.granularity === 'number' && typeof timeRange === 'number') {
      // The service accepts time_range/1000 to time_range (service facts); above time_range/10 is legal
      // but coarse, which some of the service's own documentation advises against.
      const low = timeRange / TRIGGER_LIMITS.granularityMinDivisor;
      const coarse = timeRange / TRIGGER_LIMITS.granularityCoarseDivisor;
      const related = [{ path: q('time_range'), message: memberValue('time_range', timeRange) }];
      const granularity = memberValue('granularity', query.granularity);
      if (query.granularity < low || query.granularity > timeRange) {
        const message = l10n.t(
          '{0} lies outside {1} = {2} {3} / {4} to {3} = {2} (spec 2.6.1 rule 8)',
          granularity,
          low,
          'time_range',
          timeRange,
          TRIGGER_LIMITS.granularityMinDivisor,
        );
        report(q('granularity'), message, {
          rule: 'query/granularity-range',
          related,
        });
      } else if (query.granularity > coarse) {
        const points = Math.floor(timeRange / query.granularity);
        const divisor = TRIGGER_LIMITS.granularityCoarseDivisor;
        const message =
          points === 1
            ? l10n.t(
                '{0} is above {1} = {2} / {3}: each evaluation sees 1 point; the service accepts it, but fewer than {3} points make a coarse signal',
                granularity,
                coarse,
                memberValue('time_range', timeRange),
                divisor,
              )
            : l10n.t(
                '{0} is above {1} = {2} / {3}: each evaluation sees {4} points; the service accepts it, but fewer than {3} points make a coarse signal',
                granularity,
                coarse,
                memberValue('time_range', timeRange),
                divisor,
                points,
              );
        report(q('granularity'), message, {
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
      report(q('calculations', i, 'name'), l10n.t('the calculation is named ({0}) but the query has no formula; without formulas calculations carry no name', JSON.stringify(c.name)), {
        rule: 'query/calculation-needs-formula',
      });
    }
    if (formulas.length === 0 && Array.isArray(c.filters) && c.filters.length > 0) {
      report(q('calculations', i, 'filters'), l10n.t("the calculation has its own filters but the query has no formula; without formulas, filter the whole query with the query's filters"), {
        rule: 'query/calculation-needs-formula',
      });
    }
    if (typeof c.name !== 'string') return;
    const first = firstByName.get(c.name);
    if (first === undefined) {
      firstByName.set(c.name, i);
      return;
    }
    report(q('calculations', i, 'name'), l10n.t('calculation name {0} is already used by calculation {1}; each calculation name is used once', JSON.stringify(c.name), first + 1), {
      rule: 'query/calculation-name-duplicate',
      related: [{ path: q('calculations', first, 'name'), message: l10n.t('calculation {0}', first + 1) }],
    });
  });
  formulas.forEach((f, i) => {
    if (!isRecord(f) || typeof f.name !== 'string') return;
    const calc = firstByName.get(f.name);
    if (calc === undefined) return;
    report(q('formulas', i, 'name'), l10n.t('formula name {0} is also the name of calculation {1}; a formula needs a name of its own', JSON.stringify(f.name), calc + 1), {
      rule: 'query/formula-name',
      related: [{ path: q('calculations', calc, 'name'), message: l10n.t('calculation {0}', calc + 1) }],
    });
  });
}
