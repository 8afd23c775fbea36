// When a trigger is evaluated: at every multiple of its frequency (UTC), and with
// `evaluation_schedule_type: window` only inside its schedule's window. No vscode import.
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../result';

const DAY = 86_400;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** A schedule window in UTC: the days it starts on (0 = Sunday) and its start and end in minutes of the day. */
export interface ScheduleWindow {
  days: ReadonlySet<number>;
  startMinute: number;
  /** At or before the start: the window ends on the next day. */
  endMinute: number;
}

function minutesOf(hhmm: unknown): number | undefined {
  if (typeof hhmm !== 'string') return undefined;
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) return undefined;
  const h = Number(m[1]);
  const min = Number(m[2]);
  return h < 24 && min < 60 ? h * 60 + min : undefined;
}

/**
 * The window of a trigger's `evaluation_schedule` (`{ window: { days_of_week, start_time, end_time } }`),
 * or a reason it cannot be read.
 */
export function readSchedule(schedule: unknown): Outcome<{ window: ScheduleWindow }> {
  const window =
    typeof schedule === 'object' && schedule !== null ? (schedule as { window?: unknown }).window : undefined;
  if (typeof window !== 'object' || window === null)
    return { ok: false, reason: l10n.t('evaluation_schedule has no window') };
  const w = window as { days_of_week?: unknown; start_time?: unknown; end_time?: unknown };
  const names = Array.isArray(w.days_of_week) ? w.days_of_week : [];
  const days = new Set<number>();
  for (const name of names) {
    const i = WEEKDAYS.indexOf(String(name).toLowerCase() as (typeof WEEKDAYS)[number]);
    if (i < 0) return { ok: false, reason: l10n.t('"{0}" is not a day of the week', String(name)) };
    days.add(i);
  }
  if (days.size === 0) return { ok: false, reason: l10n.t('the schedule names no day of the week') };
  const startMinute = minutesOf(w.start_time);
  const endMinute = minutesOf(w.end_time);
  if (startMinute === undefined || endMinute === undefined)
    return { ok: false, reason: l10n.t('start_time and end_time must be HH:mm (UTC)') };
  return { ok: true, window: { days, startMinute, endMinute } };
}

/** Whether an evaluation at `t` (epoch seconds) falls inside the window. */
export function inSchedule(w: ScheduleWindow, t: number): boolean {
  const dayStart = Math.floor(t / DAY) * DAY;
  const minute = (t - dayStart) / 60;
  const weekday = new Date(dayStart * 1000).getUTCDay();
  if (w.endMinute > w.startMinute) return w.days.has(weekday) && minute >= w.startMinute && minute < w.endMinute;
  // Overnight (or a whole day when the end equals the start): from the start to the next day's end.
  if (w.days.has(weekday) && minute >= w.startMinute) return true;
  return w.days.has((weekday + 6) % 7) && minute < w.endMinute;
}

/** "weekdays 09:00-17:00 UTC"-style text for the panel. */
export function describeSchedule(w: ScheduleWindow): string {
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const days = [1, 2, 3, 4, 5, 6, 0].filter((d) => w.days.has(d)).map((d) => (WEEKDAYS[d] ?? '').slice(0, 3));
  const end = w.endMinute <= w.startMinute ? `${hhmm(w.endMinute)} next day` : hhmm(w.endMinute);
  return `${days.join(', ')} ${hhmm(w.startMinute)}-${end} UTC`;
}
