// Plans and results as read-only text documents, shown beside the editor: room for every change and its
// members, which a dialog has not. Each document gets its own uri under the owner's scheme; a few are kept.
import * as vscode from 'vscode';

/** Documents kept for reopening (Show Details); older ones are dropped. */
const KEPT = 20;

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;
  private next = 1;

  constructor(private readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.texts.get(uri.toString()) ?? vscode.l10n.t('This plan is no longer kept; apply again to see a new one.')
    );
  }

  /** A new document holding the text (not shown yet). */
  prepare(title: string, text: string): vscode.Uri {
    // The title names the connection: no path separators in a file name.
    const uri = vscode.Uri.from({ scheme: this.scheme, path: `/${this.next++}/${title.replace(/[\\/]/g, '-')}.txt` });
    this.texts.set(uri.toString(), text);
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEPT))) this.texts.delete(key);
    return uri;
  }

  /** Gives a document kept here a new text (a plan once applied); an editor showing it is told. */
  replace(uri: vscode.Uri, text: string): void {
    if (!this.texts.has(uri.toString())) return;
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  async open(uri: vscode.Uri): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: false,
    });
  }

  async show(title: string, text: string): Promise<vscode.Uri> {
    const uri = this.prepare(title, text);
    await this.open(uri);
    return uri;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
    this.texts.clear();
  }
}
