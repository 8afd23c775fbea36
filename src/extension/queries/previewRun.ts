// A trigger preview from start to end: plan the queries, fetch the series (paced by the service's rate
// limit), build the grid, evaluate, and describe. The engine is src/backtest (shared with the trigger
// tests); this adds the panel's model. No vscode import: tested against the sandbox.
import type { ResultsModel } from '../../webview/protocol/queryResults';
import type { ResultCache, ResultStore } from '../../backtest/cache';
import { evaluateTrigger, type PreviewOutcome } from '../../backtest/evaluate';
import { fetchSeries, QueryIncompleteError, readSavedQuery } from '../../backtest/fetch';
import { planPreview, type PlanMode, type PreviewPlan, type TriggerInput } from '../../backtest/plan';
import type { CreationPacer, QueryApi, RunnerClock } from '../../backtest/runner';
import type { SavedQueryCache } from '../../backtest/savedQueryCache';
import { gridFromSeries } from '../../backtest/series';
import { previewSummary, spanLabel } from '../../backtest/summary';
import { modelFromPreview } from './resultsModel';
import * as l10n from '@vscode/l10n';

/** A trigger that cannot be previewed as it is (the reason is for the user). */
export class PreviewRefused extends Error {
  readonly kind = 'preview-refused';
}

export interface PreviewRequest {
  dataset: string;
  trigger: TriggerInput;
  query: Record<string, unknown>;
  windowSeconds: number;
  mode: PlanMode;
  nowSeconds: number;
  /** Where the trigger came from, for the panel's subtitle ("api-gateway on Sandbox"). */
  where: string;
  /** Reuses the saved query of a spec saved before in the session instead of saving it again. */
  queries?: SavedQueryCache;
  /** The session's query results: a preview again of the same window (until its next evaluation time) creates none. */
  cache?: ResultCache;
}

export interface PreviewRun {
  plan: PreviewPlan;
  outcome: PreviewOutcome;
  summary: string;
  model: ResultsModel;
}

export async function runPreview(
  api: QueryApi,
  pacer: CreationPacer,
  clock: RunnerClock,
  req: PreviewRequest,
  signal: AbortSignal,
  report: (m: string) => void,
): Promise<PreviewRun> {
  const planned = planPreview(req.trigger, req.query, req.windowSeconds, req.nowSeconds, req.mode);
  if (!planned.ok)
    throw new PreviewRefused(l10n.t('Trigger "{0}" cannot be previewed: {1}.', req.trigger.name, planned.reason));
  const plan = planned.plan;
  let data;
  try {
    const fetch = (cache: ResultStore | undefined) =>
      fetchSeries({ api, pacer, clock, signal, report, queries: req.queries, cache }, req.dataset, req.query, plan);
    data = await (req.cache ? req.cache.inRun(fetch) : fetch(undefined));
  } catch (err) {
    if (err instanceof QueryIncompleteError)
      throw new PreviewRefused(l10n.t("The preview's query did not complete: {0}", err.reason));
    throw err;
  }
  const grid = gridFromSeries(plan, data);
  const outcome = evaluateTrigger(plan.rules, grid, plan.from, plan.to);
  const summary = previewSummary(outcome, plan.rules.alertType, plan.windowSeconds, plan.rules.disabled);
  const model = modelFromPreview(plan, outcome, {
    title: l10n.t('Preview: {0}', req.trigger.name),
    subtitle: l10n.t(
      '{0} · last {1} · every {2}',
      req.where,
      spanLabel(plan.windowSeconds),
      spanLabel(plan.rules.frequency),
    ),
    summary,
  });
  return { plan, outcome, summary, model };
}

export { readSavedQuery };
