// A trigger preview from start to end: plan the queries, save and run each (paced by the service's rate
// limit), build the grid, evaluate, and describe. No vscode import: tested against the sandbox.
import type { ResultsModel } from '../../../webview/protocol/queryResults';
import { modelFromPreview } from '../resultsModel';
import { explainNotFound } from '../datasetCheck';
import { isCallUnavailable, runQueryResult, unavailableOr, type CreationPacer, type QueryApi, type RunnerClock } from '../runner';
import type { SavedQueryCache } from '../savedQueryCache';
import { evaluateTrigger, type PreviewOutcome } from './evaluate';
import { chunkQuery, planPreview, type PlanMode, type PreviewPlan, type TriggerInput } from './plan';
import { gridFromSeries } from './series';
import { previewSummary, spanLabel } from './summary';
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
}

export interface PreviewRun {
  plan: PreviewPlan;
  outcome: PreviewOutcome;
  summary: string;
  model: ResultsModel;
}

/** The saved query a trigger names by query_id, read back to preview it. */
export async function readSavedQuery(api: QueryApi, dataset: string, queryId: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  try {
    return (await api.getQuery(dataset, queryId, { signal })).data;
  } catch (err) {
    throw unavailableOr(await explainNotFound(api, dataset, err, signal), l10n.t('Reading a saved query'), `GET /1/queries/${dataset}/${queryId}`);
  }
}

export async function runPreview(api: QueryApi, pacer: CreationPacer, clock: RunnerClock, req: PreviewRequest, signal: AbortSignal, report: (m: string) => void): Promise<PreviewRun> {
  const planned = planPreview(req.trigger, req.query, req.windowSeconds, req.nowSeconds, req.mode);
  if (!planned.ok) throw new PreviewRefused(l10n.t('Trigger "{0}" cannot be previewed: {1}.', req.trigger.name, planned.reason));
  const plan = planned.plan;
  const data = [];
  for (const [i, chunk] of plan.chunks.entries()) {
    const part = plan.chunks.length > 1 ? ` ${l10n.t('(query {0} of {1})', i + 1, plan.chunks.length)}` : '';
    report(l10n.t('Saving the preview query{0}...', part));
    let queryId: string;
    try {
      const spec = chunkQuery(req.query, plan, chunk);
      queryId = req.queries ? (await req.queries.idFor(api, req.dataset, spec, signal)).id : (await api.createQuery(req.dataset, spec, { signal })).data.id;
    } catch (err) {
      throw unavailableOr(await explainNotFound(api, req.dataset, err, signal), l10n.t('Saving a query'), `POST /1/queries/${req.dataset}`);
    }
    const run = await runQueryResult(api, pacer, clock, {
      dataset: req.dataset,
      body: { query_id: queryId, disable_series: false, disable_total_by_aggregate: true, disable_other_by_aggregate: true },
      signal,
      report: (m) => report(`${m}${part}`),
    });
    if (run.kind === 'incomplete') throw new PreviewRefused(l10n.t("The preview's query did not complete: {0}", run.reason));
    data.push(run.result.data);
  }
  const grid = gridFromSeries(plan, data);
  const outcome = evaluateTrigger(plan.rules, grid, plan.from, plan.to);
  const summary = previewSummary(outcome, plan.rules.alertType, plan.windowSeconds, plan.rules.disabled);
  const model = modelFromPreview(plan, outcome, {
    title: l10n.t('Preview: {0}', req.trigger.name),
    subtitle: l10n.t('{0} · last {1} · every {2}', req.where, spanLabel(plan.windowSeconds), spanLabel(plan.rules.frequency)),
    summary,
  });
  return { plan, outcome, summary, model };
}

export { isCallUnavailable };
