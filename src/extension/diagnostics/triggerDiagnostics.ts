// Lints trigger files while editing: on open, on change (debounced; not for files over 5 MB, see
// lintSizeGuard.ts), on save; cleared on close and delete; re-linted when settings change. Fixes are
// offered as quick fixes and as `source.fixAll.obs`.
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { lint, type Diagnostic as LintDiagnostic, type LintOptions } from '../../lint';
import { LintScheduler } from './lintScheduler';
import { largeFileNotice, shouldLint } from './lintSizeGuard';
import {
  EDITOR_METRICS_DATASET_HINT,
  FIX_ALL_KIND_SUFFIX,
  LINT_SOURCE,
  countBySeverity,
  rulesDocsAnchorLines,
  rulesDocsPage,
  fixAllAction,
  lintSummary,
  quickFixes,
  toDiagnosticData,
  type CodeActionData,
  type DiagnosticData,
  type LintCounts,
} from './lintMapping';
import { errorText } from '../core/errors';
import type { Feedback } from '../core/feedback';
import type { Logger } from '../core/logger';
import type { Settings } from '../core/settings';
import { TriggerFileMatcher } from './triggerFiles';

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append(FIX_ALL_KIND_SUFFIX);

function toRange(r: DiagnosticData['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export function toVscodeDiagnostic(uri: vscode.Uri, d: DiagnosticData): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(d.range), d.message, d.severity as vscode.DiagnosticSeverity);
  diagnostic.source = d.source;
  diagnostic.code = { value: d.code.value, target: vscode.Uri.parse(d.code.target, true) };
  if (d.tags.length > 0) diagnostic.tags = d.tags as vscode.DiagnosticTag[];
  if (d.related.length > 0) {
    diagnostic.relatedInformation = d.related.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, toRange(r.range)), r.message));
  }
  return diagnostic;
}

/** A document's length in characters, without copying its text. */
function sizeOf(doc: vscode.TextDocument): number {
  return doc.lineCount === 0 ? 0 : doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
}

function toWorkspaceEdit(uri: vscode.Uri, action: CodeActionData): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of action.edits) edit.replace(uri, toRange(e.range), e.newText);
  return edit;
}

interface LintedDocument {
  version: number;
  diagnostics: LintDiagnostic[];
}

