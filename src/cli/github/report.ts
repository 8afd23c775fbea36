// `--format github` (lint, drift, plan; `obs test --reporter github`): GitHub Actions' workflow commands, one
// annotation a line (`::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=T::MESSAGE`), then the run's
// counts; and, when GitHub names a step summary file (GITHUB_STEP_SUMMARY), the report in Markdown appended to it.
// Escaped as the runner unescapes: `%`, CR and LF in the message, also `:` and `,` in a property. Text from files
// and the service is made visible first (visible.ts), so it holds no line break of its own: nothing in it can end
// the command's line and start another.
import { appendFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { errorText } from '../../api/errors';
import { warn, writeData, type MainIo } from '../io';
import type { TextRange } from '../jsonPlace';
import type { MarkdownReport } from '../markdown/text';
import { visible } from '../visible';

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  title: string;
  /** Our lines: each is made visible, and they are joined with line breaks GitHub shows. */
  lines: readonly string[];
  /** The file as named on the command line (relative to the current folder, or absolute), and where in it. */
  file?: string;
  range?: TextRange | { start: TextRange['start'] };
}

/**
 * At most this many annotations a run: GitHub shows 10 errors, 10 warnings (and 10 notices) of a step and 50 of
 * a job. Past it, the first 9 (errors first, then warnings, then notices) and one notice counting the rest.
 */
const ANNOTATIONS_PER_RUN = 10;

/** The step summary appended is cut, at a line, before this many bytes (GitHub takes up to 1 MiB a step). */
const STEP_SUMMARY_MAX_BYTES = 512 * 1024;

const STEP_SUMMARY_ENV = 'GITHUB_STEP_SUMMARY';
const WORKSPACE_ENV = 'GITHUB_WORKSPACE';

/** A message: `%`, CR and LF escaped, as the runner unescapes them. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property's value: as a message, and `:` and `,` too, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * A file as GitHub names it: relative to the checkout (GITHUB_WORKSPACE when set, else the current folder), with
 * `/`; a file outside it stays absolute (the annotation then points at no file of the repository).
 */
function githubPath(file: string, io: Pick<MainIo, 'cwd' | 'env'>): string {
  const workspace = io.env?.[WORKSPACE_ENV]?.trim() ?? '';
  const root = workspace === '' ? io.cwd : resolve(io.cwd, workspace);
  const absolute = resolve(io.cwd, file);
  const inside = relative(root, absolute);
  const outside = inside === '' || inside.split(/[\\/]/)[0] === '..' || isAbsolute(inside);
  return (outside ? absolute : inside).split(sep).join('/');
}

/** One annotation as one workflow command line. */
export function workflowCommand(a: Annotation, io: Pick<MainIo, 'cwd' | 'env'>): string {
  const props: [string, string | number][] = [];
  if (a.file !== undefined) {
    props.push(['file', githubPath(a.file, io)]);
    if (a.range !== undefined) {
      props.push(['line', a.range.start.line], ['col', a.range.start.column]);
      if ('end' in a.range) props.push(['endLine', a.range.end.line], ['endColumn', a.range.end.column]);
    }
  }
  props.push(['title', a.title]);
  const properties = props.map(([name, value]) => `${name}=${escapeProperty(visible(String(value)))}`).join(',');
  return `::${a.level} ${properties}::${escapeData(a.lines.map(visible).join('\n'))}`;
}

/** An error on each file that could not be read, with why. */
export function unreadableAnnotations(command: string, unreadable: ReadonlyMap<string, string>): Annotation[] {
  return [...unreadable].map(([file, why]) => ({
    level: 'error',
    title: `obs ${command}: cannot read`,
    lines: [`cannot read ${file}: ${why}`],
    file,
  }));
}

const RANK: Record<AnnotationLevel, number> = { error: 0, warning: 1, notice: 2 };

/**
 * The annotations a run writes, most severe first, capped at ANNOTATIONS_PER_RUN: past it, one notice saying how
 * many were left out and where they all are (`whereAll`).
 */
