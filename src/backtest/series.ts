// Turns the `series` of query results into the grid the evaluation reads: one row of buckets per group
// (breakdown values), NaN where a group has no value in a bucket. No vscode import.
import type { QueryResultData } from '../api/schemas';
import type { Grid } from './evaluate';
import type { PreviewPlan } from './plan';

/** Epoch seconds of a series time (ISO text or epoch seconds/milliseconds); NaN when unreadable. */
export function epochSeconds(time: string | number): number {
  if (typeof time === 'number') return time > 1e12 ? Math.floor(time / 1000) : time;
  return Math.floor(Date.parse(time) / 1000);
}

/** The breakdown values of a row, in the order of the breakdowns; null where the row has none. */
export function groupKeys(breakdowns: readonly string[], row: Record<string, unknown>): (string | null)[] {
  return breakdowns.map((b) => (row[b] === null || row[b] === undefined ? null : String(row[b])));
}

/** "a · b" for the breakdown values of a row; '' without breakdowns. */
export function groupLabel(breakdowns: readonly string[], row: Record<string, unknown>): string {
  return groupKeys(breakdowns, row)
    .map((v) => v ?? '(none)')
    .join(' · ');
}

type GridGroup = Grid['groups'][number];

export function gridFromSeries(plan: Pick<PreviewPlan, 'to' | 'fetchStart' | 'step' | 'havingKeys' | 'breakdowns' | 'valueKey' | 'rules'>, results: readonly (QueryResultData | null | undefined)[]): Grid {
  const length = Math.round((plan.to - plan.fetchStart) / plan.step);
  const havingKeys = plan.havingKeys;
  const groups = new Map<string, GridGroup & { havings: Float64Array[] }>();
  const row = (data: Record<string, unknown>): GridGroup & { havings: Float64Array[] } => {
    const label = groupLabel(plan.breakdowns, data);
    let group = groups.get(label);
    if (!group) {
      group = { label, values: new Float64Array(length).fill(NaN), havings: havingKeys.map(() => new Float64Array(length).fill(NaN)), keys: groupKeys(plan.breakdowns, data) };
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
    groups: [...groups.values()].map(({ havings, ...group }) => (havingKeys.length > 0 ? { ...group, havings } : group)),
    missingIsZero: plan.rules.combine === 'sum',
  };
}
