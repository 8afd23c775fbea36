// "Find Column...": one column by its exact key name, shown in the tree on request.
import * as vscode from 'vscode';
import { connectionLabel, type ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import { safeLabel } from '../core/text';
import { connectionIdOf, datasetOf } from './commandArgs';
import { pickDataset } from './datasetPicker';
import type { DatasetsView } from './datasetsView';
import { findColumn, noColumnMessage } from './findColumn';

export function registerColumnCommands(
  view: DatasetsView,
  connections: ConnectionManager,
  feedback: Feedback,
): vscode.Disposable[] {
  return [
    feedback.registerCommand('obs.column.find', vscode.l10n.t('find a column'), async (arg) => {
      // From a tree item: that item's connection; from the palette: the active one.
      const itemConnection = connectionIdOf(arg);
      const conn =
        itemConnection !== undefined
          ? await connections.connectionFor(itemConnection)
          : await connections.requireActive();
      const dataset = datasetOf(arg) ?? (await pickDataset(view.model, vscode.l10n.t('Dataset to search'), true));
      if (dataset === undefined) return;
      // The API's schemas load with the first command that checks a value against them, not at activation.
      const { ColumnKeyName } = await import('../../api/schemas');
      const keyName = await vscode.window.showInputBox({
        title: vscode.l10n.t('Find Column in {0} on {1}', safeLabel(dataset), connectionLabel(conn.profile.name)),
        prompt: vscode.l10n.t('Column key name (exact)'),
        validateInput: (v) => {
          const r = ColumnKeyName.safeParse(v);
          return r.success ? undefined : r.error.issues[0]?.message;
        },
      });
      if (keyName === undefined) return;
      const column = await feedback.runWithProgress(
        vscode.l10n.t('Finding column {0}...', safeLabel(keyName, 80)),
        (signal) => findColumn(conn.client, dataset, keyName, signal),
      );
      if (column === undefined) return;
      if (column === null) {
        void vscode.window.showInformationMessage(noColumnMessage(keyName, dataset, (s) => safeLabel(s)));
        return;
      }
      const facts = [
        column.type,
        column.hidden ? vscode.l10n.t('hidden') : vscode.l10n.t('visible'),
        vscode.l10n.t('last written {0}', column.last_written ?? vscode.l10n.t('never')),
      ].join(', ');
      const showInTree = vscode.l10n.t('Show in Tree');
      const copyId = vscode.l10n.t('Copy Id');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('Column "{0}" in {1}: {2}.', safeLabel(column.key_name), safeLabel(dataset), facts),
        showInTree,
        copyId,
      );
      if (choice === copyId) await vscode.env.clipboard.writeText(column.id ?? column.key_name);
      if (choice === showInTree) {
        await view.setFilter(column.key_name);
        await view.loadEverythingForFilter();
      }
    }),
  ];
}
