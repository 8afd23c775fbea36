// Lints trigger files while editing: on open, on change (debounced; not for files over 5 MB, see
// lintSizeGuard.ts), on save; cleared on close, delete and rename (fileRemovals.ts); re-linted when
// settings or workspace folders change, and, when a dataset's live columns arrive, the files naming it
// (datasetFiles.ts), once per batch of arrivals; "Lint All" over the workspace. The linter runs in
// a worker (lintRunner.ts); each document version is linted once (lintedDocuments.ts), and the code
// actions (lintCodeActions.ts) are answered from that. What shows in Problems is lintCollection.ts's.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KnownRecipient, Diagnostic as LintDiagnostic } from '../../lint';
import type { AccountRecipients } from '../core/accountRecipients';
import { recipientName, recipientShortName, recipientTarget, type RecipientDirectory } from '../core/recipients';
import { FileRemovals } from './fileRemovals';
import { shownBeside, type JsonSupport } from './jsonSupport';
import { LintCodeActions } from './lintCodeActions';
import { LintCollection } from './lintCollection';
import { LintedDocuments, type LintedVersion } from './lintedDocuments';
import type { AsSeenLint } from './asSeenLint';
import { DatasetFiles } from './datasetFiles';
import type { ColumnsChange, LiveColumns } from './liveColumns';
import type { LiveDatasets } from './liveDatasets';
import type { LintJobOptions } from './lintJobs';
import { LintCancelled, LintRunner, requiredWorker } from './lintRunner';
import { LintScheduler } from './lintScheduler';
import { documentSize, shouldLint } from './lintSizeGuard';
import { countBySeverity, lintSummary, type LintCounts } from './lintMapping';
import { RuleDocs } from './ruleDocs';
import { errorText } from '../core/errors';
import type { Feedback } from '../core/feedback';
import type { Logger } from '../core/logger';
import type { SettingName, Settings } from '../core/settings';
import { TriggerFileMatcher } from './triggerFiles';

/** The settings that change what is linted, or how: every open file is linted again. */
const RELINTED_BY: readonly SettingName[] = [
  'triggerFiles',
  'burnAlertFiles',
  'definitionsFiles',
  'metricsDatasets',
  'rulesDocsUrl',
];

/** Whether a record has a member, without listing them all (asked for every lint job). */
function hasAny(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}

export class TriggerDiagnostics implements vscode.Disposable {
  readonly matcher: TriggerFileMatcher;
  readonly scheduler: LintScheduler<string>;
  readonly runner: LintRunner;
  private readonly collection: LintCollection;
  private readonly documents: LintedDocuments;
  private readonly disposables: vscode.Disposable[];
  /** The active connection's columns, when live columns lint is on. */
  private columns: LiveColumns | undefined;
  /** The active connection's datasets, when the dataset check is on. */
  private datasets: LiveDatasets | undefined;
  /** The active connection's recipients, when their ids are checked. */
  private recipients: AccountRecipients | undefined;
  /** The recipients as the linter takes them, made once per list. */
  private readonly known = new WeakMap<RecipientDirectory, KnownRecipient[]>();
  /** The datasets each linted file (open, or in Problems) names. */
  private readonly naming = new DatasetFiles();
  /** The lint of trigger files as the active connection's environment sees them, when it is one. */
  private asSeen: AsSeenLint | undefined;
  /** The open documents by uri, made again after one opened or closed: each lint looks its document up. */
  private openByKey: Map<string, vscode.TextDocument> | undefined;

