// Running queries from the editor: a saved query by id (palette), a trigger's saved or inline query
// (tree; an inline query is saved first through the queries endpoint). Defaults run at once; the
// request flags sit behind "Options...". The result opens in the results panel, polled until complete.
import * as vscode from 'vscode';
import { QUERY_RESULT_LIMIT_MAX, type CreateQueryResultRequest, type QueryResult } from '../../api/schemas';
import type { ActiveConnection, ConnectionManager } from '../connections';
import { asServiceError } from '../core/errors';
import type { Feedback } from '../core/feedback';
import { checkUiLink } from '../core/links';
import { safeLabel } from '../core/text';
import { parseArg, TriggerArg } from '../tree';
import { failedModel, modelFromResult, type ResultContext } from './resultsModel';
import { ResultsPanel, type PanelActions } from './resultsPanel';
import type { ResultsRun, SavedRun } from './resultsProtocol';
import { queryPanelKey } from './resultsRestore';
import { CreationPacer, isCallUnavailable, runQueryResult, unavailableOr, type RunnerClock } from '../../backtest/runner';

export interface QueryFeatureDeps {
  connections: ConnectionManager;
  feedback: Feedback;
  extensionUri: vscode.Uri;
}

export const RUNNER_CLOCK: RunnerClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new DOMException('cancelled', 'AbortError'));
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new DOMException('cancelled', 'AbortError'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }),
};

const pacers = new Map<string, CreationPacer>();
/** One pacer per connection: the service's limit is per team, whichever command creates the result. */
export function pacerFor(conn: ActiveConnection): CreationPacer {
  let pacer = pacers.get(conn.profile.id);
  if (!pacer) pacers.set(conn.profile.id, (pacer = new CreationPacer(RUNNER_CLOCK)));
  return pacer;
}

/** Says which call the service does not serve, and offers what still works. */
export async function offerWhatWorks(message: string): Promise<void> {
  const choice = await vscode.window.showWarningMessage(message, vscode.l10n.t('Run Saved Query by Id...'));
  if (choice) await vscode.commands.executeCommand('obs.query.run');
}

interface FlagPick extends vscode.QuickPickItem {
  flag: 'disable_series' | 'disable_total_by_aggregate' | 'disable_other_by_aggregate';
}

/** The "Options" step: the request flags of a query result (spec 4.5); undefined when cancelled. */
async function askQueryFlags(queryId: string, title: string): Promise<CreateQueryResultRequest | undefined> {
  const items: FlagPick[] = [
    { flag: 'disable_series', label: vscode.l10n.t('Leave out the time series'), description: vscode.l10n.t('disable_series: only the summarised results (the table)'), picked: false },
    { flag: 'disable_total_by_aggregate', label: vscode.l10n.t('Leave out the totals'), description: 'disable_total_by_aggregate', picked: true },
    { flag: 'disable_other_by_aggregate', label: vscode.l10n.t('Leave out the other groups'), description: vscode.l10n.t('disable_other_by_aggregate: the aggregates of groups past the limit'), picked: true },
  ];
  const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title, placeHolder: vscode.l10n.t('What to leave out of the result (the checked defaults are the service defaults)'), ignoreFocusOut: true });
  if (!picked) return undefined;
  const on = new Set(picked.map((p) => p.flag));
  const body: CreateQueryResultRequest = {
    query_id: queryId,
    disable_series: on.has('disable_series'),
    disable_total_by_aggregate: on.has('disable_total_by_aggregate'),
    disable_other_by_aggregate: on.has('disable_other_by_aggregate'),
  };
  if (body.disable_series) {
    const limit = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('Rows in the result (1 to {0}); leave empty for the default of 1000', QUERY_RESULT_LIMIT_MAX),
      ignoreFocusOut: true,
      validateInput: (v) => {
        if (v.trim() === '') return undefined;
        const n = Number(v);
        return Number.isInteger(n) && n >= 1 && n <= QUERY_RESULT_LIMIT_MAX ? undefined : vscode.l10n.t('Enter a whole number from 1 to {0}', QUERY_RESULT_LIMIT_MAX);
      },
    });
    if (limit === undefined) return undefined;
    if (limit.trim() !== '') body.limit = Number(limit);
  }
  return body;
}

function checkedLinks(result: QueryResult, uiUrl: string, feedback: Feedback): PanelActions['links'] {
  const links: PanelActions['links'] = {};
  for (const [which, link] of [['query', result.links?.query_url], ['graph', result.links?.graph_image_url]] as const) {
    if (link === undefined) continue;
    const check = checkUiLink(link, uiUrl);
    if (check.ok) links[which] = vscode.Uri.parse(check.url.href, true);
    else feedback.log.warn(`query result ${result.id}: not offering its ${which} link: ${check.reason}`);
  }
  return links;
}

export class QueryRuns {
  constructor(private readonly deps: QueryFeatureDeps) {}

