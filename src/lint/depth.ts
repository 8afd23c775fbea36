// Nesting deeper than the linter reads. Recursive code would overflow the stack a few thousand levels
// down (jsonc-parser's recovering parser, and JSON.stringify when a message shows a value), and a
// trigger nests about 8 levels. So each region deeper than MAX_DEPTH is found by an iterative scan and
// reported once (json/too-deep); broken text has it cut out before it is recovered, and a trigger
// holding one is not checked (the other triggers of the file are).
import * as l10n from '@vscode/l10n';
import { createScanner } from 'jsonc-parser';
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

// jsonc-parser's SyntaxKind is an ambient const enum, which isolated modules cannot read.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/** The same for broken text, read by the (iterative) scanner the recovering parser reads with; a region left open ends with the text. */
export function deepRegionsOfBroken(text: string): DeepRegion[] {
  const out: DeepRegion[] = [];
  const scanner = createScanner(text, true);
  let depth = 0;
  let start = -1;
  for (let token: number = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth === MAX_DEPTH + 1) start = scanner.getTokenOffset();
    } else if ((token === CLOSE_BRACE || token === CLOSE_BRACKET) && depth > 0) {
      if (depth-- === MAX_DEPTH + 1) out.push({ start, end: scanner.getTokenOffset() + 1 });
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
