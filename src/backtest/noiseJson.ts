// The noise report as plain JSON: what `obs noise --format json` prints and the agents' obs_noise answers,
// one shape for both. Times in ISO 8601 UTC; each trigger over the budget, within it, or not evaluated (why).
// No vscode import.
import type { NoiseEntry } from './noiseReport';

/** As a test file writes a time ("2025-06-02T09:10:00Z"): the window can be copied into an at-most expectation. */
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export type NoiseStatus = 'over' | 'within' | 'not-evaluated';

export const statusOf = (e: NoiseEntry, budget: number): NoiseStatus =>
  e.kind === 'skipped' ? 'not-evaluated' : e.counts.notifications > budget ? 'over' : 'within';

/** One trigger of the report (the entries come noisiest first). */
export function noiseEntryJson(e: NoiseEntry, budget: number): Record<string, unknown> {
  const head = { file: e.label, name: e.name ?? null, status: statusOf(e, budget) };
  if (e.kind === 'skipped') return { ...head, reason: e.reason };
  const c = e.counts;
  const s = e.suggestion;
  return {
    ...head,
    dataset: e.dataset,
    threshold: { op: e.rules.op, value: e.rules.value },
    exceeded_limit: e.rules.exceededLimit,
    alert_type: e.rules.alertType,
    frequency: e.rules.frequency,
    from: iso(e.from),
    to: iso(e.to),
    notifications: c.notifications,
    resolves: c.resolves,
    firings: c.firings,
    flaps: c.flaps,
    evaluations: c.evaluated,
    per_day: c.perDay,
    estimated: !c.exact,
    notes: e.notes,
    ...(s === undefined
      ? {}
      : {
          suggestions: s.suggestions.map((x) => ({
            member: x.change.member === 'value' ? 'threshold.value' : 'exceeded_limit',
            value: x.change.value,
            notifications: x.notifications,
          })),
          blocked_by: s.blockedBy ?? null,
          failing_fires_tests: s.missed,
          unchecked_tests: e.unchecked,
        }),
  };
}

/** The whole report: the window asked for, the budget, counts by status, and each trigger noisiest first. */
export function noiseJson(
  entries: readonly NoiseEntry[],
  options: { days: number; budget: number },
): Record<string, unknown> {
  const count = (status: NoiseStatus) => entries.filter((e) => statusOf(e, options.budget) === status).length;
  return {
    days: options.days,
    budget: options.budget,
    over: count('over'),
    within: count('within'),
    not_evaluated: count('not-evaluated'),
    triggers: entries.map((e) => noiseEntryJson(e, options.budget)),
  };
}
