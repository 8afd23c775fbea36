// Running queries from the editor: a saved query (palette: the dataset and one of its named saved queries
// picked, or typed), a trigger's query (tree: the saved query the service lists with it; an inline query
// alone is saved once per session through the queries endpoint). Defaults run at once; the request flags
// sit behind "Options...". The result opens in the results panel, polled until complete.
import * as vscode from 'vscode';
import type { SeenText } from '../core/workspaceText';
import { QUERY_RESULT_LIMIT_MAX, type CreateQueryResultRequest, type QueryResult } from '../../api/schemas';
import { connectionLabel, type ActiveConnection, type ConnectionManager } from '../connections';
import { asServiceError } from '../core/errors';
import type { Feedback } from '../core/feedback';
import { checkUiLink } from '../core/links';
import { safeLabel } from '../core/text';
import { loadItemArgs, parseArg } from '../tree';
import { failedModel, modelFromResult, type ResultContext } from './resultsModel';
import { ResultsPanel, type PanelActions } from './resultsPanel';
import type { ResultsRun, SavedRun } from './resultsProtocol';
import { queryPanelKey } from './resultsRestore';
import { explainNotFound } from '../../backtest/datasetCheck';
import { SavedQueryCache } from '../../backtest/savedQueryCache';
import { ResultCache } from '../../backtest/cache';
import type { QuerySession } from './queryServices';
import {
  CreationPacer,
  isCallUnavailable,
  runQueryResult,
  unavailableOr,
  type RunnerClock,
} from '../../backtest/runner';
import { askDataset, askQuery, askQueryId } from './savedQueryPicker';
import { TypedText, unknownQueryProblem } from './savedQueryPicks';

export interface QueryFeatureDeps {
  /** What the queries use of the connections. */
  connections: Pick<ConnectionManager, 'requireActive' | 'connectionFor' | 'list'>;
  feedback: Feedback;
  extensionUri: vscode.Uri;
  /** A file's trigger as the connection's environment sees it: what a preview of it evaluates. */
  seenText: SeenText;
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

/** The saved queries made of inline queries in this session, reused instead of saving the same spec again. */
export const SAVED_QUERIES = new SavedQueryCache();

const caches = new Map<string, ResultCache>();
/** The connection's query session for other features (trigger tests, the noise report): its pacer, results and saved queries. */
export function sessionFor(conn: ActiveConnection): QuerySession {
  let cache = caches.get(conn.profile.id);
  if (!cache) caches.set(conn.profile.id, (cache = new ResultCache()));
  return { pacer: pacerFor(conn), cache, queries: SAVED_QUERIES, clock: RUNNER_CLOCK };
}

/**
 * Says which call the service does not serve, and offers what still works. An error with an action, so
 * it stays until read: the user started what failed.
 */
export async function offerWhatWorks(message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, vscode.l10n.t('Run Saved Query...'));
  if (choice) await vscode.commands.executeCommand('obs.query.run');
}

interface FlagPick extends vscode.QuickPickItem {
  flag: 'disable_series' | 'disable_total_by_aggregate' | 'disable_other_by_aggregate';
}

/** The "Options" step: the request flags of a query result (spec 4.5); undefined when cancelled. */
async function askQueryFlags(queryId: string, title: string): Promise<CreateQueryResultRequest | undefined> {
  const items: FlagPick[] = [
    {
      flag: 'disable_series',
      label: vscode.l10n.t('Leave out the time series'),
      description: vscode.l10n.t('disable_series: only the summarised results (the table)'),
      picked: false,
    },
    {
      flag: 'disable_total_by_aggregate',
      label: vscode.l10n.t('Leave out the totals'),
      description: 'disable_total_by_aggregate',
      picked: true,
    },
    {
      flag: 'disable_other_by_aggregate',
      label: vscode.l10n.t('Leave out the other groups'),
      description: vscode.l10n.t('disable_other_by_aggregate: the aggregates of groups past the limit'),
      picked: true,
    },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title,
    placeHolder: vscode.l10n.t('What to leave out of the result (the checked defaults are the service defaults)'),
    ignoreFocusOut: true,
  });
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
      prompt: vscode.l10n.t(
        'Rows in the result (1 to {0}); leave empty for the default of 1000',
        QUERY_RESULT_LIMIT_MAX,
      ),
      ignoreFocusOut: true,
      validateInput: (v) => {
        if (v.trim() === '') return undefined;
        const n = Number(v);
        return Number.isInteger(n) && n >= 1 && n <= QUERY_RESULT_LIMIT_MAX
          ? undefined
          : vscode.l10n.t('Enter a whole number from 1 to {0}', QUERY_RESULT_LIMIT_MAX);
      },
    });
    if (limit === undefined) return undefined;
    if (limit.trim() !== '') body.limit = Number(limit);
  }
  return body;
}

function checkedLinks(result: QueryResult, uiUrl: string, feedback: Feedback): PanelActions['links'] {
  const links: PanelActions['links'] = {};
  for (const [which, link] of [
    ['query', result.links?.query_url],
    ['graph', result.links?.graph_image_url],
  ] as const) {
    if (link === undefined) continue;
    const check = checkUiLink(link, uiUrl);
    if (check.ok) links[which] = vscode.Uri.parse(check.url.href, true);
    else feedback.log.warn(`query result ${result.id}: not offering its ${which} link: ${check.reason}`);
  }
  return links;
}

/** Says that the service does not know a saved query id (an error: the user started what failed). */
const sayUnknownQuery = async (message: string): Promise<void> => void (await vscode.window.showErrorMessage(message));

export class QueryRuns {
  /** What the user typed at the questions of "Run Saved Query", kept for the session. */
  private readonly typed = new TypedText();