  constructor(
    private readonly log: Logger,
    /** Folder of the installed extension: the lint worker and docs/rules.md ship inside it. */
    extensionUri: vscode.Uri,
    private readonly settings: Settings,
    /** The scheme of read-only documents showing triggers as the service returned them: linted, never fixed. */
    private readonly readOnlyScheme: string,
  ) {
    // Burn alert and definitions files are linted here too, each by its own rules (chosen by its name: options()).
    this.matcher = new TriggerFileMatcher(
      () => [...settings.triggerFiles(), ...settings.burnAlertFiles(), ...settings.definitionsFiles()],
      readOnlyScheme,
    );
    const rulesFile = vscode.Uri.joinPath(extensionUri, 'docs', 'rules.md');
    this.collection = new LintCollection(
      new RuleDocs({
        file: rulesFile.fsPath,
        fileUrl: rulesFile.toString(),
        configured: () => settings.rulesDocsUrl(),
        log: (m) => log.warn(m),
      }),
    );
    this.runner = new LintRunner({
      workerFile: () => path.join(extensionUri.fsPath, 'dist', 'lint-worker.js'),
      // The linter's messages are translated by the worker's own copy of @vscode/l10n: it gets the bundle when it starts.
      l10nBundle: () => vscode.l10n.bundle,
      fallback: requiredWorker,
      log: (m) => this.log.warn(m),
    });
    this.documents = new LintedDocuments(
      this.runner,
      (key) => this.options(key),
      (key, text) => this.asSeen?.view(key, text),
    );
    this.scheduler = new LintScheduler<string>({
      delayMs: 150,
      run: (key, signal) => this.lintOpenDocument(key, signal),
      onError: (key, err) => this.log.error(`linting ${key} failed: ${errorText(err)}`),
    });
    this.disposables = [
      this.collection,
      ...this.listen(),
      new FileRemovals({ removed: (uri) => this.forgetTree(uri), arrived: (uri) => this.arrived(uri) }),
      new LintCodeActions(this.matcher, this.documents, readOnlyScheme).register(),
      this.scheduler,
      this.runner,
    ];
    for (const doc of vscode.workspace.textDocuments) this.onOpen(doc);
  }

