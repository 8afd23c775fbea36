// Commands on a trigger of the tree: open it read-only as the service returned it, export it to a file.
import * as vscode from 'vscode';
import type { Feedback } from '../core/feedback';
import { parseArg, TriggerArg } from '../tree';
import type { TriggerDocumentProvider } from './triggerDocuments';
import { exportRelativePath, exportText } from './triggerExport';

async function exportTrigger(node: TriggerArg, feedback: Feedback): Promise<void> {
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
  feedback.log.info(`exported trigger ${node.trigger.id} to ${target.fsPath}`);
  await vscode.window.showTextDocument(target);
}

export function registerTriggerCommands(documents: TriggerDocumentProvider, feedback: Feedback): vscode.Disposable[] {
  return [
    feedback.registerCommand('obs.trigger.open', 'open the trigger', async (arg) => {
      const node = parseArg(TriggerArg, arg);
      if (node) await documents.open(node.connectionId, node.dataset, node.trigger);
    }),
    feedback.registerCommand('obs.trigger.export', 'export the trigger', async (arg) => {
      const node = parseArg(TriggerArg, arg);
      if (node) await exportTrigger(node, feedback);
    }),
  ];
}
