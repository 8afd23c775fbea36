// What the rules find in a parsed trigger file, trigger by trigger, before anything is located.
import * as l10n from '@vscode/l10n';
import type * as z from 'zod';
import { _safeParse, $ZodError } from 'zod/v4/core';
import {
  acceptsOf,
  relationRules,
  triggerIssueMessage,
  triggerRelationsSchema,
  TriggerWrite,
  TriggerWriteObject,
  triggerWriteSchema,
  type Accepts,
} from './schema';
import { findingsOf, type Finding, type UnknownMembers } from './issues';
import type { JsonPath, LintOptions, MetricsDatasetHint } from './types';
import { isRecord } from './util';
import { aValueOf, wordedBy } from './schema/wording';
import { columnFindings } from './columns';
import { datasetFindings } from './datasets';
import { nameDeprecatedRecipients, recipientFindings } from './recipients';
import type { LintRun } from './run';

type WriteOptions = Parameters<typeof triggerWriteSchema>[0];

/** A trigger's full schema, and its relational rules alone (what the full one adds to valid members). */
interface TriggerSchema {
  full: ReturnType<typeof triggerWriteSchema>;
  relations: ReturnType<typeof triggerRelationsSchema>;
  rules: ReturnType<typeof relationRules>;
}

const schemasOf = (options: WriteOptions, full = triggerWriteSchema(options)): TriggerSchema => ({
  full,
  relations: triggerRelationsSchema(options),
  rules: relationRules(options),
});
let standard: TriggerSchema | undefined;

// Building the schema costs more than checking a trigger: keep the few option sets in use. The cache
// holds one hint's schemas: a process has one caller wording (the CLI's or the editor's).
const schemaCache = new Map<string, TriggerSchema>();
let cachedHint: MetricsDatasetHint | undefined;
function schemaFor(options: LintOptions): TriggerSchema {
  const hint = options.metricsDatasetHint;
  const form = options.form ?? 'file';
  if (
    (options.metricsDatasets === undefined || options.metricsDatasets.length === 0) &&
    hint === undefined &&
    form === 'file'
  ) {
    return (standard ??= schemasOf({}, TriggerWrite));
  }
  if (hint !== cachedHint) {
    schemaCache.clear();
    cachedHint = hint;
  }
  const metrics = [...new Set(options.metricsDatasets ?? [])].sort();
  const key = JSON.stringify([form, metrics]);
  let schema = schemaCache.get(key);
  if (schema === undefined) {
    if (schemaCache.size >= 16) schemaCache.clear();
    schema = schemasOf({ metricsDatasets: metrics, metricsDatasetHint: hint, form });
    schemaCache.set(key, schema);
  }
  return schema;
}

/** Whether zod accepts a trigger's members (made on first use: the same for every option set). */
let membersAccepted: Accepts | undefined;
function membersValid(trigger: unknown): boolean {
  membersAccepted ??= acceptsOf(TriggerWriteObject);
  try {
    return membersAccepted(trigger);
  } catch {
    // A refinement that throws here throws in zod's parse too: that parse decides what happens.
    return false;
  }
}

/** What a trigger breaks: findings, and records of unknown members. */
export type Found = (Finding | UnknownMembers)[];

export const isUnknownMembers = (f: Finding | UnknownMembers): f is UnknownMembers => 'keys' in f;

const JSON_TYPES = new Set(['object', 'string', 'number', 'boolean']);

/** What a JSON value is, as a noun phrase (`null` by its JSON name). */
function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return aValueOf('array');
  const type = typeof v;
  // Not a JSON value (only a caller passing a parsed value of its own gets one): its typeof name.
  return JSON_TYPES.has(type) ? aValueOf(type) : l10n.t('a {0}', type);
}

// safeParse wraps the issues in an Error subclass, whose stack trace costs more than checking a small
// trigger; the linter reads only the issues, so it takes zod's plain error type.
const check = _safeParse($ZodError);

/** The findings of one trigger, each rule and member once; worded only if `shown`. */
function checkTrigger(
  schema: TriggerSchema,
  trigger: Record<string, unknown>,
  prefix: JsonPath,
  options: LintOptions,
  run: LintRun,
  shown: boolean,
): Found {
  const found = wordedBy(shown, () => checkSchema(schema, trigger, prefix, options.form === 'listed'));
  if (options.datasets !== undefined) found.push(...datasetFindings(trigger, prefix, options.datasets, run));
  if (options.columns !== undefined) found.push(...columnFindings(trigger, prefix, options.columns, run));
  if (options.recipients !== undefined) {
    nameDeprecatedRecipients(found, trigger, prefix, options.recipients);
    found.push(...recipientFindings(trigger, prefix, options.recipients, run));
  }
  return found;
}

/**
 * The issues the full schema raises for a trigger whose members it accepts: the relational rules' alone,
 * each as zod's refinement makes it (custom, the path and message given, a copy of the params). Undefined
 * when a message is empty: zod would word that one itself (the schema's relational rules in zod then say it).
 */
