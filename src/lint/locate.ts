// Where a finding lies in the file: from a JSON path to the node (or just the offsets) it points at.
import { findValueNode } from './fixes';
import { skimTree, type SkimNode } from './skim';
import { LineIndex } from './text';
import type { Diagnostic, JsonPath } from './types';

export interface Span {
  offset: number;
  length: number;
}

/** The node a path points at: the member (key through value) or element; for a missing member its nearest existing parent. */
export function targetNode(root: SkimNode, path: JsonPath): SkimNode {
  for (let n = path.length; n > 0; n--) {
    const node = findValueNode(root, n === path.length ? path : path.slice(0, n));
    if (node !== undefined) return n === path.length && node.parent?.type === 'property' ? node.parent : node;
  }
  return root;
}

/** Where targetNode's node lies, without making a node for the member itself (there may be a million of them). */
export function targetSpan(root: SkimNode, path: JsonPath, parent = findValueNode(root, path.slice(0, -1))): Span {
  if (path.length === 0) return root;
  if (parent === undefined) return targetNode(root, path);
  const last = path[path.length - 1];
  return (
    (typeof last === 'number' ? parent.elementSpan(last) : last === undefined ? undefined : parent.memberSpan(last)) ??
    parent
  );
}

/** The property node whose key starts at `offset`, found by descending through the children that hold it. */
export function propertyAt(root: SkimNode, offset: number): SkimNode | undefined {
  let node: SkimNode | undefined = root;
  while (node !== undefined && (node.type === 'object' || node.type === 'array')) {
    const child: SkimNode | undefined = node.childContaining(offset);
    if (child === undefined) return undefined;
    if (child.type === 'property') {
      if (child.offset === offset) return child;
      node = child.valueNode();
    } else {
      node = child;
    }
  }
  return undefined;
}

/** The JSON path of a node (a property's path is its value's). */
export function pathOf(node: SkimNode): JsonPath {
  const path: JsonPath = [];
  for (let n: SkimNode | undefined = node; n?.parent !== undefined; n = n.parent) {
    if (n.type === 'property') {
      const key: unknown = n.children?.[0]?.value;
      path.push(typeof key === 'string' ? key : String(key));
    } else if (n.parent.type === 'array') {
      path.push(n.slot);
    }
  }
  return path.reverse();
}

/**
 * Where a path lies in a text, as the linter ranges a member (key through value; a missing one: its parent). A
 * text that does not parse is pointed at from its start, never at a place of another text.
 */
export function rangeLocator(text: string): (path: JsonPath) => Diagnostic['range'] {
  const root = skimTree(text);
  const lines = new LineIndex(text);
  return (path) => {
    if (root === undefined) return lines.range(0, 0);
    const span = targetSpan(root, path);
    return lines.range(span.offset, span.length);
  };
}
