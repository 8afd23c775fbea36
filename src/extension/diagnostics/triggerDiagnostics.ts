// Lints trigger files while editing: on open, on change (debounced; not for files over 5 MB, see
// lintSizeGuard.ts), on save; cleared on close and delete; re-linted when settings change. Fixes are
// offered as quick fixes and as `source.fixAll.obs`. The linter runs in a worker (lintRunner.ts);
// each document version is linted once and code actions are answered from that (lintedDocuments.ts).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Diagnostic as LintDiagnostic } from '../../lint';
import { LintedDocuments, type LintedVersion } from './lintedDocuments';
import type { LiveColumns } from './liveColumns';
import type { LintJobOptions } from './lintJobs';
import { LintCancelled, LintRunner, requiredWorker } from './lintRunner';
import { LintScheduler } from './lintScheduler';
import { largeFileNotice, shouldLint } from './lintSizeGuard';
import {
  FIX_ALL_KIND_SUFFIX,
  LINT_SOURCE,
  countBySeverity,
  rulesDocsAnchorLines,
  rulesDocsPage,
  fixAllAction,
  lintSummary,
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

export class TriggerDiagnostics implements vscode.Disposable, vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND];

  readonly collection = vscode.languages.createDiagnosticCollection(LINT_SOURCE);
  readonly matcher: TriggerFileMatcher;
  readonly scheduler: LintScheduler<string>;
  readonly runner: LintRunner;
  private readonly documents: LintedDocuments;
  private readonly disposables: vscode.Disposable[] = [];
  /** Deletes by anyone (terminal, git, workspace.fs) do not raise onDidDeleteFiles: watch for them. */
  private deleteWatchers: vscode.Disposable[] = [];
  /** The active connection's columns, when live columns lint is on. */
  private columns: LiveColumns | undefined;

  constructor(
    private readonly log: Logger,
    /** Folder of the installed extension: docs/rules.md ships inside it. */
    private readonly extensionUri: vscode.Uri,
    private readonly settings: Settings,
    /** The scheme of read-only documents showing triggers as the service returned them: linted, never fixed. */
    private readonly readOnlyScheme: string,
  ) {
    this.matcher = new TriggerFileMatcher(() => settings.triggerFiles(), readOnlyScheme);
    this.runner = new LintRunner({
      workerFile: () => path.join(this.extensionUri.fsPath, 'dist', 'lint-worker.js'),
      // The linter's messages are translated by the worker's own copy of @vscode/l10n: it gets the bundle when it starts.
      l10nBundle: () => vscode.l10n.bundle,
      fallback: requiredWorker,
      log: (m) => this.log.warn(m),
    });
    this.documents = new LintedDocuments(this.runner, (key) => this.options(key));
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
        // Work on the version before is of no use any more.
        this.documents.changed(key, e.document.version);
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
        if (names.has('triggerFiles') || names.has('metricsDatasets') || names.has('rulesDocsUrl')) {
          this.documents.clear();
          this.relintAll();
        }
      }),
      vscode.languages.registerCodeActionsProvider([{ language: 'json' }, { language: 'jsonc' }], this, {
        providedCodeActionKinds: TriggerDiagnostics.providedCodeActionKinds,
      }),
      { dispose: () => this.scheduler.dispose() },
      { dispose: () => this.runner.dispose() },
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

  /**
   * The linter's options for a document (the worker adds the editor's wording of how to declare a
   * metrics dataset): a trigger shown as the service returned it is linted in the `listed` form, and
   * the columns known of the active connection's datasets are checked.
   */
  options(key?: string): LintJobOptions {
    const options: LintJobOptions = { metricsDatasets: this.settings.metricsDatasets() };
    if (key !== undefined && key.startsWith(`${this.readOnlyScheme}:`)) options.form = 'listed';
    const columns = this.columns?.known();
    if (columns !== undefined && Object.keys(columns).length > 0) options.columns = columns;
    return options;
  }

  /** Checks the columns a trigger names against the active connection's datasets (read in the background). */
  useColumns(columns: LiveColumns): vscode.Disposable {
    this.columns = columns;
    const sub = columns.onDidChange(() => {
      this.documents.clear();
      this.relintAll();
    });
    this.documents.clear();
    this.relintAll();
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.columns === columns) this.columns = undefined;
    });
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

  /** Shows a lint's diagnostics for a uri (with the notice of a file too large to lint while typing). */
  private show(uri: vscode.Uri, diagnostics: readonly LintDiagnostic[], size: number): void {
    const docsUrl = this.docsUrl();
    const shown = diagnostics.map((d) => toVscodeDiagnostic(uri, toDiagnosticData(d, docsUrl, this.rulesAnchorLines())));
    const notice = largeFileNotice(size);
    if (notice !== undefined) {
      const info = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), notice, vscode.DiagnosticSeverity.Information);
      info.source = LINT_SOURCE;
      shown.unshift(info);
    }
    this.collection.set(uri, shown);
  }

  /** Lints a file read from disk (bytes: undecodable ones are reported) and shows the result. */
  private async publishFile(uri: vscode.Uri, bytes: Uint8Array, signal?: AbortSignal): Promise<LintedVersion['hidden'] & { diagnostics: LintDiagnostic[] }> {
    const result = await this.runner.run({ kind: 'lint', input: bytes, options: this.options() }, signal);
    if (result.kind !== 'lint') throw new Error('the lint worker answered a lint with another result');
    this.show(uri, result.diagnostics, bytes.length);
    return { ...result.hidden, diagnostics: result.diagnostics };
  }

  private onOpen(doc: vscode.TextDocument): void {
    if (this.matcher.matches(doc)) void this.scheduler.lintNow(doc.uri.toString());
  }

  private async lintOpenDocument(key: string, signal: AbortSignal): Promise<void> {
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    if (!doc || doc.isClosed || signal.aborted) return;
    try {
      const linted = await this.documents.lint(key, doc.version, () => doc.getText(), signal);
      if (signal.aborted || doc.isClosed || doc.version !== linted.version) return;
      this.show(doc.uri, linted.diagnostics, sizeOf(doc));
      this.columns?.want(linted.datasets);
    } catch (err) {
      if (!(err instanceof LintCancelled)) throw err;
    }
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.scheduler.cancel(key);
    this.documents.forget(key);
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
      await this.publishFile(uri, await vscode.workspace.fs.readFile(uri));
    } catch {
      this.forget(uri);
    }
  }

  /** The lint of the document's current version: the one done or under way, or a new one. */
  private async lintFor(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<LintedVersion | undefined> {
    const key = doc.uri.toString();
    const controller = new AbortController();
    const listener = token.onCancellationRequested(() => controller.abort());
    try {
      const started = this.documents.get(key, doc.version);
      if (started !== undefined) return await started;
      // Code actions are asked for on every cursor move: a large file edited since its last lint offers
      // none (fixes computed from the saved text would edit the wrong ranges) until it is saved.
      if (!shouldLint(sizeOf(doc), 'change')) return undefined;
      return await this.documents.lint(key, doc.version, () => doc.getText(), controller.signal);
    } catch (err) {
      if (err instanceof LintCancelled) return undefined;
      throw err;
    } finally {
      listener.dispose();
    }
  }

  async provideCodeActions(doc: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext, token: vscode.CancellationToken): Promise<vscode.CodeAction[]> {
    if (!this.matcher.matches(doc) || doc.uri.scheme === this.readOnlyScheme) return [];
    const linted = await this.lintFor(doc, token);
    if (linted === undefined || token.isCancellationRequested || linted.version !== doc.version) return [];
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
      for (const fix of linted.fixes.quickFixes(asked)) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.edit = toWorkspaceEdit(doc.uri, fix);
        action.isPreferred = fix.isPreferred;
        const source = asked.find((a) => fix.fixes && a.code === fix.fixes.rule && a.range.start.line === fix.fixes.range.start.line && a.range.start.character === fix.fixes.range.start.character);
        if (source) action.diagnostics = [source.diagnostic];
        actions.push(action);
      }
    }
    const fixableCount = linted.fixes.fixable;
    if (fixableCount > 0 && (wants(FIX_ALL_KIND) || (wants(vscode.CodeActionKind.QuickFix) && fixableCount > 1 && actions.length > 0))) {
      let edit;
      try {
        edit = await linted.fixAll();
      } catch (err) {
        if (err instanceof LintCancelled) return actions;
        throw err;
      }
      const all = fixAllAction(edit);
      if (all && !token.isCancellationRequested && doc.version === linted.version) {
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
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Linting trigger files'), cancellable: true },
      async (progress, token) => {
        this.matcher.reload();
        const uris = await this.matcher.findAll(token);
        const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
        const counts: LintCounts = { errors: 0, warnings: 0, infos: 0 };
        let done = 0;
        let filesWithProblems = 0;
        for (const uri of uris) {
          if (token.isCancellationRequested) {
            void vscode.window.showInformationMessage(vscode.l10n.t('Linting cancelled after {0} of {1} files.', done, uris.length));
            return undefined;
          }
          progress.report({ message: `${done + 1}/${uris.length}`, increment: 100 / Math.max(1, uris.length) });
          const doc = open.get(uri.toString());
          let diagnostics: LintDiagnostic[];
          let hidden: LintedVersion['hidden'];
          try {
            if (doc) {
              const linted = await this.documents.lint(uri.toString(), doc.version, () => doc.getText());
              this.show(uri, linted.diagnostics, sizeOf(doc));
              ({ diagnostics, hidden } = linted);
            } else {
              const { diagnostics: found, ...counts } = await this.publishFile(uri, await vscode.workspace.fs.readFile(uri));
              diagnostics = found;
              hidden = counts;
            }
          } catch (err) {
            this.log.warn(`could not lint ${uri.toString()}: ${errorText(err)}`);
            continue;
          }
          const c = countBySeverity(diagnostics, hidden);
          counts.errors += c.errors;
          counts.warnings += c.warnings;
          counts.infos += c.infos;
          if (diagnostics.length > 0) filesWithProblems++;
          done++;
        }
        const summary = lintSummary(done, filesWithProblems, counts);
        this.log.info(summary);
        // Not awaited: the progress notification ends now, the summary stays until dismissed.
        const showProblems = vscode.l10n.t('Show Problems');
        void vscode.window.showInformationMessage(summary, ...(filesWithProblems > 0 ? [showProblems] : [])).then((choice) => {
          if (choice === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
        });
        return { files: done, counts, filesWithProblems };
      },
    );
  }

  dispose(): void {
    for (const d of [...this.disposables, ...this.deleteWatchers]) d.dispose();
    this.documents.clear();
  }
}

export function registerLintCommands(diagnostics: TriggerDiagnostics, feedback: Feedback): vscode.Disposable[] {
  return [feedback.registerCommand('obs.lint.workspace', vscode.l10n.t('lint the trigger files'), () => diagnostics.lintWorkspace())];
}
