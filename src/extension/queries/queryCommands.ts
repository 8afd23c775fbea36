// "Run Saved Query...": creates a query result for a trigger's saved query (spec 4.5) and offers the
// result's links, each checked to point at the connection's UI.
import * as vscode from 'vscode';
import { QUERY_RESULT_LIMIT_MAX, type CreateQueryResultRequest, type QueryResult } from '../../api/schemas';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import { checkUiLink } from '../core/links';
import type { Logger } from '../core/logger';
import { safeLabel } from '../core/text';
import { parseArg, TriggerArg } from '../tree';

interface FlagPick extends vscode.QuickPickItem {
  flag: 'disable_series' | 'disable_total_by_aggregate' | 'disable_other_by_aggregate';
}

/** Asks for the request flags of a query result (spec 4.5); undefined when cancelled. */
async function askQueryFlags(queryId: string, connectionName: string): Promise<CreateQueryResultRequest | undefined> {
  const title = `Run saved query ${safeLabel(queryId, 80)} on ${safeLabel(connectionName, 64)}`;
  const items: FlagPick[] = [
    { flag: 'disable_series', label: 'disable_series', description: 'leave out the time series; only summarised results', picked: false },
    { flag: 'disable_total_by_aggregate', label: 'disable_total_by_aggregate', description: 'leave out the per-aggregate totals', picked: true },
    { flag: 'disable_other_by_aggregate', label: 'disable_other_by_aggregate', description: 'leave out other_by_aggregate', picked: true },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title,
    placeHolder: 'Request flags to set (the checked defaults match the service defaults)',
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
      prompt: `Result limit (1 to ${QUERY_RESULT_LIMIT_MAX}); leave empty for the default of 1000`,
      ignoreFocusOut: true,
      validateInput: (v) => {
        if (v.trim() === '') return undefined;
        const n = Number(v);
        return Number.isInteger(n) && n >= 1 && n <= QUERY_RESULT_LIMIT_MAX ? undefined : `Enter a whole number from 1 to ${QUERY_RESULT_LIMIT_MAX}`;
      },
    });
    if (limit === undefined) return undefined;
    if (limit.trim() !== '') body.limit = Number(limit);
  }
  return body;
}

async function showQueryResult(result: QueryResult, uiUrl: string, log: Logger): Promise<void> {
  const state = result.complete ? 'complete' : 'still being processed';
  const buttons: { title: string; url: vscode.Uri }[] = [];
  for (const [title, link] of [
    ['Open in Browser', result.links?.query_url],
    ['Open Graph Image', result.links?.graph_image_url],
  ] as const) {
    if (link === undefined) continue;
    const check = checkUiLink(link, uiUrl);
    if (check.ok) buttons.push({ title, url: vscode.Uri.parse(check.url.href, true) });
    else log.warn(`query result ${result.id}: not offering "${title}": ${check.reason}`);
  }
  const choice = await vscode.window.showInformationMessage(`Query result ${safeLabel(result.id)} is ${state}.`, ...buttons.map((b) => b.title));
  const target = buttons.find((b) => b.title === choice);
  if (target) await vscode.env.openExternal(target.url);
}

export function registerQueryCommands(connections: ConnectionManager, feedback: Feedback): vscode.Disposable[] {
  return [
    feedback.registerCommand('obs.trigger.runQuery', "run the trigger's saved query", async (arg) => {
      const node = parseArg(TriggerArg, arg);
      if (!node) return;
      const queryId = node.trigger.query_id;
      if (!queryId) {
        void vscode.window.showInformationMessage(`Trigger "${safeLabel(node.trigger.name)}" has an inline query, not a saved query (query_id).`);
        return;
      }
      // The item's own connection, whatever is active now: the query runs where the trigger came from.
      const conn = await connections.connectionFor(node.connectionId);
      const body = await askQueryFlags(queryId, conn.profile.name);
      if (!body) return;
      const title = `Running saved query ${safeLabel(queryId, 80)} on ${safeLabel(conn.profile.name, 64)}...`;
      const result = await feedback.runWithProgress(title, async (signal) => (await conn.client.createQueryResult(node.dataset, body, { signal })).data);
      if (result) await showQueryResult(result, conn.profile.uiUrl, feedback.log);
    }),
  ];
}
