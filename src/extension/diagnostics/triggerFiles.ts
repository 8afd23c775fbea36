// Which documents are trigger files: setting `obs.triggerFiles` (globs relative to each workspace folder;
// globs starting with `**/` also match files outside the workspace) plus every document of the scheme
// that shows triggers read from the service (`obs-trigger:`). A trigger test file (`*.trigger-test.json`)
// or its recording (`*.trigger-test.recording.json`) is never one, whatever the globs: the default
// `**/triggers/**/*.json` would take those kept beside their triggers.
import * as vscode from 'vscode';
import { isTestSideFile } from '../../backtest/testPaths';
import { SKIPPED_BY_SEARCHES } from '../../triggerFiles/searchRules';

// Documents that only look like files: diffs, output, settings, etc.
const IGNORED_SCHEMES = new Set([
  'git',
  'output',
  'debug',
  'vscode-scm',
  'vscode-settings',
  'comment',
  'vscode-notebook-cell',
]);

function triggerFileSelector(patterns: readonly string[]): vscode.DocumentFilter[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const filters: vscode.DocumentFilter[] = [];
  for (const p of patterns) {
    for (const f of folders) filters.push({ pattern: new vscode.RelativePattern(f, p) });
    if (p.startsWith('**/')) filters.push({ pattern: p });
  }
  return filters;
}

export class TriggerFileMatcher {
  private selector: vscode.DocumentFilter[] = [];
  private patterns: string[] = [];

  constructor(
    /** The setting's patterns, read again on reload(). */
    private readonly readPatterns: () => string[],
    /** Documents of this scheme are always trigger documents. */
    private readonly triggerScheme: string,
  ) {
    this.reload();
  }

  /** Re-reads the setting and the workspace folders. */
  reload(): void {
    this.patterns = this.readPatterns();
    this.selector = triggerFileSelector(this.patterns);
  }

  matches(doc: vscode.TextDocument): boolean {
    if (doc.uri.scheme === this.triggerScheme) return true;
    if (IGNORED_SCHEMES.has(doc.uri.scheme) || isTestSideFile(doc.uri.path)) return false;
    return this.selector.length > 0 && vscode.languages.match(this.selector, doc) > 0;
  }

  /** Every trigger file in the workspace folders, each once. */
  async findAll(token?: vscode.CancellationToken): Promise<vscode.Uri[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const seen = new Map<string, vscode.Uri>();
    for (const folder of folders) {
      for (const p of this.patterns) {
        const found = await vscode.workspace.findFiles(
          new vscode.RelativePattern(folder, p),
          SKIPPED_BY_SEARCHES,
          undefined,
          token,
        );
        for (const uri of found) if (!isTestSideFile(uri.path)) seen.set(uri.toString(), uri);
        if (token?.isCancellationRequested) return [...seen.values()];
      }
    }
    return [...seen.values()].sort((a, b) => a.toString().localeCompare(b.toString()));
  }
}
