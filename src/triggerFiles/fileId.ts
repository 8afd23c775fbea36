// After a create, the new trigger's id goes into its file as the trigger's first member: one insertion
// (or the replacement of an id already there), the rest of the file (formatting, member order, comments)
// untouched. No vscode import.
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

/** The line's leading white space before `offset`. */
function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/**
 * The edit that sets `id` of the trigger at `index` (-1: the file is one trigger object), or undefined when
 * the file holds no such object, or one with two id members. An id member already there gets its value replaced; otherwise the id is
 * inserted before the first member, on a line of its own when the members are on lines of their own.
 */
export function idEdit(text: string, index: number, id: string): TextEdit | undefined {
  const root = parseTree(text);
  const object: Node | undefined =
    root === undefined ? undefined : index < 0 ? root : findNodeAtLocation(root, [index]);
  if (object?.type !== 'object') return undefined;
  const value = JSON.stringify(id);
  // Two id members: JSON.parse reads the last, an edit of the first would be ignored. Left to the user.
  const ids = (object.children ?? []).filter((p) => p.children?.[0]?.value === 'id');
  if (ids.length > 1) return undefined;
  const existing = findNodeAtLocation(object, ['id']);
  if (existing !== undefined) return { offset: existing.offset, length: existing.length, content: value };
  const first = object.children?.[0];
  if (first === undefined) return { offset: object.offset + 1, length: 0, content: `"id": ${value}` };
  const between = text.slice(object.offset + 1, first.offset);
  const separator = between.includes('\n')
    ? `,${text.includes('\r\n') ? '\r\n' : '\n'}${indentAt(text, first.offset)}`
    : ', ';
  return { offset: first.offset, length: 0, content: `"id": ${value}${separator}` };
}

/** The file's text with the id set (see idEdit); the text unchanged when it holds no such trigger. */
export function withId(text: string, index: number, id: string): string {
  const edit = idEdit(text, index, id);
  return edit === undefined ? text : text.slice(0, edit.offset) + edit.content + text.slice(edit.offset + edit.length);
}