function capAnnotations(annotations: readonly Annotation[], command: string, whereAll: string): Annotation[] {
  const ordered = [...annotations].sort((a, b) => RANK[a.level] - RANK[b.level]);
  if (ordered.length <= ANNOTATIONS_PER_RUN) return ordered;
  const shown = ordered.slice(0, ANNOTATIONS_PER_RUN - 1);
  const left = ordered.slice(shown.length);
  const kinds = (['error', 'warning', 'notice'] as const)
    .map((level) => ({ level, n: left.filter((a) => a.level === level).length }))
    .filter((k) => k.n > 0)
    .map((k) => `${k.n} ${k.level}${k.n === 1 ? '' : 's'}`)
    .join(', ');
  const line =
    `${left.length} more not annotated (${kinds}): obs writes at most ${ANNOTATIONS_PER_RUN} annotations a run, ` +
    `GitHub shows 10 of each kind a step. ${whereAll}`;
  return [...shown, { level: 'notice', title: `obs ${command}: more not annotated`, lines: [line] }];
}

/** Where every finding of a run is, for the notice that counts those left out. */
function whereAll(io: Pick<MainIo, 'env'>, fullReport: string): string {
  const summary = (io.env?.[STEP_SUMMARY_ENV]?.trim() ?? '') !== '';
  return summary ? `The step summary lists them all, and ${fullReport} too.` : `${fullReport} lists them all.`;
}

/** What a command's github report holds. */
export interface GithubReport {
  /** The command's name: `lint`. */
  command: string;
  annotations: readonly Annotation[];
  /** The run's counts, our words: printed after the annotations. */
  summaryLine: string;
  markdown: MarkdownReport;
  /** The command line of the whole report, named where annotations are left out: `obs lint --format json`. */
  fullReport: string;
  /** Markdown said in the step summary above the counts (drift --applied says what it compares). */
  heading?: string;
}

/** The annotations and the counts on the standard output, and the step summary appended when GitHub names one. */
export async function writeGithubReport(io: MainIo, report: GithubReport): Promise<void> {
  const capped = capAnnotations(report.annotations, report.command, whereAll(io, report.fullReport));
  writeData(io, capped.map((a) => `${workflowCommand(a, io)}\n`).join(''));
  io.stdout(`${visible(report.summaryLine)}\n`);
  await appendStepSummary(io, report);
}

/** Lines of `text` from the start while they fit in `maxBytes`, and how many were left out. */
function cutAtLines(text: string, maxBytes: number): { text: string; left: number } {
  const lines = text.split('\n');
  let bytes = 0;
  let kept = 0;
  for (const line of lines) {
    bytes += Buffer.byteLength(line, 'utf8') + 1;
    if (bytes > maxBytes) break;
    kept++;
  }
  return { text: lines.slice(0, kept).join('\n'), left: lines.length - kept };
}

/** The step summary of a run: a heading, the counts, the details folded. */
export function stepSummaryText(report: Pick<GithubReport, 'command' | 'markdown' | 'fullReport' | 'heading'>): string {
  const { summary, details } = report.markdown;
  const head = [
    `### obs ${report.command}`,
    '',
    ...(report.heading === undefined ? [] : [report.heading, '']),
    summary,
  ];
  if (details.trim() === '') return `${head.join('\n')}\n\n`;
  const cut = cutAtLines(details, STEP_SUMMARY_MAX_BYTES);
  const more =
    cut.left === 0
      ? []
      : [
          '',
          `(${cut.left} more lines left out: a step summary holds at most 1 MiB; ${report.fullReport} has them all)`,
        ];
  const folded = ['<details><summary>Details</summary>', '', cut.text, ...more, '', '</details>'];
  return `${[...head, '', ...folded].join('\n')}\n\n`;
}

/**
 * Appends the run's summary to GITHUB_STEP_SUMMARY when it names a file (never truncating what the step wrote
 * before). A failure is said on stderr and changes nothing else: the annotations are written, and the exit status
 * is the run's.
 */
async function appendStepSummary(io: MainIo, report: GithubReport): Promise<void> {
  const named = io.env?.[STEP_SUMMARY_ENV]?.trim() ?? '';
  if (named === '') return;
  try {
    await appendFile(resolve(io.cwd, named), stepSummaryText(report), { encoding: 'utf8' });
  } catch (e) {
    const why = errorText(e);
    warn(io, `could not append the summary to ${STEP_SUMMARY_ENV} (${named}): ${why}; the annotations above are whole`);
  }
}
