// The HTML page of every webview (the forms and the query results panel): a strict
// Content-Security-Policy with a per-page nonce, one stylesheet and one module script, both from the
// extension's own files. Everything else is built by the script with DOM calls (never innerHTML), so no
// service string is ever parsed as markup. No vscode import: the browser tests render the very same page.
import { randomBytes } from 'node:crypto';
import type { PageL10n } from '../../webview/protocol/pageL10n';
import { PAGE_L10N_ELEMENT_ID, pageL10nJson } from '../../webview/protocol/pageL10nBlock';

export interface WebviewPageOptions {
  title: string;
  /** `webview.cspSource`: the origin the webview serves local resources from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** The display language and its translations, for the page's own words. */
  l10n: PageL10n;
  /** What the page says until its script has drawn it, in the user's language. */
  loading: string;
}

/** A fresh nonce per page: 128 random bits. */
export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    `default-src 'none'`,
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
  ].join('; ');
}

export function escapeAttribute(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function renderWebviewPage(o: WebviewPageOptions): string {
  const nonce = escapeAttribute(o.nonce);
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(o.l10n.language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeAttribute(o.title)}</title>
<link rel="stylesheet" nonce="${nonce}" href="${escapeAttribute(o.styleUri)}">
</head>
<body>
<main id="app" aria-busy="true"><p>${escapeText(o.loading)}</p></main>
<script type="application/json" id="${PAGE_L10N_ELEMENT_ID}">${pageL10nJson(o.l10n)}</script>
<script type="module" nonce="${nonce}" src="${escapeAttribute(o.scriptUri)}"></script>
</body>
</html>
`;
}
