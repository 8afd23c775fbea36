// The linter's message wording for zod issues: what is wrong with the actual value, then what is
// allowed. Member schemas take their error options from here so every message reads the same way.
// Every text goes through l10n.t (@vscode/l10n) when a message is made: the editor's lint worker configures
// the display language's bundle, the CLI configures none and gets the English. Member names, values and
// lists of values are placeholder arguments, never part of the text a translator sees.
import * as l10n from '@vscode/l10n';
import * as z from 'zod';
import { characterCount, RecipientWrite } from '../../api/schemas/common';

type RawIssue = z.core.$ZodRawIssue;

/**
 * Words read when a message is made. The schemas are built when their modules load, before a host hands
 * @vscode/l10n its bundle: a text computed then would stay English, so labels and "what is allowed" are functions.
 */
export type Words = () => string;

/** A member named by its API name (`frequency`, `time_range`): the same in every language. */
export const member =
  (name: string): Words =>
  () =>
    name;

/**
 * Where the unknown member's name goes in a message about an object's unknown members: the object has one
 * message for all of them (zod reports them together), and issues.ts puts each name in its slot.
 */
export const MEMBER_SLOT = '\u0000';

/** Any JSON value as message text; parsers may hand over objects without a prototype, which String() refuses. */
export function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null) {
    const json = JSON.stringify(v);
    return json.length > 40 ? `${json.slice(0, 40)}...` : json;
  }
  return `${v as number | boolean | null | undefined | bigint}`;
}

/** What a value is, as a noun phrase (`null` and unusual types by their JSON or typeof name). */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return l10n.t('an array');
  switch (typeof v) {
    case 'string':
      return l10n.t(
        'a string ({0})',
        JSON.stringify(characterCount(v) > 40 ? `${[...v].slice(0, 40).join('')}...` : v),
      );
    case 'number':
      return Number.isInteger(v) ? l10n.t('the number {0}', v) : l10n.t('the fraction {0}', v);
    case 'boolean':
      return l10n.t('the boolean {0}', String(v));
    case 'object':
      return l10n.t('an object');
    default:
      return typeof v;
  }
}

/** What is wrong with the value of `label` (a member name, or translated words such as "threshold op"). */
export function problem(label: string, iss: RawIssue): string {
  const input = iss.input;
  if (input === undefined && iss.code !== 'unrecognized_keys') return l10n.t('{0} is missing', label);
  switch (iss.code) {
    case 'invalid_type':
      if (iss.expected === 'int' && typeof input === 'number')
        return l10n.t('{0} {1} is not a whole number', label, input);
      return l10n.t('{0} is {1}', label, kindOf(input));
    case 'too_big':
    case 'too_small':
      // zod measures string lengths in code points, as JSON Schema does: say the number the check used.
      if (typeof input === 'string') return l10n.t('{0} has {1} characters', label, characterCount(input));
      if (Array.isArray(input))
        return input.length === 1
          ? l10n.t('{0} holds 1 item', label)
          : l10n.t('{0} holds {1} items', label, input.length);
      return l10n.t('{0} is {1}', label, show(input));
    case 'not_multiple_of':
      return l10n.t('{0} {1} is not a multiple of {2}', label, show(input), show(iss.divisor));
    case 'invalid_value':
    case 'invalid_format':
      return l10n.t('{0} {1} is not allowed', label, JSON.stringify(input));
    case 'unrecognized_keys':
      return l10n.t('{0} has unknown members', label);
    default:
      return l10n.t('{0} is not valid', label);
  }
}

/** A problem, then what is allowed: the sentence of every member check. */
export const expected = (problemText: string, allowed: string): string =>
  l10n.t('{0}; expected {1}', problemText, allowed);

/** The message of an object's unknown members, with the name of each in MEMBER_SLOT. */
const notAMemberOf = (label: string, known: readonly string[]): string =>
  l10n.t('{0} is not a member of {1}; known members: {2}', MEMBER_SLOT, label, known.join(', '));

/**
 * How the check under way words its messages: zod hands an error option the issue alone, so a check
 * sets this for its length (wordedBy) and restores what was before, which keeps nested checks apart.
 */
let wording = true;

/**
 * Runs a check whose messages are counted in `work`, and left empty unless `on`: for a trigger none of
 * whose findings can be shown (a file shows its first 1,000 problems and counts the rest), wording every
 * problem would be most of the work.
 */
export function wordedBy<T>(on: boolean, check: () => T): T {
  const was = wording;
  wording = on;
  try {
    return check();
  } finally {
    wording = was;
  }
}

/** A message, or '' in a check that words none. */
export function worded(make: () => string): string {
  if (!wording) return '';
  return make();
}

/** Zod error option: says what is wrong with the actual value, then what is allowed. */
export function says(label: Words, allowed: Words) {
  return { error: (iss: RawIssue) => worded(() => expected(problem(label(), iss), allowed())) };
}
/** The same for a strict object: unknown members get the list of known ones. */
function objectSays(label: Words, allowed: Words, known: readonly string[]) {
  return {
    error: (iss: RawIssue) =>
      worded(() =>
        iss.code === 'unrecognized_keys' ? notAMemberOf(label(), known) : expected(problem(label(), iss), allowed()),
      ),
  };
}
export function strict<S extends z.core.$ZodLooseShape>(label: Words, allowed: Words, shape: S) {
  return z.strictObject(shape, objectSays(label, allowed, Object.keys(shape)));
}

export const list = (values: readonly (string | number)[]) => values.join(', ');
/** "one of a, b, c": what an enumeration allows. */
export const oneOf =
  (values: readonly (string | number)[]): Words =>
  () =>
    l10n.t('one of {0}', list(values));

const RECIPIENT_MEMBERS = Object.keys(RecipientWrite.shape);
/** A trigger's recipient lies at `recipients[i]` (its schema is the client's, extended: recipients.ts). */
const isRecipientPath = (path: readonly PropertyKey[] | undefined) =>
  path?.length === 2 && path[0] === 'recipients' && typeof path[1] === 'number';
const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>(
    (out, k) => (typeof k === 'number' ? `${out}[${k}]` : out === '' ? String(k) : `${out}.${String(k)}`),
    '',
  );

/** A JSON type as a noun phrase ("a string"); a type JSON does not have keeps its zod name. */
export function aValueOf(type: string): string {
  switch (type) {
    case 'string':
      return l10n.t('a string');
    case 'number':
      return l10n.t('a number');
    case 'boolean':
      return l10n.t('a boolean');
    case 'object':
      return l10n.t('an object');
    case 'array':
      return l10n.t('an array');
    default:
      return /^[aeiou]/.test(type) ? l10n.t('an {0}', type) : l10n.t('a {0}', type);
  }
}

/**
 * Messages in the linter's words for the issues of schemas shared with the service client
 * (common.ts: recipients), which keep zod's defaults. Pass as `safeParse(value, { error: triggerIssueMessage })`;
 * the messages of the trigger's own schemas take precedence.
 */
export function triggerIssueMessage(iss: RawIssue): string | undefined {
  if (iss.code === 'unrecognized_keys') {
    return isRecipientPath(iss.path)
      ? notAMemberOf(l10n.t('a recipient'), RECIPIENT_MEMBERS)
      : l10n.t('{0} is not a known member', MEMBER_SLOT);
  }
  const label = pathText(iss.path ?? []) || l10n.t('the value');
  return iss.code === 'invalid_type' ? expected(problem(label, iss), aValueOf(iss.expected)) : problem(label, iss);
}
