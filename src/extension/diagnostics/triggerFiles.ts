// Which documents are trigger files: setting `obs.triggerFiles` (globs relative to each workspace folder;
// globs starting with `**/` also match files outside the workspace) plus every `obs-trigger:` document.
import * as vscode from 'vscode';
import { TRIGGER_SCHEME } from '../triggers/triggerDocuments';

export const DEFAULT_TRIGGER_FILES = ['**/*.trigger.json', '**/triggers/**/*.json'];
const EXCLUDE = '**/node_modules/**';
// Documents that only look like files: diffs, output, settings, etc.
const IGNORED_SCHEMES = new Set(['git', 'output', 'debug', 'vscode-scm', 'vscode-settings', 'comment', 'vscode-notebook-cell']);

export function triggerFilePatterns(): string[] {
  const v = vscode.workspace.getConfiguration('obs').get<unknown>('triggerFiles');
  if (!Array.isArray(v)) return DEFAULT_TRIGGER_FILES;
  return v.filter((p): p is string => typeof p === 'string' && p.trim() !== '');
}

export function triggerFileSelector(patterns: readonly string[]): vscode.DocumentFilter[] {
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

  constructor() {
    this.reload();
  }

  /** Re-reads the setting and the workspace folders. */
  reload(): void {
    this.patterns = triggerFilePatterns();
    this.selector = triggerFileSelector(this.patterns);
  }

  matches(doc: vscode.TextDocument): boolean {
    if (doc.uri.scheme === TRIGGER_SCHEME) return true;
    if (IGNORED_SCHEMES.has(doc.uri.scheme)) return false;
    return this.selector.length > 0 && vscode.languages.match(this.selector, doc) > 0;
  }

  /** Every trigger file in the workspace folders, each once. */
  async findAll(token?: vscode.CancellationToken): Promise<vscode.Uri[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const seen = new Map<string, vscode.Uri>();
    for (const folder of folders) {
      for (const p of this.patterns) {
        const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, p), EXCLUDE, undefined, token);
        for (const uri of found) seen.set(uri.toString(), uri);
        if (token?.isCancellationRequested) return [...seen.values()];
      }
    }
    return [...seen.values()].sort((a, b) => a.toString().localeCompare(b.toString()));
  }
}
