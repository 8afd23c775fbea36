// Read-only JSON documents for "Review changes": two virtual documents on the `obs-form-review:` scheme
// shown side by side with vscode.diff. Content providers' documents cannot be edited or saved. A form's
// diffs are closed once it saved: they would show a comparison that no longer holds.
import * as vscode from 'vscode';
import type { ReviewSide } from './burnAlertController';

const REVIEW_SCHEME = 'obs-form-review';
/** Only the latest reviews are kept; an older diff tab shows its text until it is closed. */
const MAX_DOCUMENTS = 40;

export class ReviewDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();
  private counter = 0;
  /** The documents of each form's diffs (by the form's key), to close them after a save. */
  private readonly owned = new Map<string, Set<string>>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '// This review is no longer available: run "Review changes" again.\n';
  }

  /** Opens a diff of two JSON values for the form `owner`; each call gets fresh documents so older tabs keep their text. */
  async openDiff(left: ReviewSide, right: ReviewSide, title: string, owner?: string): Promise<void> {
    const n = ++this.counter;
    const uriOf = (side: ReviewSide): vscode.Uri => {
      const name =
        side.title
          .replace(/[^A-Za-z0-9 _-]+/g, '')
          .trim()
          .replace(/\s+/g, '-') || 'document';
      return vscode.Uri.from({ scheme: REVIEW_SCHEME, path: `/${n}/${name}.json` });
    };
    const leftUri = uriOf(left);
    const rightUri = uriOf(right);
    this.put(leftUri, left.value);
    this.put(rightUri, right.value);
    if (owner !== undefined) {
      const uris = this.owned.get(owner) ?? new Set<string>();
      uris.add(leftUri.toString()).add(rightUri.toString());
      this.owned.set(owner, uris);
    }
    await vscode.commands.executeCommand('vscode.diff', leftUri, rightUri, title, { preview: true });
  }

  private put(uri: vscode.Uri, value: unknown): void {
    this.texts.set(uri.toString(), `${JSON.stringify(value, null, 2)}\n`);
    while (this.texts.size > MAX_DOCUMENTS) {
      const oldest = this.texts.keys().next().value;
      if (oldest === undefined) break;
      this.texts.delete(oldest);
    }
  }

  /** Closes the diff tabs the form `owner` opened (its changes were saved: they compare what no longer holds). */
  async closeDiffs(owner: string): Promise<void> {
    const uris = this.owned.get(owner);
    this.owned.delete(owner);
    if (uris === undefined) return;
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter(
        (tab) =>
          tab.input instanceof vscode.TabInputTextDiff &&
          (uris.has(tab.input.original.toString()) || uris.has(tab.input.modified.toString())),
      );
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
  }

  /** Makes VS Code ask this provider for the review documents' scheme. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, this);
  }

  dispose(): void {
    this.changed.dispose();
    this.texts.clear();
    this.owned.clear();
  }
}
