// What a tool answers: one JSON object, bounded. Lists are cut at a stated number of entries (the answer says
// how many there were and that it was cut), free text at a stated length, and the whole answer at a size no
// list or text can push it past. Hidden characters (bidi controls, zero-width and other format characters,
// line separators) are written as \uXXXX escapes: the same value once parsed, but visible to whoever reads
// the raw text. An answer never holds a key: tools build it from named fields, never from whole objects.
import type { Outcome } from '../result';

/** The caps every tool keeps to. */
export const LIMITS = {
  /** Rows of a list answer unless the caller asks for fewer. */
  listRows: 100,
  /** Rows a caller may ask for. */
  maxListRows: 200,
  /** Characters of a free text field (descriptions, messages). */
  text: 300,
  /** Characters of a name (a trigger's, a dataset's, an SLO's, a column's key): no name the service accepts is longer. */
  name: 256,
  /** Characters of a trigger text given to lint or preview (larger trigger files are linted in the editor or by `obs lint`). */
  triggerText: 256 * 1024,
  /** Characters of a name, slug, id or search text given as an argument. */
  argument: 512,
  /** Paths given to drift or plan. */
  paths: 20,
  /** Diagnostics of a lint answer. */
  diagnostics: 50,
  /** Firing intervals of a preview answer. */
  firings: 50,
  /** Groups (rows) of a query answer. */
  groups: 25,
  /** Changes, blocked triggers and files of a drift or plan answer. */
  planEntries: 100,
  /** Members named per changed trigger. */
  differences: 20,
  /** Characters of the whole answer, JSON text. */
  answer: 60_000,
} as const;

/** A tool's answer: its value (what the text says) and text, or an error. */
export type Answer = Outcome<{ result: Record<string, unknown> }>;

/** A tool error: a message for the model naming what was wrong. */
export class ToolError extends Error {
  readonly kind = 'tool-error';
}

export const isToolError = (e: unknown): e is ToolError =>
  e instanceof Error && (e as { kind?: unknown }).kind === 'tool-error';

/** A free text cut to `max` characters (never inside a surrogate pair), saying how long it was when cut. */
export function clip(text: string, max?: number): string;
export function clip(text: string | undefined, max?: number): string | undefined;
export function clip(text: string | undefined, max: number = LIMITS.text): string | undefined {
  if (text === undefined || text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters in all)`;
}

/** A name from the service or a file, cut at LIMITS.name characters, saying how long it was when cut. */
export function clipName(name: string): string;
export function clipName(name: string | undefined): string | undefined;
export function clipName(name: string | undefined): string | undefined {
  return clip(name, LIMITS.name);
}

/** The first `max` items, and how many there were. */
export function firstOf<T>(items: readonly T[], max: number): { items: T[]; total: number; truncated: boolean } {
  return { items: items.slice(0, max), total: items.length, truncated: items.length > max };
}

/** Members with an undefined value left out (JSON drops them anyway; tests compare objects). Of the same type: only members that may be undefined go. */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** What JSON.stringify leaves raw of the hidden characters: DEL, C1, format characters, U+2028/9. */
const HIDDEN_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

/** JSON text of the value with hidden characters as \uXXXX escapes (outside strings JSON is ASCII, so each lies in a string). */
export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(HIDDEN_IN_JSON, (c) =>
    [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/** The longest array in the value, by its JSON length, with its holder and key; undefined when none is longer than one item. */
function longestArray(value: unknown): { holder: Record<string, unknown>; key: string; list: unknown[] } | undefined {
  let best: { holder: Record<string, unknown>; key: string; list: unknown[]; size: number } | undefined;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== 'object' || next === null) continue;
    for (const [key, v] of Object.entries(next)) {
      if (Array.isArray(v) && v.length > 1 && !Array.isArray(next)) {
        const size = JSON.stringify(v).length;
        if (best === undefined || size > best.size)
          best = { holder: next as Record<string, unknown>, key, list: v, size };
      }
      if (typeof v === 'object' && v !== null) stack.push(v);
    }
  }
  return best;
}

/** An answer as it goes out: its JSON text within the cap, and the value that text is (lists cut, `cut` added). */
export type Bounded = Outcome<{ value: Record<string, unknown>; text: string }>;

/**
 * The answer within LIMITS.answer characters of JSON text: while it is longer, the longest list is halved and
 * the answer says so (`cut`: the lists shortened to fit, with how many entries each had). Tools bound their
 * lists first; this is the last guard, so an answer cannot outgrow the cap whatever the service holds. The
 * value is what the text says (an MCP client gets both), and an answer too large even so is an error.
 */
export function boundedAnswer(result: Record<string, unknown>, cap: number = LIMITS.answer): Bounded {
  // The value is the text read back: exactly what the text says (no undefined member, no value JSON lacks).
  const said = (text: string): Bounded => ({ ok: true, value: JSON.parse(text) as Record<string, unknown>, text });
  let text = jsonText(result);
  if (text.length <= cap) return said(text);
  const copy = structuredClone(result);
  const cut: Record<string, number> = {};
  for (let found = longestArray(copy); found !== undefined && text.length > cap; found = longestArray(copy)) {
    cut[found.key] ??= found.list.length;
    found.holder[found.key] = found.list.slice(0, Math.floor(found.list.length / 2));
    text = jsonText({
      ...copy,
      cut: { ...cut, note: 'lists shortened to fit the answer size; narrow the request to see the rest' },
    });
  }
  if (text.length <= cap) return said(text);
  // Nothing left to halve.
  return {
    ok: false,
    reason: `the answer was too large (${text.length} characters) even with every list cut; narrow the request`,
  };
}

/** The answer's JSON text within the cap; too large even with every list cut, a summary saying so. */
export function answerText(result: Record<string, unknown>, cap: number = LIMITS.answer): string {
  const bounded = boundedAnswer(result, cap);
  return bounded.ok ? bounded.text : jsonText({ error: bounded.reason });
}
