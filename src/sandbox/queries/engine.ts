// Runs a saved query over the synthetic events of its dataset (or of every dataset for `__all__`):
// filters, breakdowns, calculations, havings, formulas and orders over the query's time window, as the
// `series` of the graph (one entry per bucket and group) and the `results` of the table (one row per
// group), plus the aggregate totals the request flags ask for.
import { Accumulator, calculationKey, passesAll, type Calculation } from './aggregate';
import { evaluateFormula, referencesOf } from './formula';
import { granularityOf, windowOf, type Having, type QuerySpec } from './spec';
import { forEachEvent, type EventValue, type SyntheticEvent } from './synthetic';

/** A query may run at most 10 seconds (service facts); the sandbox's run time is modelled from its work. */
const QUERY_TIME_LIMIT_MS = 10_000;
/** The cost model: scanning 100 events, or building 20 series entries, takes the service 1 ms. */
const EVENTS_PER_MS = 100;
const ENTRIES_PER_MS = 20;

/** Where a dataset's events come from: the synthetic events of the dataset `slug`, at `scale` times its traffic. */
interface EventSource {
  slug: string;
  scale: number;
}

export interface QuerySource {
  /** The events the query reads, one source per dataset. */
  datasets: EventSource[];
  /** Every column name the query may use (the datasets' columns and derived columns). */
  columns: ReadonlySet<string>;
  /** For messages: the dataset slug or `__all__`. */
  label: string;
}

export interface RunFlags {
  disableSeries: boolean;
  disableTotalByAggregate: boolean;
  disableOtherByAggregate: boolean;
  /** The request's limit; honoured only with disableSeries (spec 4.5). */
  limit: number | undefined;
}

/** A row of a result: a member without a value (an AVG of no events, a missing breakdown) is left out, as the service sends only strings, numbers and booleans. */
type Row = Record<string, EventValue | number>;

function put(row: Row, key: string, value: EventValue | number | null | undefined): void {
  if (value !== null && value !== undefined) row[key] = value;
}

export interface RunOutcome {
  /** The data of a complete result, or the reason the query failed. */
  data?: {
    series?: { time: string; data: Row }[];
    results: { data: Row }[];
    total_by_aggregate?: Row;
    other_by_aggregate?: Row;
  };
  error?: string;
  /** How long the service would have worked on it: the result completes this much after its creation. */
  costMs: number;
}

interface Group {
  values: (EventValue | null)[];
  total: Accumulator[];
  buckets: Map<number, Accumulator[]>;
}

const accumulators = (calcs: readonly Calculation[]): Accumulator[] => calcs.map((c) => new Accumulator(c.op));

function unknownColumns(spec: QuerySpec, columns: ReadonlySet<string>): string[] {
  const named = new Set([...spec.calculations.map(calculationKey), ...spec.formulas.map((f) => f.name)]);
  const used = [
    ...spec.calculations.flatMap((c) => [c.column, ...(c.filters ?? []).map((f) => f.column)]),
    ...spec.filters.map((f) => f.column),
    ...spec.breakdowns,
    ...spec.havings.map((h) =>
      h.calculate_op === undefined && h.column !== undefined && named.has(h.column) ? undefined : h.column,
    ),
  ].filter((c): c is string => c !== undefined);
  return [...new Set(used.filter((c) => !columns.has(c)))];
}

function rowOf(spec: QuerySpec, group: Group, accs: readonly Accumulator[], seconds: number): Row {
  const row: Row = {};
  spec.breakdowns.forEach((b, i) => put(row, b, group.values[i]));
  spec.calculations.forEach((c, i) => put(row, calculationKey(c), accs[i]?.value(seconds)));
  for (const f of spec.formulas) put(row, f.name, evaluateFormula(f.node, row));
  return row;
}

function havingKey(h: Having): string {
  if (h.calculate_op === undefined) return h.column ?? '';
  return h.column !== undefined ? `${h.calculate_op}(${h.column})` : h.calculate_op;
}

function meets(v: unknown, op: string, target: number): boolean {
  if (typeof v !== 'number') return false;
  switch (op) {
    case '=':
      return v === target;
    case '!=':
      return v !== target;
    case '>':
      return v > target;
    case '>=':
      return v >= target;
    case '<':
      return v < target;
    case '<=':
      return v <= target;
    default:
      return false;
  }
}

