// Turns the `series` of query results into the grid the evaluation reads: one row of buckets per group
// (breakdown values), NaN where a group has no value in a bucket. No vscode import.
import type { QueryResultData } from '../../../api/schemas';
import type { Grid } from './evaluate';
import type { PreviewPlan } from './plan';

/** Epoch seconds of a series time (ISO text or epoch seconds/milliseconds); NaN when unreadable. */
export function epochSeconds(time: string | number): number {
  if (typeof time === 'number') return time > 1e12 ? Math.floor(time / 1000) : time;
  return Math.floor(Date.parse(time) / 1000);
}

/** "a · b" for the breakdown values of a row; '' without breakdowns. */
export function groupLabel(breakdowns: readonly string[], row: Record<string, unknown>): string {
  return breakdowns.map((b) => (row[b] === null || row[b] === undefined ? '(none)' : String(row[b]))).join(' · ');
}

export function gridFromSeries(plan: PreviewPlan, results: readonly (QueryResultData | null | undefined)[]): Grid {
  const length = Math.round((plan.to - plan.fetchStart) / plan.step);
  const groups = new Map<string, Float64Array>();
  const row = (label: string): Float64Array => {
    let values = groups.get(label);
    if (!values) {
      values = new Float64Array(length).fill(NaN);
      groups.set(label, values);
    }
    return values;
  };
  if (plan.breakdowns.length === 0) row('');
  for (const data of results) {
    for (const point of data?.series ?? []) {
      const t = epochSeconds(point.time);
      const i = Math.floor((t - plan.fetchStart) / plan.step);
      if (!Number.isFinite(t) || i < 0 || i >= length || !point.data) continue;
      const v = point.data[plan.valueKey];
      const values = row(groupLabel(plan.breakdowns, point.data));
      if (typeof v === 'number' && Number.isFinite(v)) values[i] = v;
    }
  }
  return {
    start: plan.fetchStart,
    step: plan.step,
    length,
    groups: [...groups.entries()].map(([label, values]) => ({ label, values })),
    missingIsZero: plan.rules.combine === 'sum',
  };
}