function relationIssues(schema: TriggerSchema, trigger: unknown): z.core.$ZodIssue[] | undefined {
  const issues: z.core.$ZodIssue[] = [];
  let unworded = false;
  schema.rules(trigger, (path, message, params) => {
    if (message === '') unworded = true;
    issues.push({ code: 'custom', path, message, params: { ...params } });
  });
  return unworded ? undefined : issues;
}

/** What zod's parse of a trigger raises: for most triggers (their members valid) without running zod at all. */
function issuesOf(schema: TriggerSchema, trigger: unknown): readonly z.core.$ZodIssue[] {
  const valid = membersValid(trigger);
  const direct = valid ? relationIssues(schema, trigger) : undefined;
  if (direct !== undefined) return direct;
  const result = check(valid ? schema.relations : schema.full, trigger, { error: triggerIssueMessage });
  return result.success ? [] : result.error.issues;
}

function checkSchema(schema: TriggerSchema, trigger: unknown, prefix: JsonPath, listed: boolean): Found {
  const issues = issuesOf(schema, trigger);
  if (issues.length === 0) return [];
  // One diagnostic per rule and member: the first member check says it (30 is below 60 before it
  // is not a multiple of 60), but a relational issue says more than an absolute bound
  // (time_range 30 is below frequency 900, not only below 60).
  const out: Found = [];
  const byKey = new Map<string, number>();
  for (const issue of issues) {
    const found = findingsOf(issue, trigger, prefix);
    // Unknown members are reported once by their object: no rival to weigh (and there may be a million).
    // The service adds members to what it lists (auto_investigate): not a problem of a listed trigger.
    if (!Array.isArray(found)) {
      if (!listed) out.push(found);
      continue;
    }
    for (const finding of found) {
      const key = `${finding.rule}\u0000${finding.at.join('\u0000')}`;
      const earlier = byKey.get(key);
      if (earlier === undefined) {
        byKey.set(key, out.length);
        out.push(finding);
      } else if ((out[earlier] as Finding | undefined)?.params === undefined && finding.params !== undefined) {
        out[earlier] = finding;
      }
    }
  }
  return out;
}

/**
 * Calls `visit` with the findings of each trigger of a file's value, in document order: `index` is the
 * trigger's position in a top-level array, or -1 for a file of one trigger. Triggers without findings are skipped.
 */
export function forEachTriggerFindings(
  value: unknown,
  options: LintOptions,
  /** The lint's own state and counters. */
  run: LintRun,
  /** Triggers not to check (they hold what is too deep to read), by index (-1: the file's one trigger). */
  unread: ReadonlySet<number>,
  visit: (index: number, found: Found) => void,
  /** Whether any finding of the trigger at an index can be shown; if not, its findings are counted unworded. */
  shown: (index: number) => boolean = () => true,
): void {
  const schema = schemaFor(options);
  if (Array.isArray(value)) {
    value.forEach((element, i) => {
      const found = elementFindings(schema, element, i, options, run, unread.has(i), () => shown(i));
      if (found.length > 0) visit(i, found);
    });
  } else if (isRecord(value)) {
    if (unread.has(-1)) return;
    const found = checkTrigger(schema, value, [], options, run, true);
    if (found.length > 0) visit(-1, found);
  } else if (value !== undefined) {
    visit(-1, [
      {
        rule: 'json/root-type',
        at: [],
        inTrigger: 0,
        message: l10n.t(
          'the file holds {0}; it must hold a trigger object or an array of trigger objects',
          describeValue(value),
        ),
      },
    ]);
  }
}

/** The findings of element `i` of a file's top-level array: a trigger's, or that it is none; none when `unread` (too deep). */
function elementFindings(
  schema: TriggerSchema,
  element: unknown,
  i: number,
  options: LintOptions,
  run: LintRun,
  unread: boolean,
  shown: () => boolean,
): Found {
  if (!isRecord(element)) {
    return [
      {
        rule: 'json/root-type' as const,
        at: [i],
        inTrigger: 0,
        message: l10n.t(
          'element {0} is {1}; an array in a trigger file holds trigger objects only',
          i,
          describeValue(element),
        ),
      },
    ];
  }
  return unread ? [] : checkTrigger(schema, element, [i], options, run, shown());
}

/**
 * Checks the elements of a file's top-level array one at a time, as a broken file is read (recover.ts), so
 * that its value is never held whole: the same findings as forEachTriggerFindings, kept for `visit` later.
 */
export class ElementFindings {
  /** The findings of each element that has any, in document order. */
  readonly found: { index: number; found: Found }[] = [];
  private readonly schema: TriggerSchema;

  constructor(
    private readonly options: LintOptions,
    private readonly run: LintRun,
  ) {
    this.schema = schemaFor(options);
  }

  /** Checks an element; `shown` as for forEachTriggerFindings. Answers whether it has findings. */
  check(element: unknown, index: number, unread: boolean, shown: boolean): Found {
    const found = elementFindings(this.schema, element, index, this.options, this.run, unread, () => shown);
    if (found.length > 0) this.found.push({ index, found });
    return found;
  }

  /** Hands each element's findings to `visit`, in document order (as forEachTriggerFindings would have). */
  forEach(visit: (index: number, found: Found) => void): void {
    for (const { index, found } of this.found) visit(index, found);
  }
}
