// Commands on the Datasets view and its items (context menus, inline buttons, view title).
import * as vscode from 'vscode';
import { ColumnKeyName, DatasetSlug, ENVIRONMENT_WIDE, QUERY_RESULT_LIMIT_MAX, type CreateQueryResultRequest, type QueryResult } from '../../api/schemas';
import type { ConnectionManager } from '../connections/connectionManager';
import type { DatasetTreeModel } from './datasetTree';
import { planDatasetRemoval } from './datasetRemoval';
import { checkUiLink } from '../core/links';
import { mergeMetricsDatasets } from '../core/settingValues';
import type { KeyRegistry } from './keyRegistry';
import type { RememberedItems } from './rememberedItems';
import { findColumn, noColumnMessage } from './findColumn';
import { safeLabel } from '../core/text';
import { exportRelativePath, exportText } from '../triggers/triggerExport';
import { reportError } from '../core/feedback';
import type { TriggerDocumentProvider } from '../triggers/triggerDocuments';
import { VIEW_ID } from './datasetsView';
import type { DatasetNode, GroupNode, TreeNode, TriggerNode } from './nodes';

export interface TreeCommandDeps {
  model: DatasetTreeModel;
  view: vscode.TreeView<TreeNode>;
  connections: ConnectionManager;
  remembered: RememberedItems;
  keyRegistry: KeyRegistry;
  triggerDocs: TriggerDocumentProvider;
  log: vscode.LogOutputChannel;
  runWithProgress<T>(title: string, op: (signal: AbortSignal) => Promise<T>): Promise<T | undefined>;
}

export const METRICS_SETTING = 'metricsDatasets';

/** The setting plus the datasets a running sandbox reports as metrics datasets. */
export function metricsDatasets(): string[] {
  return mergeMetricsDatasets(vscode.workspace.getConfiguration('obs').get<unknown>(METRICS_SETTING));
}

async function setMetrics(slug: string, on: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('obs');
  const inspected = config.inspect<string[]>(METRICS_SETTING);
  const target = inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const current = (target === vscode.ConfigurationTarget.Workspace ? inspected?.workspaceValue : inspected?.globalValue) ?? [];
  const next = on ? [...new Set([...current, slug])].sort() : current.filter((s) => s !== slug);
  await config.update(METRICS_SETTING, next, target);
}

function slugProblem(value: string): string | undefined {
  const r = DatasetSlug.safeParse(value.trim());
  return r.success ? undefined : (r.error.issues[0]?.message ?? 'invalid dataset slug');
}

/** Datasets the tree knows (for pickers), the typed value allowed too. */
async function pickDataset(deps: TreeCommandDeps, placeHolder: string, allowAll: boolean): Promise<string | undefined> {
  const roots = deps.model.cachedChildren(undefined) ?? [];
  const slugs = roots.filter((n): n is DatasetNode => n.kind === 'dataset').map((n) => n.slug).filter((s) => allowAll || s !== ENVIRONMENT_WIDE);
  const qp = vscode.window.createQuickPick();
  qp.placeholder = placeHolder;
  qp.items = slugs.map((s) => ({ label: s === ENVIRONMENT_WIDE ? ENVIRONMENT_WIDE : safeLabel(s), description: s === ENVIRONMENT_WIDE ? 'environment-wide' : undefined }));
  return new Promise((resolve) => {
    let done = false;
    qp.onDidChangeValue((v) => {
      const typed = v.trim();
      qp.items = [
        ...(typed !== '' && !slugs.includes(typed) ? [{ label: typed, description: 'type a dataset slug' }] : []),
        ...slugs.map((s) => ({ label: s })),
      ];
    });
    qp.onDidAccept(() => {
      const chosen = qp.selectedItems[0]?.label ?? qp.value.trim();
      const problem = slugProblem(chosen);
      if (problem) {
        qp.title = `Not a dataset slug: ${problem}`;
        return;
      }
      done = true;
      resolve(chosen);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve(undefined);
      qp.dispose();
    });
    qp.show();
  });
}

