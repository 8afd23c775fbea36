// The noise diff in words: plain text (`obs plan --noise`) and Markdown for a pull request (a table, biggest
// change first, then each change's details folded in <details>). Whatever comes from files or the service is
// made visible (visible.ts) and, in Markdown, written so it cannot act as Markdown or HTML (markdown/text.ts).
import { durationWords } from '../backtest/noise';
import type { NoiseDiffEntry, NoiseSide, SideTests } from '../backtest/noiseDiff';
import { kindOf, type ChangeKind } from './noiseDiffJson';
import { markdownText, type MarkdownReport } from './markdown/text';
import { visible } from './visible';

const DAY = 86_400;

interface DiffOptions {
  days: number;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const utc = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
const estimated = (side: NoiseSide | undefined) => side?.kind === 'evaluated' && !side.counts.exact;
const times = (n: number) =>
  n === 0 ? 'would not have notified' : `would have notified ${plural(n, 'time', 'times')}`;

/**
 * "in 7 days", or the window itself where it is a day or more shorter than asked (a baseline's offset leaves less
 * of the 7 days kept): "in 5 d 23 h".
 */
function spanOf(e: NoiseDiffEntry, o: DiffOptions): string {
  const side = e.wouldBe?.kind === 'evaluated' ? e.wouldBe : e.was?.kind === 'evaluated' ? e.was : undefined;
  const seconds = side?.counts.windowSeconds ?? o.days * DAY;
  return seconds > (o.days - 1) * DAY ? plural(o.days, 'day', 'days') : durationWords(seconds);
}

/** The change in one sentence: "would have notified 3 times in 7 days (was 41)". */
function changeSentence(e: NoiseDiffEntry, o: DiffOptions): string {
  const skipped = [
    e.was?.kind === 'skipped' ? `the service's version cannot be evaluated: ${e.was.reason}` : '',
    e.wouldBe?.kind === 'skipped' ? `the file's version cannot be evaluated: ${e.wouldBe.reason}` : '',
  ].filter((t) => t !== '');
  if (skipped.length > 0) return skipped.join('; ');
  const span = spanOf(e, o);
  const mark = estimated(e.was) || estimated(e.wouldBe) ? ' (estimated)' : '';
  const was = e.was?.kind === 'evaluated' ? e.was.counts.notifications : undefined;
  const now = e.wouldBe?.kind === 'evaluated' ? e.wouldBe.counts.notifications : undefined;
  if (now === undefined)
    return `would no longer send the ${plural(was ?? 0, 'notification', 'notifications')} it sent in ${span}${mark}`;
  if (was === undefined) return `${times(now)} in ${span} (a new trigger)${mark}`;
  return `${times(now)} in ${span} (${was === now ? 'the same as now' : `was ${was.toLocaleString('en')}`})${mark}`;
}

/** A side's count for a table cell: the number, "new", "deleted" or "not evaluated". */
function countCell(side: NoiseSide | undefined, absent: string): string {
  if (side === undefined) return absent;
  if (side.kind === 'skipped') return 'not evaluated';
  return `${side.counts.notifications.toLocaleString('en')}${side.counts.exact ? '' : ' (estimated)'}`;
}

/** "checkout 2, cart 1, ...": the groups in the most notifications, and whether there are more. */
function groupsText(groups: NonNullable<Extract<NoiseSide, { kind: 'evaluated' }>['groups']>): string {
  const top = groups.top.map((g) => `${g.label === '' ? '(none)' : g.label} ${g.notifications}`);
  return `${top.join(', ')}${groups.count > groups.top.length ? ', ...' : ''}`;
}

/** What one version sent, in words. */
function sideLines(side: NoiseSide, whose: string): string[] {
  if (side.kind === 'skipped') return [`${whose}: not evaluated: ${side.reason}`];
  const c = side.counts;
  const r = side.rules;
  const rules = `threshold ${r.op} ${r.value}${r.exceededLimit > 1 ? `, exceeded_limit ${r.exceededLimit}` : ''}`;
  const window = `${utc(side.from)} to ${utc(side.to)} UTC`;
  const estimate = c.exact ? '' : ', estimated: some values could not be added up over buckets';
  const lines = [
    [
      `${whose} (${rules}): ${plural(c.notifications, 'notification', 'notifications')} (${r.alertType})`,
      plural(c.resolves, 'resolve', 'resolves'),
      `${plural(c.flaps, 'flap', 'flaps')} in ${durationWords(c.windowSeconds)} (${window})${estimate}`,
    ].join(', '),
  ];
  if (side.first !== undefined && side.last !== undefined)
    lines.push(`first ${utc(side.first)} UTC, last ${utc(side.last)} UTC`);
  if (side.groups !== undefined && side.groups.count > 0)
    lines.push(`${plural(side.groups.count, 'group', 'groups')} notified: ${groupsText(side.groups)}`);
  return [...lines, ...side.notes.map((n) => `note: ${n}`)];
}

function testLines(e: NoiseDiffEntry): string[] {
  if (e.testsNotRun !== undefined) return [`tests: ${e.testsNotRun}`];
  if (e.testFiles.length === 0) return ['tests: no test file tests its file'];
  const one = (t: SideTests | undefined, whose: string): string[] => {
    if (t === undefined) return [];
    const { passed, failed, error } = t.tally;
    const counts = `${passed} passed, ${failed} failed, ${t.tally['not-testable']} not testable, ${error} errors`;
    const head = `tests with ${whose}: ${counts}`;
    return [head, ...t.notPassed.map((p) => `  ${p.status} "${p.name}" (${p.file}): ${p.message}`)];
  };
  return [
    `tests: ${e.testFiles.join(', ')}`,
    ...one(e.testsWas, "the service's version"),
    ...one(e.testsWouldBe, "the file's version"),
  ];
}

/** Every line of a change's details, in order. */
function detailLines(e: NoiseDiffEntry): string[] {
  return [
    ...(e.was === undefined ? [] : sideLines(e.was, "was (the service's version)")),
    ...(e.wouldBe === undefined ? [] : sideLines(e.wouldBe, "would be (the file's version)")),
    ...testLines(e),
  ];
}

function summary(entries: readonly NoiseDiffEntry[], o: DiffOptions): string {
  const count = (k: ChangeKind) => entries.filter((e) => kindOf(e) === k).length;
  const kinds = `${count('quieter')} quieter, ${count('noisier')} noisier, ${count('same')} the same`;
  const over = `${plural(entries.length, 'change', 'changes')} over the last ${plural(o.days, 'day', 'days')}`;
  return `${over}: ${kinds}, ${count('not-evaluated')} not evaluated`;
}

const arrow = (e: NoiseDiffEntry) =>
  `${countCell(e.was, 'new')} -> ${countCell(e.wouldBe, 'deleted')}`.replace(/ \(estimated\)/g, '~');

export function noiseDiffText(entries: readonly NoiseDiffEntry[], o: DiffOptions): string {
  const pad = '    ';
  const blocks = entries.map((e) =>
    [
      visible(`${arrow(e)}  ${e.action} "${e.name}" (${e.label}) on ${e.dataset}: ${changeSentence(e, o)}`),
      ...detailLines(e).map((l) => `${pad}${visible(l)}`),
    ].join('\n'),
  );
  const head = `What the changes would have notified (each version evaluated as the service would have):`;
  return `${head}\n\n${blocks.join('\n\n')}${blocks.length > 0 ? '\n\n' : ''}${summary(entries, o)}\n`;
}

/** The table of the changes, one row each: what each version sent, and the change in a sentence. */
function tableLines(entries: readonly NoiseDiffEntry[], o: DiffOptions): string[] {
  const rows = entries.map((e) => {
    const trigger = `${markdownText(e.name)}<br>${markdownText(`${e.action} · ${e.label}`)}`;
    const cells = [
      trigger,
      countCell(e.was, 'new'),
      countCell(e.wouldBe, 'deleted'),
      markdownText(changeSentence(e, o)),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return ['| Trigger | Was | Would be | Change |', '|---|---:|---:|---|', ...rows];
}

export function noiseDiffMarkdown(entries: readonly NoiseDiffEntry[], o: DiffOptions): string {
  const details = entries.map(
    (e) =>
      `<details><summary>${markdownText(`${e.name} (${e.label}): ${arrow(e)}`)}</summary>\n\n${detailLines(e)
        .map((l) => `- ${markdownText(l)}`)
        .join('\n')}\n\n</details>`,
  );
  const table = tableLines(entries, o).join('\n');
  const head = `### What the changes would have notified\n\n${summary(entries, o)}.\n\n`;
  return entries.length === 0 ? head : `${head}${table}\n\n${details.join('\n')}\n`;
}

/** One change in a sentence of Markdown: `"High error rate" would have notified 3 times in 7 days (was 41).` */
export function noiseSentence(e: NoiseDiffEntry, o: DiffOptions): string {
  return `${markdownText(`"${e.name}" ${changeSentence(e, o)}`)}.`;
}

/**
 * The noise diff as a section of a longer report (obs review): the counts and the biggest change in one line, then
 * the table and each change's details as lines that can be cut at any line (no block spans lines but the table).
 */
export function noiseDiffReport(entries: readonly NoiseDiffEntry[], o: DiffOptions): MarkdownReport {
  const first = entries[0];
  const biggest = first === undefined ? '' : ` Biggest: ${noiseSentence(first, o)}`;
  const each = entries.flatMap((e) => [
    '',
    `**${markdownText(`${e.name} (${e.label}): ${arrow(e)}`)}**`,
    '',
    ...detailLines(e).map((l) => `- ${markdownText(l)}`),
  ]);
  return {
    summary: `${markdownText(summary(entries, o))}.${biggest}`,
    details: entries.length === 0 ? '' : [...tableLines(entries, o), ...each].join('\n'),
  };
}
