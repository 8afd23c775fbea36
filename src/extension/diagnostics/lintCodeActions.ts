// The linter's code actions in trigger files: a quick fix per fixable diagnostic asked about, and "fix
// all" (`source.fixAll.obs`, and in the light bulb when a file has more than one fixable problem). They
// are answered from the lint of the document's version (lintedDocuments.ts), never from a lint of their own
// while that one runs; a trigger shown as the service returned it is read-only and gets none. The fix-all
// edit is computed only when asked for: a request for its kind (the Source Action menu, fix-all on save)
// computes it, once per version; the light bulb offers it without an edit, resolved when chosen, so that
// quick fixes answer at once and no cursor move starts a fix-all in the worker.
import * as vscode from 'vscode';
import type { TextEdit } from '../../lint';
import { toRange } from './lintCollection';
import { FIX_ALL_KIND_SUFFIX, LINT_SOURCE, fixAllAction, type CodeActionData } from './lintMapping';
import type { LintedDocuments, LintedVersion } from './lintedDocuments';
import { LintCancelled } from './lintRunner';
import { documentSize, shouldLint } from './lintSizeGuard';
import type { TriggerFileMatcher } from './triggerFiles';

export const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append(FIX_ALL_KIND_SUFFIX);

/** How often a code action request waits again for a lint that others cancelled (each cancel relints at once). */
const LINT_ATTEMPTS = 3;

function toWorkspaceEdit(uri: vscode.Uri, action: CodeActionData): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of action.edits) edit.replace(uri, toRange(e.range), e.newText);
  return edit;
}

/** What VS Code asked about: an obs-lint diagnostic with its rule code and range as the linter's data. */
interface AskedFix {
  diagnostic: vscode.Diagnostic;
  code: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** A diagnostic's rule and start, the way a fix names the diagnostic it fixes. */
function askedKey(code: string, start: { line: number; character: number }): string {
  return `${code}\u0000${start.line}:${start.character}`;
}

function askedFixes(context: vscode.CodeActionContext): AskedFix[] {
  return context.diagnostics
    .filter((d) => d.source === LINT_SOURCE)
    .map((d) => ({
      diagnostic: d,
      code: typeof d.code === 'object' ? String(d.code.value) : String(d.code),
      range: {
        start: { line: d.range.start.line, character: d.range.start.character },
        end: { line: d.range.end.line, character: d.range.end.character },
      },
    }));
}

export class LintCodeActions implements vscode.CodeActionProvider {
  static readonly providedCodeActionKinds = [vscode.CodeActionKind.QuickFix, FIX_ALL_KIND];
  /** The light bulb's "fix all" actions handed out without an edit, until they are resolved. */
  private readonly unresolved = new WeakMap<vscode.CodeAction, { doc: vscode.TextDocument; linted: LintedVersion }>();

  constructor(
    private readonly matcher: TriggerFileMatcher,
    private readonly documents: LintedDocuments,
    /** Documents of this scheme show triggers as the service returned them: linted, never fixed. */
    private readonly readOnlyScheme: string,
  ) {}

  /** Offers the actions in JSON and JSONC documents (the matcher decides which are trigger files). */
  register(): vscode.Disposable {
    return vscode.languages.registerCodeActionsProvider([{ language: 'json' }, { language: 'jsonc' }], this, {
      providedCodeActionKinds: LintCodeActions.providedCodeActionKinds,
    });
  }

  async provideCodeActions(
    doc: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
    token: vscode.CancellationToken,
  ): Promise<vscode.CodeAction[]> {
    if (!this.matcher.matches(doc) || doc.uri.scheme === this.readOnlyScheme) return [];
    const linted = await this.lintFor(doc, token);
    if (linted === undefined || token.isCancellationRequested || linted.version !== doc.version) return [];
    const only = context.only;
    const asked = (kind: vscode.CodeActionKind): boolean =>
      only !== undefined && (only.contains(kind) || kind.contains(only));
    const actions =
      only === undefined || asked(vscode.CodeActionKind.QuickFix)
        ? this.quickFixes(doc, linted, askedFixes(context))
        : [];
    if (linted.fixes.fixable === 0) return actions;
    if (asked(FIX_ALL_KIND)) actions.push(...(await this.sourceFixAll(doc, linted, token)));
    // Also in the light bulb beside the quick fixes, like other linters; its edit is made when it is chosen.
    if (only === undefined && linted.fixes.fixable > 1 && actions.length > 0 && linted.mayFixAll) {
      const quick = new vscode.CodeAction(
        vscode.l10n.t('Fix all auto-fixable problems in this file'),
        vscode.CodeActionKind.QuickFix,
      );
      this.unresolved.set(quick, { doc, linted });
      actions.push(quick);
    }
    return actions;
  }

