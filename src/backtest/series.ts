// Turns the `series` of query results into the grid the evaluation reads: one row of buckets per group
// (breakdown values), NaN where a group has no value in a bucket. No vscode import.
import type { QueryResultData } from '../api/schemas';
import type { Grid } from './evaluate';
import type { PreviewPlan } from './plan';

/** Epoch seconds of a series time (ISO text or epoch seconds/milliseconds); NaN when unreadable. */
export function epochSeconds(time: string | number): number {
  if (typeof time === 'number') return time > 1e12 ? Math.floor(time / 1000) : time;
  const fast = utcSeconds(time);
  return Number.isNaN(fast) ? Math.floor(Date.parse(time) / 1000) : fast;
}

/** The two digits at `i` of `s` as a number (0 to 99), or -1: one unsigned comparison per character. */
function twoDigits(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >>> 0 <= 9 && b >>> 0 <= 9 ? a * 10 + b : -1;
}

/**
 * Days from 1970-01-01 to the first of `month` (1 to 12) of `year`, by integer arithmetic (the civil-calendar
 * algorithm), as Date.parse counts them; a day past the month's end then rolls over as it does in Date.parse.
 */
function daysToMonth(year: number, month: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5);
  return (
    era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719_468
  );
}

/** The last date read (yyyymmdd) and its days since 1970: a week of times falls on 8 dates. */
const lastDate = { key: -1, days: 0 };

/**
 * `2025-06-02T09:10:00Z` or `2025-06-02T09:10:00.000Z` read by position, without Date.parse or Date.UTC (a
 * week at 60 s is 10,080 times, and calling either was most of the grid's work). NaN for any other form
 * (Date.parse reads it).
 */
function utcSeconds(s: string): number {
  const n = s.length;
  if (
    (n !== 20 && n !== 24) ||
    s.charCodeAt(n - 1) !== 90 ||
    s.charCodeAt(4) !== 45 ||
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 ||
    s.charCodeAt(13) !== 58 ||
    s.charCodeAt(16) !== 58
  )
    return NaN;
  if (n === 24 && (s.charCodeAt(19) !== 46 || twoDigits(s, 20) < 0 || twoDigits(s, 21) < 0)) return NaN;
  const century = twoDigits(s, 0);
  const yearOf = twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  const hour = twoDigits(s, 11);
  const minute = twoDigits(s, 14);
  const second = twoDigits(s, 17);
  if ((century | yearOf | month | day | hour | minute | second) < 0) return NaN;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return NaN;
  const year = century * 100 + yearOf;
  const key = year * 10_000 + month * 100 + day;
  if (key !== lastDate.key) {
    lastDate.key = key;
    lastDate.days = daysToMonth(year, month) + day - 1;
  }
  return lastDate.days * 86_400 + hour * 3_600 + minute * 60 + second;
}

/**
 * The bucket of each series time: the bucket index, or -1 when the time is unreadable or outside the grid.
 * With breakdowns each distinct time is read once: the service lists every group's point of a bucket
 * together, with the same time, so the previous point's time is checked first; in any other order a time is
 * found by its text. Without breakdowns a result has one point per bucket, each time its own, and each is
 * read as it comes (comparing it with the previous time, or looking it up by its text, cost more than reading
 * it).
 */
class TimeBuckets {
  private readonly byText: Map<string, number> | undefined;
  private lastText: string | undefined;
  private lastIndex = -1;

  constructor(
    private readonly grid: { start: number; step: number; length: number },
    repeated: boolean,
  ) {
    this.byText = repeated ? new Map() : undefined;
  }

  indexOf(time: string | number): number {
    if (typeof time === 'number' || this.byText === undefined) return this.bucketOf(epochSeconds(time));
    if (time === this.lastText) return this.lastIndex;
    let index = this.byText.get(time);
    if (index === undefined) {
      index = this.bucketOf(epochSeconds(time));
      this.byText.set(time, index);
    }
    this.lastText = time;
    this.lastIndex = index;
    return index;
  }

  private bucketOf(t: number): number {
    const i = Math.floor((t - this.grid.start) / this.grid.step);
    return Number.isFinite(t) && i >= 0 && i < this.grid.length ? i : -1;
  }
}

/** A breakdown value as the grid keys it: null where the row has none, else its text. */
const keyOf = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === 'string' ? v : String(v);

/** The breakdown values of a row, in the order of the breakdowns. */
function groupKeys(breakdowns: readonly string[], row: Record<string, unknown>): (string | null)[] {
  return breakdowns.map((b) => keyOf(row[b]));
}

