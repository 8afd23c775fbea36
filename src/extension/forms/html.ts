// A form's page is the shared webview page (core/webviewPage.ts); this adds the page shown in place of a
// form that cannot be restored. No vscode import.
import { visibleControls } from '../../webview/protocol/safeText';
import { escapeAttribute } from '../core/webviewPage';

/** A page with one message and no script, for a form that cannot be restored (e.g. its connection is gone). */
export function renderNoticePage(title: string, message: string, cspSource: string, language = 'en'): string {
  // Service text in the message: controls shown as escapes, as every page shows them.
  const text = (t: string): string =>
    visibleControls(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html>
<html lang="${escapeAttribute(language)}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${escapeAttribute(cspSource)}">
<title>${text(title)}</title>
</head>
<body>
<main><h1>${text(title)}</h1><p role="alert">${text(message)}</p></main>
</body>
</html>
`;
}
