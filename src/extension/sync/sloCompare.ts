// Compare with Service on a burn alert or definitions file: the service's canonical text (read fresh: the one
// alert read whole, or the empty update that answers a dataset's definitions) beside the file, in a diff
// editor. The service's side is a read-only document of its own scheme, kept in memory.
import * as vscode from 'vscode';
import {
  BURN_ALERT_FILE_SUFFIX,
  burnAlertServiceText,
  DEFINITIONS_FILE_SUFFIX,
  definitionsServiceText,
  type NotComparable,
} from '../../triggerFiles';
import { connectionLabel, type ConnectionManager } from '../connections';
import type { Feedback } from '../core/feedback';
import { SERVICE_SLO_SCHEME } from './syncIds';

/** Service texts kept for reopening a diff; older ones are dropped. */
const KEPT = 20;

/** The service's side of each comparison made, by its uri. */
export class ServiceSloDocuments {
  private readonly texts = new Map<string, string>();
  private next = 1;

  /** A new document of the text, named like the file so that the editor picks JSON. */
  add(connectionId: string, fileName: string, text: string): vscode.Uri {
    const path = `/${encodeURIComponent(connectionId)}/${this.next++}/${fileName}`;
    const uri = vscode.Uri.from({ scheme: SERVICE_SLO_SCHEME, path });
    this.texts.set(uri.toString(), text);
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEPT))) this.texts.delete(key);
    return uri;
  }

  /** The text of a document made here, or undefined when it is no longer kept (a window reloaded). */
  text(uri: vscode.Uri): string | undefined {
    return this.texts.get(uri.toString());
  }
}

type Kind = 'burn-alert' | 'definitions';

function kindOf(uri: vscode.Uri): Kind | undefined {
  const path = uri.path.toLowerCase();
  if (path.endsWith(BURN_ALERT_FILE_SUFFIX)) return 'burn-alert';
  return path.endsWith(DEFINITIONS_FILE_SUFFIX) ? 'definitions' : undefined;
}

function notComparable(reason: NotComparable, name: string): string {
  switch (reason) {
    case 'not-an-object':
      return vscode.l10n.t('{0} does not hold one JSON object: fix it to compare it with the service.', name);
    case 'no-id':
      return vscode.l10n.t('{0} has no "id": it does not say which burn alert of the service it is.', name);
    case 'no-dataset':
      return vscode.l10n.t('{0} has no "dataset_slug": it does not say which dataset it belongs to.', name);
  }
}

export interface SloCompareDeps {
  connections: Pick<ConnectionManager, 'requireActive'>;
  feedback: Feedback;
  documents: ServiceSloDocuments;
}

/** The file a Compare was run on: an Explorer, editor or lens uri, a Drift view row (`{ uri }`), else the editor's. */
function fileOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const uri = typeof arg === 'object' && arg !== null ? (arg as { uri?: unknown }).uri : undefined;
  if (typeof uri === 'string') return vscode.Uri.parse(uri);
  return vscode.window.activeTextEditor?.document.uri;
}

/** Compare with Service on a burn alert or definitions file (an Explorer or editor uri, or the active editor's). */
export async function compareSloFile(deps: SloCompareDeps, arg: unknown): Promise<void> {
  const uri = fileOf(arg);
  const kind = uri === undefined ? undefined : kindOf(uri);
  if (uri === undefined || kind === undefined) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a burn alert or definitions file to compare it with the service.'),
    );
    return;
  }
  const active = await deps.connections.requireActive();
  const connection = connectionLabel(active.profile.name);
  const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  // The text as the editor holds it, unsaved edits included: the diff's right side shows the same.
  const fileText = (await vscode.workspace.openTextDocument(uri)).getText();
  const read = await deps.feedback.runWithProgress(
    kind === 'burn-alert'
      ? vscode.l10n.t('Reading the burn alert of {0} from {1}', name, connection)
      : vscode.l10n.t('Reading the definitions of {0} from {1}', name, connection),
    (signal) =>
      kind === 'burn-alert'
        ? burnAlertServiceText(active.client, fileText, signal)
        : definitionsServiceText(active.client, fileText, signal),
  );
  if (read === undefined) return;
  if (!read.ok) {
    void vscode.window.showWarningMessage(notComparable(read.reason, name));
    return;
  }
  const left = deps.documents.add(active.profile.id, name, read.text);
  await vscode.commands.executeCommand('vscode.diff', left, uri, `${name} (${connection}) ↔ ${name} (local)`, {
    preview: true,
  });
}
