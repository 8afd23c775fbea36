// The size of a trigger as a write sends it: the UTF-8 bytes of its written members as compact JSON
// (JSON.stringify without spaces), counted without making that text. A walk that reads no string's
// characters bounds it first; only a trigger the bound does not clear is counted character by character.
import { isRecord } from '../util';

/**
 * The members a write sends: `id` and `dataset_slug` go in the path, and read-only members and members the
 * file format does not know are left out (they are reported by their own rules).
 */
export const WRITTEN_MEMBERS = [
  'name',
  'description',
  'tags',
  'threshold',
  'frequency',
  'alert_type',
  'disabled',
  'recipients',
  'evaluation_schedule_type',
  'evaluation_schedule',
  'baseline_details',
  'query',
  'query_id',
] as const;

/** The characters JSON.stringify writes as a two-character escape: \b \t \n \f \r. */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/** UTF-8 bytes of JSON.stringify(s): its quotes, escapes, and each character's encoding. */
function jsonStringBytes(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += c === 0x22 || c === 0x5c || SHORT_ESCAPES.has(c) ? 2 : c < 0x20 ? 6 : 1;
    else if (c < 0x800) n += 2;
    else if (c < 0xd800 || c > 0xdfff) n += 3;
    else if (c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else {
      // A lone surrogate is written as a \u escape.
      n += 6;
    }
  }
  return n;
}

/** How a measure counts a string and a number: exactly, or by a bound that reads no character. */
export interface Counting {
  string(s: string): number;
  number(n: number): number;
}
const EXACT: Counting = {
  string: jsonStringBytes,
  number: (n) => (Number.isFinite(n) ? String(n).length : 4),
};
/**
 * At most 6 bytes a UTF-16 unit (a \u escape); no number is written longer than 25 characters (a sign,
 * "0.", five zeros and 17 digits: -0.0000012345678901234567).
 */
export const BOUND: Counting = {
  string: (s) => 6 * s.length + 2,
  number: () => 25,
};

/** Bytes of one value's own text, not counting the members or elements it holds (pushed onto `stack`). */
function ownBytes(v: unknown, stack: unknown[], count: Counting): number {
  if (typeof v === 'string') return count.string(v);
  if (typeof v === 'number') return count.number(v);
  if (typeof v === 'boolean') return v ? 4 : 5;
  if (Array.isArray(v)) {
    for (const e of v as unknown[]) stack.push(e);
    return 2 + Math.max(0, v.length - 1);
  }
  if (!isRecord(v)) return 4;
  let n = 0;
  let members = 0;
  for (const key of Object.keys(v)) {
    const m = v[key];
    if (m === undefined) continue;
    n += count.string(key) + 1;
    members++;
    stack.push(m);
  }
  return n + 2 + Math.max(0, members - 1);
}

/** UTF-8 bytes of JSON.stringify(value) for a JSON value (or a bound of them); iterative, so no nesting overflows the call stack. */
export function compactJsonBytes(value: unknown, count: Counting = EXACT): number {
  const stack: unknown[] = [value];
  let n = 0;
  while (stack.length > 0) n += ownBytes(stack.pop(), stack, count);
  return n;
}

/** UTF-8 bytes of the compact JSON of the trigger's WRITTEN_MEMBERS (or a bound of them). */
export function writeBodyBytes(trigger: Record<string, unknown>, count: Counting = EXACT): number {
  let n = 0;
  let members = 0;
  for (const key of WRITTEN_MEMBERS) {
    if (!Object.hasOwn(trigger, key) || trigger[key] === undefined) continue;
    n += count.string(key) + 1 + compactJsonBytes(trigger[key], count);
    members++;
  }
  return n + 2 + Math.max(0, members - 1);
}

/**
 * The bytes of the trigger as a write sends it when they are over `most`, else undefined. Most triggers are
 * far smaller: a bound that reads no string's characters tells so, and only a trigger it does not clear is counted.
 */
export function writeBodyBytesOver(trigger: Record<string, unknown>, most: number): number | undefined {
  if (writeBodyBytes(trigger, BOUND) <= most) return undefined;
  const bytes = writeBodyBytes(trigger);
  return bytes > most ? bytes : undefined;
}