export class TriggerDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND];

  readonly collection = vscode.languages.createDiagnosticCollection(LINT_SOURCE);
  readonly matcher: TriggerFileMatcher;
  readonly scheduler: LintScheduler<string>;
  private readonly lastLint = new Map<string, LintedDocument>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Deletes by anyone (terminal, git, workspace.fs) do not raise onDidDeleteFiles: watch for them. */
  private deleteWatchers: vscode.Disposable[] = [];

  constructor(
    private readonly log: Logger,
    /** Folder of the installed extension: docs/rules.md ships inside it. */
    private readonly extensionUri: vscode.Uri,
    private readonly settings: Settings,
    /** The scheme of read-only documents showing triggers as the service returned them: linted, never fixed. */
    private readonly readOnlyScheme: string,
  ) {
    this.matcher = new TriggerFileMatcher(() => settings.triggerFiles(), readOnlyScheme);
    this.scheduler = new LintScheduler<string>({
      delayMs: 150,
      run: (key, signal) => this.lintOpenDocument(key, signal),
      onError: (key, err) => this.log.error(`linting ${key} failed: ${errorText(err)}`),
    });
    this.disposables.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((doc) => this.onOpen(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0 || !this.matcher.matches(e.document)) return;
        const key = e.document.uri.toString();
        // Too large to lint while typing: the diagnostics of the last open or save stay until the next save.
        if (shouldLint(sizeOf(e.document), 'change')) this.scheduler.schedule(key);
        else this.scheduler.cancel(key);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => this.onOpen(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.forget(doc.uri)),
      vscode.workspace.onDidDeleteFiles((e) => e.files.forEach((uri) => this.forgetTree(uri))),
      vscode.workspace.onDidRenameFiles((e) =>
        e.files.forEach(({ oldUri, newUri }) => {
          this.forgetTree(oldUri);
          const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === newUri.toString());
          if (doc) this.onOpen(doc);
        }),
      ),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchDeletes();
        this.relintAll();
      }),
      // Also when a sandbox starts or stops: its metrics datasets change what the linter allows.
      settings.onDidChange((names) => {
        if (names.has('triggerFiles') || names.has('metricsDatasets') || names.has('rulesDocsUrl')) this.relintAll();
      }),
      vscode.languages.registerCodeActionsProvider([{ language: 'json' }, { language: 'jsonc' }], this, {
        providedCodeActionKinds: TriggerDiagnostics.providedCodeActionKinds,
      }),
      { dispose: () => this.scheduler.dispose() },
    );
    this.watchDeletes();
    for (const doc of vscode.workspace.textDocuments) this.onOpen(doc);
  }

  private watchDeletes(): void {
    for (const w of this.deleteWatchers) w.dispose();
    this.deleteWatchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**'), true, true, false);
      const sub = watcher.onDidDelete((uri) => this.forgetTree(uri));
      return vscode.Disposable.from(sub, watcher);
    });
  }

  options(): LintOptions {
    return { metricsDatasets: this.settings.metricsDatasets(), metricsDatasetHint: EDITOR_METRICS_DATASET_HINT };
  }

  docsUrl(): string {
    return rulesDocsPage(this.settings.rulesDocsUrl(), this.packagedRulesDocs().toString());
  }

  private packagedRulesDocs(): vscode.Uri {
    return vscode.Uri.joinPath(this.extensionUri, 'docs', 'rules.md');
  }

  private anchorLines: Map<string, number> | undefined;
  /** Lines of the rule sections in the packaged docs/rules.md, read once (the file is small). */
  private rulesAnchorLines(): Map<string, number> {
    if (this.anchorLines === undefined) {
      try {
        this.anchorLines = rulesDocsAnchorLines(readFileSync(this.packagedRulesDocs().fsPath, 'utf8'));
      } catch (err) {
        this.log.warn(`rule documentation not found in the extension: ${errorText(err)}`);
        this.anchorLines = new Map();
      }
    }
    return this.anchorLines;
  }

  /** Lints text and publishes the result for a uri. */
  publish(uri: vscode.Uri, text: string, version: number): LintDiagnostic[] {
    const diagnostics = lint(text, this.options());
    this.lastLint.set(uri.toString(), { version, diagnostics });
    const docsUrl = this.docsUrl();
    const shown = diagnostics.map((d) => toVscodeDiagnostic(uri, toDiagnosticData(d, docsUrl, this.rulesAnchorLines())));
    const notice = largeFileNotice(text.length);
    if (notice !== undefined) {
      const info = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), notice, vscode.DiagnosticSeverity.Information);
      info.source = LINT_SOURCE;
      shown.unshift(info);
    }
    this.collection.set(uri, shown);
    return diagnostics;
  }

  private onOpen(doc: vscode.TextDocument): void {
    if (this.matcher.matches(doc)) void this.scheduler.lintNow(doc.uri.toString());
  }

  private lintOpenDocument(key: string, signal: AbortSignal): void {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!doc || doc.isClosed || signal.aborted) return;
    this.publish(doc.uri, doc.getText(), doc.version);
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.scheduler.cancel(key);
    this.lastLint.delete(key);
    this.collection.delete(uri);
  }

  /** Forgets a file, or everything under a deleted folder. */
  private forgetTree(uri: vscode.Uri): void {
    const prefix = `${uri.toString()}/`;
    const under: vscode.Uri[] = [];
    this.collection.forEach((u) => {
      if (u.toString() === uri.toString() || u.toString().startsWith(prefix)) under.push(u);
    });
    for (const u of under) this.forget(u);
    this.forget(uri);
  }

  private relintAll(): void {
    this.matcher.reload();
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    const stale: vscode.Uri[] = [];
    this.collection.forEach((uri) => {
      const doc = open.get(uri.toString());
      if (!doc) stale.push(uri);
      else if (!this.matcher.matches(doc)) stale.push(uri);
    });
    for (const uri of stale) {
      // Closed files linted by "Lint All" are re-read from disk; others just cleared.
      const key = uri.toString();
      if (open.has(key)) this.forget(uri);
      else void this.relintClosed(uri);
    }
    for (const doc of open.values()) this.onOpen(doc);
  }

  private async relintClosed(uri: vscode.Uri): Promise<void> {
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      this.publish(uri, text, -1);
    } catch {
      this.forget(uri);
    }
  }

  private lintFor(doc: vscode.TextDocument): LintDiagnostic[] {
    const last = this.lastLint.get(doc.uri.toString());
    if (last && last.version === doc.version) return last.diagnostics;
    // Code actions are asked for on every cursor move: a large file edited since its last lint offers
    // none (fixes computed from the saved text would edit the wrong ranges) until it is saved.
    if (!shouldLint(sizeOf(doc), 'change')) return [];
    return this.publish(doc.uri, doc.getText(), doc.version);
  }

  provideCodeActions(doc: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!this.matcher.matches(doc) || doc.uri.scheme === this.readOnlyScheme) return [];
    const result = this.lintFor(doc);
    const actions: vscode.CodeAction[] = [];
    const wants = (kind: vscode.CodeActionKind): boolean => context.only === undefined || context.only.contains(kind) || kind.contains(context.only);

    if (wants(vscode.CodeActionKind.QuickFix)) {
      const asked = context.diagnostics
        .filter((d) => d.source === LINT_SOURCE)
        .map((d) => ({
          diagnostic: d,
          code: typeof d.code === 'object' ? String(d.code.value) : String(d.code),
          range: { start: { line: d.range.start.line, character: d.range.start.character }, end: { line: d.range.end.line, character: d.range.end.character } },
        }));
      for (const fix of quickFixes(result, asked)) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(doc.uri, fix);
        action.isPreferred = fix.isPreferred;
        const source = asked.find((a) => fix.fixes && a.code === fix.fixes.rule && a.range.start.line === fix.fixes.range.start.line && a.range.start.character === fix.fixes.range.start.character);
        if (source) action.diagnostics = [source.diagnostic];
        actions.push(action);
      }
    }
    const fixableCount = result.filter((d) => d.fix !== undefined).length;
    if (fixableCount > 0 && (wants(FIX_ALL_KIND) || (wants(vscode.CodeActionKind.QuickFix) && fixableCount > 1 && actions.length > 0))) {
      const all = fixAllAction(doc.getText(), this.options());
      if (all) {
        if (wants(FIX_ALL_KIND)) {
          const action = new vscode.CodeAction(all.title, FIX_ALL_KIND);
          action.edit = toWorkspaceEdit(doc.uri, all);
          actions.push(action);
        }
        if (context.only === undefined && fixableCount > 1) {
          // Also in the light bulb, like other linters.
          const quick = new vscode.CodeAction(`${all.title} in this file`, vscode.CodeActionKind.QuickFix);
          quick.edit = toWorkspaceEdit(doc.uri, all);
          actions.push(quick);
        }
      }
    }
    return actions;
  }

  /** "Lint All Trigger Files in the Workspace": fills Problems for every trigger file. */
  async lintWorkspace(): Promise<{ files: number; counts: LintCounts; filesWithProblems: number } | undefined> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Linting trigger files', cancellable: true },
      async (progress, token) => {
        this.matcher.reload();
        const uris = await this.matcher.findAll(token);
        const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
        const counts: LintCounts = { errors: 0, warnings: 0, infos: 0 };
        let done = 0;
        let filesWithProblems = 0;
        for (const uri of uris) {
          if (token.isCancellationRequested) {
            void vscode.window.showInformationMessage(`Linting cancelled after ${done} of ${uris.length} files.`);
            return undefined;
          }
          progress.report({ message: `${done + 1}/${uris.length}`, increment: 100 / Math.max(1, uris.length) });
          const doc = open.get(uri.toString());
          let diagnostics: LintDiagnostic[];
          try {
            const text = doc ? doc.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
            diagnostics = this.publish(uri, text, doc ? doc.version : -1);
          } catch (err) {
            this.log.warn(`could not read ${uri.toString()}: ${errorText(err)}`);
            continue;
          }
          const c = countBySeverity(diagnostics);
          counts.errors += c.errors;
          counts.warnings += c.warnings;
          counts.infos += c.infos;
          if (diagnostics.length > 0) filesWithProblems++;
          done++;
          // Yield now and then so the extension host stays responsive on large workspaces.
          if (done % 50 === 0) await new Promise((r) => setImmediate(r));
        }
        const summary = lintSummary(done, filesWithProblems, counts);
        this.log.info(summary);
        // Not awaited: the progress notification ends now, the summary stays until dismissed.
        void vscode.window.showInformationMessage(summary, ...(filesWithProblems > 0 ? ['Show Problems'] : [])).then((choice) => {
          if (choice === 'Show Problems') void vscode.commands.executeCommand('workbench.actions.view.problems');
        });
        return { files: done, counts, filesWithProblems };
      },
    );
  }

  dispose(): void {
    for (const d of [...this.disposables, ...this.deleteWatchers]) d.dispose();
    this.lastLint.clear();
  }
}

export function registerLintCommands(diagnostics: TriggerDiagnostics, feedback: Feedback): vscode.Disposable[] {
  return [feedback.registerCommand('obs.lint.workspace', 'lint the trigger files', () => diagnostics.lintWorkspace())];
}
