// Times as the pages show them: relative ("3 hours ago") with the exact UTC time on hover, and the
// chart's and tables' "YYYY-MM-DD HH:MM" in local time or UTC. The clock is passed in, so tests pin it.
import { textLocale } from '../protocol/text/common';
import { relativeTime as relativeTimeIn, utcText } from '../protocol/text/when';

export { utcText };

/** "3 hours ago" in the page's language (protocol/text/when.ts). */
export function relativeTime(thenMs: number, nowMs: number): string {
  return relativeTimeIn(thenMs, nowMs, textLocale());
}

/** Two digits, as times are written: 09. */
export const pad = (n: number): string => String(n).padStart(2, '0');

/** `2024-03-02 10:00` in local time, or `2024-03-02 10:00 UTC`: how the chart and the tables show a time. */
export function formatTime(epochSeconds: number, utc: boolean): string {
  const d = new Date(epochSeconds * 1000);
  if (utc) return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A <time> element: the relative time as text, the exact UTC time on hover; an unreadable text as it is. */
export function timeElement(iso: string, nowMs: number): HTMLElement {
  const ms = Date.parse(iso);
  const el = document.createElement('time');
  el.setAttribute('datetime', iso);
  if (Number.isNaN(ms)) {
    el.textContent = iso;
    return el;
  }
  el.textContent = relativeTime(ms, nowMs);
  el.title = utcText(ms);
  el.dataset['relative'] = String(ms);
  return el;
}

/** Brings every relative time on the page up to `nowMs` (a page left open for an hour stays right). */
export function refreshRelativeTimes(nowMs: number): void {
  for (const el of document.querySelectorAll<HTMLElement>('time[data-relative]')) {
    el.textContent = relativeTime(Number(el.dataset['relative']), nowMs);
  }
}

/** Keeps the page's relative times current, once a minute. */
export function keepRelativeTimesCurrent(now: () => number = Date.now): void {
  setInterval(() => refreshRelativeTimes(now()), 60_000);
}