function datasetOf(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const n = arg as Partial<TreeNode>;
  if (n.kind === 'dataset') return (n as DatasetNode).slug;
  if ('dataset' in n && typeof n.dataset === 'string') return n.dataset;
  return undefined;
}

function connectionIdOf(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const id = (arg as { connectionId?: unknown }).connectionId;
  return typeof id === 'string' ? id : undefined;
}

function idOf(node: TreeNode): string | undefined {
  switch (node.kind) {
    case 'dataset':
      return node.slug;
    case 'column':
      return node.column.id ?? node.column.key_name;
    case 'trigger':
      return node.trigger.id;
    case 'slo':
      return node.sloId;
    case 'burnAlert':
      return node.alert.id;
    case 'apiKey':
      return node.key.id;
    default:
      return undefined;
  }
}

function isTriggerNode(arg: unknown): arg is TriggerNode {
  return typeof arg === 'object' && arg !== null && (arg as TreeNode).kind === 'trigger';
}

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

async function showQueryResult(result: QueryResult, uiUrl: string, log: vscode.LogOutputChannel): Promise<void> {
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
  const choice = await vscode.window.showInformationMessage(
    `Query result ${safeLabel(result.id)} is ${state}.`,
    ...buttons.map((b) => b.title),
  );
  const target = buttons.find((b) => b.title === choice);
  if (target) await vscode.env.openExternal(target.url);
}

async function exportTrigger(node: TriggerNode, log: vscode.LogOutputChannel): Promise<void> {
  let folder: vscode.Uri | undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) folder = folders[0]?.uri;
  else if (folders.length > 1) folder = (await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Export the trigger into which folder?' }))?.uri;
  else {
    const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: 'Export Here' });
    folder = picked?.[0];
  }
  if (!folder) return;
  const relative = exportRelativePath(node.dataset, node.trigger);
  const target = vscode.Uri.joinPath(folder, ...relative.split('/'));
  let exists = false;
  try {
    await vscode.workspace.fs.stat(target);
    exists = true;
  } catch {
    exists = false;
  }
  if (exists) {
    const answer = await vscode.window.showWarningMessage(`${relative} already exists. Overwrite it?`, { modal: true }, 'Overwrite');
    if (answer !== 'Overwrite') return;
  }
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(exportText(node.trigger)));
  log.info(`exported trigger ${node.trigger.id} to ${target.fsPath}`);
  await vscode.window.showTextDocument(target);
}

