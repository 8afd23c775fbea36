// Making service text safe to show. Everything the service returns (names, descriptions, recipients) is
// untrusted: it must show as plain text, never as markup, a link or a command, and never reorder itself
// with bidi controls. No vscode import.

// Bidi embedding/override/isolate controls and marks (Trojan Source), Arabic letter mark.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// C0 and C1 controls other than tab and line breaks.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const OTHER_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** Replaces bidi and other control characters with U+FFFD so a hostile name can be seen as such. */
export function neutraliseControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '\uFFFD').replace(OTHER_CONTROLS, '\uFFFD');
}

/** A single-line label: controls neutralised, line breaks and tabs as spaces, capped in length. */
export function safeLabel(text: string, max = 200): string {
  const oneLine = neutraliseControls(text).replace(/[\t\r\n\u2028\u2029]+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}\u2026` : oneLine;
}

/**
 * Escapes text for a Markdown tooltip so it renders literally. Every ASCII punctuation character is
 * backslash-escaped (CommonMark allows escaping all of them), which defeats links, images, raw HTML,
 * entities, emphasis, headings and GFM autolinks (`https\:` and `www\.` no longer match). Line breaks
 * become hard breaks so a value cannot start a block (list, quote, code block) of its own.
 */
export function escapeMarkdown(text: string): string {
  return neutraliseControls(text)
    .replace(/[!-/:-@[-`{-~]/g, '\\$&')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .split('\n')
    .map((line) => line.replace(/^[ \t]+/, (ws) => '&nbsp;'.repeat(ws.length)))
    .join('  \n');
}

/** One row of a tooltip: a label we control and a value from the service. */
export interface TooltipRow {
  label: string;
  value: string | number | boolean | null | undefined;
}

export interface Tooltip {
  title: string;
  rows: TooltipRow[];
  /** Free text from the service (e.g. a description), shown as a paragraph. */
  text?: string | undefined;
}

/** Renders a tooltip as Markdown with every service-provided string escaped. */
export function tooltipMarkdown(t: Tooltip): string {
  const parts = [`**${escapeMarkdown(t.title)}**`];
  if (t.text !== undefined && t.text !== '') parts.push(escapeMarkdown(t.text));
  const rows = t.rows
    .filter((r) => r.value !== undefined && r.value !== null && r.value !== '')
    .map((r) => `${escapeMarkdown(r.label)}: ${escapeMarkdown(String(r.value))}`);
  if (rows.length > 0) parts.push(rows.join('  \n'));
  return parts.join('\n\n');
}
