// Duplicate members in valid JSON. JSON.parse keeps the last of them silently; the linter warns about
// the others. Most files have none, so a cheap count decides first: members in the text (a colon after
// a closing quote) against keys in the parsed value. Only a file where they differ is scanned member
// by member, with the keys of each open object in a map.
import { stringEnd } from './skim';

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * Colons that follow a closing quote: every member's colon, plus any `\":` inside a string. So this is
 * at least the number of members, and equals the number of keys only when no member repeats a key.
 */
function memberCountAtLeast(text: string): number {
  let count = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    while (j >= 0 && isSpace(text.charCodeAt(j))) j--;
    if (text.charCodeAt(j) === 34) count++;
  }
  return count;
}

/** What a parsed value holds: the own keys of all its objects, and how deep its arrays and objects nest. */
export interface ValueShape {
  keys: number;
  /** Levels of arrays and objects, the top-level value being level 1 (0 for a value that is neither). */
  depth: number;
}

/** The shape of a parsed value (iterative: valid JSON may nest 100,000 deep). */
export function valueShape(value: unknown): ValueShape {
  let keys = 0;
  let depth = 0;
  const stack: unknown[] = [value];
  const levels: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop();
    const level = levels.pop() ?? 1;
    if (typeof v !== 'object' || v === null) continue;
    if (level > depth) depth = level;
    if (Array.isArray(v)) {
      for (const e of v) {
        if (typeof e !== 'object' || e === null) continue;
        stack.push(e);
        levels.push(level + 1);
      }
      continue;
    }
    // Object.keys, not for-in: for-in is slow on the dictionary-mode objects a huge member list makes.
    const own = Object.keys(v);
    keys += own.length;
    for (const key of own) {
      const e = (v as Record<string, unknown>)[key];
      if (typeof e !== 'object' || e === null) continue;
      stack.push(e);
      levels.push(level + 1);
    }
  }
  return { keys, depth };
}

/**
 * Whether every member of valid JSON `text` is one of the keys of its parsed value (its shape): then no
 * member was dropped as a duplicate, and every array and object of the text is one of the value's.
 */
export function everyMemberKept(text: string, shape: ValueShape): boolean {
  return memberCountAtLeast(text) === shape.keys;
}

/**
 * Pairs of key offsets in valid JSON `text` (parsed: `value`): a member JSON.parse ignores, and the next
 * member of the same object with the same name. In document order of the second.
 */
export function duplicateMembers(
  text: string,
  value: unknown,
  kept = everyMemberKept(text, valueShape(value)),
): number[] {
  if (kept) return [];
  const out: number[] = [];
  // One map per open object (null for arrays): key to the offset of its last occurrence.
  const stack: (Map<string, number> | null)[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const end = stringEnd(text, i);
      const keys = stack[stack.length - 1];
      if (expectKey && keys) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
        const earlier = keys.get(key);
        if (earlier !== undefined) out.push(earlier, i);
        keys.set(key, i);
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === 123) {
      stack.push(new Map());
      expectKey = true;
    } else if (c === 91) {
      stack.push(null);
      expectKey = false;
    } else if (c === 125 || c === 93) {
      stack.pop();
      expectKey = false;
    } else if (c === 44) {
      expectKey = stack[stack.length - 1] instanceof Map;
    }
    i++;
  }
  return out;
}
