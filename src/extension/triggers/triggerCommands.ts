// Commands on a trigger of the tree: open it read-only as the service returned it, export it to a file
// (from the tree, or from the read-only document). The file is the canonical trigger file, written by
// `fileText` (triggerFiles/normalize.ts, in the triggers-as-code bundle).
import * as vscode from 'vscode';
import type { Trigger } from '../../api/schemas';
import type { Feedback } from '../core/feedback';
import { loadItemArgs, parseArg } from '../tree';
import { parseTriggerUri, TRIGGER_SCHEME, type TriggerDocumentProvider } from './triggerDocuments';
import { exportRelativePath } from './triggerExport';

/** The canonical trigger file's text of a trigger. */
export type TriggerFileText = (trigger: Trigger) => string;

async function exportTrigger(
  node: { dataset: string; trigger: Trigger },
  feedback: Feedback,
  fileText: TriggerFileText,
): Promise<void> {
  let folder: vscode.Uri | undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 1) folder = folders[0]?.uri;
  else if (folders.length > 1)
    folder = (
      await vscode.window.showWorkspaceFolderPick({
        placeHolder: vscode.l10n.t('Export the trigger into which folder?'),
      })
    )?.uri;
  else {
    const picked = await vscode.window.showOpenDialog({
      canSelectFolders: true,
      canSelectFiles: false,
      openLabel: vscode.l10n.t('Export Here'),
    });
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
    const overwrite = vscode.l10n.t('Overwrite');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} already exists. Overwrite it?', relative),
      { modal: true },
      overwrite,
    );
    if (answer !== overwrite) return;
  }
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(fileText(node.trigger)));
  feedback.log.info(`exported trigger ${node.trigger.id} to ${target.fsPath}`);
  await vscode.window.showTextDocument(target);
}

export function registerTriggerCommands(
  documents: TriggerDocumentProvider,
  feedback: Feedback,
  fileText: TriggerFileText,
): vscode.Disposable[] {
  return [
    feedback.registerCommand('obs.trigger.open', vscode.l10n.t('open the trigger'), async (arg) => {
      const node = parseArg((await loadItemArgs()).TriggerArg, arg);
      if (node) await documents.open(node.connectionId, node.dataset, node.trigger);
    }),
    feedback.registerCommand('obs.trigger.export', vscode.l10n.t('export the trigger'), async (arg) => {
      const node = parseArg((await loadItemArgs()).TriggerArg, arg);
      if (node) await exportTrigger(node, feedback, fileText);
    }),
    // From the read-only document of a trigger (editor title), or the active editor from the palette.
    feedback.registerCommand('obs.trigger.exportOpen', vscode.l10n.t('export the trigger'), async (arg) => {
      const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
      const ref = uri?.scheme === TRIGGER_SCHEME ? parseTriggerUri(uri) : undefined;
      const trigger = uri && documents.triggerOf(uri);
      if (!ref || !trigger) {
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Open a trigger from the Datasets view to export it to a file.'),
        );
        return;
      }
      await exportTrigger({ dataset: ref.dataset, trigger }, feedback, fileText);
    }),
  ];
}
