// Parsing a trigger file. Valid JSON takes the native JSON.parse (the common case, and fast; ranges
// then come from the lazy tree of skim.ts). Invalid JSON goes through jsonc-parser's recovering
// visitor (recover.ts), so a half-typed file still yields a value to check and a tree to locate it in.
import * as l10n from '@vscode/l10n';
import { printParseErrorCode } from 'jsonc-parser';
import { deepRegionsOfBroken, deepRegionsOfValid, MAX_DEPTH, withoutRegions, type DeepRegion } from './depth';
import { duplicateMembers, everyMemberKept, valueShape } from './duplicates';
import { recover, RecoveredIndex, type ElementCheck, type RecoveredError } from './recover';
import { skimTree, treeOver, type SkimNode } from './skim';
import type { SyntaxKind } from './types';

interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
  kind: SyntaxKind;
}

export interface ParsedFile {
  value: unknown;
  /** Whether JSON.parse took the text: only then are fixes offered. */
  valid: boolean;
  /** The first syntax problems, in document order (at most the limit given). */
  syntaxProblems: SyntaxProblem[];
  /** Syntax problems past the limit. */
  moreSyntaxProblems: number;
  /** The tree findings are located in; none for a file without a value. */
  root?: SkimNode;
  /** Pairs of key offsets: a member JSON.parse ignores, and the next member of its object with its name. */
  duplicates: number[];
  /** What lies deeper than the linter reads (depth.ts), in document order. */
  deep: DeepRegion[];
  /** Whether the elements of the top-level array went to the ElementsCheck as read: `value` holds none of them. */
  streamed: boolean;
}

/**
 * Hears each element of a broken file's top-level array as it is read (its value is then not kept):
 * `unread` when it holds what lies too deep. Answers whether the tree is to keep the element's containers.
 */
export type ElementsCheck = (index: number, value: unknown, start: number, end: number, unread: boolean) => boolean;

/**
 * Parses a trigger file; `limit` bounds the syntax problems kept (the rest are counted). A broken file's top-level array is handed to `elements` element by element, when given; `afterRefusedParse` as in LintOptions.
 */
export function parseFile(
  text: string,
  limit: number,
  elements?: ElementsCheck,
  afterRefusedParse?: () => void,
): ParsedFile {
  if (unclosed(text)) return parseBroken(text, limit, elements);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    afterRefusedParse?.();
    return parseBroken(text, limit, elements);
  }
  // Most files repeat no member and nest a few levels: the value tells, and the text is scanned only when it does not.
  const shape = valueShape(value);
  const kept = everyMemberKept(text, shape);
  const deep = kept && shape.depth <= MAX_DEPTH ? [] : deepRegionsOfValid(text);
  const parsed: ParsedFile = {
    value,
    valid: true,
    syntaxProblems: [],
    moreSyntaxProblems: 0,
    duplicates: duplicateMembers(text, value, kept),
    deep,
    streamed: false,
  };
  const root = skimTree(text);
  if (root !== undefined) parsed.root = root;
  return parsed;
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Whether the text opens an array or object its last character does not close: JSON.parse would refuse
 * it, after building most of its value (a large file cut short would be held about twice).
 */
function unclosed(text: string): boolean {
  let first = 0;
  while (first < text.length && isJsonSpace(text.charCodeAt(first))) first++;
  let last = text.length - 1;
  while (last > first && isJsonSpace(text.charCodeAt(last))) last--;
  const open = text.charCodeAt(first);
  const close = last > first ? text.charCodeAt(last) : NaN;
  return (open === 0x5b && close !== 0x5d) || (open === 0x7b && close !== 0x7d);
}

