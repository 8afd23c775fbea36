// The language of the webview pages' words, on both sides: the bundles that hold the pages' host code (the
// forms and the results panel) configure their copy of the word tables with it, and each page gets it
// written into its HTML. Its own module so that the activation bundle does not carry the word tables.
import * as vscode from 'vscode';
import type { PageL10n } from '../../webview/protocol/pageL10n';
import { useTextLocale } from '../../webview/protocol/text/common';
import { configureL10n } from './l10nSetup';

/** configureL10n(), and numbers and relative times of the word tables in the display language. */
export function configurePageText(): void {
  configureL10n();
  useTextLocale(vscode.env.language);
}

/** What a webview page is given to speak the user's language (written into its HTML). */
export function pageL10n(): PageL10n {
  return { language: vscode.env.language, bundle: vscode.l10n.bundle ?? null };
}
