// obs_run_query and obs_preview_trigger: the tools that create query results, paced by the host's pacer (the
// service creates 10 results a minute; the editor shares it with its own queries). A query answers its
// totals and first rows; a preview answers the backtest engine's summary and firing intervals. Group values
// are event data: cut, and said to be untrusted in the descriptions. While they wait (the rate limit, a result
// not complete yet) they report progress through the runner.
import * as z from 'zod';
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

const Row = z.record(z.string(), z.unknown());

function row(data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  return Object.fromEntries(
    Object.entries(data)
      .slice(0, 30)
      .map(([k, v]) => [clip(k, 200) ?? '', cell(v)]),
  );
}

/** The service's refusals of the calls beyond the spec, and its 404s, as tool errors. */
function unavailable(e: unknown, what: string): unknown {
  if (isCallUnavailable(e) || isDatasetMissing(e)) return new ToolError(e.message);
  if (e instanceof QueryIncompleteError) return new ToolError(`the query did not complete: ${e.reason}`);
  return notFound(e, what);
}

/** Progress of a call, or nothing when its host has no one to tell. */
const reporter = (q: QueryRunner) => (message: string) => q.report?.(message);

export const RunQueryOutput = z.object({
  dataset: z.string(),
  query_id: z.string(),
  rows_total: z.number().int(),
  rows: z.array(Row).describe('Each row: its breakdown values and aggregates, by name.'),
  rows_truncated: z.boolean(),
  totals: Row.optional().describe('Each aggregate over all rows.'),
  other: Row.optional().describe('Each aggregate over the rows the result left out.'),
});

export async function runQueryTool(
  input: ToolInputs['obs_run_query'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof RunQueryOutput>> {
  const q: QueryRunner = await host.queries();
  let run;
  try {
    run = await runQueryResult(q.api, q.pacer, q.clock, {
      dataset: input.dataset,
      body: {
        query_id: input.query_id,
        disable_series: true,
        disable_total_by_aggregate: false,
        disable_other_by_aggregate: false,
      },
      signal,
      report: reporter(q),
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
async function triggerToPreview(
  input: ToolInputs['obs_preview_trigger'],
  host: ToolHost,
  q: QueryRunner,
  signal: AbortSignal,
): Promise<{ trigger: PreviewTrigger; dataset: string; query: Record<string, unknown> }> {
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
  const slug =
    input.dataset ??
    (typeof trigger.dataset_slug === 'string' && trigger.dataset_slug !== '' ? trigger.dataset_slug : undefined);
  if (slug === undefined) throw new ToolError('the trigger names no dataset_slug: give dataset');
  const dataset = canonicalDatasetSlug(slug) === 'all' ? '__all__' : slug;
  if (isRecord(trigger.query)) return { trigger, dataset, query: trigger.query };
  if (typeof trigger.query_id !== 'string' || trigger.query_id === '')
    throw new ToolError('the trigger has neither a query nor a query_id');
  try {
    return { trigger, dataset, query: await readSavedQuery(q.api, dataset, trigger.query_id, signal) };
  } catch (e) {
    throw unavailable(e, `saved query ${JSON.stringify(trigger.query_id)} of dataset ${JSON.stringify(dataset)}`);
  }
}

/** A group as the answer names it: its breakdown values, or none for a query without breakdowns. */
const groupName = (label: string): string =>
  label === '' ? '(all events: the query has no breakdown)' : clip(label, 120);

const FiringRow = z.object({
  start: z.string(),
  end: z.string().nullable().describe('null while it still fires at the end of the window.'),
  groups: z.array(z.string()),
});

const firingSummary = (f: Firing): z.infer<typeof FiringRow> => ({
  start: iso(f.start),
  end: f.end === null ? null : iso(f.end),
  groups: f.groups.slice(0, 5).map(groupName),
});

export const PreviewOutput = z.object({
  trigger: z.string().optional(),
  dataset: z.string(),
  window: z.enum(['1h', '6h', '24h', '7d']),
  from: z.string(),
  to: z.string(),
  frequency: z.number(),
  summary: z.string(),
  evaluations: z.number().int(),
  outside_schedule: z.number().int(),
  notifications: z.object({ on_change: z.number().int(), resolves: z.number().int(), on_true: z.number().int() }),
  firings_total: z.number().int(),
  firings: z.array(FiringRow),
  firings_truncated: z.boolean(),
  groups_firing: z.array(z.object({ group: z.string(), evaluations: z.number().int() })),
  groups_truncated: z.boolean(),
  notes: z.array(z.string()),
});

export async function previewTool(
  input: ToolInputs['obs_preview_trigger'],
  host: ToolHost,
  signal: AbortSignal,
): Promise<z.infer<typeof PreviewOutput>> {
  const q = await host.queries();
  const { trigger, dataset, query } = await triggerToPreview(input, host, q, signal);
  const window = input.window ?? '24h';
  const now = Math.floor(q.clock.now() / 1000);
  let planned = planPreview(trigger, query, WINDOWS[window], now, 'exact');
  if (planned.ok && planned.queriesIfExact > MAX_EXACT_QUERIES)
    planned = planPreview(trigger, query, WINDOWS[window], now, 'coarse');
  if (!planned.ok) throw new ToolError(`the trigger cannot be previewed: ${planned.reason}`);
  const plan = planned.plan;
  let data;
  try {
    data = await fetchSeries(
      { api: q.api, pacer: q.pacer, clock: q.clock, signal, report: reporter(q), cache: q.results },
      dataset,
      query,
      plan,
    );
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
    notifications: {
      on_change: outcome.onChange.notifications,
      resolves: outcome.onChange.resolves,
      on_true: outcome.onTrue.notifications,
    },
    firings_total: outcome.firings.length,
    firings: firings.items.map(firingSummary),
    firings_truncated: firings.truncated,
    groups_firing: groups.items.map((g) => ({ group: groupName(g.label), evaluations: g.evaluations })),
    groups_truncated: groups.truncated,
    notes: plan.notes.slice(0, 10).map((n) => clip(n, 500)),
  };
}
