// The Problems entries of trigger files: the one diagnostic collection of the linter, what a lint's
// diagnostics look like in VS Code (rule code linked to its docs, tags, related locations), the notice of
// a file too large to lint while typing, and which entries lie under a deleted folder (an index by path,
// uriTree.ts: found without looking at the other entries).
import * as vscode from 'vscode';
import type { Diagnostic as LintDiagnostic } from '../../lint';
import { LINT_SOURCE, toDiagnosticData, type DiagnosticData } from './lintMapping';
import { largeFileNotice } from './lintSizeGuard';
import type { RuleDocs } from './ruleDocs';
import { UriTree } from './uriTree';

export function toRange(r: DiagnosticData['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

function toVscodeDiagnostic(uri: vscode.Uri, d: DiagnosticData): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(d.range), d.message, d.severity as vscode.DiagnosticSeverity);
  diagnostic.source = d.source;
  diagnostic.code = { value: d.code.value, target: vscode.Uri.parse(d.code.target, true) };
  if (d.tags.length > 0) diagnostic.tags = d.tags as vscode.DiagnosticTag[];
  if (d.related.length > 0) {
    diagnostic.relatedInformation = d.related.map(
      (r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, toRange(r.range)), r.message),
    );
  }
  return diagnostic;
}

export class LintCollection implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(LINT_SOURCE);
  /** The uris with an entry, by path. */
  private readonly index = new UriTree<vscode.Uri>();

  constructor(private readonly docs: RuleDocs) {}

  /**
   * A lint's diagnostics of a uri as VS Code shows them; those of a file linted as an environment sees it name the
   * environment in their source, where quick fixes (asked for by the linter's source) do not look.
   */
  shown(uri: vscode.Uri, diagnostics: readonly LintDiagnostic[], environment?: string): vscode.Diagnostic[] {
    const page = this.docs.page();
    return diagnostics.map((d) => {
      const shown = toVscodeDiagnostic(uri, toDiagnosticData(d, page, this.docs.lines()));
      if (environment !== undefined) shown.source = `${LINT_SOURCE} (${environment})`;
      return shown;
    });
  }

  /** Shows a lint's diagnostics for a uri (with the notice of a file too large to lint while typing). */
  show(uri: vscode.Uri, diagnostics: readonly LintDiagnostic[], size: number, environment?: string): void {
    const shown = this.shown(uri, diagnostics, environment);
    const notice = largeFileNotice(size);
    if (notice !== undefined) {
      const info = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), notice, vscode.DiagnosticSeverity.Information);
      info.source = LINT_SOURCE;
      shown.unshift(info);
    }
    this.collection.set(uri, shown);
    this.index.set(uri.toString(), uri);
  }

  delete(uri: vscode.Uri): void {
    this.collection.delete(uri);
    this.index.delete(uri.toString());
  }

  /** Every uri with diagnostics. */
  uris(): vscode.Uri[] {
    const all: vscode.Uri[] = [];
    this.collection.forEach((uri) => void all.push(uri));
    return all;
  }

  /** The uris with diagnostics that are `uri` itself or lie under it (a deleted folder). */
  urisUnder(uri: vscode.Uri): vscode.Uri[] {
    return this.index.under(uri.toString());
  }

  dispose(): void {
    this.collection.dispose();
  }
}
