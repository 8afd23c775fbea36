// A failed rule of a request schema (a zod issue) in the user's words: the field's label and what is
// wrong with its value, never the API's member names. Custom rules of the schemas name themselves with
// `params.rule`; a form may word any issue its own way first.
// No vscode import: the pages word problems as the user types, the host before sending.
import type * as z from 'zod';
import { RULE_TEXT } from './text/common';

export type Issue = z.ZodError['issues'][number];

/** How a form words its problems: the label of each field, and its own words for particular issues. */
export interface FormWording {
  labels: Readonly<Record<string, string>>;
  /** The form's own words for an issue on `field`, or undefined for the general ones. */
  special?(issue: Issue, field: string): string | undefined;
}

function ruleOf(issue: Issue): string | undefined {
  if (issue.code !== 'custom') return undefined;
  const rule = (issue.params as { rule?: unknown } | undefined)?.rule;
  return typeof rule === 'string' ? rule : undefined;
}

/** The general words for an issue on a field labelled `label`. */
export function wordIssue(issue: Issue, label: string): string {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? RULE_TEXT.required(label) : RULE_TEXT.tooShort(label, min);
      if (issue.origin === 'array' || issue.origin === 'set') return RULE_TEXT.tooFew(label, min);
      return issue.inclusive === false ? RULE_TEXT.moreThan(label, min) : RULE_TEXT.atLeast(label, min);
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return RULE_TEXT.tooLong(label, max);
      if (issue.origin === 'array' || issue.origin === 'set') return RULE_TEXT.tooMany(label, max);
      return issue.inclusive === false ? RULE_TEXT.lessThan(label, max) : RULE_TEXT.atMost(label, max);
    }
    case 'invalid_type':
      if (issue.expected === 'int') return RULE_TEXT.wholeNumber(label);
      if (issue.expected === 'number') return RULE_TEXT.number(label);
      if (issue.expected === 'undefined' || issue.expected === 'never') return RULE_TEXT.notAllowed(label);
      return RULE_TEXT.invalid(label);
    case 'unrecognized_keys':
      return RULE_TEXT.notAllowed(label);
    case 'custom': {
      const rule = ruleOf(issue);
      if (rule === 'required') return RULE_TEXT.required(label);
      if (rule === 'not-allowed') return RULE_TEXT.notAllowed(label);
      return RULE_TEXT.invalid(label);
    }
    default:
      return RULE_TEXT.invalid(label);
  }
}

/** The words for an issue on `field` of a form: the form's own, else the general ones with its label. */
export function wordFor(wording: FormWording, issue: Issue, field: string): string {
  return wording.special?.(issue, field) ?? wordIssue(issue, wording.labels[field] ?? field);
}
