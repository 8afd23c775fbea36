// Text edits that repair a diagnostic, and applying them.
import type { TreeNode } from './skim';
import { LineIndex } from './text';
import type { Fix, JsonPath, TextEdit } from './types';

/** Offsets to delete a member, comma included: the text reads as if the member never was there. */
export function memberRemovalSpan(property: TreeNode): { offset: number; length: number } | undefined {
  const object = property.parent;
  if (property.type !== 'property' || object === undefined || object.children === undefined) return undefined;
  const siblings = object.children;
  const index = siblings.indexOf(property);
  const end = property.offset + property.length;
  if (siblings.length === 1) {
    // The only member: leave `{}`.
    return { offset: object.offset + 1, length: object.offset + object.length - 1 - (object.offset + 1) };
  }
  const next = siblings[index + 1];
  if (next !== undefined) return { offset: property.offset, length: next.offset - property.offset };
  const previous = siblings[index - 1];
  if (previous === undefined) return undefined;
  const previousEnd = previous.offset + previous.length;
  return { offset: previousEnd, length: end - previousEnd };
}

/**
 * The value node at a path. Of duplicate members the last counts, as in JSON.parse (jsonc-parser's
 * findNodeAtLocation takes the first).
 */
export function findValueNode(root: TreeNode, path: JsonPath): TreeNode | undefined {
  let node: TreeNode | undefined = root;
  for (const segment of path) {
    if (node === undefined) return undefined;
    if (typeof segment === 'number') {
      node = node.type === 'array' ? node.children?.[segment] : undefined;
    } else if (node.type === 'object') {
      const property: TreeNode | undefined = node.children?.findLast((p) => p.children?.[0]?.value === segment);
      node = property?.children?.[1];
    } else {
      return undefined;
    }
  }
  return node;
}

/** Whether the member a value node belongs to has a namesake in its object: editing it would be a guess. */
function isDuplicated(value: TreeNode): boolean {
  const property = value.parent;
  const key: unknown = property?.children?.[0]?.value;
  if (property?.type !== 'property') return false;
  return (property.parent?.children ?? []).filter((p) => p.children?.[0]?.value === key).length > 1;
}

export function removeMemberFix(root: TreeNode, path: JsonPath, lines: LineIndex, title: string): Fix | undefined {
  const value = findValueNode(root, path);
  if (value === undefined || isDuplicated(value)) return undefined;
  const property = value.parent;
  if (property === undefined) return undefined;
  const span = memberRemovalSpan(property);
  if (span === undefined) return undefined;
  return { title, edits: [{ range: lines.range(span.offset, span.length), newText: '' }] };
}

export function replaceValueFix(root: TreeNode, path: JsonPath, lines: LineIndex, newValue: unknown, title: string): Fix | undefined {
  const node = findValueNode(root, path);
  if (node === undefined || isDuplicated(node)) return undefined;
  return { title, edits: [{ range: lines.range(node.offset, node.length), newText: JSON.stringify(newValue) }] };
}

interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

function toOffsets(lines: LineIndex, edit: TextEdit): OffsetEdit {
  const start = lines.offsetAt(edit.range.start);
  const end = Math.max(start, lines.offsetAt(edit.range.end));
  return { start, end, newText: edit.newText };
}

function overlaps(a: OffsetEdit, b: OffsetEdit): boolean {
  // Two insertions at one place conflict too: their order would be a guess.
  return a.start < b.end && b.start < a.end ? true : a.start === b.start;
}

/** Applies edits to text; an edit that overlaps one before it (in document order) is left out. */
export function applyFixes(text: string, edits: readonly TextEdit[]): string {
  const lines = new LineIndex(text);
  const sorted = edits.map((e) => toOffsets(lines, e)).sort((a, b) => a.start - b.start || a.end - b.end);
  const accepted: OffsetEdit[] = [];
  for (const edit of sorted) {
    const last = accepted[accepted.length - 1];
    if (last !== undefined && overlaps(last, edit)) continue;
    accepted.push(edit);
  }
  let out = '';
  let cursor = 0;
  for (const edit of accepted) {
    out += text.slice(cursor, edit.start) + edit.newText;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

/** The fixes whose edits do not overlap one another, first come first served. */
export function compatibleFixes(text: string, fixes: readonly Fix[]): Fix[] {
  const lines = new LineIndex(text);
  const taken: OffsetEdit[] = [];
  const chosen: Fix[] = [];
  for (const fix of fixes) {
    const edits = fix.edits.map((e) => toOffsets(lines, e));
    if (edits.some((e) => taken.some((t) => overlaps(t, e)))) continue;
    taken.push(...edits);
    chosen.push(fix);
  }
  return chosen;
}
