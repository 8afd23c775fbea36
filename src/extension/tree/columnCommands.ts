// "Find Column...": one column by its exact key name, shown in the tree on request.
import * as vscode from 'vscode';
import { ColumnKeyName } from '../../api/schemas';
import type { ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import { safeLabel } from '../core/text';
import { connectionIdOf, datasetOf } from './commandArgs';
import { pickDataset } from './datasetPicker';
import type { DatasetsView } from './datasetsView';
import { findColumn, noColumnMessage } from './findColumn';

export function registerColumnCommands(view: DatasetsView, connections: ConnectionManager, feedback: Feedback): vscode.Disposable[] {
  return [
    feedback.registerCommand('obs.column.find', 'find a column', async (arg) => {
      // From a tree item: that item's connection; from the palette: the active one.
      const itemConnection = connectionIdOf(arg);
      const conn = itemConnection !== undefined ? await connections.connectionFor(itemConnection) : await connections.requireActive();
      const dataset = datasetOf(arg) ?? (await pickDataset(view.model, 'Dataset to search', true));
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
      const column = await feedback.runWithProgress(`Finding column ${safeLabel(keyName, 80)}...`, (signal) =>
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
        await view.setFilter(column.key_name);
        await view.loadEverythingForFilter();
      }
    }),
  ];
}
