// Commands that change what the tree remembers per connection: datasets added, hidden or marked as
// metrics datasets, SLO ids, API keys: what the service does not list (for this key), the user tells the tree.
import * as vscode from 'vscode';
import { ENVIRONMENT_WIDE } from '../../api/schemas/slugs';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import type { Settings } from '../core/settings';
import { ApiKeyArg, connectionIdOf, DatasetArg, datasetOf, parseArg, SloArg } from './commandArgs';
import { planDatasetRemoval } from './datasetRemoval';
import { pickDataset, slugProblem } from './datasetPicker';
import type { DatasetsView } from './datasetsView';
import type { KeyRegistry } from './keyRegistry';
import { groupId } from './nodes';
import type { RememberedItems } from './rememberedItems';

export interface DatasetCommandDeps {
  view: DatasetsView;
  connections: ConnectionManager;
  remembered: RememberedItems;
  keys: KeyRegistry;
  settings: Settings;
  feedback: Feedback;
}

/** Comma-separated entries of an input box, trimmed, empty ones dropped. */
function entries(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function registerDatasetCommands(deps: DatasetCommandDeps): vscode.Disposable[] {
  const { view, remembered, feedback } = deps;
  const model = view.model;
  const command = feedback.registerCommand.bind(feedback);
  return [
    command('obs.dataset.add', vscode.l10n.t('add a dataset'), () => addDatasets(deps)),
    command('obs.dataset.remove', vscode.l10n.t('remove the dataset'), (arg) => removeDataset(deps, arg)),
    command('obs.dataset.hide', vscode.l10n.t('hide the dataset'), async (arg) => {
      const n = parseArg(DatasetArg, arg);
      if (!n) return;
      await remembered.hideDataset(n.connectionId, n.slug);
      model.refresh();
    }),
    command('obs.dataset.unhideAll', vscode.l10n.t('show hidden datasets'), async () => {
      const cid = activeId(deps);
      if (cid === undefined) return;
      await remembered.unhideAll(cid);
      model.refresh();
    }),
    ...metricsCommands(deps),
    command('obs.slo.add', vscode.l10n.t('add an SLO'), (arg) => addSlos(deps, arg)),
    command('obs.slo.remove', vscode.l10n.t('remove the SLO'), async (arg) => {
      const n = parseArg(SloArg, arg);
      if (!n) return;
      await remembered.removeSlo(n.connectionId, n.dataset, n.sloId);
      model.refreshId(groupId(n.connectionId, n.dataset, 'burnAlerts'));
    }),
    command('obs.apiKey.forget', vscode.l10n.t('forget the API key'), async (arg) => {
      const n = parseArg(ApiKeyArg, arg);
      if (!n) return;
      // Only the local record: the key itself stays as it is on the service (there is no delete endpoint).
      await deps.keys.forget(n.connectionId, n.key.id);
    }),
  ];
}

const activeId = (deps: DatasetCommandDeps): string | undefined => deps.connections.activeProfile()?.id;

/** Mark and unmark a dataset as a metrics dataset (a setting, not a remembered item). */
function metricsCommands(deps: DatasetCommandDeps): vscode.Disposable[] {
  const command = deps.feedback.registerCommand.bind(deps.feedback);
  return [
    command('obs.dataset.markMetrics', vscode.l10n.t('mark as metrics dataset'), async (arg) => {
      const slug =
        datasetOf(arg) ??
        (await pickDataset(deps.view.model, vscode.l10n.t('Dataset to mark as a metrics dataset'), false));
      if (slug === undefined || slug === ENVIRONMENT_WIDE) return;
      await deps.settings.markMetricsDataset(slug, true);
    }),
    command('obs.dataset.unmarkMetrics', vscode.l10n.t('unmark metrics dataset'), async (arg) => {
      const slug = datasetOf(arg);
      if (slug === undefined) return;
      await deps.settings.markMetricsDataset(slug, false);
    }),
  ];
}

/** Remembers the datasets the user names for the active connection. */
async function addDatasets(deps: DatasetCommandDeps): Promise<void> {
  const cid = activeId(deps) ?? (await deps.connections.requireActive()).profile.id;
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add Dataset'),
    prompt: vscode.l10n.t(
      'Dataset slug (several separated by commas): for a dataset the service does not list, e.g. where the key may not list datasets.',
    ),
    validateInput: async (v) => {
      const slugs = entries(v);
      if (slugs.length === 0) return vscode.l10n.t('Enter at least one dataset slug');
      for (const s of slugs) {
        const p = await slugProblem(s);
        if (p) return `${s}: ${p}`;
      }
      return undefined;
    },
  });
  if (text === undefined) return;
  await deps.remembered.addDatasets(cid, entries(text));
  deps.view.model.refresh();
}

