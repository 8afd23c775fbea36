// A trigger's and a burn alert's settings in the user's words for the tree: how it notifies, when it
// runs, what it compares with. Values the service may add later are shown as they are (tolerant
// reading): an unknown alert type or schedule shape is never hidden or guessed at.
import * as l10n from '@vscode/l10n';
import type { BurnAlertType } from '../../api/schemas/burnAlert';
import { knownLocale } from '../../webview/protocol/text/when';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Short, for the row's description: "notify on change", "notify while true". */
export function triggerNotifyShort(alertType: string | undefined): string {
  // The spec's default is on_change: a trigger that does not say notifies on change.
  if (alertType === undefined || alertType === 'on_change') return l10n.t('notify on change');
  if (alertType === 'on_true') return l10n.t('notify while true');
  return alertType;
}

/** Long, for the tooltip: what the setting does, with the value as written in a trigger file. */
export function triggerNotifyLong(alertType: string | undefined): string {
  // Spec part 5: on_change notifies at each crossing (and the trigger may resolve and fire again).
  if (alertType === undefined)
    return l10n.t('once each time the result crosses the threshold (on_change, the default)');
  if (alertType === 'on_change') return l10n.t('once each time the result crosses the threshold ({0})', alertType);
  if (alertType === 'on_true') return l10n.t('at every run while the threshold is met ({0})', alertType);
  return alertType;
}

/** The burn alert's kind, with the value as the service names it (the client reads only these two). */
export function burnAlertKind(alertType: BurnAlertType): string {
  return alertType === 'exhaustion_time'
    ? l10n.t('time until the budget is used up ({0})', alertType)
    : l10n.t('how fast the budget drops ({0})', alertType);
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * "Mon, Wed, Fri" in the display language and in week order (2024-01-01 was a Monday); undefined unless
 * it is 1 to 7 distinct documented day names, as the service takes them.
 */
function dayNames(days: readonly string[], language: string): string | undefined {
  const indexes = days.map((day) => (DAYS as readonly string[]).indexOf(day));
  if (days.length < 1 || days.length > 7 || indexes.includes(-1) || new Set(indexes).size !== indexes.length)
    return undefined;
  const format = new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' });
  const names = [...indexes].sort((a, b) => a - b).map((index) => format.format(Date.UTC(2024, 0, 1 + index)));
  return new Intl.ListFormat(language, { style: 'short', type: 'unit' }).format(names);
}

/**
 * "Mon, Tue, Wed 09:00-17:00 UTC" for a window schedule; "all the time" for the default (spec 2.6:
 * frequency, or no type); the object as JSON when its shape is not the one the service documents.
 */
export function scheduleText(type: string | undefined, schedule: unknown, language = 'en'): string {
  if (type === undefined) return l10n.t('all the time (frequency, the default)');
  if (type === 'frequency') return l10n.t('all the time ({0})', type);
  if (type !== 'window') return type;
  const window = isRecord(schedule) ? schedule['window'] : undefined;
  if (isRecord(window)) {
    const { days_of_week: days, start_time: start, end_time: end } = window;
    const valid =
      Array.isArray(days) &&
      days.every((d): d is string => typeof d === 'string') &&
      typeof start === 'string' &&
      typeof end === 'string' &&
      TIME.test(start) &&
      TIME.test(end);
    const names = valid ? dayNames(days, knownLocale(language)) : undefined;
    if (valid && names !== undefined) {
      // The facts: an end at or before the start means the next day.
      return end <= start
        ? l10n.t('{0} {1} UTC to {2} UTC the next day', names, start, end)
        : l10n.t('{0} {1}-{2} UTC', names, start, end);
    }
  }
  return l10n.t('window {0}', JSON.stringify(schedule ?? null));
}

// Whole sentences, one per documented combination, so each translates as a whole.
const BASELINES: Record<string, () => string> = {
  'percentage:60': () => l10n.t('change in percent from an hour before'),
  'percentage:1440': () => l10n.t('change in percent from a day before'),
  'percentage:10080': () => l10n.t('change in percent from a week before'),
  'percentage:40320': () => l10n.t('change in percent from four weeks before'),
  'value:60': () => l10n.t('change in value from an hour before'),
  'value:1440': () => l10n.t('change in value from a day before'),
  'value:10080': () => l10n.t('change in value from a week before'),
  'value:40320': () => l10n.t('change in value from four weeks before'),
};

/** "change in percent from a day before"; the object as JSON when it is not a documented baseline. */
export function baselineText(baseline: unknown): string | undefined {
  if (baseline === undefined || baseline === null) return undefined;
  const words =
    isRecord(baseline) && typeof baseline['type'] === 'string' && typeof baseline['offset_minutes'] === 'number'
      ? BASELINES[`${baseline['type']}:${baseline['offset_minutes']}`]
      : undefined;
  return words !== undefined ? words() : JSON.stringify(baseline);
}
