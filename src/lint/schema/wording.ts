// The linter's message wording for zod issues: what is wrong with the actual value, then what is
// allowed. Member schemas take their error options from here so every message reads the same way.
import * as z from 'zod';
import { characterCount, RecipientWrite } from '../../api/schemas/common';

type RawIssue = z.core.$ZodRawIssue;

/** Any JSON value as message text; parsers may hand over objects without a prototype, which String() refuses. */
export function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null) {
    const json = JSON.stringify(v);
    return json.length > 40 ? `${json.slice(0, 40)}...` : json;
  }
  return `${v as number | boolean | null | undefined | bigint}`;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return `a string (${JSON.stringify(characterCount(v) > 40 ? `${[...v].slice(0, 40).join('')}...` : v)})`;
    case 'number':
      return Number.isInteger(v) ? `the number ${v}` : `the fraction ${v}`;
    case 'boolean':
      return `the boolean ${v}`;
    case 'object':
      return 'an object';
    default:
      return typeof v;
  }
}

export function problem(label: string, iss: RawIssue): string {
  const input = iss.input;
  if (input === undefined && iss.code !== 'unrecognized_keys') return `${label} is missing`;
  switch (iss.code) {
    case 'invalid_type':
      if (iss.expected === 'int' && typeof input === 'number') return `${label} ${input} is not a whole number`;
      return `${label} is ${kindOf(input)}`;
    case 'too_big':
    case 'too_small':
      // zod measures string lengths in code points, as JSON Schema does: say the number the check used.
      if (typeof input === 'string') return `${label} has ${characterCount(input)} characters`;
      if (Array.isArray(input)) return `${label} holds ${input.length} ${input.length === 1 ? 'item' : 'items'}`;
      return `${label} is ${show(input)}`;
    case 'not_multiple_of':
      return `${label} ${show(input)} is not a multiple of ${show(iss.divisor)}`;
    case 'invalid_value':
    case 'invalid_format':
      return `${label} ${JSON.stringify(input)} is not allowed`;
    case 'unrecognized_keys':
      return `${label} has unknown members`;
    default:
      return `${label} is not valid`;
  }
}

/** Zod error option: says what is wrong with the actual value, then what is allowed. */
export function says(label: string, allowed: string) {
  return { error: (iss: RawIssue) => `${problem(label, iss)}; expected ${allowed}` };
}
/** The same for a strict object: unknown members get the list of known ones. */
function objectSays(label: string, allowed: string, known: readonly string[]) {
  return {
    error: (iss: RawIssue) =>
      iss.code === 'unrecognized_keys'
        ? `is not a member of ${label}; known members: ${known.join(', ')}`
        : `${problem(label, iss)}; expected ${allowed}`,
  };
}
export function strict<S extends z.core.$ZodLooseShape>(label: string, allowed: string, shape: S) {
  return z.strictObject(shape, objectSays(label, allowed, Object.keys(shape)));
}

export const list = (values: readonly (string | number)[]) => values.join(', ');

const RECIPIENT_MEMBERS = Object.keys(RecipientWrite.shape);
const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((out, k) => (typeof k === 'number' ? `${out}[${k}]` : out === '' ? String(k) : `${out}.${String(k)}`), '');
const withArticle = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/**
 * Messages in the linter's words for the issues of schemas shared with the service client
 * (common.ts: recipients), which keep zod's defaults. Pass as `safeParse(value, { error: triggerIssueMessage })`;
 * the messages of the trigger's own schemas take precedence.
 */
export function triggerIssueMessage(iss: RawIssue): string | undefined {
  if (iss.code === 'unrecognized_keys') {
    return iss.inst === RecipientWrite ? `is not a member of a recipient; known members: ${list(RECIPIENT_MEMBERS)}` : 'is not a known member';
  }
  const label = pathText(iss.path ?? []) || 'the value';
  return iss.code === 'invalid_type' ? `${problem(label, iss)}; expected ${withArticle(iss.expected)}` : problem(label, iss);
}
