// A number of minutes as a reader takes it in: "45 min", "4 h 30 min", "2 days 3 h", "about 4,083 years".
// The service takes any exhaustion_minutes of 0 or more (spec 2.2 sets no upper bound), so the form and
// the Datasets view say how long a large number is rather than refuse it. Whole sentences per shape, so
// each translates as a whole; numbers in the display language. No DOM, no vscode import: the pages and the
// tree share it.
import * as l10n from '@vscode/l10n';

const HOUR = 60;
const DAY = 24 * HOUR;
const YEAR = 365.25 * DAY;

/** `minutes` in words, exact up to a day, then rounded with "about" where something was left out. */
export function minutesInWords(minutes: number, locale = 'en'): string {
  const count = (n: number, digits = 0): string => n.toLocaleString(locale, { maximumFractionDigits: digits });
  if (!Number.isFinite(minutes) || minutes < 0 || !Number.isInteger(minutes)) return l10n.t('{0} min', String(minutes));
  if (minutes < HOUR) return l10n.t('{0} min', count(minutes));
  if (minutes < DAY) {
    const [h, m] = [Math.floor(minutes / HOUR), minutes % HOUR];
    return m === 0 ? l10n.t('{0} h', count(h)) : l10n.t('{0} h {1} min', count(h), count(m));
  }
  if (minutes < 30 * DAY) {
    const [d, h] = [Math.floor(minutes / DAY), Math.floor((minutes % DAY) / HOUR)];
    const words =
      h === 0
        ? d === 1
          ? l10n.t('1 day')
          : l10n.t('{0} days', count(d))
        : d === 1
          ? l10n.t('1 day {0} h', count(h))
          : l10n.t('{0} days {1} h', count(d), count(h));
    return minutes % HOUR === 0 ? words : l10n.t('about {0}', words);
  }
  if (minutes < YEAR) {
    const d = minutes / DAY;
    const words = l10n.t('{0} days', count(Math.round(d)));
    return Number.isInteger(d) ? words : l10n.t('about {0}', words);
  }
  const years = minutes / YEAR;
  const shown = count(years, years < 10 ? 1 : 0);
  return shown === count(1) ? l10n.t('about 1 year') : l10n.t('about {0} years', shown);
}
