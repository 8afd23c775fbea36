// Relational rules of a trigger's query (spec 2.6.1, service facts), one function per thing checked:
// the time range against the frequency, each calculation's op and column, calculation and formula
// names, havings and aggregate counts (havingRelations.ts), global filters, granularity.
import * as l10n from '@vscode/l10n';
import { isRecord } from '../util';
import { checkAggregateCounts, checkHavings, indexCalculations, type CalculationIndex } from './havingRelations';
import {
  COLUMNLESS_OPS,
  isValidFrequency,
  METRICS_CALCULATION_OPS,
  OPTIONAL_COLUMN_OPS,
  TRIGGER_CALCULATION_OPS,
  TRIGGER_LIMITS,
  timeRangeBounds,
} from './limits';
import { memberValue, present, q, someOf, type QueryScope, type Report } from './relationWords';
import { expected, list, show } from './wording';

/** The list of a query without one: frozen, as the rules only read it. */
const NONE: unknown[] = Object.freeze<unknown[]>([]) as unknown[];
/** A query's list, or none where it is not an array (the rules read the value defensively). */
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : NONE);
const NO_HAVINGS: CalculationIndex = () => [];

export function checkQueryRelations(
  trigger: Record<string, unknown>,
  query: Record<string, unknown>,
  metrics: boolean,
  metricsHint: () => string,
  report: Report,
): void {
  const scope: QueryScope = {
    trigger,
    query,
    metrics,
    metricsHint,
    report,
    calculations: asList(query.calculations),
    havings: asList(query.havings),
    formulas: asList(query.formulas),
  };
  checkTimeRange(scope);
  for (let i = 0; i < scope.calculations.length; i++) checkCalculation(scope, scope.calculations[i], i);
  checkCalculationNames(scope);
  // A query without havings never looks a calculation up.
  const index = scope.havings.length === 0 ? NO_HAVINGS : indexCalculations(scope.calculations);
  checkHavings(scope, index);
  checkAggregateCounts(scope, index);
  checkNamedAggregateFilters(scope);
  checkGranularity(scope);
}

