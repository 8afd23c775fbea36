// The trigger test file (`<name>.trigger-test.json`): which trigger it tests and what is expected of it over
// past windows. One zod schema is the format: it reads files, and schemas/trigger-test.schema.json (VS Code's
// completion and validation) is generated from it. Every problem is one sentence naming the member.
// No vscode import.
import * as z from 'zod';
import { readTime, TIME_PATTERN, type TimeSpec } from './times';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

// The schema's descriptions are English (a JSON Schema file has no runtime to translate it); messages are not.
const TIME_WORDS =
  'an ISO 8601 time in UTC ("2025-06-02T09:10:00Z") or a time relative to the run ("now", "now-2h", "now-1d12h", "now-90m")';
const timeWords = () =>
  l10n.t(
    'an ISO 8601 time in UTC ("2025-06-02T09:10:00Z") or a time relative to the run ("now", "now-2h", "now-1d12h", "now-90m")',
  );

const Time = z
  .string()
  .regex(new RegExp(TIME_PATTERN), { error: () => l10n.t('must be {0}', timeWords()) })
  // Only a text of the right form can name no real date ("2025-02-30T00:00Z"): the form's message is enough otherwise.
  .refine((t) => !new RegExp(TIME_PATTERN).test(t) || readTime(t) !== undefined, {
    error: () => l10n.t('names no real date and time'),
  })
  .meta({
    id: 'time',
    description: `A time: ${TIME_WORDS}. The window holds the evaluations after "from", up to and including "to".`,
  });

const Group = z
  .record(z.string().min(1), z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .refine((g) => Object.keys(g).length > 0, { error: () => l10n.t('must name at least one breakdown column') })
  .meta({
    id: 'group',
    description:
      "Only the group(s) with these breakdown values: the trigger evaluated as if its query kept only them. Keys are breakdown columns of the trigger's query; null is a group without that column.",
    minProperties: 1,
  });

const named = {
  name: z
    .string()
    .min(1)
    .max(200)
    .meta({ description: 'What this expectation says, shown as the test name (unique in the file).' }),
  description: z.string().optional().meta({ description: 'Why: a note for readers, shown nowhere else.' }),
};
const windowed = { from: Time, to: Time, group: Group.optional() };

const Fires = z.strictObject({
  ...named,
  expect: z
    .literal('fires')
    .meta({ description: 'It fires at least once in the window (for example, a past incident it must catch).' }),
  ...windowed,
});
const DoesNotFire = z.strictObject({
  ...named,
  expect: z.literal('does-not-fire').meta({ description: 'It never fires in the window.' }),
  ...windowed,
});
const AtMost = z.strictObject({
  ...named,
  expect: z.literal('at-most').meta({
    description:
      'It sends at most `notifications` notifications in the window (on_change: one per firing; on_true: one per evaluation while firing).',
  }),
  notifications: z.number().int().min(0).meta({ description: 'The most notifications allowed in the window.' }),
  ...windowed,
});

const EXPECT_KINDS = ['fires', 'does-not-fire', 'at-most'] as const;
const Expectation = z.discriminatedUnion('expect', [Fires, DoesNotFire, AtMost]);

export const TriggerTestFile = z
  .strictObject({
    $schema: z.string().optional().meta({ description: 'The JSON Schema of this file, for editors.' }),
    trigger: z
      .string()
      .regex(/^(?![\\/])(?![A-Za-z]:)[^\0]*\.json$/, {
        error: () => l10n.t('must be a relative path to a .json file (from the folder of this file)'),
      })
      .optional()
      .meta({
        description:
          'The trigger file tested, relative to this file. Default: the file beside it with the same name, <name>.trigger.json.',
      }),
    dataset: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "The dataset the trigger's query runs on. Default: the trigger's dataset_slug." }),
    expectations: z
      .array(Expectation)
      .min(1)
      .meta({ description: 'What is expected of the trigger, each over a past window.' }),
  })
  .meta({
    title: 'Trigger test file',
    description:
      'Expectations of a trigger over past windows, evaluated against the query results the service keeps (7 days). Run by `obs test` and the editor.',
  });

export type TriggerTestFile = z.infer<typeof TriggerTestFile>;
export type Expectation = z.infer<typeof Expectation>;

/** Members of each object of the format, to name the known ones when an unknown one is found. */
const MEMBERS: Record<string, readonly string[]> = {
  file: Object.keys(TriggerTestFile.shape),
  fires: Object.keys(Fires.shape),
  'does-not-fire': Object.keys(DoesNotFire.shape),
  'at-most': Object.keys(AtMost.shape),
};

/** One problem of a test file: where (the member's path) and the sentence naming it. */
interface TestFileProblem {
  path: (string | number)[];
  message: string;
}

export type ParsedTestFile = Outcome<{ file: TriggerTestFile }, TestFileProblem[]>;