  /** Runs a saved query and shows the result; `again` re-runs it from the panel. */
  async run(conn: ActiveConnection, dataset: string, queryId: string, label: string, withOptions: boolean, body?: CreateQueryResultRequest): Promise<void> {
    const { feedback, extensionUri } = this.deps;
    const title = vscode.l10n.t('{0} on {1}', label, safeLabel(conn.profile.name, 64));
    const request = withOptions ? await askQueryFlags(queryId, title) : (body ?? { query_id: queryId });
    if (!request) return;
    const key = queryPanelKey(conn.profile.id, dataset, queryId);
    const outcome = await feedback.runWithProgress(vscode.l10n.t('Running {0}...', label), async (signal, report) => {
      try {
        return await runQueryResult(conn.client, pacerFor(conn), RUNNER_CLOCK, { dataset, body: request, signal, report });
      } catch (err) {
        const se = asServiceError(err);
        if (se?.kind === 'query-failed') return { kind: 'failed' as const, message: (se as { detail?: string }).detail ?? se.message };
        throw err;
      }
    });
    if (!outcome) return;
    const panelTitle = vscode.l10n.t('Query {0}', queryId);
    const ctx: ResultContext = {
      title: label.replace(/^./, (c) => c.toUpperCase()),
      subtitle: vscode.l10n.t('{0} on {1} · saved query {2}', dataset, conn.profile.name, queryId),
      links: { query: false, graph: false },
      canRerun: true,
    };
    const panel = ResultsPanel.for(key, panelTitle, extensionUri, feedback.log);
    const rerun = (options: boolean) => this.run(conn, dataset, queryId, label, options, request);
    const run: ResultsRun = { kind: 'query', connectionId: conn.profile.id, dataset, queryId, label, request };
    if (outcome.kind === 'failed') {
      feedback.log.warn(`${label}: the query failed: ${outcome.message}`);
      panel.show(failedModel(ctx, outcome.message), { links: {}, rerun }, { run, links: {} });
      return;
    }
    const links = checkedLinks(outcome.result, conn.profile.uiUrl, feedback);
    const model = modelFromResult(outcome.result, {
      ...ctx,
      links: { query: links.query !== undefined, graph: links.graph !== undefined },
      ...(outcome.kind === 'incomplete' ? { incomplete: outcome.reason } : {}),
    });
    const saved: SavedRun = { run, links: { ...(links.query ? { query: links.query.toString(true) } : {}), ...(links.graph ? { graph: links.graph.toString(true) } : {}) } };
    panel.show(model, { links, rerun }, saved);
  }

  /** Runs again a query whose panel came back after a window reload. */
  async rerunRestored(run: Extract<ResultsRun, { kind: 'query' }>, withOptions: boolean): Promise<void> {
    const conn = await this.deps.connections.connectionFor(run.connectionId);
    await this.run(conn, run.dataset, run.queryId, run.label, withOptions, run.request);
  }

  /** A trigger's query: its saved query, or its inline query saved first (the service runs only saved queries). */
  async runTrigger(arg: unknown, withOptions: boolean): Promise<void> {
    const node = parseArg(TriggerArg, arg);
    if (!node) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Run a trigger\'s query from the trigger in the Datasets view, or use "Run Saved Query by Id...".'));
      return;
    }
    const conn = await this.deps.connections.connectionFor(node.connectionId);
    const t = node.trigger;
    const label = vscode.l10n.t('the query of trigger "{0}"', safeLabel(t.name, 80));
    const inline = t.query ?? undefined;
    if (inline) {
      const saved = await this.deps.feedback.runWithProgress(vscode.l10n.t('Saving the query of trigger "{0}"...', safeLabel(t.name, 80)), async (signal) => {
        try {
          return (await conn.client.createQuery(node.dataset, inline, { signal })).data.id;
        } catch (err) {
          const e = unavailableOr(err, vscode.l10n.t('Saving a query'), `POST /1/queries/${node.dataset}`);
          if (isCallUnavailable(e)) return e;
          throw e;
        }
      });
      if (saved === undefined) return;
      if (typeof saved !== 'string') return offerWhatWorks(saved.message);
      return this.run(conn, node.dataset, saved, label, withOptions);
    }
    if (t.query_id) return this.run(conn, node.dataset, t.query_id, label, withOptions);
    void vscode.window.showInformationMessage(vscode.l10n.t('Trigger "{0}" has no query to run.', safeLabel(t.name)));
  }

  /** Palette: a saved query by its id, on the active connection. */
  async runById(): Promise<void> {
    const conn = await this.deps.connections.requireActive();
    const dataset = await vscode.window.showInputBox({
      title: vscode.l10n.t('Run Saved Query by Id'),
      prompt: vscode.l10n.t('Dataset slug (or {0} for an environment-wide query)', '__all__'),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter a dataset slug') : /[/?#\s]/.test(v) ? vscode.l10n.t('A dataset slug has no "/", "?", "#" or spaces') : undefined),
    });
    if (dataset === undefined) return;
    const queryId = await vscode.window.showInputBox({ title: vscode.l10n.t('Run Saved Query by Id'), prompt: vscode.l10n.t('Saved query id'), ignoreFocusOut: true, validateInput: (v) => (v.trim() === '' ? vscode.l10n.t('Enter the id of a saved query') : undefined) });
    if (queryId === undefined) return;
    await this.run(conn, dataset.trim(), queryId.trim(), vscode.l10n.t('saved query {0}', safeLabel(queryId.trim(), 80)), false);
  }
}