/** time_range lies between the frequency and a multiple of it (spec 2.6.1 rule 2). */
function checkTimeRange({ trigger, query, report }: QueryScope): void {
  const defaultFrequency = trigger.frequency === undefined;
  const frequency = defaultFrequency ? TRIGGER_LIMITS.frequencyDefault : trigger.frequency;
  const timeRange = query.time_range;
  if (typeof timeRange !== 'number' || !isValidFrequency(frequency)) return;
  const { min, max, maxByFrequency } = timeRangeBounds(frequency);
  // Most time ranges are within bounds: the words are made only for one that is not.
  if (!(timeRange < min) && !(timeRange > max)) return;
  const factor = TRIGGER_LIMITS.timeRangeFactor;
  const related = defaultFrequency ? [] : [{ path: ['frequency'], message: memberValue('frequency', frequency) }];
  const allowed = () =>
    maxByFrequency
      ? l10n.t('{0} (the frequency) to {1} ({2} x frequency)', min, max, factor)
      : l10n.t('{0} (the frequency) to {1} (the maximum)', min, max);
  const range = memberValue('time_range', timeRange);
  const current = memberValue('frequency', frequency);
  if (timeRange < min) {
    const below = defaultFrequency
      ? l10n.t('{0} is below {1} (the default)', range, current)
      : l10n.t('{0} is below {1}', range, current);
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

/** A calculation's op suits the dataset, and it has a column exactly when its op takes one. */
function checkCalculation({ trigger, metrics, metricsHint, report }: QueryScope, calc: unknown, i: number): void {
  if (!isRecord(calc) || typeof calc.op !== 'string') return;
  if (!metrics && (METRICS_CALCULATION_OPS as readonly string[]).includes(calc.op)) {
    const message =
      typeof trigger.dataset_slug === 'string'
        ? l10n.t(
            '{0} needs a metrics dataset, and dataset {1} is standard; {2}',
            calc.op,
            trigger.dataset_slug,
            metricsHint(),
          )
        : l10n.t(
            '{0} needs a metrics dataset, and the dataset (no {1}) is standard; {2}',
            calc.op,
            'dataset_slug',
            metricsHint(),
          );
    report(q('calculations', i, 'op'), message, {
      rule: 'query/calculation-op-metrics-only',
    });
  }
  const columnless = (COLUMNLESS_OPS as readonly string[]).includes(calc.op);
  const optional = (OPTIONAL_COLUMN_OPS as readonly string[]).includes(calc.op);
  if (columnless && present(calc.column)) {
    report(
      q('calculations', i, 'column'),
      l10n.t('{0} takes no column; only {1} take none', calc.op, list(COLUMNLESS_OPS)),
      { rule: 'query/calculation-column' },
    );
  } else if (
    !columnless &&
    !optional &&
    !present(calc.column) &&
    (TRIGGER_CALCULATION_OPS as readonly string[]).includes(calc.op)
  ) {
    const without = [...COLUMNLESS_OPS, ...OPTIONAL_COLUMN_OPS];
    report(q('calculations', i), l10n.t('{0} needs a column; every op but {1} takes one', calc.op, list(without)), {
      rule: 'query/calculation-column',
    });
  }
}

/**
 * Rules the service enforces on a trigger's query beyond spec 2.6.1 (service facts): without formulas,
 * calculations carry no name and no filters of their own; calculation names are unique; no formula is
 * named like a calculation.
 */
function checkCalculationNames({ calculations, formulas, report }: QueryScope): void {
  // Most calculations have no name: the map is made for the first that has one.
  let byName: Map<string, number> | undefined;
  calculations.forEach((c, i) => {
    if (!isRecord(c)) return;
    if (formulas.length === 0 && present(c.name)) {
      report(
        q('calculations', i, 'name'),
        l10n.t(
          'the calculation is named ({0}) but the query has no formula; without formulas calculations carry no name',
          JSON.stringify(c.name),
        ),
        {
          rule: 'query/calculation-needs-formula',
        },
      );
    }
    if (formulas.length === 0 && Array.isArray(c.filters) && c.filters.length > 0) {
      report(
        q('calculations', i, 'filters'),
        l10n.t(
          "the calculation has its own filters but the query has no formula; without formulas, filter the whole query with the query's filters",
        ),
        {
          rule: 'query/calculation-needs-formula',
        },
      );
    }
    if (typeof c.name !== 'string') return;
    byName ??= new Map();
    const first = byName.get(c.name);
    if (first === undefined) {
      byName.set(c.name, i);
      return;
    }
    report(
      q('calculations', i, 'name'),
      l10n.t(
        'calculation name {0} is already used by calculation {1}; each calculation name is used once',
        JSON.stringify(c.name),
        first + 1,
      ),
      {
        rule: 'query/calculation-name-duplicate',
        related: [{ path: q('calculations', first, 'name'), message: l10n.t('calculation {0}', first + 1) }],
      },
    );
  });
  const firstByName = byName;
  if (firstByName === undefined) return;
  formulas.forEach((f, i) => {
    if (!isRecord(f) || typeof f.name !== 'string') return;
    const calc = firstByName.get(f.name);
    if (calc === undefined) return;
    report(
      q('formulas', i, 'name'),
      l10n.t(
        'formula name {0} is also the name of calculation {1}; a formula needs a name of its own',
        JSON.stringify(f.name),
        calc + 1,
      ),
      {
        rule: 'query/formula-name',
        related: [{ path: q('calculations', calc, 'name'), message: l10n.t('calculation {0}', calc + 1) }],
      },
    );
  });
}

/** Global filters and named aggregates do not mix (spec 2.6.1 rule 7). */
function checkNamedAggregateFilters({ query, calculations, report }: QueryScope): void {
  if (
    !Array.isArray(query.filters) ||
    query.filters.length === 0 ||
    !calculations.some((c) => isRecord(c) && present(c.name))
  )
    return;
  const named = calculations.filter((c) => isRecord(c) && present(c.name));
  if (named.length === 0 || !Array.isArray(query.filters) || query.filters.length === 0) return;
  const names = someOf(named.map((c) => (isRecord(c) ? show(c.name) : '')));
  report(
    q('filters'),
    l10n.t(
      "global filters cannot be combined with named aggregates ({0}); move the filters into each calculation's filters",
      names,
    ),
    {
      rule: 'query/named-aggregate-filters',
    },
  );
}

/** granularity only on metrics datasets (spec 2.6.1 rule 9), and within time_range/1000 to time_range (rule 8). */
function checkGranularity(scope: QueryScope): void {
  const { trigger, query, metrics, metricsHint, report } = scope;
  if (query.granularity === undefined) return;
  if (metrics) {
    if (typeof query.granularity === 'number' && typeof query.time_range === 'number')
      checkGranularityRange(query.granularity, query.time_range, report);
    return;
  }
  const message =
    typeof trigger.dataset_slug === 'string'
      ? l10n.t(
          '{0} is supported only on metrics datasets and dataset {1} is standard; {2}',
          'granularity',
          trigger.dataset_slug,
          metricsHint(),
        )
      : l10n.t(
          '{0} is supported only on metrics datasets and the dataset is standard; {1}',
          'granularity',
          metricsHint(),
        );
  report(q('granularity'), message, {
    rule: 'query/granularity-standard',
  });
}

function checkGranularityRange(granularityValue: number, timeRange: number, report: Report): void {
  // The service accepts time_range/1000 to time_range (service facts); above time_range/10 is legal
  // but coarse, which some of the service's own documentation advises against.
  const low = timeRange / TRIGGER_LIMITS.granularityMinDivisor;
  const coarse = timeRange / TRIGGER_LIMITS.granularityCoarseDivisor;
  const related = [{ path: q('time_range'), message: memberValue('time_range', timeRange) }];
  const granularity = memberValue('granularity', granularityValue);
  if (granularityValue < low || granularityValue > timeRange) {
    const message = l10n.t(
      '{0} lies outside {1} = {2} {3} / {4} to {3} = {2}',
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
  } else if (granularityValue > coarse) {
    const points = Math.floor(timeRange / granularityValue);
    const divisor = TRIGGER_LIMITS.granularityCoarseDivisor;
    const range = memberValue('time_range', timeRange);
    const message =
      points === 1
        ? l10n.t(
            '{0} is above {1} = {2} / {3}: each evaluation sees 1 point; the service accepts it, but fewer than {3} points make a coarse signal',
            granularity,
            coarse,
            range,
            divisor,
          )
        : l10n.t(
            '{0} is above {1} = {2} / {3}: each evaluation sees {4} points; the service accepts it, but fewer than {3} points make a coarse signal',
            granularity,
            coarse,
            range,
            divisor,
            points,
          );
    report(q('granularity'), message, {
      rule: 'query/granularity-coarse',
      related,
    });
  }
}
