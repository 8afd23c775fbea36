// Parsing a trigger file. Valid JSON takes the native JSON.parse (the common case, and fast; ranges
// then come from the lazy tree of skim.ts). Invalid JSON goes through jsonc-parser, which recovers,
// so a half-typed file still yields a value to check and a tree to locate it in.
import { createScanner, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

export interface ParsedFile {
  value: unknown;
  syntaxProblems: SyntaxProblem[];
  /** jsonc-parser's recovered tree; only for text that is not valid JSON. */
  recoveredTree?: Node;
}

/**
 * Broken JSON nested deeper than this is not recovered: jsonc-parser recurses once per level and
 * would overflow the stack (near 6,000 levels in Node). A trigger nests about 8 levels.
 */
export const MAX_RECOVERY_DEPTH = 512;

// jsonc-parser's SyntaxKind is an ambient const enum, which isolated modules cannot read.
const OPEN_BRACE = 1;
const CLOSE_BRACE = 2;
const OPEN_BRACKET = 3;
const CLOSE_BRACKET = 4;
const EOF = 17;

/** The first bracket that opens a level deeper than MAX_RECOVERY_DEPTH, found by the (iterative) scanner. */
function tooDeep(text: string): SyntaxProblem | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token: number = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth > MAX_RECOVERY_DEPTH) {
        return { offset: scanner.getTokenOffset(), length: 1, message: `JSON syntax: nested deeper than ${MAX_RECOVERY_DEPTH} levels; a trigger file is never that deep` };
      }
    } else if ((token === CLOSE_BRACE || token === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

export function parseFile(text: string): ParsedFile {
  try {
    return { value: JSON.parse(text), syntaxProblems: [] };
  } catch {
    const deep = tooDeep(text);
    if (deep !== undefined) return { value: undefined, syntaxProblems: [deep] };
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, STRICT_JSON);
    const value: unknown = tree === undefined ? undefined : getNodeValue(tree);
    const parsed: ParsedFile = { value, syntaxProblems: syntaxProblems(text, errors) };
    if (tree !== undefined) parsed.recoveredTree = tree;
    return parsed;
  }
}

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a member name in double quotes is expected (a trailing comma is not allowed in JSON)',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected after the member name',
  CommaExpected: 'a comma is expected between members and elements',
  CloseBraceExpected: 'a closing brace } is expected',
  CloseBracketExpected: 'a closing bracket ] is expected',
  EndOfFileExpected: 'the end of the file is expected: a file holds one JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'the comment is not closed (and comments are not allowed in JSON)',
  UnexpectedEndOfString: 'the string is not closed',
  UnexpectedEndOfNumber: 'the number is incomplete',
  InvalidUnicode: 'invalid \\u escape in a string',
  InvalidEscapeCharacter: 'invalid escape in a string',
  InvalidCharacter: 'control characters must be escaped in strings',
};

function syntaxProblems(text: string, errors: ParseError[]): SyntaxProblem[] {
  if (text.trim() === '') return [{ offset: 0, length: text.length, message: 'the file is empty; it must hold a trigger object or an array of triggers' }];
  const seen = new Set<number>();
  const problems: SyntaxProblem[] = [];
  for (const e of errors) {
    // Recovery often reports several errors at one place (e.g. ] and } expected at the end): the first says it.
    if (seen.has(e.offset)) continue;
    seen.add(e.offset);
    const code = printParseErrorCode(e.error);
    problems.push({ offset: e.offset, length: e.length, message: `JSON syntax: ${SYNTAX_MESSAGES[code] ?? code}` });
  }
  return problems;
}
