// The environments file checked (`obs lint obs.environments.json`): each mistake readEnvironments finds, a
// diagnostic at its place in the file, so that an editor or a SARIF viewer points at the member at fault. Its
// JSON is read strictly, as the commands read it (no comments, no trailing commas). No vscode import.
import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { Diagnostic, JsonPath, Range } from '../lint/types';
import { ENVIRONMENTS_FILE_NAME, environmentsOf } from './environments';

/** Whether a file is an environments file, by its name (in any letter case), whatever folder it is in. */
export function isEnvironmentsFile(file: string): boolean {
  const name = file.split(/[/\\]/).pop() ?? '';
  return name.toLowerCase() === ENVIRONMENTS_FILE_NAME;
}

/** Offsets to lines and characters (UTF-16, as editors and SARIF viewers count them). */
function rangeOf(text: string, offset: number, length: number): Range {
  const at = (o: number) => {
    const before = text.slice(0, o);
    const line = before.split('\n').length - 1;
    return { line, character: o - (before.lastIndexOf('\n') + 1) };
  };
  return { start: at(offset), end: at(offset + length) };
}

/** A member's node, key through value; for a missing member, its nearest parent that is there. */
function nodeOf(root: Node, path: JsonPath): Node {
  for (let n = path.length; n > 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node !== undefined) return n === path.length && node.parent?.type === 'property' ? node.parent : node;
  }
  return root;
}

/** The mistakes of an environments file, each at its place; none for a file every command can read. */
export function lintEnvironmentsText(text: string): Diagnostic[] {
  // A byte order mark is read as a space: the offsets stay the text's.
  const source = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || root === undefined)
    return (errors.length > 0 ? errors : [{ error: 0, offset: 0, length: 0 }]).map((e) => ({
      rule: 'json/syntax',
      severity: 'error',
      message: `not valid JSON: ${errors.length > 0 ? printParseErrorCode(e.error) : 'the file is empty'}`,
      range: rangeOf(text, e.offset, e.length),
      path: [],
    }));
  const read = environmentsOf(getNodeValue(root));
  if (read.ok) return [];
  return read.reason.map((p) => {
    const node = nodeOf(root, p.path);
    return {
      rule: 'environments/file',
      severity: 'error',
      message: p.message,
      range: rangeOf(text, node.offset, node.length),
      path: p.path,
    };
  });
}