  /** Lints on open, change and save, forgets on close; everything again when what the linter checks against changes. */
  private listen(): vscode.Disposable[] {
    return [
      vscode.workspace.onDidOpenTextDocument((doc) => {
        this.openByKey = undefined;
        this.onOpen(doc);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0 || !this.matcher.matches(e.document)) return;
        const key = e.document.uri.toString();
        // Work on the version before is of no use any more.
        this.documents.changed(key, e.document.version);
        // Too large to lint while typing: the diagnostics of the last open or save stay until the next save.
        if (shouldLint(documentSize(e.document), 'change')) this.scheduler.schedule(key);
        else this.scheduler.cancel(key);
      }),
      vscode.workspace.onDidSaveTextDocument((doc) => this.onOpen(doc)),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.openByKey = undefined;
        this.forget(doc.uri);
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.relintAll()),
      // JSON validation turned on or off: the syntax faults it reports are shown by obs-lint, or not.
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('json.validate.enable')) this.relintAll();
      }),
      // Also when a sandbox starts or stops: its metrics datasets change what the linter allows.
      this.settings.onDidChange((names) => {
        if (RELINTED_BY.some((n) => names.has(n))) {
          this.documents.clear();
          this.relintAll();
        }
      }),
    ];
  }

  /**
   * The linter's options for a document (the worker adds the editor's wording of how to declare a
   * metrics dataset): a trigger shown as the service returned it is linted in the `listed` form, and
   * the columns known of the active connection's datasets are checked.
   */
  options(key?: string): LintJobOptions {
    const options: LintJobOptions = { metricsDatasets: this.settings.metricsDatasets() };
    if (key !== undefined && key.startsWith(`${this.readOnlyScheme}:`)) options.form = 'listed';
    // The worker tells a burn alert or definitions file by its name, and lints it by its own rules.
    if (key !== undefined) options.fileName = key;
    const columns = this.columns?.known();
    if (columns !== undefined && hasAny(columns)) options.columns = columns;
    const datasets = this.datasets?.known();
    if (datasets !== undefined) options.datasets = datasets;
    const recipients = this.recipients?.known();
    if (recipients !== undefined) options.recipients = this.knownRecipients(recipients);
    return options;
  }

  private knownRecipients(directory: RecipientDirectory): KnownRecipient[] {
    let list = this.known.get(directory);
    if (list === undefined) {
      list = directory.list.map((r) => {
        const target = recipientTarget(r);
        const known: KnownRecipient = { id: r.id, name: recipientName(r), shortName: recipientShortName(r) };
        if (r.type !== undefined) known.type = r.type;
        if (target !== undefined) known.target = target;
        return known;
      });
      this.known.set(directory, list);
    }
    return list;
  }

  /** Checks the dataset a trigger names against the active connection's datasets (listed in the background). */
  useDatasets(datasets: LiveDatasets): vscode.Disposable {
    this.datasets = datasets;
    const sub = datasets.onDidChange(() => this.columnsChanged('all'));
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.datasets === datasets) this.datasets = undefined;
    });
  }

  /**
   * Checks the recipient ids a trigger names against the active connection's recipients (read once per
   * connection, in the background, when a trigger file is linted); every file is linted again when they arrive.
   */
  useRecipients(recipients: AccountRecipients): vscode.Disposable {
    this.recipients = recipients;
    const sub = recipients.onDidChange(() => this.columnsChanged('all'));
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.recipients === recipients) this.recipients = undefined;
    });
  }

  /** Lints trigger files as the active connection's environment sees them; all again when that changes. */
  useEnvironments(asSeen: AsSeenLint): vscode.Disposable {
    this.asSeen = asSeen;
    const sub = asSeen.onDidChange(() => this.columnsChanged('all'));
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.asSeen === asSeen) this.asSeen = undefined;
    });
  }

  /** Shows a lint of an open document. */
  private showLinted(doc: vscode.TextDocument, linted: LintedVersion): void {
    const shown = shownBeside(linted.diagnostics, this.jsonSupport(doc));
    this.showFindings(doc.uri, shown, documentSize(doc), linted.seenBy);
  }

  /** Shows a lint's findings of a file: in it, and those it placed in its environments file (seen by one) there. */
  private showFindings(
    uri: vscode.Uri,
    here: readonly LintDiagnostic[],
    size: number,
    seenBy: LintedVersion['seenBy'],
  ) {
    const environment = seenBy?.environment;
    this.collection.show(uri, here, size, environment);
    this.asSeen?.show(uri.toString(), seenBy?.there ?? [], (file, found) =>
      this.collection.shown(file, found, environment),
    );
  }

  /** Checks the columns a trigger names against the active connection's datasets (read in the background). */
  useColumns(columns: LiveColumns): vscode.Disposable {
    this.columns = columns;
    const sub = columns.onDidChange((change) => this.columnsChanged(change));
    // Columns known already change what was linted without them.
    if (Object.keys(columns.known()).length > 0) this.columnsChanged('all');
    return new vscode.Disposable(() => {
      sub.dispose();
      if (this.columns === columns) this.columns = undefined;
    });
  }

  /** Another connection, dataset list or recipients: everything again. Columns of some datasets: the files naming them, each once. */
  private columnsChanged(change: ColumnsChange): void {
    if (change === 'all') {
      this.documents.clear();
      this.relintAll();
      return;
    }
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    for (const key of this.naming.naming(change)) {
      const doc = open.get(key);
      this.documents.forget(key);
      if (doc !== undefined) this.onOpen(doc);
      else void this.relintClosed(vscode.Uri.parse(key));
    }
  }

  /** Lints a file read from disk (bytes: undecodable ones are reported) and shows the result. */
  private async publishFile(
    uri: vscode.Uri,
    bytes: Uint8Array,
    signal?: AbortSignal,
  ): Promise<LintedVersion['hidden'] & { diagnostics: LintDiagnostic[] }> {
    const key = uri.toString();
    const seen = this.asSeen?.viewOfBytes(key, bytes);
    const input = seen?.text ?? bytes;
    const result = await this.runner.run({ kind: 'lint', input, options: this.options() }, signal);
    if (result.kind !== 'lint') throw new Error('the lint worker answered a lint with another result');
    const placed = seen?.place(result.diagnostics) ?? { here: result.diagnostics, there: [] };
    this.showFindings(uri, placed.here, bytes.length, seen && { environment: seen.environment, there: placed.there });
    this.naming.set(key, result.datasets);
    return { ...result.hidden, diagnostics: placed.here };
  }

  /** What VS Code's JSON support reports of a document itself (jsonSupport.ts). */
  private jsonSupport(doc: vscode.TextDocument): JsonSupport {
    return {
      languageId: doc.languageId,
      validates: vscode.workspace.getConfiguration('json').get<boolean>('validate.enable', true) !== false,
    };
  }

  private onOpen(doc: vscode.TextDocument): void {
    if (this.matcher.matches(doc)) void this.scheduler.lintNow(doc.uri.toString());
  }

  private async lintOpenDocument(key: string, signal: AbortSignal): Promise<void> {
    const doc = this.openDocument(key);
    if (!doc || doc.isClosed || signal.aborted) return;
    try {
      const linted = await this.documents.lint(key, doc.version, () => doc.getText(), signal);
      if (signal.aborted || doc.isClosed || doc.version !== linted.version) return;
      this.showLinted(doc, linted);
      this.naming.set(key, linted.datasets);
      this.columns?.want(linted.datasets);
      if (linted.datasets.length > 0) this.datasets?.want();
      this.recipients?.want();
    } catch (err) {
      if (!(err instanceof LintCancelled)) throw err;
    }
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.scheduler.cancel(key);
    this.documents.forget(key);
    this.collection.delete(uri);
    this.asSeen?.forget(key);
    this.naming.delete(key);
  }

  /** Forgets a file, or everything under a deleted folder. */
  private forgetTree(uri: vscode.Uri): void {
    for (const u of this.collection.urisUnder(uri)) this.forget(u);
    this.forget(uri);
  }

  /** A file moved here: linted when it is open (and a trigger file). */
  private arrived(uri: vscode.Uri): void {
    const doc = this.openDocument(uri.toString());
    if (doc) this.onOpen(doc);
  }

  private openDocument(key: string): vscode.TextDocument | undefined {
    this.openByKey ??= new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    return this.openByKey.get(key);
  }

  private relintAll(): void {
    this.matcher.reload();
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    const stale = this.collection.uris().filter((uri) => {
      const doc = open.get(uri.toString());
      return !doc || !this.matcher.matches(doc);
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

  /** "Lint All Trigger Files in the Workspace": fills Problems for every trigger file. */
  async lintWorkspace(): Promise<{ files: number; counts: LintCounts; filesWithProblems: number } | undefined> {
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Linting trigger, burn alert and definitions files'),
        cancellable: true,
      },
      async (progress, token) => {
        this.matcher.reload();
        const uris = await this.matcher.findAll(token);
        const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
        const counts: LintCounts = { errors: 0, warnings: 0, infos: 0 };
        let done = 0;
        let filesWithProblems = 0;
        for (const uri of uris) {
          if (token.isCancellationRequested) {
            void vscode.window.showInformationMessage(
              vscode.l10n.t('Linting cancelled after {0} of {1} files.', done, uris.length),
            );
            return undefined;
          }
          progress.report({ message: `${done + 1}/${uris.length}`, increment: 100 / Math.max(1, uris.length) });
          let diagnostics: LintDiagnostic[];
          let hidden: LintedVersion['hidden'];
          try {
            ({ diagnostics, hidden } = await this.lintAndShow(uri, open.get(uri.toString())));
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
        void vscode.window
          .showInformationMessage(summary, ...(filesWithProblems > 0 ? [showProblems] : []))
          .then((choice) => {
            if (choice === showProblems) void vscode.commands.executeCommand('workbench.actions.view.problems');
          });
        return { files: done, counts, filesWithProblems };
      },
    );
  }

  /** Lints a file for "Lint All" (an open document as it is in the editor, else the file on disk) and shows the result. */
  private async lintAndShow(
    uri: vscode.Uri,
    doc: vscode.TextDocument | undefined,
  ): Promise<Pick<LintedVersion, 'diagnostics' | 'hidden'>> {
    if (doc) {
      const linted = await this.documents.lint(uri.toString(), doc.version, () => doc.getText());
      this.showLinted(doc, linted);
      this.naming.set(uri.toString(), linted.datasets);
      return linted;
    }
    const { diagnostics, ...hidden } = await this.publishFile(uri, await vscode.workspace.fs.readFile(uri));
    return { diagnostics, hidden };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.documents.clear();
    this.naming.clear();
  }
}

export function registerLintCommands(diagnostics: TriggerDiagnostics, feedback: Feedback): vscode.Disposable[] {
  return [
    feedback.registerCommand('obs.lint.workspace', vscode.l10n.t('lint the trigger files'), () =>
      diagnostics.lintWorkspace(),
    ),
  ];
}
