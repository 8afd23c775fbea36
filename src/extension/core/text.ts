// Making service text safe to show. Everything the service returns (names, descriptions, recipients) is
// untrusted: it must show as plain text, never as markup, a link or a command, and never reorder itself
// with bidi controls, and must stay short enough to show (a tooltip is built on every hover). No vscode import.
import * as l10n from '@vscode/l10n';

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
interface TooltipRow {
  label: string;
  value: string | number | boolean | null | undefined;
}

export interface Tooltip {
  title: string;
  rows: TooltipRow[];
  /** Free text from the service (e.g. a description), shown as a paragraph. */
  text?: string | undefined;
  /** Our own closing line (what a click does): shown last, never left out. */
  footer?: string | undefined;
}

/** Service text in a tooltip (a title, a description, a row's value) is cut after this many characters. */
const TOOLTIP_TEXT_MAX = 1_000;
/** A whole tooltip's Markdown is at most this long: the text or rows that would pass it are left out, and it says so. */
export const TOOLTIP_MARKDOWN_MAX = 10_000;

/** `text` cut after `max` characters (never inside a surrogate pair), saying that it was shortened and how long it is. */
export function capText(text: string, max = TOOLTIP_TEXT_MAX): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}\u2026 ${l10n.t('(shortened; {0} characters in all)', text.length)}`;
}

/**
 * Renders a tooltip as Markdown with every service-provided string escaped and capped (capText). A
 * capped value escapes to at most about six times its length (an indented line), so the title and the
 * footer always fit in TOOLTIP_MARKDOWN_MAX; the text and then the rows are shown while they fit.
 */
export function tooltipMarkdown(t: Tooltip): string {
  const title = `**${escapeMarkdown(capText(t.title))}**`;
  const omitted = escapeMarkdown(l10n.t('(more not shown: the tooltip would be too long)'));
  const footer = t.footer !== undefined && t.footer !== '' ? escapeMarkdown(t.footer) : undefined;
  let room = TOOLTIP_MARKDOWN_MAX - title.length - omitted.length - 4 - (footer === undefined ? 0 : footer.length + 2);
  let cut = false;
  const fits = (block: string, separator: number): boolean => {
    if (block.length + separator > room) {
      cut = true;
      return false;
    }
    room -= block.length + separator;
    return true;
  };
  const text = t.text !== undefined && t.text !== '' ? escapeMarkdown(capText(t.text)) : undefined;
  const shownText = text !== undefined && fits(text, 2) ? text : undefined;
  const rows = t.rows
    .filter((r) => r.value !== undefined && r.value !== null && r.value !== '')
    .map((r) => `${escapeMarkdown(r.label)}: ${escapeMarkdown(capText(String(r.value)))}`)
    .filter((row) => fits(row, 3));
  if (cut) rows.push(omitted);
  const parts = [title];
  if (shownText !== undefined) parts.push(shownText);
  if (rows.length > 0) parts.push(rows.join('  \n'));
  if (footer !== undefined) parts.push(footer);
  return parts.join('\n\n');
}
