// Where a JSON path lies in a text, as the linter ranges its findings, without loading the linter: plans and the
// placing of an environment's findings (environmentLint.ts) point into files with it.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { Diagnostic, JsonPath } from '../lint/types';

type Range = Diagnostic['range'];

/** Offsets of a text's line starts, for offset -> line and character. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function positionAt(starts: readonly number[], offset: number): Range['start'] {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: offset - (starts[lo] ?? 0) };
}

/**
 * Where a path lies in a JSON text, as the linter ranges it: a member from its key through its value, an element
 * itself; a missing one at its nearest present parent's value. A text that does not parse: its start.
 */
export function jsonRangeLocator(text: string): (path: JsonPath) => Range {
  let parsed: { root: Node | undefined; starts: number[] } | undefined;
  return (path) => {
    parsed ??= { root: parseTree(text), starts: lineStarts(text) };
    const { root, starts } = parsed;
    let span = { offset: 0, length: 0 };
    for (let n = path.length; root !== undefined; n--) {
      const node = n === 0 ? root : findNodeAtLocation(root, path.slice(0, n));
      if (node === undefined) continue;
      span = n === path.length && node.parent?.type === 'property' ? node.parent : node;
      break;
    }
    return { start: positionAt(starts, span.offset), end: positionAt(starts, span.offset + span.length) };
  };
}
