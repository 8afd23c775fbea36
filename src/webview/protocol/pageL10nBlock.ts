// How the host writes a page's language and translations into its HTML (protocol/pageL10n.ts reads them back
// with its schema). Apart from that schema, so that a host bundle without zod can render a page. No vscode
// import.
import type { PageL10n } from './pageL10n';

/** The id of the `<script type="application/json">` element that carries it. */
export const PAGE_L10N_ELEMENT_ID = 'obs-l10n';

/**
 * The JSON to put inside the `<script type="application/json">` element: `<`, `>` and `&` escaped as
 * \u003c, \u003e, \u0026 (the same JSON to a parser), so no text of a translation can close the element.
 */
export function pageL10nJson(value: PageL10n): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
