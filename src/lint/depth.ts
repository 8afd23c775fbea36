// Nesting deeper than the linter reads. Recursive code would overflow the stack a few thousand levels
// down (jsonc-parser's recovering parser, and JSON.stringify when a message shows a value), and a
// trigger nests about 8 levels. So each region deeper than MAX_DEPTH is found by an iterative scan and
// reported once (json/too-deep); broken text has it cut out before it is recovered, and a trigger
// holding one is not checked (the other triggers of the file are).
import * as l10n from '@vscode/l10n';
import { stringEnd } from './skim';

/** Levels of arrays and objects the linter reads, the file's top-level value being level 1. */
export const MAX_DEPTH = 512;

/** An array or object opening at level MAX_DEPTH + 1, from its bracket to past its closing one (or the end of the text). */
export interface DeepRegion {
  start: number;
  end: number;
}

export const tooDeepMessage = (): string =>
  l10n.t(
    'nested deeper than {0} levels: what lies deeper is not read, and a trigger holding it is not checked; a trigger nests about 8 levels',
    MAX_DEPTH,
  );

/** The regions of valid JSON text deeper than MAX_DEPTH, in document order. */
export function deepRegionsOfValid(text: string): DeepRegion[] {
  const out: DeepRegion[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i) - 1;
    } else if (c === 123 || c === 91) {
      if (++depth === MAX_DEPTH + 1) start = i;
    } else if (c === 125 || c === 93) {
      if (depth-- === MAX_DEPTH + 1) out.push({ start, end: i + 1 });
    }
  }
  return out;
}

/** Where a string of broken text ends, as jsonc-parser's scanner reads it: at its closing quote, or before a line break. */
function brokenStringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 34) return j + 1;
    if (c === 10 || c === 13) return j;
    // An escape takes the next character, whatever it is (a line break too).
    j += c === 92 ? 2 : 1;
  }
  return text.length;
}

/** Where a comment starting at `i` ends, as the scanner reads it; `i` itself when no comment starts there. */
function commentEnd(text: string, i: number): number {
  const next = text.charCodeAt(i + 1);
  if (next === 42 /* * */) {
    const close = text.indexOf('*/', i + 2);
    return close < 0 ? text.length : close + 2;
  }
  if (next !== 47 /* / */) return i;
  let j = i + 2;
  while (j < text.length && text.charCodeAt(j) !== 10 && text.charCodeAt(j) !== 13) j++;
  return j;
}

/**
 * The same for broken text, with its brackets as jsonc-parser's scanner (which the recovering parser reads
 * with) finds them, outside strings and comments; a region left open ends with the text. A loop over the
 * characters: the scanner, which makes every token's value, took as long as the recovering parse.
 */
export function deepRegionsOfBroken(text: string): DeepRegion[] {
  const out: DeepRegion[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = brokenStringEnd(text, i) - 1;
    } else if (c === 47) {
      i = Math.max(i, commentEnd(text, i) - 1);
    } else if (c === 123 || c === 91) {
      if (++depth === MAX_DEPTH + 1) start = i;
    } else if ((c === 125 || c === 93) && depth > 0) {
      if (depth-- === MAX_DEPTH + 1) out.push({ start, end: i + 1 });
    }
  }
  if (depth > MAX_DEPTH) out.push({ start, end: text.length });
  return out;
}

/** The text with each region replaced by a 0 and spaces: nothing deeper than MAX_DEPTH is left, and every offset stays. */
export function withoutRegions(text: string, regions: readonly DeepRegion[]): string {
  if (regions.length === 0) return text;
  const parts: string[] = [];
  let cursor = 0;
  for (const r of regions) {
    parts.push(text.slice(cursor, r.start), '0', ' '.repeat(r.end - r.start - 1));
    cursor = r.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}
