// The lint of trigger files as the active connection's environment sees them (docs/ENVIRONMENTS.md): when the
// active connection is an environment other than the home one of a file's folder, the linter reads each trigger
// as that environment will hold it (its override, dataset, saved query and recipients mapped), with that
// connection's datasets, columns and recipients, as `obs lint --env` does. A finding about a member the override
// sets is shown at that override in the environments file; any other in the trigger file. Their source names the
// environment (`obs-lint (production)`), and they offer no quick fix: the linter's edits are of a text no file holds.
import * as vscode from 'vscode';
import type { Diagnostic as LintDiagnostic } from '../../lint';
import { TRIGGER_FILE_SUFFIX } from '../../triggerFiles/paths';
import type { Settings } from '../core/settings';
import type { WorkspaceEnvironments } from '../core/workspaceEnvironments';
import type { LintView } from './lintedDocuments';

/** What the linter needs of the extension: the environments files, and which connection is active. */
export interface AsSeenDeps {
  readonly environments: WorkspaceEnvironments;
  readonly settings: Settings;
  readonly activeConnection: () => string | undefined;
}

export class AsSeenLint implements vscode.Disposable {
  /** The findings placed in each environments file, by the trigger file they came from. */
  private readonly there = new Map<string, Map<string, vscode.Diagnostic[]>>();
  private readonly collection = vscode.languages.createDiagnosticCollection('obs-lint-environment');

  constructor(private readonly deps: AsSeenDeps) {}

  /**
   * When an environments file changes what the active connection's environment sees: every trigger file is to be
   * linted again. A change that alters nothing of it (no connection, the home's, a file of another folder) lints
   * nothing again, so that reading the files at start-up cancels no lint under way.
   */
  onDidChange(listener: () => void): { dispose(): void } {
    const { environments, activeConnection } = this.deps;
    let seen = environments.seenKey(activeConnection());
    return environments.onDidChange(() => {
      const now = environments.seenKey(activeConnection());
      if (now === seen) return;
      seen = now;
      listener();
    });
  }

  /** The folder of a trigger file, with the environment the active connection is there (other than the home). */
  private awayOf(key: string) {
    const connection = this.deps.activeConnection();
    const uri = vscode.Uri.parse(key);
    if (connection === undefined || uri.scheme !== 'file' || !uri.path.toLowerCase().endsWith(TRIGGER_FILE_SUFFIX))
      return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const env = folder === undefined ? undefined : this.deps.environments.awayIn(folder.uri.toString(), connection);
    return folder === undefined || env === undefined ? undefined : { folder, env };
  }

  /**
   * How a file read from disk is linted: as its folder's environment sees it, when it is UTF-8 text (decoded only
   * then), or undefined (its bytes as they are, the worker saying what is wrong with them).
   */
  viewOfBytes(key: string, bytes: Uint8Array): LintView | undefined {
    if (this.awayOf(key) === undefined) return undefined;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
    return this.view(key, text);
  }

  /** How a document is linted: as its folder's environment sees it, or undefined (as it is). */
  view(key: string, text: string): LintView | undefined {
    const away = this.awayOf(key);
    const view = away?.env.views.lintView(away.env.name, text);
    return away === undefined || view === undefined ? undefined : { ...view, environment: away.env.name };
  }

  /**
   * Shows the findings a trigger file's lint placed in its environments file, made VS Code's by `shown` (given the
   * environments file); none: its earlier ones go.
   */
  show(
    key: string,
    there: readonly LintDiagnostic[],
    shown: (file: vscode.Uri, found: readonly LintDiagnostic[]) => vscode.Diagnostic[],
  ): void {
    const away = this.awayOf(key);
    this.forget(key);
    if (away === undefined || there.length === 0) return;
    const uri = vscode.Uri.joinPath(away.folder.uri, this.deps.settings.environmentsFile());
    const byFile = this.there.get(uri.toString()) ?? new Map<string, vscode.Diagnostic[]>();
    byFile.set(key, shown(uri, there));
    this.there.set(uri.toString(), byFile);
    this.collection.set(uri, [...byFile.values()].flat());
  }

  /** A trigger file closed or gone: its findings leave the environments files. */
  forget(key: string): void {
    for (const [file, byFile] of this.there)
      if (byFile.delete(key)) this.collection.set(vscode.Uri.parse(file), [...byFile.values()].flat());
  }

  dispose(): void {
    this.collection.dispose();
  }
}
