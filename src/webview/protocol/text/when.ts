// A moment in words, for the pages and the host alike: "3 hours ago" and the exact UTC time. No DOM, no
// vscode import and none of the word tables: the Datasets view's activation bundle carries it.
import * as l10n from '@vscode/l10n';

let known: { asked: string; locale: string } | undefined;

/**
 * The display language as Intl names it when Intl knows it, else English (a malformed tag would make Intl
 * throw on every number). The last answer is kept: the tree asks once per row.
 */
export function knownLocale(language: string): string {
  if (known?.asked !== language) {
    let locale = 'en';
    try {
      locale = Intl.NumberFormat.supportedLocalesOf([language])[0] ?? 'en';
    } catch {
      // Not a well-formed language tag: English.
    }
    known = { asked: language, locale };
  }
  return known.locale;
}

/** `2024-03-02 10:00:00 UTC`: the exact time, unambiguous whatever the reader's zone. */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

const STEPS: [limitSeconds: number, unit: Intl.RelativeTimeFormatUnit, seconds: number][] = [
  [45 * 60, 'minute', 60],
  [22 * 3600, 'hour', 3600],
  [26 * 86400, 'day', 86400],
  [320 * 86400, 'month', 30.44 * 86400],
];
const YEARS: (typeof STEPS)[number] = [Infinity, 'year', 365.25 * 86400];

let formatter: { locale: string; format: Intl.RelativeTimeFormat } | undefined;

/**
 * "3 hours ago", "in 2 minutes", "just now" (under 45 s either way), from `thenMs` as seen at `nowMs`;
 * `locale` must be one Intl knows (knownLocale).
 */
export function relativeTime(thenMs: number, nowMs: number, locale: string): string {
  const seconds = (thenMs - nowMs) / 1000;
  const size = Math.abs(seconds);
  if (size < 45) return l10n.t('just now');
  if (formatter?.locale !== locale)
    formatter = { locale, format: new Intl.RelativeTimeFormat(locale, { numeric: 'always' }) };
  const [, unit, unitSeconds] = STEPS.find(([limit]) => size < limit) ?? YEARS;
  return formatter.format.format(Math.sign(seconds) * Math.max(1, Math.round(size / unitSeconds)), unit);
}
