// Where a finding lies in the file: from a JSON path to the node (or just the offsets) it points at.
import { findValueNode } from './fixes';
import type { SkimNode } from './skim';
import type { JsonPath } from './types';

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
