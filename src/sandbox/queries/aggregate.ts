// The calculations of a query over a set of events, and the filters that pick the events. What the
// service's query language names (service facts); computed exactly over the sandbox's synthetic events.
import type { EventValue, SyntheticEvent } from './synthetic';

const NO_COLUMN_OPS = new Set(['COUNT', 'CONCURRENCY']);
const OPTIONAL_COLUMN_OPS = new Set(['COUNT_DATAPOINTS']);
const PERCENTILES: Record<string, number> = {
  P001: 0.001,
  P01: 0.01,
  P05: 0.05,
  P10: 0.1,
  P20: 0.2,
  P25: 0.25,
  P50: 0.5,
  P75: 0.75,
  P80: 0.8,
  P90: 0.9,
  P95: 0.95,
  P99: 0.99,
  P999: 0.999,
};
export const KNOWN_OPS = new Set([
  'COUNT',
  'CONCURRENCY',
  'SUM',
  'AVG',
  'COUNT_DISTINCT',
  'MAX',
  'MIN',
  'HEATMAP',
  'RATE_AVG',
  'RATE_SUM',
  'RATE_MAX',
  'COUNT_DATAPOINTS',
  'HISTOGRAM_COUNT',
  ...Object.keys(PERCENTILES),
]);

export interface Calculation {
  op: string;
  column?: string;
  name?: string;
  filters?: Filter[];
  filter_combination?: string;
}
export interface Filter {
  column: string;
  op: string;
  value?: unknown;
}

export function needsColumn(op: string): boolean {
  return !NO_COLUMN_OPS.has(op) && !OPTIONAL_COLUMN_OPS.has(op);
}

/** The key a calculation's value has in result rows: its name, `OP(column)` or `OP`. */
export function calculationKey(c: Calculation): string {
  if (c.name !== undefined && c.name !== '') return c.name;
  return c.column !== undefined ? `${c.op}(${c.column})` : c.op;
}

/** Numeric value of an event's column, or undefined when absent or not a number. */
function numberOf(v: EventValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** The running state of one calculation over one group in one bucket (or the whole window). */
export class Accumulator {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  values: number[] | undefined;
  distinct: Set<EventValue> | undefined;

  constructor(readonly op: string) {
    if (PERCENTILES[op] !== undefined) this.values = [];
    if (op === 'COUNT_DISTINCT') this.distinct = new Set();
  }

  add(calc: Calculation, e: SyntheticEvent): void {
    const op = this.op;
    if (op === 'COUNT') {
      this.count++;
      return;
    }
    const raw = calc.column === undefined ? undefined : e[calc.column];
    if (op === 'COUNT_DATAPOINTS' || op === 'HISTOGRAM_COUNT') {
      if (calc.column === undefined || raw !== undefined) this.count++;
      return;
    }
    if (op === 'COUNT_DISTINCT') {
      if (raw !== undefined) this.distinct?.add(raw);
      return;
    }
    const v = op === 'CONCURRENCY' ? numberOf(e['duration_ms']) : numberOf(raw);
    if (v === undefined) return;
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    this.values?.push(v);
  }

  /** Takes in another accumulator of the same op (groups added together). */
  merge(other: Accumulator): void {
    this.count += other.count;
    this.sum += other.sum;
    this.min = Math.min(this.min, other.min);
    this.max = Math.max(this.max, other.max);
    if (this.values && other.values) for (const v of other.values) this.values.push(v);
    if (this.distinct && other.distinct) for (const v of other.distinct) this.distinct.add(v);
  }

  /** The value; null where there is none (an average of nothing). `seconds` is the bucket's length. */
  value(seconds: number): number | null {
    const op = this.op;
    switch (op) {
      case 'COUNT':
      case 'COUNT_DATAPOINTS':
      case 'HISTOGRAM_COUNT':
        return this.count;
      case 'COUNT_DISTINCT':
        return this.distinct?.size ?? 0;
      case 'SUM':
        return round(this.sum);
      case 'CONCURRENCY':
        // Spans in flight on average: their total duration over the bucket's length.
        return round(this.sum / 1000 / seconds);
      case 'RATE_SUM':
        return this.count === 0 ? null : round(this.sum / seconds);
      case 'RATE_AVG':
        return this.count === 0 ? null : round(this.sum / this.count / seconds);
      case 'RATE_MAX':
        return this.count === 0 ? null : round(this.max / seconds);
      case 'AVG':
        return this.count === 0 ? null : round(this.sum / this.count);
      case 'MAX':
        return this.count === 0 ? null : this.max;
      case 'MIN':
        return this.count === 0 ? null : this.min;
      default: {
        const q = PERCENTILES[op];
        const values = this.values;
        if (q === undefined || values === undefined || values.length === 0) return null;
        values.sort((a, b) => a - b);
        return values[Math.min(values.length - 1, Math.max(0, Math.ceil(q * values.length) - 1))] ?? null;
      }
    }
  }
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

function compare(a: EventValue, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number' && typeof b === 'string' && b.trim() !== '' && Number.isFinite(Number(b)))
    return a - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function equals(a: EventValue, b: unknown): boolean {
  if (typeof a === 'boolean') return a === b || String(a) === b;
  const c = compare(a, b);
  return c !== undefined ? c === 0 : String(a) === String(b);
}

/** Whether one event passes one filter. */
function passes(f: Filter, e: SyntheticEvent): boolean {
  const v = e[f.column];
  if (f.op === 'exists') return v !== undefined;
  if (f.op === 'does-not-exist') return v === undefined;
  if (v === undefined) return f.op === '!=' || f.op.startsWith('does-not') || f.op === 'not-in';
  const s = String(v);
  const target = f.value;
  switch (f.op) {
    case '=':
      return equals(v, target);
    case '!=':
      return !equals(v, target);
    case '>':
    case '>=':
    case '<':
    case '<=': {
      const c = compare(v, target);
      if (c === undefined) return false;
      return f.op === '>' ? c > 0 : f.op === '>=' ? c >= 0 : f.op === '<' ? c < 0 : c <= 0;
    }
    case 'starts-with':
      return s.startsWith(String(target));
    case 'does-not-start-with':
      return !s.startsWith(String(target));
    case 'ends-with':
      return s.endsWith(String(target));
    case 'does-not-end-with':
      return !s.endsWith(String(target));
    case 'contains':
      return s.includes(String(target));
    case 'does-not-contain':
      return !s.includes(String(target));
    case 'in':
      return Array.isArray(target) && target.some((t) => equals(v, t));
    case 'not-in':
      return !(Array.isArray(target) && target.some((t) => equals(v, t)));
    default:
      return false;
  }
}

export const FILTER_OPS = new Set([
  '=',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
  'starts-with',
  'does-not-start-with',
  'ends-with',
  'does-not-end-with',
  'exists',
  'does-not-exist',
  'contains',
  'does-not-contain',
  'in',
  'not-in',
]);

/** Whether an event passes a list of filters combined with AND (default) or OR. */
export function passesAll(
  filters: readonly Filter[] | undefined,
  combination: string | undefined,
  e: SyntheticEvent,
): boolean {
  if (filters === undefined || filters.length === 0) return true;
  return combination === 'OR' ? filters.some((f) => passes(f, e)) : filters.every((f) => passes(f, e));
}
