// obs_run_query and obs_preview_trigger: the tools that create query results, paced by the host's pacer (the
// service creates 10 results a minute; the editor shares it with its own queries). A query answers its
// totals and first rows; a preview answers the backtest engine's summary and firing intervals. Group values
// are event data: cut, and said to be untrusted in the descriptions.
import { isDatasetMissing } from '../backtest/datasetCheck';
import { evaluateTrigger, type Firing } from '../backtest/evaluate';
import { fetchSeries, QueryIncompleteError, readSavedQuery } from '../backtest/fetch';
import { planPreview } from '../backtest/plan';
import { isCallUnavailable, runQueryResult } from '../backtest/runner';
import { gridFromSeries } from '../backtest/series';
import { previewSummary } from '../backtest/summary';
import { triggerFromText, type PreviewTrigger } from '../backtest/triggerText';
import { canonicalDatasetSlug } from '../triggerFiles';
import { clip, clipName, defined, firstOf, LIMITS, ToolError } from './answer';
import type { QueryRunner, ToolHost } from './context';
import { notFound } from './failures';
import type { ToolInputs } from './inputs';

const WINDOWS = { '1h': 3_600, '6h': 21_600, '24h': 86_400, '7d': 604_800 } as const;
/** A preview needing more queries than this runs one query at a coarser step (said in its notes). */
const MAX_EXACT_QUERIES = 3;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

/** A value of a result row: numbers and booleans as they are, text cut (it is event data). */
function cell(v: unknown): unknown {
  if (typeof v === 'string') return clip(v, 200);
  return typeof v === 'number' || typeof v === 'boolean' || v === null ? v : clip(JSON.stringify(v), 200);
}

function row(data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  return Object.fromEntries(Object.entries(data).slice(0, 30).map(([k, v]) => [clip(k, 200) ?? '', cell(v)]));
}

/** The service's refusals of the calls beyond the spec, and its 404s, as tool errors. */
function unavailable(e: unknown, what: string): unknown {
  if (isCallUnavailable(e) || isDatasetMissing(e)) return new ToolError(e.message);
  if (e instanceof QueryIncompleteError) return new ToolError(`the query did not complete: ${e.reason}`);
  return notFound(e, what);
}

export async function runQueryTool(input: ToolInputs['obs_run_query'], host: ToolHost, signal: AbortSignal): Promise<Record<string, unknown>> {
  const q: QueryRunner = await host.queries();
  let run;
  try {
    run = await runQueryResult(q.api, q.pacer, q.clock, {
      dataset: input.dataset,
      body: { query_id: input.query_id, disable_series: true, disable_total_by_aggregate: false, disable_other_by_aggregate: false },
      signal,
      report: () => undefined,
    });
  } catch (e) {
    throw unavailable(e, `saved query ${JSON.stringify(input.query_id)} of dataset ${JSON.stringify(input.dataset)}`);
  }
  if (run.kind === 'incomplete') throw new ToolError(`the query did not complete: ${run.reason}`);
  const data = isRecord(run.result.data) ? run.result.data : {};
  const results = Array.isArray(data.results) ? data.results : [];
  const { items, truncated } = firstOf(results, input.top ?? 10);
  return defined({
    dataset: input.dataset,
    query_id: input.query_id,
    rows_total: results.length,
    rows: items.map((r) => row(isRecord(r) ? r.data : undefined)),
    rows_truncated: truncated,
    totals: isRecord(data.total_by_aggregate) ? row(data.total_by_aggregate) : undefined,
    other: isRecord(data.other_by_aggregate) ? row(data.other_by_aggregate) : undefined,
  });
}

