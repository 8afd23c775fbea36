// Havings and aggregate counts of a trigger's query (spec 2.6.1 rules 4 to 6, service facts). A having
// "corresponds" to the calculation with the same op and column; without calculate_op its column names
// a calculation or a formula. Calculations are indexed once, by op and column and by name, so each
// having finds its match in one lookup.
import * as l10n from '@vscode/l10n';
import { isRecord } from '../util';
import { TRIGGER_LIMITS } from './limits';
import { calcLabel, present, q, someOf, someOrNone, type QueryScope } from './relationWords';

/** The calculations a having matches (the same array for havings that match the same ones). */
export type CalculationIndex = (having: Record<string, unknown>) => number[];

export function indexCalculations(calculations: readonly unknown[]): CalculationIndex {
  // Built at the first lookup: a query without havings never looks one up.
  let index: { byOpAndColumn: Map<unknown, Map<unknown, number[]>>; byName: Map<string, number[]> } | undefined;
  const add = <K>(map: Map<K, number[]>, key: K, i: number): void => {
    const same = map.get(key);
    if (same === undefined) map.set(key, [i]);
    else same.push(i);
  };
  const build = () => {
    const built = { byOpAndColumn: new Map<unknown, Map<unknown, number[]>>(), byName: new Map<string, number[]>() };
    calculations.forEach((c, i) => {
      if (!isRecord(c)) return;
      let byColumn = built.byOpAndColumn.get(c.op);
      if (byColumn === undefined) built.byOpAndColumn.set(c.op, (byColumn = new Map()));
      add(byColumn, c.column ?? undefined, i);
      if (typeof c.name === 'string') add(built.byName, c.name, i);
    });
    return built;
  };
  const none: number[] = [];
  return (h) => {
    const { byOpAndColumn, byName } = (index ??= build());
    if (!present(h.calculate_op)) return typeof h.column === 'string' ? (byName.get(h.column) ?? none) : none;
    return byOpAndColumn.get(h.calculate_op)?.get(h.column ?? undefined) ?? none;
  };
}

const namesOf = (items: unknown[]) =>
  items
    .filter(isRecord)
    .map((x) => x.name)
    .filter((n): n is string => typeof n === 'string');

/** Each having matches a calculation (or, without calculate_op, names a calculation or formula). */
export function checkHavings(
  { calculations, havings, formulas, report }: QueryScope,
  matching: CalculationIndex,
): void {
  if (havings.length === 0) return;
  const formulaNames = new Set(namesOf(formulas));
  // The calculations' labels, made once, for the first message that names them.
  let labels: string[] | undefined;
  const known = () => (labels ??= calculations.filter(isRecord).map((c) => calcLabel(c.op, c.column)));
  const related = () => [{ path: q('calculations'), message: l10n.t('the calculations') }];
  havings.forEach((h, i) => {
    if (!isRecord(h)) return;
    if (!present(h.calculate_op)) {
      if (!present(h.column)) {
        report(
          q('havings', i),
          l10n.t(
            'the having has neither {0} nor a column; give {0} (with its column), or a column naming a calculation or formula',
            'calculate_op',
          ),
          {
            rule: 'query/having',
          },
        );
      } else if (typeof h.column === 'string' && matching(h).length === 0 && !formulaNames.has(h.column)) {
        const message = l10n.t(
          'the having on {0} names no calculation or formula; without {1} its column is the name of a calculation or formula; calculation names: {2}; formula names: {3}',
          JSON.stringify(h.column),
          'calculate_op',
          someOrNone(namesOf(calculations)),
          someOrNone([...formulaNames]),
        );
        report(q('havings', i), message, { rule: 'query/having-calculation', related: related() });
      }
      return;
    }
    if (typeof h.calculate_op !== 'string' || matching(h).length > 0) return;
    const message = l10n.t(
      'the having on {0} matches no calculation; it needs a calculation with the same op and column; calculations: {1}',
      calcLabel(h.calculate_op, h.column),
      someOrNone(known()),
    );
    report(q('havings', i), message, { rule: 'query/having-calculation', related: related() });
  });
}

/** Without formulas one aggregate not used by a having (rule 4); with one, at most 100 aggregates (rule 5). */
export function checkAggregateCounts(scope: QueryScope, matching: CalculationIndex): void {
  const { calculations, formulas, report } = scope;
  if (formulas.length === 0) {
    checkNonHavingAggregates(scope, matching);
    return;
  }
  if (calculations.length <= TRIGGER_LIMITS.formulaAggregatesMax) return;
  const message = l10n.t(
    '{0} hold {1} aggregates; with a formula at most {2} are allowed',
    'calculations',
    calculations.length,
    TRIGGER_LIMITS.formulaAggregatesMax,
  );
  report(q('calculations'), message, {
    rule: 'query/formula-aggregates-max',
  });
}

/** The calculations havings use: one each, so of identical calculations the others still count. */
const NONE_USED: ReadonlySet<number> = new Set();

function usedByHavings(havings: readonly unknown[], matching: CalculationIndex): ReadonlySet<number> {
  if (havings.length === 0) return NONE_USED;
  const used = new Set<number>();
  const taken = new Map<number[], number>();
  for (const h of havings) {
    if (!isRecord(h)) continue;
    const same = matching(h);
    const n = taken.get(same) ?? 0;
    const i = same[n];
    if (i !== undefined) {
      used.add(i);
      taken.set(same, n + 1);
    }
  }
  return used;
}

function checkNonHavingAggregates({ calculations, havings, report }: QueryScope, matching: CalculationIndex): void {
  // A calculation used only by a having does not count (service facts).
  const used = usedByHavings(havings, matching);
  let count = 0;
  calculations.forEach((c, i) => {
    if (isRecord(c) && !used.has(i)) count++;
  });
  if (count <= TRIGGER_LIMITS.nonHavingAggregatesMax) return;
  const nonHaving = calculations.map((c, i) => ({ c, i })).filter(({ c, i }) => isRecord(c) && !used.has(i));
  const limit = TRIGGER_LIMITS.nonHavingAggregatesMax;
  if (nonHaving.length <= limit) return;
  const names = someOf(nonHaving.map(({ c }) => (isRecord(c) ? calcLabel(c.op, c.column) : '?')));
  for (const { c, i } of nonHaving.slice(limit)) {
    const message = isRecord(c)
      ? l10n.t(
          '{0} is one aggregate too many: the query has {1} aggregates not used by a having ({2}); without formulas at most {3} is allowed',
          calcLabel(c.op, c.column),
          nonHaving.length,
          names,
          limit,
        )
      : l10n.t(
          'this calculation is one aggregate too many: the query has {0} aggregates not used by a having ({1}); without formulas at most {2} is allowed',
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