export function registerTreeCommands(deps: TreeCommandDeps): vscode.Disposable[] {
  const { model, view, connections, remembered, log } = deps;
  const activeId = (): string | undefined => connections.activeProfile()?.id;
  const guard =
    (operation: string, fn: (...args: unknown[]) => unknown) =>
    async (...args: unknown[]): Promise<void> => {
      try {
        await fn(...args);
      } catch (err) {
        await reportError(log, operation, err);
      }
    };
  const register = (id: string, operation: string, fn: (...args: unknown[]) => unknown): vscode.Disposable =>
    vscode.commands.registerCommand(id, guard(operation, fn));

  const setFilter = async (text: string | undefined): Promise<void> => {
    model.setFilter(text);
    await vscode.commands.executeCommand('setContext', 'obs.tree.filtered', text !== undefined);
    view.message = text === undefined ? undefined : `Filtered by "${safeLabel(text, 60)}"`;
  };

  return [
    register('obs.tree.refresh', 'refresh the tree', () => model.refresh()),
    register('obs.tree.refreshNode', 'refresh', (node) => model.refresh(node as TreeNode | undefined)),
    register('obs.tree.retry', 'retry', (node) => {
      const n = node as TreeNode | undefined;
      if (n?.kind === 'error') model.refreshId(n.parentId);
      else model.refresh();
    }),
    register('obs.tree.cancel', 'cancel loading', () => model.cancelLoading()),
    register('obs.tree.filter', 'filter the tree', async () => {
      const text = await vscode.window.showInputBox({
        title: 'Filter the Datasets view',
        prompt: 'Show datasets, columns, triggers, SLOs and burn alerts whose name contains this text',
        value: model.filter ?? '',
      });
      if (text === undefined) return;
      await setFilter(text.trim() === '' ? undefined : text);
      if (model.filter === undefined) return;
      // Load every dataset's children (bounded concurrency) so the filter searches all of them.
      await vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () => model.loadAll());
      model.setFilter(model.filter);
    }),
    register('obs.tree.clearFilter', 'clear the filter', () => setFilter(undefined)),
    register('obs.copyId', 'copy the id', async (node) => {
      const id = node ? idOf(node as TreeNode) : undefined;
      if (id === undefined) return;
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(`Copied ${safeLabel(id, 80)}`, 3000);
    }),
    register('obs.dataset.add', 'add a dataset', async () => {
      const cid = activeId() ?? (await connections.requireActive()).profile.id;
      const text = await vscode.window.showInputBox({
        title: 'Add Dataset',
        prompt: 'Dataset slug (several separated by commas). The service has no endpoint listing datasets.',
        validateInput: (v) => {
          const slugs = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
          if (slugs.length === 0) return 'Enter at least one dataset slug';
          for (const s of slugs) {
            const p = slugProblem(s);
            if (p) return `${s}: ${p}`;
          }
          return undefined;
        },
      });
      if (text === undefined) return;
      await remembered.addDatasets(cid, text.split(',').map((s) => s.trim()).filter((s) => s !== ''));
      model.refresh();
    }),
    register('obs.dataset.remove', 'remove the dataset', async (node) => {
      const n = node as DatasetNode | undefined;
      if (n?.kind !== 'dataset') return;
      // The SLO ids are read now, not from the node: they may have changed since it was drawn.
      const plan = planDatasetRemoval({
        slug: n.slug,
        added: remembered.datasets(n.connectionId).includes(n.slug),
        discovered: n.discovered,
        sloIds: remembered.slos(n.connectionId, n.slug),
      });
      if (plan.kind === 'forget') {
        if (plan.confirm) {
          const choice = await vscode.window.showWarningMessage(plan.confirm.message, { modal: true }, plan.confirm.action);
          if (choice !== plan.confirm.action) return;
        }
        await remembered.forgetDataset(n.connectionId, n.slug);
        if (plan.sloIds.length > 0) log.info(`dataset ${n.slug} removed; forgot its SLO ids ${plan.sloIds.join(', ')}`);
      } else {
        if (plan.kind === 'unmark') await remembered.removeDataset(n.connectionId, n.slug);
        if (n.discovered) {
          const choice = await vscode.window.showInformationMessage(plan.message, 'Hide');
          if (choice === 'Hide') await remembered.hideDataset(n.connectionId, n.slug);
        } else {
          void vscode.window.showInformationMessage(plan.message);
        }
      }
      model.refresh();
    }),
    register('obs.dataset.hide', 'hide the dataset', async (node) => {
      const n = node as DatasetNode | undefined;
      if (n?.kind !== 'dataset') return;
      await remembered.hideDataset(n.connectionId, n.slug);
      model.refresh();
    }),
    register('obs.dataset.unhideAll', 'show hidden datasets', async () => {
      const cid = activeId();
      if (cid === undefined) return;
      await remembered.unhideAll(cid);
      model.refresh();
    }),
    register('obs.dataset.markMetrics', 'mark as metrics dataset', async (node) => {
      const slug = datasetOf(node) ?? (await pickDataset(deps, 'Dataset to mark as a metrics dataset', false));
      if (slug === undefined || slug === ENVIRONMENT_WIDE) return;
      await setMetrics(slug, true);
    }),
    register('obs.dataset.unmarkMetrics', 'unmark metrics dataset', async (node) => {
      const slug = datasetOf(node);
      if (slug === undefined) return;
      await setMetrics(slug, false);
    }),
    register('obs.slo.add', 'add an SLO', async (node) => {
      const cid = connectionIdOf(node) ?? activeId() ?? (await connections.requireActive()).profile.id;
      const dataset = datasetOf(node) ?? (await pickDataset(deps, 'Dataset of the SLO', true));
      if (dataset === undefined) return;
      const text = await vscode.window.showInputBox({
        title: `Add SLO to ${dataset}`,
        prompt: 'SLO id (several separated by commas). Its burn alerts are listed under Burn alerts.',
        validateInput: (v) => {
          const ids = v.split(',').map((s) => s.trim()).filter((s) => s !== '');
          if (ids.length === 0) return 'Enter at least one SLO id';
          return ids.some((s) => /[\s/?#]/.test(s)) ? 'An SLO id must not contain spaces, "/", "?" or "#"' : undefined;
        },
      });
      if (text === undefined) return;
      await remembered.addSlos(cid, dataset, text.split(',').map((s) => s.trim()).filter((s) => s !== ''));
      const group: GroupNode = { kind: 'group', connectionId: cid, dataset, group: 'burnAlerts' };
      model.refresh(group);
    }),
    register('obs.slo.remove', 'remove the SLO', async (node) => {
      const n = node as TreeNode | undefined;
      if (n?.kind !== 'slo') return;
      await remembered.removeSlo(n.connectionId, n.dataset, n.sloId);
      model.refresh({ kind: 'group', connectionId: n.connectionId, dataset: n.dataset, group: 'burnAlerts' });
    }),
    register('obs.apiKey.forget', 'forget the API key', async (node) => {
      const n = node as TreeNode | undefined;
      if (n?.kind !== 'apiKey') return;
      // Only the local record: the key itself stays as it is on the service (there is no delete endpoint).
      await deps.keyRegistry.forget(n.connectionId, n.key.id);
    }),
    register('obs.trigger.open', 'open the trigger', async (node) => {
      if (!isTriggerNode(node)) return;
      await deps.triggerDocs.open(node.connectionId, node.dataset, node.trigger);
    }),
    register('obs.trigger.export', 'export the trigger', async (node) => {
      if (!isTriggerNode(node)) return;
      await exportTrigger(node, log);
    }),
    register('obs.trigger.runQuery', "run the trigger's saved query", async (node) => {
      if (!isTriggerNode(node)) return;
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
      const result = await deps.runWithProgress(title, async (signal) => {
        const res = await conn.client.createQueryResult(node.dataset, body, { signal });
        return res.data;
      });
      if (result) await showQueryResult(result, conn.profile.uiUrl, log);
    }),
    register('obs.column.find', 'find a column', async (node) => {
      // From a tree item: that item's connection; from the palette: the active one.
      const itemConnection = connectionIdOf(node);
      const conn = itemConnection !== undefined ? await connections.connectionFor(itemConnection) : await connections.requireActive();
      const dataset = datasetOf(node) ?? (await pickDataset(deps, 'Dataset to search', true));
      if (dataset === undefined) return;
      const keyName = await vscode.window.showInputBox({
        title: `Find Column in ${safeLabel(dataset)} on ${safeLabel(conn.profile.name, 64)}`,
        prompt: 'Column key name (exact)',
        validateInput: (v) => {
          const r = ColumnKeyName.safeParse(v);
          return r.success ? undefined : r.error.issues[0]?.message;
        },
      });
      if (keyName === undefined) return;
      const column = await deps.runWithProgress(`Finding column ${safeLabel(keyName, 80)}...`, (signal) =>
        findColumn(conn.client, dataset, keyName, signal),
      );
      if (column === undefined) return;
      if (column === null) {
        void vscode.window.showInformationMessage(noColumnMessage(keyName, dataset, (s) => safeLabel(s)));
        return;
      }
      const facts = [column.type, column.hidden ? 'hidden' : 'visible', `last written ${column.last_written ?? 'never'}`].join(', ');
      const choice = await vscode.window.showInformationMessage(
        `Column "${safeLabel(column.key_name)}" in ${safeLabel(dataset)}: ${facts}.`,
        'Show in Tree',
        'Copy Id',
      );
      if (choice === 'Copy Id') await vscode.env.clipboard.writeText(column.id ?? column.key_name);
      if (choice === 'Show in Tree') {
        await setFilter(column.key_name);
        await vscode.window.withProgress({ location: { viewId: VIEW_ID } }, () => model.loadAll());
        model.setFilter(model.filter);
      }
    }),
  ];
}
