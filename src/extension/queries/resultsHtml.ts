// The HTML of the query results panel: a strict Content-Security-Policy with a per-page nonce, one
// stylesheet and one module script from the extension's own files; the script builds the rest with DOM
// calls. No vscode import: the browser tests render this very page.
import { randomBytes } from 'node:crypto';

export function makeNonce(): string {
  return randomBytes(16).toString('base64');
}

const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function resultsCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource} 'nonce-${nonce}'`, `font-src ${cspSource}`, `img-src ${cspSource}`].join('; ');
}

export function renderResultsPage(o: { title: string; cspSource: string; nonce: string; scriptUri: string; styleUri: string }): string {
  const nonce = attr(o.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${attr(resultsCsp(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${attr(o.title)}</title>
<link rel="stylesheet" nonce="${nonce}" href="${attr(o.styleUri)}">
</head>
<body>
<main id="app" aria-busy="true"><p>Loading…</p></main>
<script type="module" nonce="${nonce}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}
