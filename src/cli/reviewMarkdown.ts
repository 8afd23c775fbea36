// `obs review` in Markdown, for a pull request comment or a step summary: the counts in the first lines, then one
// section per check (its counts, its details folded in <details>). Bounded: past MAX_MARKDOWN characters the
// details are cut at a line (every line prefix of a report's details is whole Markdown) and say how much is
// left out; the JSON output always holds everything. Text from files, git and the service is escaped.
import { planCounts, type Plan } from '../triggerFiles';
import { lintMarkdown } from './markdown/lint';
import { planMarkdown } from './markdown/plan';
import { testMarkdown } from './markdown/test';
import { markdownText, type MarkdownReport } from './markdown/text';
import { noiseDiffReport, noiseSentence } from './noiseDiffText';
import { onChangedLine, reviewCounts, type ReviewReport } from './reviewReport';

/** GitHub refuses a comment over 65,536 characters; room is left for the marker and what a caller adds. */
export const MAX_MARKDOWN = 60_000;

interface Section {
  title: string;
  report: MarkdownReport;
  /** Shown under the counts, outside the fold. */
  note?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** The plan of only some of its changes (blocked and unchanged kept with the first part, as they concern it). */
function partOf(plan: Plan, indexes: readonly number[], keepRest: boolean): Plan {
  const keep = new Set(indexes);
  return {
    ...plan,
    changes: plan.changes.filter((_, i) => keep.has(i)),
    blocked: keepRest ? plan.blocked : [],
    unchanged: keepRest ? plan.unchanged : 0,
  };
}

function headline(r: ReviewReport): string {
  const c = reviewCounts(r);
  const parts = [
    `**${plural(c.changes, 'change')} to apply**`,
    c.blocked > 0 ? `**${plural(c.blocked, 'trigger')} blocked**` : '',
    `lint: ${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}`,
    r.tests.files.length === 0 ? '' : `tests: ${c.testsPassed} passed, ${c.testsFailed} not passed`,
    c.otherChanges > 0 ? `${plural(c.otherChanges, 'other difference')} with the service` : '',
  ];
  const counts = parts.filter((p) => p !== '').join(' · ');
  const first = r.noise?.entries[0];
  return first === undefined ? counts : `${counts}\n\n${noiseSentence(first, r.noise ?? { days: 7 })}`;
}

function context(r: ReviewReport): string {
  const since = r.changedSince;
  const where =
    r.plan === undefined ? 'No plan could be made' : `Planned against ${markdownText(r.plan.target.baseUrl)}`;
  if (since === undefined) return `${where}; every file under the paths checked.`;
  const files = `${plural(since.changed.length, 'file')} changed, ${plural(since.deleted.length, 'file')} deleted`;
  return `${where}; changes since ${markdownText(since.ref)} (${markdownText(since.base.slice(0, 12))}): ${files}.`;
}

function sections(r: ReviewReport): Section[] {
  const out: Section[] = [];
  // What a change does to the pages people get is what a reviewer reads first.
  if (r.noise !== undefined && r.noise.entries.length > 0)
    out.push({ title: 'What the changes would have notified', report: noiseDiffReport(r.noise.entries, r.noise) });
  if (r.plan !== undefined) {
    const own = partOf(r.plan, r.fromChange, true);
    out.push({ title: 'Plan', report: planMarkdown(own) });
    const rest = r.plan.changes.flatMap((_, i) => (r.fromChange.includes(i) ? [] : [i]));
    if (rest.length > 0) {
      const others = partOf(r.plan, rest, false);
      const c = planCounts(others);
      out.push({
        title: 'Other differences with the service',
        note: `Not made by this change: the service already differs from the files by these ${plural(c.create + c.update + c.delete, 'change')}, which an apply after the merge would make too.`,
        report: planMarkdown(others),
      });
    }
  }
  const since = r.changedSince !== undefined;
  out.push({
    title: 'Lint',
    report:
      r.lint.length === 0
        ? { summary: since ? 'No trigger file that this change touches.' : 'No trigger file.', details: '' }
        : lintSection(r),
  });
  const tests = { files: r.tests.files, problems: r.tests.problems, allowNotTestable: false };
  out.push({
    title: 'Trigger tests',
    report:
      r.tests.files.length + r.tests.problems.length === 0
        ? {
            summary: since
              ? 'No trigger test that this change touches or that tests a file it touches.'
              : 'No trigger test.',
            details: '',
          }
        : testMarkdown(tests),
  });
  return out;
}

/**
 * The lint of the files the change touches: its counts over every finding (an error anywhere blocks the file's
 * apply), and in the details the findings on the lines the change adds or edits; the others are counted.
 */
function lintSection(r: ReviewReport): MarkdownReport {
  const whole = lintMarkdown(r.lint);
  if (r.changedLines === undefined) return whole;
  const mine = r.lint.map((f) => ({ ...f, diagnostics: f.diagnostics.filter((d) => onChangedLine(r, f.file, d)) }));
  const elsewhere =
    r.lint.reduce((n, f) => n + f.diagnostics.length, 0) - mine.reduce((n, f) => n + f.diagnostics.length, 0);
  const note =
    elsewhere === 0
      ? ''
      : ` ${plural(elsewhere, 'finding')} on lines this change does not touch, listed in the JSON report.`;
  return { summary: `${whole.summary}.${note}`, details: lintMarkdown(mine).details };
}

/** `details` cut at the last line that fits in `room` characters, saying how many lines were left out. */
function bounded(details: string, room: number): string {
  if (details.length <= room) return details;
  const lines = details.split('\n');
  let kept = 0;
  let size = 0;
  while (kept < lines.length && size + (lines[kept] ?? '').length + 1 <= room) size += (lines[kept++] ?? '').length + 1;
  const left = lines.length - kept;
  const note = `*${plural(left, 'more line')} left out: the whole report is in the JSON output (--format json or --json-out).*`;
  return kept === 0 ? note : `${lines.slice(0, kept).join('\n')}\n\n${note}`;
}

function sectionText(s: Section, details: string): string {
  const note = s.note === undefined ? '' : `\n\n${s.note}`;
  const fold = details.trim() === '' ? '' : `\n\n<details><summary>Details</summary>\n\n${details}\n\n</details>`;
  return `### ${s.title}\n\n${s.report.summary}${note}${fold}`;
}

export function reviewMarkdown(r: ReviewReport): string {
  const title = r.environment === undefined ? 'Trigger review' : `Trigger review: ${markdownText(r.environment)}`;
  const head = `## ${title}\n\n${headline(r)}\n\n${context(r)}`;
  const problems =
    r.problems.length === 0 ? '' : `\n\n### Not checked\n\n${r.problems.map((p) => `- ${markdownText(p)}`).join('\n')}`;
  const all = sections(r);
  // The counts of every section first; what is left of the budget goes to the details, in order.
  let room = MAX_MARKDOWN - head.length - problems.length - all.reduce((n, s) => n + sectionText(s, '').length + 2, 0);
  const texts = all.map((s) => {
    const details = bounded(s.report.details, Math.max(0, room - 200));
    room -= details.length;
    return sectionText(s, details);
  });
  return `${head}${problems}\n\n${texts.join('\n\n')}\n`;
}