  constructor(private readonly deps: QueryFeatureDeps) {}

  /**
   * Runs a saved query and shows the result; `again` re-runs it from the panel. A query id the service does
   * not know is said in words through `unknownQuery` (Run Saved Query offers to change the id).
   */
  async run(
    conn: ActiveConnection,
    dataset: string,
    queryId: string,
    label: string,
    withOptions: boolean,
    body?: CreateQueryResultRequest,
    unknownQuery: (message: string) => Promise<void> = sayUnknownQuery,
  ): Promise<void> {
    const { feedback, extensionUri } = this.deps;
    const title = vscode.l10n.t('{0} on {1}', label, connectionLabel(conn.profile.name));
    const request = withOptions ? await askQueryFlags(queryId, title) : (body ?? { query_id: queryId });
    if (!request) return;
    const key = queryPanelKey(conn.profile.id, dataset, queryId);
    const outcome = await feedback.runWithProgress(vscode.l10n.t('Running {0}...', label), async (signal, report) => {
      try {
        return await runQueryResult(conn.client, pacerFor(conn), RUNNER_CLOCK, {
          dataset,
          body: request,
          signal,
          report,
        });
      } catch (err) {
        const se = asServiceError(err);
        if (se?.kind === 'query-failed')
          return { kind: 'failed' as const, message: (se as { detail?: string }).detail ?? se.message };
        const unknown = unknownQueryProblem(err, dataset, queryId);
        if (unknown !== undefined) return { kind: 'unknown' as const, message: unknown, said: se?.message ?? '' };
        throw await explainNotFound(conn.client, dataset, err, signal);
      }
    });
    if (!outcome) return;
    if (outcome.kind === 'unknown') {
      feedback.log.warn(`${label}: ${outcome.said}`);
      return unknownQuery(outcome.message);
    }
    const panelTitle = vscode.l10n.t('Query {0}', queryId);
    const ctx: ResultContext = {
      title: label.replace(/^./, (c) => c.toUpperCase()),
      subtitle: vscode.l10n.t('{0} on {1} · saved query {2}', dataset, connectionLabel(conn.profile.name), queryId),
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
    const saved: SavedRun = {
      run,
      links: {
        ...(links.query ? { query: links.query.toString(true) } : {}),
        ...(links.graph ? { graph: links.graph.toString(true) } : {}),
      },
    };
    panel.show(model, { links, rerun }, saved);
  }

  /** Runs again a query whose panel came back after a window reload. */
  async rerunRestored(run: Extract<ResultsRun, { kind: 'query' }>, withOptions: boolean): Promise<void> {
    const conn = await this.deps.connections.connectionFor(run.connectionId);
    await this.run(conn, run.dataset, run.queryId, run.label, withOptions, run.request);
  }

  /**
   * A trigger's query. The service lists a trigger made with an inline query with the query_id it saved
   * that query as: that id runs. An inline query alone is saved once per session (the service runs only
   * saved queries, and every save stays on the service), then run by that id.
   */
  async runTrigger(arg: unknown, withOptions: boolean): Promise<void> {
    const node = parseArg((await loadItemArgs()).TriggerArg, arg);
    if (!node) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Run a trigger\'s query from the trigger in the Datasets view, or use "Run Saved Query...".'),
      );
      return;
    }
    const conn = await this.deps.connections.connectionFor(node.connectionId);
    const t = node.trigger;
    const label = vscode.l10n.t('the query of trigger "{0}"', safeLabel(t.name, 80));
    if (t.query_id) return this.run(conn, node.dataset, t.query_id, label, withOptions);
    const inline = t.query ?? undefined;
    if (!inline) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Trigger "{0}" has no query to run.', safeLabel(t.name)));
      return;
    }
    const saved = await this.deps.feedback.runWithProgress(
      vscode.l10n.t('Saving the query of trigger "{0}"...', safeLabel(t.name, 80)),
      async (signal) => {
        try {
          return (await SAVED_QUERIES.idFor(conn.client, node.dataset, inline, signal)).id;
        } catch (err) {
          const e = unavailableOr(
            await explainNotFound(conn.client, node.dataset, err, signal),
            vscode.l10n.t('Saving a query'),
            `POST /1/queries/${node.dataset}`,
          );
          if (isCallUnavailable(e)) return e;
          throw e;
        }
      },
    );
    if (saved === undefined) return;
    if (typeof saved !== 'string') return offerWhatWorks(saved.message);
    return this.run(conn, node.dataset, saved, label, withOptions);
  }

  /**
   * Palette: a saved query on the active connection, its dataset and query picked from what the service
   * lists (or typed). An id the service does not know is said with "Change the Query ID...", which asks
   * again from the id as typed, the service's answer under it.
   */
  async runById(): Promise<void> {
    const conn = await this.deps.connections.requireActive();
    const title = vscode.l10n.t('Run Saved Query on {0}', connectionLabel(conn.profile.name));
    const typed = this.typed.of(conn.profile.id);
    const dataset = await askDataset(conn.client, title, typed);
    if (dataset === undefined) return;
    let query = await askQuery(conn.client, dataset, title, typed);
    while (query !== undefined) {
      const { id, name } = query;
      const label =
        name === undefined
          ? vscode.l10n.t('saved query {0}', safeLabel(id, 80))
          : vscode.l10n.t('saved query "{0}"', name);
      let problem: string | undefined;
      await this.run(conn, dataset, id, label, false, undefined, async (message) => void (problem = message));
      if (problem === undefined) return;
      const change = vscode.l10n.t('Change the Query ID...');
      if ((await vscode.window.showErrorMessage(problem, change)) !== change) return;
      const again = await askQueryId(title, dataset, typed, { value: id, problem });
      query = again === undefined ? undefined : { id: again };
    }
  }
}
