// Text edits that repair a diagnostic, planning "fix all" in one pass, and applying edits.
// Every lookup goes through the container indexes of skim.ts: constant work per fix.
import type { SkimNode } from './skim';
import { LineIndex } from './text';
import type { Fix, JsonPath, TextEdit } from './types';

interface Span {
  start: number;
  end: number;
}

/** Start and end of the i-th child (member or element) of a container. */
function childSpan(container: SkimNode, i: number): Span | undefined {
  const child = container.childAt(i);
  return child === undefined ? undefined : { start: child.offset, end: child.offset + child.length };
}

/** Offsets to delete a member, comma included: the text reads as if the member never was there. */
function memberRemovalSpan(property: SkimNode): { offset: number; length: number } | undefined {
  const object = property.parent;
  if (property.type !== 'property' || object === undefined) return undefined;
  const index = property.slot;
  const count = object.childCount();
  if (count === 1) {
    // The only member: leave `{}`.
    return { offset: object.offset + 1, length: object.length - 2 };
  }
  const next = childSpan(object, index + 1);
  if (next !== undefined) return { offset: property.offset, length: next.start - property.offset };
  const previous = childSpan(object, index - 1);
  if (previous === undefined) return undefined;
  return { offset: previous.end, length: property.offset + property.length - previous.end };
}

/**
 * The value node at a path. Of duplicate members the last counts, as in JSON.parse (jsonc-parser's
 * findNodeAtLocation takes the first).
 */
export function findValueNode(root: SkimNode, path: JsonPath): SkimNode | undefined {
  let node: SkimNode | undefined = root;
  for (const segment of path) {
    if (node === undefined) return undefined;
    if (typeof segment === 'number') node = node.type === 'array' ? node.childAt(segment) : undefined;
    else node = node.type === 'object' ? node.member(segment)?.valueNode() : undefined;
  }
  return node;
}

/** Whether the member a value node belongs to has a namesake in its object: editing it would be a guess. */
function isDuplicated(value: SkimNode): boolean {
  const property = value.parent;
  const key: unknown = property?.children?.[0]?.value;
  if (property?.type !== 'property' || typeof key !== 'string') return false;
  return (property.parent?.occurrences(key) ?? 0) > 1;
}

/** The property node of the member at `path`, unless its name is given twice. */
export function removableMember(root: SkimNode, path: JsonPath): SkimNode | undefined {
  const value = findValueNode(root, path);
  if (value === undefined || isDuplicated(value)) return undefined;
  return value.parent?.type === 'property' ? value.parent : undefined;
}

/** The value node at `path`, unless its member's name is given twice. */
export function replaceableValue(root: SkimNode, path: JsonPath): SkimNode | undefined {
  const node = findValueNode(root, path);
  return node === undefined || isDuplicated(node) ? undefined : node;
}

export function removeMemberFix(property: SkimNode, lines: LineIndex, title: string): Fix | undefined {
  const span = memberRemovalSpan(property);
  if (span === undefined) return undefined;
  return { title, edits: [{ range: lines.range(span.offset, span.length), newText: '' }] };
}

export function replaceValueFix(node: SkimNode, lines: LineIndex, newText: string, title: string): Fix {
  return { title, edits: [{ range: lines.range(node.offset, node.length), newText }] };
}

/** An edit by offsets, and how many fixes it carries out. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
  fixes: number;
}

/**
 * What "fix all" does for one finding: remove a member, replace a value, or replace one member (key and
 * value) with `newText` while another is removed (a recipient's type and target become its id).
 */
export type FixTarget =
  | { kind: 'remove'; property: SkimNode }
  | { kind: 'replace'; node: SkimNode; newText: string }
  | { kind: 'swap'; property: SkimNode; newText: string; removed: SkimNode };

/** The offset edits of a swap: `property` becomes `newText`, `removed` goes with its comma; undefined when it cannot. */
function swapEdits(t: Extract<FixTarget, { kind: 'swap' }>): OffsetEdit[] | undefined {
  const removal = memberRemovalSpan(t.removed);
  if (removal === undefined || t.removed.parent !== t.property.parent) return undefined;
  return [
    { start: t.property.offset, end: t.property.offset + t.property.length, newText: t.newText, fixes: 1 },
    { start: removal.offset, end: removal.offset + removal.length, newText: '', fixes: 0 },
  ];
}

