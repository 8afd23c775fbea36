// A moment in a tooltip row: "3 hours ago (2024-03-02 10:00:07 UTC)", in the display language. No vscode import.
import * as l10n from '@vscode/l10n';
import { knownLocale, relativeTime, utcText } from '../../webview/protocol/text/when';

/** How a row of the tooltip says a moment: in the display language, relative to when it is shown. */
export interface Moment {
  language: string;
  /** When the tooltip is shown; without it only the exact time is given. */
  now: number | undefined;
}

// What the service sends (ISO 8601 with a zone); Date.parse alone would also read "1" as the year 2001.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** "3 hours ago (2024-03-02 10:00:07 UTC)"; a text that is not such a time, as it is. */
export function whenText(iso: string | null | undefined, m: Moment): string | undefined {
  if (iso === undefined || iso === null) return undefined;
  const ms = ISO_TIME.test(iso) ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return iso;
  if (m.now === undefined) return utcText(ms);
  return l10n.t({
    message: '{0} ({1})',
    args: [relativeTime(ms, m.now, knownLocale(m.language)), utcText(ms)],
    comment: ['A time in a tooltip: {0} is relative ("3 hours ago"), {1} the exact time ("2026-11-24 09:00:07 UTC").'],
  });
}
