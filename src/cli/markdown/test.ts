// `obs test` in Markdown: the counts, then each test file with its trigger and each expectation's verdict, what
// happened and its notes, as the text report says them; the run's own problems first.
import { fileHeading, STATUS_WORDS, summaryLine, type TestFileReport, type TestRunReport } from '../testReport';
import { markdownItems, markdownText, type MarkdownReport } from './text';

function fileDetails(r: TestFileReport): string[] {
  const lines = [`- ${markdownText(fileHeading(r))}`];
  for (const p of r.problems) lines.push(`  - **${STATUS_WORDS.error}** ${markdownText(p)}`);
  for (const o of r.outcomes) {
    const verdict = `**${STATUS_WORDS[o.status]}** ${markdownText(`${o.name}: ${o.message}`)}`;
    lines.push(
      ...markdownItems(
        verdict,
        o.notes.map((n) => markdownText(`note: ${n}`)),
      ).map((l) => `  ${l}`),
    );
  }
  return lines;
}

/** A run of trigger tests as `obs test` reports it. */
export function testMarkdown(report: TestRunReport): MarkdownReport {
  const counts = summaryLine(report.files, report.allowNotTestable);
  const n = report.problems.length;
  const summary = n === 0 ? counts : `${counts}; ${n} problem${n === 1 ? '' : 's'} of the run`;
  const problems = report.problems.map((p) => `- **${STATUS_WORDS.error}** ${markdownText(p)}`);
  return { summary: markdownText(summary), details: [...problems, ...report.files.flatMap(fileDetails)].join('\n') };
}
