// The plan and the result of an apply as read-only text documents, shown beside the editor: room for twenty
// changes and their members, which a dialog has not. Each plan gets its own document; a few are kept.
import * as vscode from 'vscode';

export const APPLY_SCHEME = 'obs-apply';

/** Documents kept for reopening (Show Details); older ones are dropped. */
const KEPT = 20;

export class ApplyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private next = 1;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? vscode.l10n.t('This plan is no longer kept; apply again to see a new one.');
  }

  /** A new document holding the text (not shown yet). */
  prepare(title: string, text: string): vscode.Uri {
    // The title names the connection: no path separators in a file name.
    const uri = vscode.Uri.from({ scheme: APPLY_SCHEME, path: `/${this.next++}/${title.replace(/[\\/]/g, '-')}.txt` });
    this.texts.set(uri.toString(), text);
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEPT))) this.texts.delete(key);
    return uri;
  }

  async open(uri: vscode.Uri): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
  }

  async show(title: string, text: string): Promise<vscode.Uri> {
    const uri = this.prepare(title, text);
    await this.open(uri);
    return uri;
  }

  dispose(): void {
    this.texts.clear();
  }
}
