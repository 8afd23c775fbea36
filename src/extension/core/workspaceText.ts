// The text of a workspace file as the user sees it: the open editor's (unsaved edits included), else the
// file's bytes read as UTF-8, refused whole when they are not UTF-8 or over a size, never read with
// replacement characters (the text may be sent to the service as a query).
import * as vscode from 'vscode';
import { errorText } from './errors';
import { seenText, type WorkspaceEnvironments } from './workspaceEnvironments';
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

/** The workspace folder a file lies in, by its uri's text (how the environments of a folder are kept); undefined outside. */
function workspaceFolderOf(uri: vscode.Uri): string | undefined {
  return vscode.workspace.getWorkspaceFolder(uri)?.uri.toString();
}

/**
 * A trigger file's text as a connection's environment sees it, with the environment's name when it is one other
 * than the home one of the file's folder (core/workspaceEnvironments.ts, seenText); handed to the hosts loaded
 * apart (noise, tests), which then carry no copy of the environments' code.
 */
export type SeenText = (uri: vscode.Uri, connection: string, text: string) => { text: string; environment?: string };

/** A trigger file's text as a connection's environment sees it (the preview, the tests and the noise report). */
export function seenTextOf(environments: WorkspaceEnvironments): SeenText {
  return (uri, connection, text) => seenText(environments, workspaceFolderOf(uri), connection, text);
}