/** `expectations[1].from`; `the file` for the top level. */
export function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out === '' ? '' : '.'}${String(p)}`;
  return out === '' ? 'the file' : out;
}

const quoteList = (items: readonly string[]) => items.map((i) => `"${i}"`).join(', ');

function messageOf(issue: z.core.$ZodIssue, value: unknown): string {
  const where = pathText(issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return l10n.t('{0} is missing', where);
      return l10n.t('{0} must be {1}', where, typeWords(issue.expected));
    case 'invalid_union':
      if (issue.discriminator === undefined)
        return l10n.t('{0} must be a string, a number, true, false or null', where);
      if (memberAt(value, issue.path) === undefined)
        return l10n.t('{0} is missing: it says what is expected, one of {1}', where, quoteList(EXPECT_KINDS));
      return l10n.t('{0} must be one of {1}', where, quoteList(EXPECT_KINDS));
    case 'unrecognized_keys': {
      const kind = issue.path.length === 0 ? 'file' : String(memberAt(value, [...issue.path, 'expect']));
      const known = (MEMBERS[kind] ?? []).join(', ');
      if (issue.path.length === 0)
        return l10n.t(
          '{0} has {1} that a trigger test file does not have (its members: {2})',
          where,
          quoteList(issue.keys),
          known,
        );
      return l10n.t(
        '{0} has {1} that a "{2}" expectation does not have (its members: {3})',
        where,
        quoteList(issue.keys),
        kind,
        known,
      );
    }
    case 'too_small':
      if (issue.origin === 'array') return l10n.t('{0} must hold at least one expectation', where);
      if (issue.origin === 'string') return l10n.t('{0} must not be empty', where);
      return boundText(where, issue);
    case 'too_big':
      return boundText(where, issue);
    default:
      return `${where} ${issue.message}`;
  }
}

/**
 * A bound zod checked, worded by what it bounds: a string's characters, an array's items, else a number's value
 * ("notifications": 1e308 is past the largest whole number JSON carries exactly: a number, not a length).
 */
export function boundText(where: string, issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall): string {
  if (issue.code === 'too_big') {
    const max = String(issue.maximum);
    if (issue.origin === 'string') return l10n.t('{0} must be at most {1} characters long', where, max);
    if (issue.origin === 'array') return l10n.t('{0} must hold at most {1} items', where, max);
    if (issue.origin === 'int') return l10n.t('{0} must be a whole number of at most {1}', where, max);
    if (issue.inclusive === false) return l10n.t('{0} must be less than {1}', where, max);
    return l10n.t('{0} must be at most {1}', where, max);
  }
  const min = String(issue.minimum);
  if (issue.origin === 'string') return l10n.t('{0} must be at least {1} characters long', where, min);
  if (issue.origin === 'array') return l10n.t('{0} must hold at least {1} items', where, min);
  if (issue.inclusive === false) return l10n.t('{0} must be more than {1}', where, min);
  return l10n.t('{0} must be {1} or more', where, min);
}

function typeWords(expected: string): string {
  switch (expected) {
    case 'string':
      return l10n.t('a string');
    case 'number':
      return l10n.t('a number');
    case 'int':
      return l10n.t('a whole number');
    case 'object':
      return l10n.t('an object');
    case 'array':
      return l10n.t('an array');
    default:
      return expected;
  }
}

function memberAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = typeof v === 'object' && v !== null ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

/** Checks zod does not make: names unique, and `from` before `to` where both are of one kind. */
function crossChecks(file: TriggerTestFile): TestFileProblem[] {
  const problems: TestFileProblem[] = [];
  const seen = new Map<string, number>();
  file.expectations.forEach((e, i) => {
    const first = seen.get(e.name);
    if (first !== undefined)
      problems.push({
        path: ['expectations', i, 'name'],
        message: l10n.t(
          'expectations[{0}].name "{1}" is already the name of expectations[{2}]: each expectation needs its own',
          i,
          e.name,
          first,
        ),
      });
    else seen.set(e.name, i);
    const from = readTime(e.from);
    const to = readTime(e.to);
    if (!from || !to || !ordered(from, to))
      problems.push({
        path: ['expectations', i, 'to'],
        message: l10n.t('expectations[{0}].to ({1}) must be after its from ({2})', i, e.to, e.from),
      });
  });
  return problems;
}

/** Whether `to` is after `from`; times of different kinds are compared when the test runs. */
function ordered(from: TimeSpec, to: TimeSpec): boolean {
  if (from.kind === 'absolute' && to.kind === 'absolute') return from.seconds < to.seconds;
  if (from.kind === 'relative' && to.kind === 'relative') return from.secondsBeforeNow > to.secondsBeforeNow;
  return true;
}

/** The JSON value of a test file's or a recording's text, or why it is not JSON. */
export function jsonOfFile(text: string): Outcome<{ value: unknown }> {
  try {
    // Editors hide a byte order mark; JSON.parse does not accept one.
    return { ok: true, value: JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) };
  } catch (e) {
    return { ok: false, reason: l10n.t('the file is not valid JSON: {0}', e instanceof Error ? e.message : String(e)) };
  }
}

/** Reads a trigger test file's text: the file, or every problem of its form (then, once the form is right, of names and windows). */
export function parseTestFile(text: string): ParsedTestFile {
  const json = jsonOfFile(text);
  if (!json.ok) return { ok: false, reason: [{ path: [], message: json.reason }] };
  const value = json.value;
  const parsed = TriggerTestFile.safeParse(value, { reportInput: true });
  if (!parsed.success)
    return {
      ok: false,
      reason: parsed.error.issues.map((issue) => ({
        path: issue.path.map((p) => (typeof p === 'number' ? p : String(p))),
        message: messageOf(issue, value),
      })),
    };
  const problems = crossChecks(parsed.data);
  return problems.length > 0 ? { ok: false, reason: problems } : { ok: true, file: parsed.data };
}

/** The JSON Schema text of the format, formatted as committed (2-space indent, final newline). */
export function triggerTestJsonSchemaText(): string {
  const schema = z.toJSONSchema(TriggerTestFile, { io: 'input', target: 'draft-07', unrepresentable: 'any' });
  return `${JSON.stringify(schema, null, 2)}\n`;
}
export const TRIGGER_TEST_SCHEMA_PATH = 'schemas/trigger-test.schema.json';
