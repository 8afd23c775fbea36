// Read-only documents showing a trigger as the service returned it, on the `obs-trigger:` scheme.
// The trigger linter checks them like trigger files (diagnostics/triggerDiagnostics.ts).
import * as vscode from 'vscode';
import type { Trigger } from '../../api/schemas';
import type { ConnectionManager } from '../connections';
import { sanitizeFileSegment } from './triggerExport';

export const TRIGGER_SCHEME = 'obs-trigger';

function triggerUri(connectionId: string, dataset: string, trigger: Pick<Trigger, 'id' | 'name'>): vscode.Uri {
  const enc = encodeURIComponent;
  const file = `${sanitizeFileSegment(trigger.name, trigger.id)}.trigger.json`;
  return vscode.Uri.from({
    scheme: TRIGGER_SCHEME,
    path: `/${enc(connectionId)}/${enc(dataset)}/${enc(trigger.id)}/${file}`,
  });
}

export function parseTriggerUri(
  uri: vscode.Uri,
): { connectionId: string; dataset: string; triggerId: string } | undefined {
  const parts = uri.path.split('/').slice(1);
  if (parts.length !== 4) return undefined;
  const [c, d, t] = parts.map((p) => decodeURIComponent(p));
  if (c === undefined || d === undefined || t === undefined) return undefined;
  return { connectionId: c, dataset: d, triggerId: t };
}

function triggerText(trigger: Trigger): string {
  return `${JSON.stringify(trigger, null, 2)}\n`;
}

export class TriggerDocumentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();

  constructor(private readonly connections: ConnectionManager) {}

  /** Shows a trigger already loaded in the tree (no request). */
  async open(connectionId: string, dataset: string, trigger: Trigger): Promise<vscode.TextEditor> {
    const uri = triggerUri(connectionId, dataset, trigger);
    const text = triggerText(trigger);
    const key = uri.toString();
    const before = this.texts.get(key);
    this.texts.set(key, text);
    if (before !== undefined && before !== text) this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, { preview: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    // After a window reload the document is restored without the tree: fetch the trigger again.
    const ref = parseTriggerUri(uri);
    if (!ref) throw new Error(`not a trigger document: ${uri.toString()}`);
    const active = await this.connections.getActive();
    if (!active || active.profile.id !== ref.connectionId) {
      throw new Error(
        vscode.l10n.t(
          'This trigger belongs to a connection that is not active; switch to it and open the trigger again.',
        ),
      );
    }
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort());
    try {
      const res = await active.client.listTriggers(ref.dataset, { signal: controller.signal });
      const trigger = res.data.find((t) => t.id === ref.triggerId);
      if (!trigger) throw new Error(vscode.l10n.t('Trigger {0} no longer exists in {1}.', ref.triggerId, ref.dataset));
      const text = triggerText(trigger);
      this.texts.set(uri.toString(), text);
      return text;
    } finally {
      sub.dispose();
    }
  }

  /** The trigger a read-only document shows, as it was read. */
  triggerOf(uri: vscode.Uri): Trigger | undefined {
    const text = this.texts.get(uri.toString());
    return text === undefined ? undefined : (JSON.parse(text) as Trigger);
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
  }
}
