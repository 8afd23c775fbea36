// Where a member lies in a JSON file's text, for the reports that point into files (drift's SARIF, the GitHub
// annotations of drift, plan and test): 1-based lines and columns, columns in UTF-16 code units.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { MAX_NESTING, textNestedDeeperThan } from '../triggerFiles';

interface TextPlace {
  line: number;
  column: number;
}

/** A member's text: from its first character to just after its last (`end.column` is one past it). */
export interface TextRange {
  start: TextPlace;
  end: TextPlace;
}

/** `query.calculations[0].op` as a JSON path. */
export function pathOf(text: string): (string | number)[] {
  return [...text.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : (m[1] ?? '')));
}

/** 1-based line and column of an offset. */
function placeAt(text: string, offset: number): TextPlace {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * A locator of members in one file's text: the range of the member at a path, or of its nearest parent that is
 * there (a member the file does not hold: its object); undefined when none is (broken JSON, or text nested too
 * deep to parse: parseTree recurses per level, so such a file is not parsed at all).
 */
export function jsonLocator(text: string): (path: readonly (string | number)[]) => TextRange | undefined {
  // One level more than a trigger may have: a file may hold an array of triggers.
  const tree = textNestedDeeperThan(text, MAX_NESTING + 1) ? undefined : parseTree(text);
  return (path) => {
    let node: Node | undefined;
    for (let n = path.length; node === undefined && n >= 0 && tree !== undefined; n--)
      node = findNodeAtLocation(tree, path.slice(0, n));
    // A member's range starts at its name, as editors show a property.
    const target = node?.parent?.type === 'property' ? node.parent : node;
    if (target === undefined) return undefined;
    return { start: placeAt(text, target.offset), end: placeAt(text, target.offset + target.length) };
  };
}

/** A locator over several files' texts, each parsed once, when first asked. */
export function filesLocator(
  texts: ReadonlyMap<string, string>,
): (file: string, path: readonly (string | number)[]) => TextRange | undefined {
  const locators = new Map<string, ReturnType<typeof jsonLocator>>();
  return (file, path) => {
    let locator = locators.get(file);
    if (locator === undefined) locators.set(file, (locator = jsonLocator(texts.get(file) ?? '')));
    return locator(path);
  };
}
