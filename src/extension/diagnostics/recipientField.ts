// Where a trigger file names a recipient id: the value of `recipients[n].id` of the file's trigger (or of a
// trigger of its top-level array) at an offset, for the editor's hover and completion. Runs in the lint
// worker (it reads JSON with jsonc-parser, which the activation bundle does not carry). No vscode import.
import { getLocation, type JSONPath } from 'jsonc-parser';

/** A recipient id field at an offset: its string value and where that string lies, or the empty value after `"id":`. */
export type RecipientField =
  /** Inside the string value: `start`/`end` are the offsets of its content, quotes excluded (the offset lies between them). */
  | { kind: 'string'; value: string; start: number; end: number }
  /** After `"id":` with no value yet: a completion inserts a quoted id here. */
  | { kind: 'empty' };

/** `recipients, n, id` of the file's trigger, or of a trigger of its top-level array. */
function isRecipientIdPath(path: JSONPath): boolean {
  const inTrigger = typeof path[0] === 'number' ? path.slice(1) : path;
  return (
    inTrigger.length === 3 && inTrigger[0] === 'recipients' && typeof inTrigger[1] === 'number' && inTrigger[2] === 'id'
  );
}

export function recipientFieldAt(text: string, offset: number): RecipientField | undefined {
  if (offset < 0 || offset > text.length) return undefined;
  const at = getLocation(text, offset);
  if (at.isAtPropertyKey || !isRecipientIdPath(at.path)) return undefined;
  const node = at.previousNode;
  if (node === undefined) return { kind: 'empty' };
  if (node.type !== 'string' || typeof node.value !== 'string') return undefined;
  // A string being typed may have no closing quote yet.
  const closed = node.length >= 2 && text.charAt(node.offset + node.length - 1) === '"';
  const start = node.offset + 1;
  const end = node.offset + node.length - (closed ? 1 : 0);
  if (offset < start || offset > end) return undefined;
  return { kind: 'string', value: node.value, start, end };
}
