// The lint of each open document, once per version: diagnostics, the index its quick fixes are looked
// up in, and its "fix all" edit, computed in the worker only when it is asked for (a fix-all request,
// a save with fix-all on save, the light bulb's "fix all" chosen), then kept for that version. Computing
// it after every lint cost three times the lint on large files, and the next version's lint waited
// behind it. A newer version cancels the work on older ones. No vscode import.
import type { Diagnostic as LintDiagnostic, TextEdit } from '../../lint';
import { ruleInfo } from '../../lint/rules';
import { LintCancelled, type LintRunner } from './lintRunner';
import type { LintJobOptions } from './lintJobs';
import { QuickFixIndex } from './lintMapping';

/**
 * A document linted as an environment sees it (asSeenLint.ts): the text the linter reads instead of the
 * document's, and where each finding of that text is fixed: in the document, or in another file.
 */
export interface LintView {
  readonly environment: string;
  readonly text: string;
  place(found: readonly LintDiagnostic[]): { here: LintDiagnostic[]; there: LintDiagnostic[] };
}

export interface LintedVersion {
  readonly version: number;
  readonly diagnostics: LintDiagnostic[];
  /** Linted as an environment sees the document: its name, and the findings placed in its environments file. */
  readonly seenBy?: { readonly environment: string; readonly there: LintDiagnostic[] };
  /** Diagnostics left out past the per-file limit, by severity. */
  readonly hidden: { error: number; warning: number; info: number };
  readonly fixes: QuickFixIndex;
  /** The datasets the document's triggers name. */
  readonly datasets: readonly string[];
  /** Whether fix-all may change the text: a problem fix-all fixes, or problems past the per-file limit. */
  readonly mayFixAll: boolean;
  /** The edit of "fix all" for this version: one worker job on the first call, however often it is asked for. */
  fixAll(): Promise<TextEdit | undefined>;
}

interface Entry {
  version: number;
  controller: AbortController;
  result: Promise<LintedVersion>;
}

/** Waits for a promise unless `signal` aborts first (the work goes on for other waiters). */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new LintCancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new LintCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export class LintedDocuments {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly runner: LintRunner,
    /** The options a document is linted with, by its key (uri). */
    private readonly options: (key: string) => LintJobOptions,
    /** How the document is linted as an environment sees it, when it is (undefined: as it is). */
    private readonly view: (key: string, text: string) => LintView | undefined = () => undefined,
  ) {}

  /**
   * The lint of `version` of a document: the one started already, or a new one (which cancels the
   * work on any other version). `signal` only stops this caller's wait.
   */
  lint(key: string, version: number, text: () => string, signal?: AbortSignal): Promise<LintedVersion> {
    const current = this.entries.get(key);
    if (current !== undefined && current.version === version) return unlessAborted(current.result, signal);
    current?.controller.abort();
    const controller = new AbortController();
    const options = this.options(key);
    const body = text();
    const seen = this.view(key, body);
    const input = seen?.text ?? body;
    const result = this.runner.run({ kind: 'lint', input, options }, controller.signal).then((r) => {
      if (r.kind !== 'lint') throw new Error('the lint worker answered a lint with another result');
      if (seen === undefined)
        return this.linted(version, body, r.diagnostics, r.hidden, r.datasets, options, controller.signal);
      // The findings of a text no file holds: placed where each is fixed, with no fix (its edits are of that text).
      const { here, there } = seen.place(r.diagnostics);
      const linted = this.linted(version, body, here, r.hidden, r.datasets, options, controller.signal);
      return { ...linted, seenBy: { environment: seen.environment, there } };
    });
    const entry: Entry = { version, controller, result };
    this.entries.set(key, entry);
    // A cancelled or failed lint is forgotten, so that the next request starts a fresh one.
    result.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return unlessAborted(result, signal);
  }

  /** The lint of exactly this version, finished or under way; undefined when none was started. */
  get(key: string, version: number): Promise<LintedVersion> | undefined {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.version === version ? entry.result : undefined;
  }

  /** The document changed: work on older versions is cancelled. */
  changed(key: string, version: number): void {
    const entry = this.entries.get(key);
    if (entry !== undefined && entry.version !== version) this.forget(key);
  }

  forget(key: string): void {
    this.entries.get(key)?.controller.abort();
    this.entries.delete(key);
  }

  /** Settings changed: every lint is stale. */
  clear(): void {
    for (const key of [...this.entries.keys()]) this.forget(key);
  }

  private linted(
    version: number,
    text: string,
    diagnostics: LintDiagnostic[],
    hidden: LintedVersion['hidden'],
    datasets: readonly string[],
    options: LintJobOptions,
    signal: AbortSignal,
  ): LintedVersion {
    // Past the limit there may be fixable problems the shown diagnostics do not tell of.
    const worthFixing =
      hidden.error + hidden.warning + hidden.info > 0 ||
      diagnostics.some((d) => d.fix !== undefined && ruleInfo(d.rule).inFixAll);
    let fixAll: Promise<TextEdit | undefined> | undefined;
    const computeFixAll = (): Promise<TextEdit | undefined> => {
      if (fixAll !== undefined) return fixAll;
      const started = worthFixing
        ? this.runner
            .run({ kind: 'fixAll', text, options }, signal)
            .then((r) => (r.kind === 'fixAll' ? r.edit : undefined))
        : Promise.resolve(undefined);
      // A failure (not a cancellation) is not kept: the next request tries again.
      started.catch((err: unknown) => {
        if (!(err instanceof LintCancelled) && fixAll === started) fixAll = undefined;
      });
      fixAll = started;
      return started;
    };
    return {
      version,
      diagnostics,
      hidden,
      datasets,
      mayFixAll: worthFixing,
      fixes: new QuickFixIndex(diagnostics),
      fixAll: computeFixAll,
    };
  }
}