  /** The light bulb's "fix all", chosen: its edit, computed now (once per version), unless the document changed since. */
  async resolveCodeAction(action: vscode.CodeAction, token: vscode.CancellationToken): Promise<vscode.CodeAction> {
    const pending = this.unresolved.get(action);
    if (pending === undefined) return action;
    const { doc, linted } = pending;
    const all = fixAllAction(await this.fixAllEdit(linted));
    if (all !== undefined && !token.isCancellationRequested && doc.version === linted.version)
      action.edit = toWorkspaceEdit(doc.uri, all);
    return action;
  }

  private quickFixes(doc: vscode.TextDocument, linted: LintedVersion, asked: AskedFix[]): vscode.CodeAction[] {
    // Each fix names the diagnostic it came from by a key: one lookup per fix, not a scan of every asked one.
    const byKey = new Map<string, AskedFix>();
    for (const a of asked) {
      const key = askedKey(a.code, a.range.start);
      if (!byKey.has(key)) byKey.set(key, a);
    }
    return linted.fixes.quickFixes(asked).map((fix) => {
      const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
      action.edit = toWorkspaceEdit(doc.uri, fix);
      action.isPreferred = fix.isPreferred;
      const source = fix.fixes && byKey.get(askedKey(fix.fixes.rule, fix.fixes.range.start));
      if (source) action.diagnostics = [source.diagnostic];
      return action;
    });
  }

  /** "Fix all" as the source action asked for by its kind (a fix-all command, fix-all on save). */
  private async sourceFixAll(
    doc: vscode.TextDocument,
    linted: LintedVersion,
    token: vscode.CancellationToken,
  ): Promise<vscode.CodeAction[]> {
    const all = fixAllAction(await this.fixAllEdit(linted));
    if (!all || token.isCancellationRequested || doc.version !== linted.version) return [];
    const action = new vscode.CodeAction(all.title, FIX_ALL_KIND);
    action.edit = toWorkspaceEdit(doc.uri, all);
    return [action];
  }

  private async fixAllEdit(linted: LintedVersion): Promise<TextEdit | undefined> {
    try {
      return await linted.fixAll();
    } catch (err) {
      if (err instanceof LintCancelled) return undefined;
      throw err;
    }
  }

  /**
   * The lint of the document's current version: the one done or under way, or a new one. A lint under way that
   * others cancel (settings, a new connection: everything is linted again) is waited for again, not answered
   * with nothing: the asker did not cancel, and the version is the same.
   */
  private async lintFor(doc: vscode.TextDocument, token: vscode.CancellationToken): Promise<LintedVersion | undefined> {
    const key = doc.uri.toString();
    const version = doc.version;
    const controller = new AbortController();
    const listener = token.onCancellationRequested(() => controller.abort());
    try {
      for (let attempt = 0; attempt < LINT_ATTEMPTS; attempt++) {
        try {
          const started = this.documents.get(key, version);
          if (started !== undefined) return await started;
          // Code actions are asked for on every cursor move: a large file edited since its last lint offers
          // none (fixes computed from the saved text would edit the wrong ranges) until it is saved.
          if (!shouldLint(documentSize(doc), 'change')) return undefined;
          return await this.documents.lint(key, version, () => doc.getText(), controller.signal);
        } catch (err) {
          if (!(err instanceof LintCancelled)) throw err;
          if (controller.signal.aborted || doc.version !== version) return undefined;
        }
      }
      return undefined;
    } finally {
      listener.dispose();
    }
  }
}
