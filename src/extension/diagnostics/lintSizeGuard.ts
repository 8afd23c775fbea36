// Very large trigger files are not linted while typing. Linting runs in a worker thread, so it never stalls
// the extension host, but a lint of tens of megabytes on every pause in typing would keep a core busy and
// the diagnostics always behind. No vscode import.
import * as l10n from '@vscode/l10n';

/**
 * Files larger than this are linted on open and on save only, not on each change. Sizes are counted in
 * characters (UTF-16 code units, which the editor knows without copying the text); trigger files are
 * ASCII JSON, where characters and bytes agree.
 */
export const LINT_ON_CHANGE_MAX_SIZE = 5 * 1024 * 1024;

const MB = 1024 * 1024;

/** What made a lint run: the document opened (or settings changed), was edited, or was saved. */
export type LintOccasion = 'open' | 'change' | 'save';

/** Whether a document of `size` characters is linted on this occasion. */
export function shouldLint(size: number, occasion: LintOccasion): boolean {
  return occasion !== 'change' || size <= LINT_ON_CHANGE_MAX_SIZE;
}

/** The Information diagnostic shown at the top of a file too large to lint while typing, if it is. */
export function largeFileNotice(size: number): string | undefined {
  if (size <= LINT_ON_CHANGE_MAX_SIZE) return undefined;
  // Rounded up to one decimal, so a file just over the limit never reads "5.0 MB is over 5 MB".
  const mb = Math.ceil((size / MB) * 10) / 10;
  return l10n.t(
    'Large trigger file, linted on save only (not while typing): {0} MB is over {1} MB.',
    mb.toFixed(1),
    LINT_ON_CHANGE_MAX_SIZE / MB,
  );
}

/** The part of a vscode.TextDocument (P: its Position) that its length is read from. */
export interface SizedDocument<P> {
  readonly lineCount: number;
  lineAt(line: number): { readonly range: { readonly end: P } };
  offsetAt(position: P): number;
}

/** A document's length in characters, without copying its text. */
export function documentSize<P>(doc: SizedDocument<P>): number {
  return doc.lineCount === 0 ? 0 : doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
}