/** Orders rows as the query's orders say; by default the first calculation, largest first. */
function sortRows(spec: QuerySpec, rows: { row: Row; group: Group }[]): void {
  const first = spec.calculations[0];
  const orders =
    spec.orders.length > 0 ? spec.orders : first ? [{ op: first.op, column: first.column, order: 'descending' }] : [];
  const keys = orders.map((o) => ({
    key: o.op !== undefined ? (o.column !== undefined ? `${o.op}(${o.column})` : o.op) : (o.column ?? ''),
    sign: o.order === 'ascending' ? 1 : -1,
  }));
  const named = new Map(
    spec.calculations.map((c) => [`${c.op}${c.column !== undefined ? `(${c.column})` : ''}`, calculationKey(c)]),
  );
  rows.sort((a, b) => {
    for (const { key, sign } of keys) {
      const k = named.get(key) ?? key;
      const x = a.row[k];
      const y = b.row[k];
      if (x === y) continue;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  });
}

export function runQuery(spec: QuerySpec, source: QuerySource, nowSeconds: number, flags: RunFlags): RunOutcome {
  const problem = namingProblem(spec, source);
  if (problem !== undefined) return { error: problem, costMs: 5 };
  const { start, end: requestedEnd } = windowOf(spec, nowSeconds);
  const end = Math.min(requestedEnd, nowSeconds);
  const span = requestedEnd - start;
  const g = granularityOf(spec, span);
  const bucketCount = Math.max(1, Math.ceil(span / g));
  const { groups, scanned } = groupEvents(spec, source.datasets, start, end, g);

  let rows = [...groups.values()].map((group) => ({ group, row: rowOf(spec, group, group.total, span) }));
  rows = rows.filter(({ row }) => spec.havings.every((h) => meets(row[havingKey(h)], h.op, h.value)));
  sortRows(spec, rows);
  const limit = flags.disableSeries ? (flags.limit ?? 1_000) : (spec.limit ?? 1_000);
  const shown = rows.slice(0, limit);
  const other = rows.slice(limit);

  const entries = flags.disableSeries
    ? 0
    : spec.breakdowns.length === 0
      ? bucketCount
      : shown.reduce((n, r) => n + r.group.buckets.size, 0);
  const costMs = Math.round(scanned / EVENTS_PER_MS + entries / ENTRIES_PER_MS);
  if (costMs > QUERY_TIME_LIMIT_MS) {
    return {
      error: `query failed: it ran longer than the ${QUERY_TIME_LIMIT_MS / 1000} s limit; narrow the time range, coarsen the granularity or break down by fewer columns`,
      costMs: QUERY_TIME_LIMIT_MS,
    };
  }

  const data: NonNullable<RunOutcome['data']> = { results: shown.map(({ row }) => ({ data: row })) };
  if (!flags.disableSeries)
    data.series = seriesOf(spec, shown, { start, end: requestedEnd, granularity: g, count: bucketCount });
  if (!flags.disableTotalByAggregate) data.total_by_aggregate = mergedRow(spec, rows, span);
  if (!flags.disableOtherByAggregate) data.other_by_aggregate = mergedRow(spec, other, span);
  return { data, costMs };
}

/** Why the query cannot run, as the service says it: a column the source lacks, or a formula naming no calculation. */
function namingProblem(spec: QuerySpec, source: QuerySource): string | undefined {
  const missing = unknownColumns(spec, source.columns);
  if (missing.length > 0)
    return `query failed: ${missing.map((c) => `column "${c}"`).join(', ')} does not exist in ${source.label}`;
  const named = new Set(spec.calculations.map(calculationKey));
  for (const f of spec.formulas) {
    const unknown = referencesOf(f.node).filter((r) => !named.has(r));
    if (unknown.length > 0)
      return `query failed: formula ${f.name} names ${unknown.map((r) => `$${r}`).join(', ')}, which no calculation is named`;
  }
  return undefined;
}

/**
 * The events of the datasets in [start, end) that pass the query's filters, accumulated per group of
 * breakdown values, in total and per bucket of `g` seconds; and how many events were scanned.
 */
function groupEvents(
  spec: QuerySpec,
  datasets: readonly EventSource[],
  start: number,
  end: number,
  g: number,
): { groups: Map<string, Group>; scanned: number } {
  const groups = new Map<string, Group>();
  const visit = (e: SyntheticEvent, t: number): void => {
    if (!passesAll(spec.filters, spec.filter_combination, e)) return;
    const values = spec.breakdowns.map((b) => e[b] ?? null);
    const key = values.map((v) => (v === null ? '\u0000' : `${typeof v}:${String(v)}`)).join('\u0001');
    let group = groups.get(key);
    if (!group) {
      group = { values, total: accumulators(spec.calculations), buckets: new Map() };
      groups.set(key, group);
    }
    const b = Math.floor((t - start) / g);
    let accs = group.buckets.get(b);
    if (!accs) {
      accs = accumulators(spec.calculations);
      group.buckets.set(b, accs);
    }
    spec.calculations.forEach((c, i) => {
      if (!passesAll(c.filters, c.filter_combination, e)) return;
      group.total[i]?.add(c, e);
      accs[i]?.add(c, e);
    });
  };
  let scanned = 0;
  for (const { slug, scale } of datasets) scanned += forEachEvent(slug, start, end, visit, scale);
  // A query without breakdowns has its one group even when no event matched (a COUNT of 0).
  if (spec.breakdowns.length === 0 && groups.size === 0)
    groups.set('', { values: [], total: accumulators(spec.calculations), buckets: new Map() });
  return { groups, scanned };
}

/** The graph: per bucket, one entry per shown group that has data in it (a query without breakdowns has one in every bucket). */
function seriesOf(
  spec: QuerySpec,
  shown: readonly { group: Group }[],
  buckets: { start: number; end: number; granularity: number; count: number },
): { time: string; data: Row }[] {
  const { start, end, granularity: g } = buckets;
  const series: { time: string; data: Row }[] = [];
  for (let b = 0; b < buckets.count; b++) {
    const time = new Date((start + b * g) * 1000).toISOString();
    const seconds = Math.min(g, end - (start + b * g));
    for (const { group } of shown) {
      const accs = group.buckets.get(b) ?? (spec.breakdowns.length === 0 ? accumulators(spec.calculations) : undefined);
      if (accs) series.push({ time, data: rowOf(spec, group, accs, seconds) });
    }
  }
  return series;
}

/** The aggregates of several groups taken together (all of them, or those past the limit). */
function mergedRow(spec: QuerySpec, rows: readonly { group: Group }[], seconds: number): Row {
  const merged = accumulators(spec.calculations);
  for (const { group } of rows) group.total.forEach((acc, i) => merged[i]?.merge(acc));
  const row: Row = {};
  spec.calculations.forEach((c, i) => put(row, calculationKey(c), merged[i]?.value(seconds)));
  for (const f of spec.formulas) put(row, f.name, evaluateFormula(f.node, row));
  return row;
}
