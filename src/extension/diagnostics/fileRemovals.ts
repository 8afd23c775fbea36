// Files and folders that went away or moved, however it happened. VS Code raises onDidDeleteFiles and
// onDidRenameFiles only for its own edits; deletes by anyone else (a terminal, git, workspace.fs) are seen
// by a file watcher per workspace folder, made again when the folders change.
import * as vscode from 'vscode';

export interface FileRemovalListener {
  /** A file or folder was deleted, or moved away from `uri`. */
  removed(uri: vscode.Uri): void;
  /** A file or folder moved to `uri` (removed() was told of its old place first). */
  arrived(uri: vscode.Uri): void;
}

export class FileRemovals implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly listener: FileRemovalListener) {
    this.subscriptions = [
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((uri) => listener.removed(uri))),
      vscode.workspace.onDidRenameFiles((e) =>
        e.files.forEach(({ oldUri, newUri }) => {
          listener.removed(oldUri);
          listener.arrived(newUri);
        }),
      ),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.watch()),
    ];
    this.watch();
  }

  private watch(): void {
    for (const w of this.watchers) w.dispose();
    this.watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(folder, '**'),
        true,
        true,
        false,
      );
      return vscode.Disposable.from(
        watcher.onDidDelete((uri) => this.listener.removed(uri)),
        watcher,
      );
    });
  }

  dispose(): void {
    for (const d of [...this.subscriptions, ...this.watchers]) d.dispose();
  }
}
