// The text and Markdown reports of `obs noise`: one line per trigger, noisiest first (its notifications, the
// budget's verdict, its name, file and dataset), under it what it sent and a sparkline per day, and for one
// over the budget the suggested change or why there is none. Whatever comes from files or the service is
// printed escaped (visible.ts); in Markdown, also with its table characters escaped.
import { durationWords, sparkline } from '../backtest/noise';
import { statusOf, type NoiseStatus } from '../backtest/noiseJson';
import type { NoiseEntry } from '../backtest/noiseReport';
import { visible } from './visible';

type Evaluated = Extract<NoiseEntry, { kind: 'evaluated' }>;
interface ReportOptions {
  days: number;
  budget: number;
}

const WORDS: Record<NoiseStatus, string> = { over: 'OVER', within: 'within', 'not-evaluated': 'NOT EVALUATED' };
const WIDTH = 15;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');

function noiseSummary(entries: readonly NoiseEntry[], o: ReportOptions): string {
  const count = (s: NoiseStatus) => entries.filter((e) => statusOf(e, o.budget) === s).length;
  return `${plural(entries.length, 'trigger', 'triggers')} over the last ${plural(o.days, 'day', 'days')}, budget ${plural(o.budget, 'notification', 'notifications')}: ${count('over')} over, ${count('within')} within, ${count('not-evaluated')} not evaluated`;
}

/** What it sent, in words. */
function sentText(e: Evaluated): string {
  const c = e.counts;
  const estimate = c.exact ? '' : ' (estimated: some values could not be added up over buckets)';
  return `${plural(c.notifications, 'notification', 'notifications')} (${e.rules.alertType}), ${plural(c.resolves, 'resolve', 'resolves')}, ${plural(c.flaps, 'flap', 'flaps')} in ${durationWords(c.windowSeconds)} (${day(e.from)} to ${day(e.to)} UTC, ${plural(c.evaluated, 'evaluation', 'evaluations')})${estimate}`;
}

/** The suggestion's lines, or why there is none. */
function suggestionLines(e: Evaluated, budget: number): string[] {
  const s = e.suggestion;
  if (s === undefined) return [];
  const lines = s.suggestions.map((x) =>
    x.change.member === 'value'
      ? `suggested: threshold ${e.rules.op} ${x.change.value} (now ${e.rules.op} ${e.rules.value}): ${plural(x.notifications, 'notification', 'notifications')}`
      : `suggested: exceeded_limit ${x.change.value} (now ${e.rules.exceededLimit}): ${plural(x.notifications, 'notification', 'notifications')}`,
  );
  if (s.blockedBy !== undefined)
    lines.push(
      `no quieter threshold or exceeded_limit within ${plural(budget, 'notification', 'notifications')} still fires in "${s.blockedBy}", which its test says it must`,
    );
  if (s.suggestions.length === 0 && s.blockedBy === undefined)
    lines.push('no threshold or exceeded_limit keeps it within the budget');
  for (const m of s.missed) lines.push(`its test "${m}" fails now: it does not fire in that window`);
  for (const u of e.unchecked) lines.push(`not checked against ${u}`);
  return lines;
}

function entryText(e: NoiseEntry, budget: number): string[] {
  const status = WORDS[statusOf(e, budget)].padEnd(WIDTH);
  if (e.kind === 'skipped')
    return [visible(`${status}${e.name === undefined ? e.label : `"${e.name}" (${e.label})`}: ${e.reason}`)];
  const pad = ''.padEnd(WIDTH);
  const lines = [
    `${status}${String(e.counts.notifications).padStart(5)}  ${visible(`"${e.name}" (${e.label}) on ${e.dataset}`)}`,
  ];
  lines.push(`${pad}       ${sentText(e)}`);
  lines.push(`${pad}       per day ${sparkline(e.counts.perDay)} ${e.counts.perDay.join(' · ')}`);
  for (const l of [...suggestionLines(e, budget), ...e.notes.map((n) => `note: ${n}`)])
    lines.push(`${pad}       ${visible(l)}`);
  return lines;
}

export function noiseText(entries: readonly NoiseEntry[], o: ReportOptions): string {
  return `${entries.flatMap((e) => entryText(e, o.budget)).join('\n')}\n\n${noiseSummary(entries, o)}\n`;
}

/** A table cell: escaped, its pipes and line breaks made harmless. */
const cell = (text: string): string =>
  visible(text)
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[<>*_`[\]]/g, (c) => `\\${c}`);

export function noiseMarkdown(entries: readonly NoiseEntry[], o: ReportOptions): string {
  const rows = entries.map((e) => {
    const status = WORDS[statusOf(e, o.budget)];
    if (e.kind === 'skipped')
      return `| ${status} | | ${cell(e.name ?? '')} | ${cell(e.label)} | | ${cell(`not evaluated: ${e.reason}`)} |`;
    const c = e.counts;
    const more = [`${c.resolves} resolves`, ...suggestionLines(e, o.budget)].map(cell).join('<br>');
    return `| ${status} | ${c.notifications}${c.exact ? '' : ' (estimated)'} | ${cell(e.name)} | ${cell(e.label)} | ${c.flaps} | ${sparkline(c.perDay)} ${more === '' ? '' : `<br>${more}`} |`;
  });
  return `### Trigger noise\n\n${noiseSummary(entries, o)}.\n\n| | Notifications | Trigger | File | Flaps | Per day |\n|---|---:|---|---|---:|---|\n${rows.join('\n')}\n`;
}
