// The words every form shares: the problem summary, the status lines, the rules a field can break and
// relative times. One place, so the pages can be translated later without touching their DOM code.
// No vscode import: the pages and the host both use it.

/** The language of every text here (relative times and numbers are formatted for it). */
export const TEXT_LOCALE = 'en';

/** A whole number as the text shows it: 1,000,000. */
export function formatCount(n: number): string {
  return n.toLocaleString(TEXT_LOCALE);
}

export const COMMON_TEXT = {
  loading: 'Loading…',
  notSaved: 'Not saved: see the problems above.',
  summaryTitle: (count: number) => (count === 1 ? 'There is 1 problem to fix:' : `There are ${count} problems to fix:`),
  /** A service's message about a field, in the summary: the field's label first. */
  onField: (label: string, message: string) => `${label}: ${message}`,
  serviceRefusedFields: 'The service refused some fields: see the messages next to them.',
  counter: (length: number, max: number) => `${formatCount(length)} / ${formatCount(max)}`,
  counterTitle: (max: number) => `At most ${formatCount(max)} characters`,
  justNow: 'just now',
} as const;

/** The rules a value can break, in the user's words, with the field's label. */
export const RULE_TEXT = {
  required: (label: string) => `${label} is required.`,
  atLeast: (label: string, min: number) => (min === 0 ? `${label} must be 0 or more.` : `${label} must be at least ${formatCount(min)}.`),
  moreThan: (label: string, min: number) => `${label} must be more than ${formatCount(min)}.`,
  atMost: (label: string, max: number) => `${label} must be at most ${formatCount(max)}.`,
  lessThan: (label: string, max: number) => `${label} must be less than ${formatCount(max)}.`,
  tooLong: (label: string, max: number) => `${label} can have at most ${formatCount(max)} characters.`,
  tooShort: (label: string, min: number) => `${label} needs at least ${formatCount(min)} characters.`,
  tooFew: (label: string, min: number) => `${label} needs at least ${formatCount(min)}.`,
  tooMany: (label: string, max: number) => `${label} can have at most ${formatCount(max)}.`,
  wholeNumber: (label: string) => `${label} must be a whole number.`,
  number: (label: string) => `${label} must be a number.`,
  notAllowed: (label: string) => `${label} does not apply here.`,
  invalid: (label: string) => `${label} is not valid.`,
} as const;
