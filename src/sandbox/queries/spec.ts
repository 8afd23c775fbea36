// A saved query's specification as the sandbox reads it, and the checks made when it is saved: what a
// client learns from a 422 before it ever runs the query. Columns are checked when it runs (a query
// naming a column that does not exist fails then, complete with an error, as the service's do).
import type { TypeDetail } from '../responses';
import { FILTER_OPS, KNOWN_OPS, calculationKey, needsColumn, type Calculation, type Filter } from './aggregate';
import { parseFormula, type FormulaNode } from './formula';
import type { Outcome } from '../../result';

/** Query results and their data exist for the past 7 days only (service facts). */
export const RETENTION_SECONDS = 7 * 86_400;
/** A query whose time range has no explicit length covers the last two hours. */
const DEFAULT_TIME_RANGE = 7_200;
/** granularity may not go below time_range/1000 (service facts). */
const MAX_BUCKETS = 1_000;

export interface Having {
  calculate_op?: string;
  column?: string;
  op: string;
  value: number;
}
interface Order {
  op?: string;
  column?: string;
  order?: string;
}

export interface QuerySpec {
  calculations: Calculation[];
  filters: Filter[];
  filter_combination: string | undefined;
  breakdowns: string[];
  havings: Having[];
  orders: Order[];
  formulas: { name: string; node: FormulaNode }[];
  limit: number | undefined;
  time_range: number | undefined;
  start_time: number | undefined;
  end_time: number | undefined;
  granularity: number | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const wholeOrUndefined = (v: unknown): number | undefined | 'bad' =>
  v === undefined ? undefined : Number.isInteger(v) ? (v as number) : 'bad';

/** Records a problem of a field. */
type Bad = (field: string, code: TypeDetail['code'], description: string) => void;

type WholeNumberField = 'limit' | 'time_range' | 'start_time' | 'end_time' | 'granularity';

/** Reads and checks a query specification; every problem is listed with its field. */
export function readSpec(raw: unknown, nowSeconds: number): Outcome<{ spec: QuerySpec }, TypeDetail[]> {
  const problems: TypeDetail[] = [];
  const bad: Bad = (field, code, description) => problems.push({ field, code, description });
  if (!isRecord(raw))
    return {
      ok: false,
      reason: [{ field: '(body)', code: 'incorrect_type', description: 'a query must be a JSON object' }],
    };

  const calculations = readCalculations(raw.calculations ?? [{ op: 'COUNT' }], bad);
  const filters = readFilters(raw.filters, 'filters', bad);
  const breakdowns = readBreakdowns(raw.breakdowns, bad);
  const havings = readHavings(raw.havings, bad);
  const orders: Order[] = Array.isArray(raw.orders)
    ? raw.orders.filter(isRecord).map((o) => ({
        ...(typeof o.op === 'string' ? { op: o.op } : {}),
        ...(typeof o.column === 'string' ? { column: o.column } : {}),
        ...(typeof o.order === 'string' ? { order: o.order } : {}),
      }))
    : [];
  const formulas = readFormulas(raw.formulas, bad);
  const ints = readWholeNumbers(raw, bad);
  if (problems.length > 0) return { ok: false, reason: problems };

  const spec: QuerySpec = {
    calculations,
    filters,
    filter_combination: typeof raw.filter_combination === 'string' ? raw.filter_combination : undefined,
    breakdowns,
    havings,
    orders,
    formulas,
    ...ints,
  };
  checkWindow(spec, nowSeconds, bad);
  const keys = calculations.map(calculationKey);
  if (new Set(keys).size !== keys.length) bad('calculations', 'invalid', 'two calculations have the same name');
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, spec };
}

/** The calculations: each a known op, with a column where the op needs one and none where it takes none. */
function readCalculations(raw: unknown, bad: Bad): Calculation[] {
  const calculations: Calculation[] = [];
  if (!Array.isArray(raw)) {
    bad('calculations', 'incorrect_type', 'calculations must be an array');
    return calculations;
  }
  raw.forEach((c, i) => {
    const f = `calculations[${i}]`;
    if (!isRecord(c) || typeof c.op !== 'string') return bad(`${f}.op`, 'missing', 'a calculation needs an op');
    if (!KNOWN_OPS.has(c.op)) return bad(`${f}.op`, 'invalid', `unknown calculation op "${c.op}"`);
    if (needsColumn(c.op) && typeof c.column !== 'string')
      return bad(`${f}.column`, 'missing', `${c.op} needs a column`);
    if (!needsColumn(c.op) && c.op !== 'COUNT_DATAPOINTS' && c.column !== undefined)
      return bad(`${f}.column`, 'invalid', `${c.op} takes no column`);
    const filters = readFilters(c.filters, `${f}.filters`, bad);
    calculations.push({
      op: c.op,
      ...(typeof c.column === 'string' ? { column: c.column } : {}),
      ...(typeof c.name === 'string' ? { name: c.name } : {}),
      ...(filters.length > 0 ? { filters } : {}),
      ...(typeof c.filter_combination === 'string' ? { filter_combination: c.filter_combination } : {}),
    });
  });
  return calculations;
}

function readBreakdowns(raw: unknown, bad: Bad): string[] {
  const breakdowns = Array.isArray(raw) ? raw.filter((b): b is string => typeof b === 'string') : [];
  if (raw !== undefined && (!Array.isArray(raw) || breakdowns.length !== raw.length)) {
    bad('breakdowns', 'incorrect_type', 'breakdowns must be an array of column names');
  }
  return breakdowns;
}

