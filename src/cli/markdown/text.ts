// Text from files and the service in GitHub-flavoured Markdown (a step summary, a pull request comment): shown
// as the characters it holds, never as markup. Every ASCII punctuation character is backslash-escaped
// (CommonMark lets each be), `&`, `<` and `>` are written as entities, so nothing can open a tag, an entity, a
// link, emphasis, a code span, a heading or a list, or close a table cell or a `<details>`. Hidden characters
// (line breaks, ESC, bidi controls) are shown as `\u{…}` escapes first, as the text reports show them
// (visible.ts): the text stays on its one line. White space at either end is written as entities, so it starts
// no code block and is not trimmed off a table cell.
// GitHub links @names, #numbers and :emoji: in the text Markdown renders, after Markdown: no escape of it
// stops that; such text still shows as written, as a link or an emoji.
import { visible } from '../visible';

/** A report in Markdown: its counts in one line, and the rest (every prefix that ends a line is whole Markdown). */
export interface MarkdownReport {
  summary: string;
  details: string;
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Any string as inline Markdown text that renders as `visible(text)`, exactly. */
export function markdownText(text: string): string {
  return visible(text)
    .replace(/[!-/:-@[-`{-~]/g, (c) => ENTITIES[c] ?? `\\${c}`)
    .replace(/^\s+|\s+$/gu, (spaces) => [...spaces].map((c) => `&#${c.codePointAt(0) ?? 32};`).join(''));
}

/** Markdown of lines of ours (already Markdown) with the items under each, as a nested list. */
export function markdownItems(head: string, items: readonly string[]): string[] {
  return [`- ${head}`, ...items.map((i) => `  - ${i}`)];
}