type GridGroup = Grid['groups'][number];
type Row = GridGroup & { havings: Float64Array[]; keys: readonly (string | null)[] };
/** A row, and the row whose point came after one of its points last (the service lists groups in one order). */
interface Entry {
  row: Row;
  next: Entry | undefined;
}
/** A level of the groups' index: one breakdown's values to the next level, or at the last one to the row. */
type Level = Map<string | null, Level | Entry>;

/**
 * The rows of the grid by breakdown values. The service lists each bucket's groups in the same order, so the
 * row after the previous point's row last time is tried first, its values compared with the point's; else the
 * row is looked up value by value (a map per breakdown). No label is made per point, only per distinct set of
 * values. Rows are keyed by label as the panel shows them ("a · b", null as "(none)"), so values that read the
 * same share a row, in the order their first point came.
 */
class GroupRows {
  readonly byLabel = new Map<string, Row>();
  private readonly index: Level = new Map();
  private readonly entries = new Map<Row, Entry>();
  private last: Entry | undefined;

  constructor(
    private readonly breakdowns: readonly string[],
    private readonly length: number,
    private readonly havingCount: number,
  ) {}

  of(data: Record<string, unknown>): Row {
    const guess = this.last?.next;
    const entry = guess && this.holds(guess.row, data) ? guess : this.lookUp(data);
    if (this.last && this.last.next !== entry) this.last.next = entry;
    this.last = entry;
    return entry.row;
  }

  /** Whether the row's breakdown values are the point's. */
  private holds(row: Row, data: Record<string, unknown>): boolean {
    for (let b = 0; b < this.breakdowns.length; b++)
      if (keyOf(data[this.breakdowns[b] as string]) !== row.keys[b]) return false;
    return true;
  }

  private lookUp(data: Record<string, unknown>): Entry {
    let level = this.index;
    const last = this.breakdowns.length - 1;
    for (let b = 0; ; b++) {
      const key = keyOf(data[this.breakdowns[b] as string]);
      const next = level.get(key);
      if (b === last) {
        if (next && !(next instanceof Map)) return next;
        const entry = this.entryOf(this.rowOf(data));
        level.set(key, entry);
        return entry;
      }
      if (next instanceof Map) level = next;
      else {
        const created: Level = new Map();
        level.set(key, created);
        level = created;
      }
    }
  }

  private entryOf(row: Row): Entry {
    let entry = this.entries.get(row);
    if (!entry) {
      entry = { row, next: undefined };
      this.entries.set(row, entry);
    }
    return entry;
  }

  /** The row of a set of breakdown values not seen before: the one of its label, made when new. */
  rowOf(data: Record<string, unknown>): Row {
    const keys = groupKeys(this.breakdowns, data);
    const label = keys.map((v) => v ?? '(none)').join(' · ');
    let row = this.byLabel.get(label);
    if (!row) {
      row = {
        label,
        values: new Float64Array(this.length).fill(NaN),
        havings: Array.from({ length: this.havingCount }, () => new Float64Array(this.length).fill(NaN)),
        keys,
      };
      this.byLabel.set(label, row);
    }
    return row;
  }
}

export function gridFromSeries(
  plan: Pick<PreviewPlan, 'to' | 'fetchStart' | 'step' | 'havingKeys' | 'breakdowns' | 'valueKey' | 'rules'>,
  results: readonly (QueryResultData | null | undefined)[],
): Grid {
  const length = Math.round((plan.to - plan.fetchStart) / plan.step);
  const { havingKeys, valueKey } = plan;
  const rows = new GroupRows(plan.breakdowns, length, havingKeys.length);
  // Without breakdowns every point is of the one group, there from the start.
  const only = plan.breakdowns.length === 0 ? rows.rowOf({}) : undefined;
  const times = new TimeBuckets({ start: plan.fetchStart, step: plan.step, length }, plan.breakdowns.length > 0);
  for (const data of results) {
    for (const point of data?.series ?? []) {
      const i = times.indexOf(point.time);
      const row = point.data;
      if (i < 0 || !row) continue;
      const v = row[valueKey];
      const group = only ?? rows.of(row);
      if (typeof v === 'number' && Number.isFinite(v)) group.values[i] = v;
      for (let h = 0; h < havingKeys.length; h++) {
        const hv = row[havingKeys[h] as string];
        if (typeof hv === 'number' && Number.isFinite(hv)) (group.havings[h] as Float64Array)[i] = hv;
      }
    }
  }
  return {
    start: plan.fetchStart,
    step: plan.step,
    length,
    groups: [...rows.byLabel.values()].map(({ havings, ...group }) =>
      havingKeys.length > 0 ? { ...group, havings } : group,
    ),
    missingIsZero: plan.rules.combine === 'sum',
  };
}