function readHavings(raw: unknown, bad: Bad): Having[] {
  const havings: Having[] = [];
  if (!Array.isArray(raw)) return havings;
  raw.forEach((h, i) => {
    if (!isRecord(h) || typeof h.op !== 'string' || typeof h.value !== 'number')
      return bad(`havings[${i}]`, 'invalid', 'a having needs an op and a numeric value');
    havings.push({
      op: h.op,
      value: h.value,
      ...(typeof h.calculate_op === 'string' ? { calculate_op: h.calculate_op } : {}),
      ...(typeof h.column === 'string' ? { column: h.column } : {}),
    });
  });
  return havings;
}

/** The formulas, each with its expression parsed. */
function readFormulas(raw: unknown, bad: Bad): QuerySpec['formulas'] {
  const formulas: QuerySpec['formulas'] = [];
  if (!Array.isArray(raw)) return formulas;
  raw.forEach((fm, i) => {
    if (!isRecord(fm) || typeof fm.name !== 'string' || typeof fm.expression !== 'string')
      return bad(`formulas[${i}]`, 'invalid', 'a formula needs a name and an expression');
    const parsed = parseFormula(fm.expression);
    if (!parsed.ok)
      return bad(`formulas[${i}].expression`, 'invalid', `the expression cannot be read: ${parsed.reason}`);
    formulas.push({ name: fm.name, node: parsed.node });
  });
  return formulas;
}

/** The limit and the time fields: whole numbers, each in its range, the end after the start. */
function readWholeNumbers(raw: Record<string, unknown>, bad: Bad): Record<WholeNumberField, number | undefined> {
  const ints: Record<WholeNumberField, number | undefined> = {
    limit: undefined,
    time_range: undefined,
    start_time: undefined,
    end_time: undefined,
    granularity: undefined,
  };
  for (const key of Object.keys(ints) as WholeNumberField[]) {
    const v = wholeOrUndefined(raw[key]);
    if (v === 'bad') bad(key, 'incorrect_type', `${key} must be a whole number`);
    else ints[key] = v;
  }
  if (ints.limit !== undefined && (ints.limit < 1 || ints.limit > 10_000))
    bad('limit', 'invalid', 'limit must be from 1 to 10000');
  if (ints.time_range !== undefined && ints.time_range <= 0)
    bad('time_range', 'invalid', 'time_range must be more than 0 seconds');
  if (ints.start_time !== undefined && ints.end_time !== undefined && ints.end_time <= ints.start_time)
    bad('end_time', 'invalid', 'end_time must be after start_time');
  return ints;
}

/** The window's checks: at most MAX_BUCKETS buckets, a bucket no longer than the window, and data still retained. */
function checkWindow(spec: QuerySpec, nowSeconds: number, bad: Bad): void {
  const { start, end } = windowOf(spec, nowSeconds);
  const span = end - start;
  if (spec.granularity !== undefined && spec.granularity * MAX_BUCKETS < span) {
    bad(
      'granularity',
      'invalid',
      `granularity must be at least the time range / ${MAX_BUCKETS} (${Math.ceil(span / MAX_BUCKETS)} seconds for ${span} seconds)`,
    );
  }
  if (spec.granularity !== undefined && spec.granularity > span)
    bad('granularity', 'invalid', `granularity must be at most the time range (${span} seconds)`);
  if (start < nowSeconds - RETENTION_SECONDS)
    bad(
      spec.start_time !== undefined ? 'start_time' : 'time_range',
      'invalid',
      'query data exists for the past 7 days only',
    );
}

function readFilters(raw: unknown, field: string, bad: Bad): Filter[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    bad(field, 'incorrect_type', 'filters must be an array');
    return [];
  }
  const out: Filter[] = [];
  raw.forEach((f, i) => {
    if (!isRecord(f) || typeof f.column !== 'string' || typeof f.op !== 'string')
      return bad(`${field}[${i}]`, 'invalid', 'a filter needs a column and an op');
    if (!FILTER_OPS.has(f.op)) return bad(`${field}[${i}].op`, 'invalid', `unknown filter op "${f.op}"`);
    out.push({ column: f.column, op: f.op, ...(f.value !== undefined ? { value: f.value } : {}) });
  });
  return out;
}

/** The time window a query covers, [start, end) in epoch seconds. */
export function windowOf(
  spec: Pick<QuerySpec, 'time_range' | 'start_time' | 'end_time'>,
  nowSeconds: number,
): { start: number; end: number } {
  const { time_range: range, start_time: start, end_time: end } = spec;
  if (start !== undefined && end !== undefined) return { start, end };
  if (start !== undefined) return { start, end: start + (range ?? DEFAULT_TIME_RANGE) };
  if (end !== undefined) return { start: end - (range ?? DEFAULT_TIME_RANGE), end };
  return { start: nowSeconds - (range ?? DEFAULT_TIME_RANGE), end: nowSeconds };
}

const LADDER = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 14_400, 21_600, 43_200, 86_400];

/** The bucket length: the query's own, or about 100 buckets over the span. */
export function granularityOf(spec: Pick<QuerySpec, 'granularity'>, span: number): number {
  if (spec.granularity !== undefined) return spec.granularity;
  return LADDER.find((g) => g * 100 >= span) ?? Math.ceil(span / 100);
}