export function swapMemberFix(
  t: Extract<FixTarget, { kind: 'swap' }>,
  lines: LineIndex,
  title: string,
): Fix | undefined {
  const edits = swapEdits(t)?.map((e) => ({ range: lines.range(e.start, e.end - e.start), newText: e.newText }));
  return edits === undefined ? undefined : { title, edits };
}

/**
 * The edits of every target at once. Members removed from one object are removed together (each
 * removal alone would take a comma its neighbour's removal also takes), so one pass removes them all.
 */
export function planFixAll(targets: readonly FixTarget[]): OffsetEdit[] {
  const edits: OffsetEdit[] = [];
  const removals = new Map<SkimNode, Set<number>>();
  for (const t of targets) {
    if (t.kind === 'replace') {
      edits.push({ start: t.node.offset, end: t.node.offset + t.node.length, newText: t.newText, fixes: 1 });
      continue;
    }
    if (t.kind === 'swap') {
      edits.push(...(swapEdits(t) ?? []));
      continue;
    }
    const object = t.property.parent;
    if (object === undefined) continue;
    let slots = removals.get(object);
    if (slots === undefined) removals.set(object, (slots = new Set()));
    slots.add(t.property.slot);
  }
  for (const [object, slots] of removals) edits.push(...jointRemoval(object, slots));
  return compatibleEdits(edits);
}

/** Edits removing the members at `slots` of an object together. */
function jointRemoval(object: SkimNode, slots: ReadonlySet<number>): OffsetEdit[] {
  const count = object.childCount();
  if (slots.size >= count)
    return [{ start: object.offset + 1, end: object.offset + object.length - 1, newText: '', fixes: slots.size }];
  const sorted = [...slots].sort((a, b) => a - b);
  const out: OffsetEdit[] = [];
  for (let r = 0; r < sorted.length; ) {
    // A run of adjacent removed members, first to last.
    const first = sorted[r] ?? 0;
    let last = first;
    while (sorted[r + 1] === last + 1) {
      r++;
      last++;
    }
    r++;
    const run = last - first + 1;
    const next = childSpan(object, last + 1);
    const firstSpan = childSpan(object, first);
    const lastSpan = childSpan(object, last);
    if (firstSpan === undefined || lastSpan === undefined) continue;
    if (next !== undefined) {
      out.push({ start: firstSpan.start, end: next.start, newText: '', fixes: run });
    } else {
      // The run ends the object: take the comma before it.
      const previous = childSpan(object, first - 1);
      if (previous !== undefined) out.push({ start: previous.end, end: lastSpan.end, newText: '', fixes: run });
    }
  }
  return out;
}

function overlaps(a: Span, b: Span): boolean {
  // Two insertions at one place conflict too: their order would be a guess.
  return a.start < b.end && b.start < a.end ? true : a.start === b.start;
}

/** The edits that overlap none before them in document order, in that order (one sort, one sweep). */
function compatibleEdits<E extends Span>(edits: readonly E[]): E[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const accepted: E[] = [];
  for (const edit of sorted) {
    const last = accepted[accepted.length - 1];
    if (last !== undefined && overlaps(last, edit)) continue;
    accepted.push(edit);
  }
  return accepted;
}

/** Applies edits that do not overlap, sorted by offset. */
export function applyOffsetEdits(text: string, edits: readonly (Span & { newText: string })[]): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    parts.push(text.slice(cursor, edit.start), edit.newText);
    cursor = edit.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

/** Applies edits to text; an edit that overlaps one before it (in document order) is left out. */
export function applyFixes(text: string, edits: readonly TextEdit[]): string {
  const lines = new LineIndex(text);
  const offsets = edits.map((e) => {
    const start = lines.offsetAt(e.range.start);
    return { start, end: Math.max(start, lines.offsetAt(e.range.end)), newText: e.newText };
  });
  return applyOffsetEdits(text, compatibleEdits(offsets));
}