/** Carries out what planDatasetRemoval decides for the dataset node: forget it, unmark it, or offer to hide it. */
async function removeDataset(deps: DatasetCommandDeps, arg: unknown): Promise<void> {
  const { remembered } = deps;
  const n = parseArg(DatasetArg, arg);
  if (!n) return;
  const discovered = n.discovered ?? false;
  const listed = n.listed !== undefined;
  // The SLO ids are read now, not from the node: they may have changed since it was drawn.
  const plan = planDatasetRemoval({
    slug: n.slug,
    added: remembered.datasets(n.connectionId).includes(n.slug),
    discovered,
    listed,
    sloIds: remembered.slos(n.connectionId, n.slug),
  });
  if (plan.kind === 'forget') {
    if (plan.confirm && !(await confirmed(plan.confirm))) return;
    await remembered.forgetDataset(n.connectionId, n.slug);
    if (plan.sloIds.length > 0)
      deps.feedback.log.info(`dataset ${n.slug} removed; forgot its SLO ids ${plan.sloIds.join(', ')}`);
  } else {
    if (plan.kind === 'unmark') await remembered.removeDataset(n.connectionId, n.slug);
    if (discovered || listed) await offerHide(remembered, n.connectionId, n.slug, plan.message);
    else void vscode.window.showInformationMessage(plan.message);
  }
  deps.view.model.refresh();
}

/** A modal question with one action; true when the user took it. */
async function confirmed(confirm: { message: string; action: string }): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(confirm.message, { modal: true }, confirm.action);
  return choice === confirm.action;
}

/** Shows why the dataset stays in the tree, with a Hide button that hides it. */
async function offerHide(
  remembered: RememberedItems,
  connectionId: string,
  slug: string,
  message: string,
): Promise<void> {
  const hide = vscode.l10n.t('Hide');
  const choice = await vscode.window.showInformationMessage(message, hide);
  if (choice === hide) await remembered.hideDataset(connectionId, slug);
}

/** Remembers the SLO ids the user names for a dataset (the node's, or one picked). */
async function addSlos(deps: DatasetCommandDeps, arg: unknown): Promise<void> {
  const cid = connectionIdOf(arg) ?? activeId(deps) ?? (await deps.connections.requireActive()).profile.id;
  const dataset = datasetOf(arg) ?? (await pickDataset(deps.view.model, vscode.l10n.t('Dataset of the SLO'), true));
  if (dataset === undefined) return;
  const text = await vscode.window.showInputBox({
    title: vscode.l10n.t('Add SLO to {0}', dataset),
    prompt: vscode.l10n.t(
      'SLO id (several separated by commas): for an SLO the service does not list. Its burn alerts are listed under Burn alerts.',
    ),
    validateInput: (v) => {
      const ids = entries(v);
      if (ids.length === 0) return vscode.l10n.t('Enter at least one SLO id');
      return ids.some((s) => /[\s/?#]/.test(s))
        ? vscode.l10n.t('An SLO id must not contain spaces, "/", "?" or "#"')
        : undefined;
    },
  });
  if (text === undefined) return;
  await deps.remembered.addSlos(cid, dataset, entries(text));
  deps.view.model.refreshId(groupId(cid, dataset, 'burnAlerts'));
}
