// Times as the pages show them: relative ("3 hours ago") with the exact UTC time on hover, and the
// chart's and tables' "YYYY-MM-DD HH:MM" in local time or UTC. The clock is passed in, so tests pin it.
import { html, type TemplateResult } from 'lit-html';
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

/** A <time>: the relative time as text, the exact UTC time on hover; an unreadable text as it is. */
export function timeView(iso: string, nowMs: number): TemplateResult {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return html`<time datetime=${iso}>${iso}</time>`;
  return html`<time datetime=${iso} title=${utcText(ms)}>${relativeTime(ms, nowMs)}</time>`;
}

/** A <time> of the day in local time ("10:32", 24-hour as in the tables), the exact UTC time on hover. */
export function clockView(ms: number): TemplateResult {
  const d = new Date(ms);
  return html`<time datetime=${d.toISOString()} title=${utcText(ms)}>${pad(d.getHours())}:${pad(d.getMinutes())}</time>`;
}

/** Keeps the page's relative times current: `redraw` draws the page anew once a minute (a page left open for an hour stays right). */
export function keepRelativeTimesCurrent(redraw: () => void): void {
  setInterval(redraw, 60_000);
}
