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

/** The digit at `i` of `s`, or -1. */
function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/**
 * `2025-06-02T09:10:00Z` or `2025-06-02T09:10:00.000Z` read by position: a week at 60 s is 10,080 times per
 * group, and Date.parse of each was half of a test's evaluation. NaN for any other form (Date.parse reads it).
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
  if (n === 24 && (s.charCodeAt(19) !== 46 || digit(s, 20) < 0 || digit(s, 21) < 0 || digit(s, 22) < 0)) return NaN;
  const y0 = digit(s, 0),
    y1 = digit(s, 1),
    y2 = digit(s, 2),
    y3 = digit(s, 3);
  const m0 = digit(s, 5),
    m1 = digit(s, 6),
    d0 = digit(s, 8),
    d1 = digit(s, 9);
  const h0 = digit(s, 11),
    h1 = digit(s, 12),
    i0 = digit(s, 14),
    i1 = digit(s, 15),
    s0 = digit(s, 17),
    s1 = digit(s, 18);
  if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1 | h0 | h1 | i0 | i1 | s0 | s1) < 0) return NaN;
  const month = m0 * 10 + m1;
  const day = d0 * 10 + d1;
  const hour = h0 * 10 + h1;
  const minute = i0 * 10 + i1;
  const second = s0 * 10 + s1;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return NaN;
  return Date.UTC(y0 * 1000 + y1 * 100 + y2 * 10 + y3, month - 1, day, hour, minute, second) / 1000;
}

/** The breakdown values of a row, in the order of the breakdowns; null where the row has none. */
function groupKeys(breakdowns: readonly string[], row: Record<string, unknown>): (string | null)[] {
  return breakdowns.map((b) => (row[b] === null || row[b] === undefined ? null : String(row[b])));
}

/** "a · b" for the breakdown values of a row; '' without breakdowns. */
function groupLabel(breakdowns: readonly string[], row: Record<string, unknown>): string {
  return groupKeys(breakdowns, row)
    .map((v) => v ?? '(none)')
    .join(' · ');
}

type GridGroup = Grid['groups'][number];

export function gridFromSeries(
  plan: Pick<PreviewPlan, 'to' | 'fetchStart' | 'step' | 'havingKeys' | 'breakdowns' | 'valueKey' | 'rules'>,
  results: readonly (QueryResultData | null | undefined)[],
): Grid {
  const length = Math.round((plan.to - plan.fetchStart) / plan.step);
  const havingKeys = plan.havingKeys;
  const groups = new Map<string, GridGroup & { havings: Float64Array[] }>();
  const row = (data: Record<string, unknown>): GridGroup & { havings: Float64Array[] } => {
    // Without breakdowns every point is of the one group: no label to make for each of them.
    const label = plan.breakdowns.length === 0 ? '' : groupLabel(plan.breakdowns, data);
    let group = groups.get(label);
    if (!group) {
      group = {
        label,
        values: new Float64Array(length).fill(NaN),
        havings: havingKeys.map(() => new Float64Array(length).fill(NaN)),
        keys: groupKeys(plan.breakdowns, data),
      };
      groups.set(label, group);
    }
    return group;
  };
  if (plan.breakdowns.length === 0) row({});
  for (const data of results) {
    for (const point of data?.series ?? []) {
      const t = epochSeconds(point.time);
      const i = Math.floor((t - plan.fetchStart) / plan.step);
      if (!Number.isFinite(t) || i < 0 || i >= length || !point.data) continue;
      const v = point.data[plan.valueKey];
      const group = row(point.data);
      if (typeof v === 'number' && Number.isFinite(v)) group.values[i] = v;
      havingKeys.forEach((key, h) => {
        const hv = point.data?.[key];
        const buckets = group.havings[h];
        if (buckets && typeof hv === 'number' && Number.isFinite(hv)) buckets[i] = hv;
      });
    }
  }
  return {
    start: plan.fetchStart,
    step: plan.step,
    length,
    groups: [...groups.values()].map(({ havings, ...group }) =>
      havingKeys.length > 0 ? { ...group, havings } : group,
    ),
    missingIsZero: plan.rules.combine === 'sum',
  };
}
