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
  const havingKey = plan.havingKey;
  const groups = new Map<string, { values: Float64Array; having?: Float64Array }>();
  const row = (label: string): { values: Float64Array; having?: Float64Array } => {
    let group = groups.get(label);
    if (!group) {
      group = { values: new Float64Array(length).fill(NaN), ...(havingKey === undefined ? {} : { having: new Float64Array(length).fill(NaN) }) };
      groups.set(label, group);
    }
    return group;
  };
  if (plan.breakdowns.length === 0) row('');
  for (const data of results) {
    for (const point of data?.series ?? []) {
      const t = epochSeconds(point.time);
      const i = Math.floor((t - plan.fetchStart) / plan.step);
      if (!Number.isFinite(t) || i < 0 || i >= length || !point.data) continue;
      const v = point.data[plan.valueKey];
      const group = row(groupLabel(plan.breakdowns, point.data));
      if (typeof v === 'number' && Number.isFinite(v)) group.values[i] = v;
      const h = havingKey === undefined ? undefined : point.data[havingKey];
      if (group.having && typeof h === 'number' && Number.isFinite(h)) group.having[i] = h;
    }
  }
  return {
    start: plan.fetchStart,
    step: plan.step,
    length,
    groups: [...groups.entries()].map(([label, group]) => ({ label, ...group })),
    missingIsZero: plan.rules.combine === 'sum',
  };
}
