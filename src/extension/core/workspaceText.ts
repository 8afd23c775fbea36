// The text of a workspace file as the user sees it: the open editor's (unsaved edits included), else the
// file's bytes read as UTF-8, refused whole when they are not UTF-8 or over a size, never read with
// replacement characters (the text may be sent to the service as a query).
import * as vscode from 'vscode';
import { errorText } from './errors';
import type { Outcome } from '../../result';

export type WorkspaceText = Outcome<{ text: string }>;

/** Test and trigger files are small; anything larger is not what it says it is. */
const MAX_WORKSPACE_TEXT_BYTES = 4 * 1024 * 1024;

export async function readWorkspaceText(uri: vscode.Uri, maxBytes = MAX_WORKSPACE_TEXT_BYTES): Promise<WorkspaceText> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return { ok: true, text: open.getText() };
  let bytes: Uint8Array;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > maxBytes)
      return { ok: false, reason: vscode.l10n.t('it is larger than {0} MiB', Math.round(maxBytes / 1048576)) };
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    return { ok: false, reason: vscode.l10n.t('it cannot be read: {0}', errorText(err)) };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, reason: vscode.l10n.t('it is not UTF-8 text') };
  }
}
