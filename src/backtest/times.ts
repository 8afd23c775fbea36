// The times of a trigger test: absolute, ISO 8601 in UTC (`2025-06-02T09:10:00Z`, seconds optional), or
// relative to the time the test runs (`now`, `now-2h`, `now-1d12h`, `now-90m`). Reading them, and writing
// times back for people (`2025-06-02 09:10 UTC`). No vscode import.

const ABSOLUTE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?Z$/;
const RELATIVE_TIME = /^now(?:-(?=\d)(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?)?$/;
/** Either form, for the JSON Schema. */
export const TIME_PATTERN =
  '^(?:\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2})?Z|now(?:-(?=\\d)(?:\\d+d)?(?:\\d+h)?(?:\\d+m)?)?)$';

export type TimeSpec = { kind: 'absolute'; seconds: number } | { kind: 'relative'; secondsBeforeNow: number };

/** The time a text names, or undefined when it is neither form (or names no real date, such as Feb 30). */
export function readTime(text: string): TimeSpec | undefined {
  const abs = ABSOLUTE_TIME.exec(text);
  if (abs) {
    const [y, mo, d, h, mi, s] = abs.slice(1).map((p) => Number(p ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const ms = Date.UTC(y, mo - 1, d, h, mi, s);
    const back = new Date(ms);
    // Date.UTC rolls Feb 30 over into March: such a text names no date.
    if (
      back.getUTCFullYear() !== y ||
      back.getUTCMonth() !== mo - 1 ||
      back.getUTCDate() !== d ||
      h > 23 ||
      mi > 59 ||
      s > 59
    )
      return undefined;
    return { kind: 'absolute', seconds: ms / 1000 };
  }
  const rel = RELATIVE_TIME.exec(text);
  if (!rel) return undefined;
  const [d, h, m] = rel.slice(1).map((p) => Number(p ?? 0)) as [number, number, number];
  return { kind: 'relative', secondsBeforeNow: d * 86_400 + h * 3_600 + m * 60 };
}

/** Epoch seconds of a time spec at `nowSeconds`. */
export function resolveTime(spec: TimeSpec, nowSeconds: number): number {
  return spec.kind === 'absolute' ? spec.seconds : nowSeconds - spec.secondsBeforeNow;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `2025-06-02 09:10 UTC` (seconds only when not zero). */
export function utcText(seconds: number): string {
  const d = new Date(seconds * 1000);
  const s = d.getUTCSeconds() === 0 ? '' : `:${pad(d.getUTCSeconds())}`;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${s} UTC`;
}

/** `2025-06-02 09:10 and 09:40 UTC` on one day, `2025-06-01 23:00 and 2025-06-02 01:00 UTC` across days. */
export function utcSpan(from: number, to: number): { from: string; to: string } {
  const a = utcText(from).replace(/ UTC$/, '');
  const b = utcText(to);
  return a.slice(0, 10) === b.slice(0, 10) ? { from: a, to: b.slice(11) } : { from: a, to: b };
}
