// Helpers for the linter tests: documents built from a valid trigger, and «markers» around the
// exact range a diagnostic must have.
import { LineIndex } from '../../src/lint/text';
import type { Range } from '../../src/lint';

const BASE_MEMBERS = [
  '"name": "Slow requests"',
  '"frequency": 900',
  '"threshold": { "op": ">", "value": 10 }',
  '"query": { "calculations": [{ "op": "COUNT" }], "time_range": 1800 }',
];

const keyOf = (member: string) => /^[«]?"([^"]+)"\s*:/.exec(member)?.[1];

/**
 * A trigger document: the valid base trigger with members replaced (same key, same place), added
 * (new key, at the end) or removed (`-key`). Members are raw text and may hold markers.
 */
export function trigger(...members: string[]): string {
  const lines = [...BASE_MEMBERS];
  for (const member of members) {
    if (member.startsWith('-')) {
      const index = lines.findIndex((l) => keyOf(l) === member.slice(1));
      if (index >= 0) lines.splice(index, 1);
      continue;
    }
    const index = lines.findIndex((l) => keyOf(l) === keyOf(member));
    if (index >= 0) lines[index] = member;
    else lines.push(member);
  }
  return `{\n${lines.map((l) => `  ${l}`).join(',\n')}\n}`;
}

/** Removes the markers « and » and returns the range between them. */
export function marked(source: string): { text: string; range: Range } {
  const start = source.indexOf('«');
  const end = source.indexOf('»');
  if (start < 0 || end < start) throw new Error(`no «range» in ${source}`);
  const text = source.slice(0, start) + source.slice(start + 1, end) + source.slice(end + 1);
  const lines = new LineIndex(text);
  return { text, range: { start: lines.positionAt(start), end: lines.positionAt(end - 1) } };
}

/** Removes markers without looking for a range. */
export const unmarked = (source: string) => source.replace(/[«»]/g, '');
