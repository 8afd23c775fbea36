// The words every form shares: the problem summary, the status lines, the rules a field can break and
// the locale of numbers and relative times (their words are in when.ts). Every text goes through l10n.t
// when it is read (never at module load), so it is in the language of the bundle configured by then: the
// host's (core/l10nSetup.ts) or the one the host handed the page (shared/pageL10n.ts). No vscode import:
// the pages and the host both use it.
import * as l10n from '@vscode/l10n';
import { hasControls, visibleControls } from '../safeText';
import { knownLocale } from './when';

let locale = 'en';

/** The language numbers and relative times are formatted for: VS Code's display language when Intl knows it. */
export function useTextLocale(language: string): void {
  locale = knownLocale(language);
}

export function textLocale(): string {
  return locale;
}

/** A whole number as the text shows it: 1,000,000 in English. */
export function formatCount(n: number): string {
  return n.toLocaleString(locale);
}

/** Longer values are cut in a message that echoes them; every name a column can have (255) shows whole. */
const ECHO_WHOLE = 255;
const ECHO_CUT = 100;

/**
 * A value echoed in a message, in quotes: whole up to 255 characters, else its first 100, "…" and its real
 * length, so a problem about a 5,000-character value stays readable and says how long the value is.
 */
export function quotedValue(value: string): string {
  const chars = Array.from(value);
  if (chars.length <= ECHO_WHOLE) return `"${value}"`;
  return l10n.t('"{0}…" ({1} characters)', chars.slice(0, ECHO_CUT).join(''), formatCount(chars.length));
}

export const COMMON_TEXT = {
  get loading() {
    return l10n.t('Loading…');
  },
  get notSaved() {
    return l10n.t('Not saved: see the problems above.');
  },
  summaryTitle: (count: number) =>
    count === 1 ? l10n.t('There is 1 problem to fix:') : l10n.t('There are {0} problems to fix:', formatCount(count)),
  /** A service's message about a field, in the summary: the field's label first. */
  onField: (label: string, message: string) => l10n.t('{0}: {1}', label, message),
  /** {0}: when the edits were kept, as a time of day (10:32). */
  get editsPutBack() {
    return l10n.t('Your unsaved edits from {0} are back: this form was closed before they were saved.');
  },
  get discardEdits() {
    return l10n.t('Discard Edits');
  },
  counter: (length: number, max: number) => l10n.t('{0} / {1}', formatCount(length), formatCount(max)),
  counterTitle: (max: number) => l10n.t('At most {0} characters', formatCount(max)),
  /** The list of unsaved changes a form keeps when it cannot be restored (member names as the API has them). */
  unsavedChanges: (changes: readonly string[]) => l10n.t('Your unsaved changes (not sent): {0}.', changes.join(', ')),
  /** One change in that list: a member the user emptied, a number that is not one, no recipients left. */
  memberCleared: (member: string) => l10n.t('{0} cleared', member),
  notANumber: (member: string, typed: string) => l10n.t('{0} = {1} (not a number)', member, typed),
  get noneLeft() {
    return l10n.t('none');
  },
  /** Said beside a field whose text holds bidi or control characters, showing them: {0} is the text with escapes. */
  holdsControls: (shown: string) =>
    l10n.t('This text holds invisible control characters, shown here as [U+…]: {0}', shown),
} as const;

/** The warning for a field's text that holds bidi or control characters (none when it holds none). */
export function controlWarnings(text: string): string[] {
  return hasControls(text) ? [COMMON_TEXT.holdsControls(visibleControls(text))] : [];
}

/** The rules a value can break, in the user's words, with the field's label. */
export const RULE_TEXT = {
  required: (label: string) => l10n.t('{0} is required.', label),
  atLeast: (label: string, min: number) =>
    min === 0 ? l10n.t('{0} must be 0 or more.', label) : l10n.t('{0} must be at least {1}.', label, formatCount(min)),
  moreThan: (label: string, min: number) => l10n.t('{0} must be more than {1}.', label, formatCount(min)),
  atMost: (label: string, max: number) => l10n.t('{0} must be at most {1}.', label, formatCount(max)),
  lessThan: (label: string, max: number) => l10n.t('{0} must be less than {1}.', label, formatCount(max)),
  tooLong: (label: string, max: number) => l10n.t('{0} can have at most {1} characters.', label, formatCount(max)),
  tooShort: (label: string, min: number) => l10n.t('{0} needs at least {1} characters.', label, formatCount(min)),
  tooFew: (label: string, min: number) => l10n.t('{0} needs at least {1}.', label, formatCount(min)),
  tooMany: (label: string, max: number) => l10n.t('{0} can have at most {1}.', label, formatCount(max)),
  wholeNumber: (label: string) => l10n.t('{0} must be a whole number.', label),
  number: (label: string) => l10n.t('{0} must be a number.', label),
  notAllowed: (label: string) => l10n.t('{0} does not apply here.', label),
  invalid: (label: string) => l10n.t('{0} is not valid.', label),
} as const;
