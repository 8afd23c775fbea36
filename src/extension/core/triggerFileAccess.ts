// A workspace trigger file as the editor holds it, for the features that write into one (the editor's Apply
// and the agents' apply tool): its saved text, whether it is open with unsaved edits, and the one edit that
// writes a created trigger's id, never into a document with unsaved edits, a link, or a file outside its
// workspace folder once links are resolved.
import * as vscode from 'vscode';
import { editRefusal } from './workspaceContainment';
import type { Outcome } from '../../result';

/** Text as it is on disk (UTF-8, a byte order mark kept as read). */
const decodeText = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** Text of bytes that are UTF-8, else undefined: a plan never sends a file read with replacement characters. */
function strictText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The most a plan reads of one trigger file, as `obs plan` by default (a trigger file is a few KiB). */
const MAX_PLAN_BYTES = 64 * 1024 * 1024;

/** A trigger file's saved text for a plan, or why it is not planned (not a regular file, too large, unreadable, not UTF-8). */
export async function planText(uri: vscode.Uri): Promise<Outcome<{ text: string }>> {
  let bytes: Uint8Array;
  try {
    // Looked at first: reading a FIFO would never end, and a huge file would fill the extension host.
    const stat = await vscode.workspace.fs.stat(uri);
    if ((stat.type & vscode.FileType.File) === 0)
      return {
        ok: false,
        reason: vscode.l10n.t('it is not a regular file (a FIFO, socket or device): only files are planned'),
      };
    if (stat.size > MAX_PLAN_BYTES)
      return { ok: false, reason: vscode.l10n.t('it is larger than 64 MiB: a trigger file is a few KiB') };
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    return {
      ok: false,
      reason: vscode.l10n.t('it could not be read ({0})', err instanceof Error ? err.message : String(err)),
    };
  }
  const text = strictText(bytes);
  return text === undefined
    ? { ok: false, reason: vscode.l10n.t('the file is not UTF-8: save it as UTF-8 to plan it') }
    : { ok: true, text };
}

/** A trigger file as the editor holds it. */
export type EditorFileState =
  /** Open with unsaved edits. */
  | { dirty: true }
  /** Its text: the open document's, or the saved file's. */
  | { dirty: false; text: string }
  | { gone: true }
  /** Never edited: a link (the edit would land where it leads), or outside its workspace folder. */
  | { refused: 'link' | 'outside' };

/** The name a plan gives a file: workspace-relative (with its folder's name in a multi-root workspace). */
export function workspaceName(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

async function editorFileState(uri: vscode.Uri): Promise<EditorFileState> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty === true) return { dirty: true };
  if (open !== undefined) return { dirty: false, text: open.getText() };
  try {
    return { dirty: false, text: decodeText(await vscode.workspace.fs.readFile(uri)) };
  } catch {
    return { gone: true };
  }
}

/** The saved text of a file, or undefined when it is gone. */
function savedText(uri: vscode.Uri): Promise<string | undefined> {
  return Promise.resolve(vscode.workspace.fs.readFile(uri)).then(decodeText, () => undefined);
}

/** One edit through a WorkspaceEdit, then a save; never on a document with unsaved edits. Answers the text saved. */
async function editAndSave(
  uri: vscode.Uri,
  edit: { offset: number; length: number; content: string },
): Promise<string | undefined> {
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.isDirty) return undefined;
  const change = new vscode.WorkspaceEdit();
  change.replace(
    uri,
    new vscode.Range(doc.positionAt(edit.offset), doc.positionAt(edit.offset + edit.length)),
    edit.content,
  );
  if (!(await vscode.workspace.applyEdit(change))) return undefined;
  return (await doc.save()) ? doc.getText() : undefined;
}

/**
 * The trigger files a plan read, by the name it gives them (workspace-relative), with their uris; and what an
 * apply asks of them: their saved texts now, their state for the id write-back, and the one edit it makes.
 */
export class PlannedFiles {
  private readonly uris = new Map<string, vscode.Uri>();

  /** The file's name in a plan, its uri kept under it. */
  protected remember(uri: vscode.Uri): string {
    const file = workspaceName(uri);
    this.uris.set(file, uri);
    return file;
  }

  /** The uri of a file the plan read, by the name the plan gives it. */
  uriOf(file: string): vscode.Uri | undefined {
    return this.uris.get(file);
  }

  /** The saved texts of files read before (undefined when gone), for "changed since the plan". */
  async current(files: readonly string[]): Promise<Map<string, string | undefined>> {
    const out = new Map<string, string | undefined>();
    for (const file of files) {
      const uri = this.uris.get(file);
      out.set(file, uri === undefined ? undefined : await savedText(uri));
    }
    return out;
  }

  /** The editor's view of a file for the id write-back: refused, open with unsaved edits, or its text. */
  async state(file: string): Promise<EditorFileState> {
    const uri = this.uris.get(file);
    if (uri === undefined) return { gone: true };
    const refused = await editRefusal(uri, vscode.workspace.getWorkspaceFolder(uri)?.uri);
    return refused === undefined ? editorFileState(uri) : { refused };
  }

  /** One edit through a WorkspaceEdit, then a save; never on a document with unsaved edits, nor on a file refused by state(). */
  async editAndSave(
    file: string,
    edit: { offset: number; length: number; content: string },
  ): Promise<string | undefined> {
    const uri = this.uris.get(file);
    // Asked again at the edit: the file may have been swapped for a link since state() looked.
    if (uri === undefined || (await editRefusal(uri, vscode.workspace.getWorkspaceFolder(uri)?.uri)) !== undefined)
      return undefined;
    return editAndSave(uri, edit);
  }
}
