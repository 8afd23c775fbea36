// A suggested change as an edit of the trigger file: only the threshold's value (or its exceeded_limit) is
// replaced, or the member inserted where there is none, in the file's own indentation; the rest of the file
// (formatting, members, comments) untouched. Refused when the file's threshold is no longer the one the
// report evaluated. No vscode import.
import { modify, parseTree, findNodeAtLocation, type Node } from 'jsonc-parser';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../../result';

export interface SuggestedEdit {
  /** The trigger file (a URI as text). */
  key: string;
  member: 'value' | 'exceeded_limit';
  value: number;
  /** The threshold the report evaluated: the edit is made only on that one. */
  seen: { op: string; value: number; exceededLimit: number };
}

interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

export type EditResult = Outcome<{ edits: TextEdit[] }>;

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A command's argument read as a suggested edit, or undefined. */
export function readSuggestedEdit(arg: unknown): SuggestedEdit | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as Record<string, unknown>;
  const seen = a.seen as Record<string, unknown> | undefined;
  if (typeof a.key !== 'string' || (a.member !== 'value' && a.member !== 'exceeded_limit') || !isFiniteNumber(a.value))
    return undefined;
  if (
    typeof seen !== 'object' ||
    seen === null ||
    typeof seen.op !== 'string' ||
    !isFiniteNumber(seen.value) ||
    !isFiniteNumber(seen.exceededLimit)
  )
    return undefined;
  return {
    key: a.key,
    member: a.member,
    value: a.value,
    seen: { op: seen.op, value: seen.value, exceededLimit: seen.exceededLimit },
  };
}

/** The indentation the file uses (its first indented line), for an inserted member. */
function indentationOf(text: string): { insertSpaces: boolean; tabSize: number } {
  const first = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return first.startsWith('\t') ? { insertSpaces: false, tabSize: 4 } : { insertSpaces: true, tabSize: first.length };
}

export function suggestionEdits(text: string, s: SuggestedEdit): EditResult {
  const root = parseTree(text);
  const threshold: Node | undefined = root?.type === 'object' ? findNodeAtLocation(root, ['threshold']) : undefined;
  if (threshold?.type !== 'object')
    return { ok: false, reason: l10n.t('the file no longer holds a trigger with a threshold') };
  const op = findNodeAtLocation(threshold, ['op'])?.value as unknown;
  const value = findNodeAtLocation(threshold, ['value'])?.value as unknown;
  const limitNode = findNodeAtLocation(threshold, ['exceeded_limit']);
  const limit = limitNode === undefined ? 1 : (limitNode.value as unknown);
  if (op !== s.seen.op || value !== s.seen.value || limit !== s.seen.exceededLimit) {
    return {
      ok: false,
      reason: l10n.t(
        'its threshold changed since the report ({0} {1}, exceeded_limit {2}): run the report again',
        String(op),
        String(value),
        String(limit),
      ),
    };
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const edits = modify(text, ['threshold', s.member], s.value, { formattingOptions: { ...indentationOf(text), eol } });
  return { ok: true, edits: edits.map((e) => ({ offset: e.offset, length: e.length, content: e.content })) };
}

/** The editor's `files.autoSave` for the file: 'off', or when it saves by itself. */
type AutoSave = string;

/** What the note after a suggested change says, and what it offers to compare the file with. */
export interface SuggestionNotice {
  text: string;
  compare: 'saved' | 'service';
}

/**
 * The note after a suggested change was made in the file's editor, true to what happens to it: the extension
 * never saves it, but the editor's Auto Save does (on by default in VS Code in a browser), and then "not
 * saved" would be a false word. Compare with Saved is offered only while there is a saved version to compare.
 */
export function suggestionNotice(
  file: string,
  what: string,
  state: { dirty: boolean; autoSave: AutoSave },
): SuggestionNotice {
  if (!state.dirty) {
    const text = l10n.t(
      '{0} now has the suggested {1}, saved. Review it, then send it to the service with Apply (its lens); Undo takes it back.',
      file,
      what,
    );
    return { compare: 'service', text };
  }
  if (state.autoSave === 'off') {
    const text = l10n.t(
      '{0} now has the suggested {1}, not saved yet. Review it, save it, then send it to the service with Apply (its lens).',
      file,
      what,
    );
    return { compare: 'saved', text };
  }
  const when =
    state.autoSave === 'onFocusChange'
      ? l10n.t('Auto Save saves it when the editor loses focus')
      : state.autoSave === 'onWindowChange'
        ? l10n.t('Auto Save saves it when the window loses focus')
        : l10n.t('Auto Save saves it in a moment');
  const text = l10n.t(
    '{0} now has the suggested {1}; {2}. Review it, then send it to the service with Apply (its lens); Undo takes it back.',
    file,
    what,
    when,
  );
  return { compare: 'service', text };
}
