// Commands of the Datasets view itself: refresh, retry, cancel, filter, copy an item's id.
import * as vscode from 'vscode';
import type { Feedback } from '../core/feedback';
import { safeLabel } from '../core/text';
import { copyableId, ErrorArg, parseArg, refreshTarget } from './commandArgs';
import type { DatasetsView } from './datasetsView';

/**
 * `onRefresh`: what else Refresh reads again (the recipients); the tree itself forgets what it read of the
 * account (dataset lists, refusals) and loads everything again.
 */
export function registerViewCommands(
  view: DatasetsView,
  feedback: Feedback,
  onRefresh: () => void = () => undefined,
): vscode.Disposable[] {
  const model = view.model;
  const command = feedback.registerCommand.bind(feedback);
  return [
    command('obs.tree.refresh', vscode.l10n.t('refresh the tree'), () => {
      onRefresh();
      model.reloadAccount();
    }),
    command('obs.tree.refreshNode', vscode.l10n.t('refresh'), (node) => {
      const id = refreshTarget(node);
      if (id === undefined) model.refresh();
      else model.refreshId(id);
    }),
    command('obs.tree.retry', vscode.l10n.t('retry'), (node) => {
      const failed = parseArg(ErrorArg, node);
      if (failed) model.refreshId(failed.parentId);
      else model.refresh();
    }),
    command('obs.tree.cancel', vscode.l10n.t('cancel loading'), () => model.cancelLoading()),
    command('obs.tree.filter', vscode.l10n.t('filter the tree'), async () => {
      const text = await vscode.window.showInputBox({
        title: vscode.l10n.t('Filter the Datasets view'),
        prompt: vscode.l10n.t('Show datasets, columns, triggers, SLOs and burn alerts whose name contains this text'),
        value: model.filter ?? '',
      });
      if (text === undefined) return;
      await view.setFilter(text.trim() === '' ? undefined : text);
      await view.loadEverythingForFilter();
    }),
    command('obs.tree.clearFilter', vscode.l10n.t('clear the filter'), () => view.setFilter(undefined)),
    command('obs.copyId', vscode.l10n.t('copy the id'), async (node) => {
      const id = copyableId(node);
      if (id === undefined) return;
      await vscode.env.clipboard.writeText(id);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', safeLabel(id, 80)), 3000);
    }),
  ];
}
