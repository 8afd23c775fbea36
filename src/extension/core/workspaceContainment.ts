// Which workspace files the editor reads and edits for triggers as code: only those whose real path lies
// inside the real path of their workspace folder. A cloned repository may hold `x.trigger.json` linked to a
// secret, or a folder linked to `/`, and VS Code's file search follows links. Only `file:` uris can be told
// (node:fs); elsewhere links cannot be resolved, and nothing is left out. No vscode import.
import { lstat } from 'node:fs/promises';
import * as l10n from '@vscode/l10n';
import { placeIn } from '../../triggerFiles/contained';

/** As much of a uri as this needs (a vscode.Uri is one). */
export interface DiskUri {
  readonly scheme: string;
  readonly fsPath: string;
}

/** Whether a file lies outside its workspace folder (undefined: it is in none), links resolved; false when it cannot be told. */
export async function outsideItsFolder(file: DiskUri, folder: DiskUri | undefined): Promise<boolean> {
  if (file.scheme !== 'file') return false;
  if (folder === undefined || folder.scheme !== 'file') return true;
  return (await placeIn(folder.fsPath, file.fsPath)) !== 'inside';
}

/** The files that lie inside their workspace folders, and those left out, each in the order given. */
export async function splitInside<T extends DiskUri>(
  files: readonly T[],
  folderOf: (file: T) => DiskUri | undefined,
): Promise<{ inside: T[]; leftOut: T[] }> {
  const outside = await Promise.all(files.map((f) => outsideItsFolder(f, folderOf(f))));
  return { inside: files.filter((_, i) => !outside[i]), leftOut: files.filter((_, i) => outside[i]) };
}

/** Why the id write-back must not edit a file: it is a link (the edit would land where it leads), or lies outside its workspace folder. */
export async function editRefusal(file: DiskUri, folder: DiskUri | undefined): Promise<'link' | 'outside' | undefined> {
  if (file.scheme !== 'file') return undefined;
  if ((await lstat(file.fsPath).catch(() => undefined))?.isSymbolicLink() === true) return 'link';
  return (await outsideItsFolder(file, folder)) ? 'outside' : undefined;
}

/** The reason given for a file left out (the agent tools' answer names the file beside it). */
export const leftOutReason = (): string =>
  l10n.t('it lies outside its workspace folder once links are resolved, so it is not read');

/** How many of the names a message lists. */
const NAMED = 5;

/** The message of an Apply that left files out: their names (at most five, then how many more). */
export function leftOutMessage(names: readonly string[]): string {
  const shown = names.slice(0, NAMED).join(', ');
  return names.length > NAMED
    ? l10n.t(
        'Not planned, as they lie outside their workspace folder once links are resolved: {0} and {1} more.',
        shown,
        names.length - NAMED,
      )
    : l10n.t('Not planned, as they lie outside their workspace folder once links are resolved: {0}.', shown);
}