/** The trigger to preview, its dataset and its query: from the text given, or from the service by id. */
async function triggerToPreview(input: ToolInputs['obs_preview_trigger'], host: ToolHost, q: QueryRunner, signal: AbortSignal): Promise<{ trigger: PreviewTrigger; dataset: string; query: Record<string, unknown> }> {
  let trigger: PreviewTrigger;
  if (input.text !== undefined) {
    const read = triggerFromText(input.text);
    if (!read.ok) throw new ToolError(`the trigger text cannot be previewed: ${read.reason}`);
    trigger = read.trigger;
  } else if (input.dataset !== undefined && input.trigger_id !== undefined) {
    try {
      trigger = (await (await host.service()).getTrigger(input.dataset, input.trigger_id, { signal })).data;
    } catch (e) {
      throw notFound(e, `trigger ${JSON.stringify(input.trigger_id)} of dataset ${JSON.stringify(input.dataset)}`);
    }
  } else {
    throw new ToolError('give the trigger as text, or dataset and trigger_id');
  }
  const slug = input.dataset ?? (typeof trigger.dataset_slug === 'string' && trigger.dataset_slug !== '' ? trigger.dataset_slug : undefined);
  if (slug === undefined) throw new ToolError('the trigger names no dataset_slug: give dataset');
  const dataset = canonicalDatasetSlug(slug) === 'all' ? '__all__' : slug;
  if (isRecord(trigger.query)) return { trigger, dataset, query: trigger.query };
  if (typeof trigger.query_id !== 'string' || trigger.query_id === '') throw new ToolError('the trigger has neither a query nor a query_id');
  try {
    return { trigger, dataset, query: await readSavedQuery(q.api, dataset, trigger.query_id, signal) };
  } catch (e) {
    throw unavailable(e, `saved query ${JSON.stringify(trigger.query_id)} of dataset ${JSON.stringify(dataset)}`);
  }
}

/** A group as the answer names it: its breakdown values, or none for a query without breakdowns. */
const groupName = (label: string): string | undefined => (label === '' ? '(all events: the query has no breakdown)' : clip(label, 120));

const firingSummary = (f: Firing) => ({ start: iso(f.start), end: f.end === null ? null : iso(f.end), groups: f.groups.slice(0, 5).map(groupName) });

export async function previewTool(input: ToolInputs['obs_preview_trigger'], host: ToolHost, signal: AbortSignal): Promise<Record<string, unknown>> {
  const q = await host.queries();
  const { trigger, dataset, query } = await triggerToPreview(input, host, q, signal);
  const window = input.window ?? '24h';
  const now = Math.floor(q.clock.now() / 1000);
  let planned = planPreview(trigger, query, WINDOWS[window], now, 'exact');
  if (planned.ok && planned.queriesIfExact > MAX_EXACT_QUERIES) planned = planPreview(trigger, query, WINDOWS[window], now, 'coarse');
  if (!planned.ok) throw new ToolError(`the trigger cannot be previewed: ${planned.reason}`);
  const plan = planned.plan;
  let data;
  try {
    data = await fetchSeries({ api: q.api, pacer: q.pacer, clock: q.clock, signal, report: () => undefined }, dataset, query, plan);
  } catch (e) {
    throw unavailable(e, `dataset ${JSON.stringify(dataset)}`);
  }
  const outcome = evaluateTrigger(plan.rules, gridFromSeries(plan, data), plan.from, plan.to);
  const firings = firstOf(outcome.firings, LIMITS.firings);
  const groups = firstOf(outcome.groups, LIMITS.groups);
  return {
    trigger: clipName(trigger.name),
    dataset,
    window,
    from: iso(plan.from),
    to: iso(plan.to),
    frequency: plan.rules.frequency,
    summary: previewSummary(outcome, plan.rules.alertType, plan.windowSeconds, plan.rules.disabled),
    evaluations: outcome.evaluated,
    outside_schedule: outcome.outsideSchedule,
    notifications: { on_change: outcome.onChange.notifications, resolves: outcome.onChange.resolves, on_true: outcome.onTrue.notifications },
    firings_total: outcome.firings.length,
    firings: firings.items.map(firingSummary),
    firings_truncated: firings.truncated,
    groups_firing: groups.items.map((g) => ({ group: groupName(g.label), evaluations: g.evaluations })),
    groups_truncated: groups.truncated,
    notes: plan.notes.slice(0, 10).map((n) => clip(n, 500)),
  };
}