function parseBroken(text: string, limit: number, elements?: ElementsCheck): ParsedFile {
  // The recovering parser recurses once per level: it reads the text without what lies too deep.
  const deep = deepRegionsOfBroken(text);
  const readable = withoutRegions(text, deep);
  // Elements come in document order, and so do the regions: the next region not before the element.
  let next = 0;
  const check: ElementCheck | undefined =
    elements &&
    ((index, value, start, end) => {
      while (next < deep.length && (deep[next]?.start ?? 0) < start) next++;
      return elements(index, value, start, end, next < deep.length && (deep[next]?.start ?? end) < end);
    });
  const recovered = recover(readable, limit, check);
  const parsed: ParsedFile = {
    streamed: recovered.streamed,
    value: recovered.value,
    valid: false,
    syntaxProblems: syntaxProblems(text, recovered.errors),
    moreSyntaxProblems: recovered.moreErrors,
    duplicates: recovered.duplicates,
    deep,
  };
  if (recovered.root !== undefined)
    parsed.root = treeOver(
      new RecoveredIndex(readable, recovered.containers),
      recovered.root.offset,
      recovered.root.end,
    );
  return parsed;
}

/** The message of each jsonc-parser error code, read when a message is made (so in the configured language). */
const SYNTAX_MESSAGES: Record<string, () => string> = {
  InvalidSymbol: () => l10n.t('JSON syntax: unexpected character'),
  InvalidNumberFormat: () => l10n.t('JSON syntax: invalid number'),
  PropertyNameExpected: () =>
    l10n.t('JSON syntax: a member name in double quotes is expected (a trailing comma is not allowed in JSON)'),
  ValueExpected: () => l10n.t('JSON syntax: a value is expected'),
  ColonExpected: () => l10n.t('JSON syntax: a colon is expected after the member name'),
  CommaExpected: () => l10n.t('JSON syntax: a comma is expected between members and elements'),
  CloseBraceExpected: () => l10n.t('JSON syntax: a closing brace } is expected'),
  CloseBracketExpected: () => l10n.t('JSON syntax: a closing bracket ] is expected'),
  EndOfFileExpected: () => l10n.t('JSON syntax: the end of the file is expected: a file holds one JSON value'),
  InvalidCommentToken: () => l10n.t('JSON syntax: comments are not allowed in JSON'),
  UnexpectedEndOfComment: () => l10n.t('JSON syntax: the comment is not closed (and comments are not allowed in JSON)'),
  UnexpectedEndOfString: () => l10n.t('JSON syntax: the string is not closed'),
  UnexpectedEndOfNumber: () => l10n.t('JSON syntax: the number is incomplete'),
  InvalidUnicode: () => l10n.t('JSON syntax: invalid \\u escape in a string'),
  InvalidEscapeCharacter: () => l10n.t('JSON syntax: invalid escape in a string'),
  InvalidCharacter: () => l10n.t('JSON syntax: control characters must be escaped in strings'),
};

function syntaxProblems(text: string, errors: readonly RecoveredError[]): SyntaxProblem[] {
  if (text.trim() === '')
    return [
      {
        offset: 0,
        length: text.length,
        message: l10n.t('the file is empty; it must hold a trigger object or an array of triggers'),
        kind: emptyKind(text),
      },
    ];
  return errors.map((e) => {
    const code = printParseErrorCode(e.error);
    const message = Object.hasOwn(SYNTAX_MESSAGES, code) ? SYNTAX_MESSAGES[code]?.() : undefined;
    return {
      offset: e.offset,
      length: e.length,
      message: message ?? l10n.t('JSON syntax: {0}', code),
      kind: syntaxKind(text, code, e.offset),
    };
  });
}

/** An empty file, which VS Code's JSON support leaves alone; one of only white space it reports. */
function emptyKind(text: string): SyntaxKind {
  const kind: SyntaxKind = text === '' ? 'empty' : 'other';
  return kind;
}

const COMMENT_CODES = new Set(['InvalidCommentToken', 'UnexpectedEndOfComment']);
const MISSING_CODES = new Set(['PropertyNameExpected', 'ValueExpected']);

/** A comment, a comma right before a closing } or ] (a member or value expected there), or any other fault. */
function syntaxKind(text: string, code: string, offset: number): SyntaxKind {
  let kind: SyntaxKind = 'other';
  if (COMMENT_CODES.has(code)) kind = 'comment';
  else if (MISSING_CODES.has(code) && (text[offset] === '}' || text[offset] === ']')) {
    let i = offset - 1;
    while (i >= 0 && /\s/.test(text.charAt(i))) i--;
    if (text[i] === ',') kind = 'trailing-comma';
  }
  return kind;
}
