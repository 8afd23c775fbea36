// `obs lint` in Markdown: the counts, then each file's problems in a table (where, severity, rule, message).
import { lintSummary } from '../lintReport';
import type { FileReport } from '../lintSarif';
import { markdownText, type MarkdownReport } from './text';

/** A file's part: its name, then its problems in a table; none for a file without problems. */
function fileDetails(report: FileReport): string[] {
  const name = `**${markdownText(report.file)}**`;
  if (report.error !== undefined) return [`${name}: ${markdownText(`cannot be read: ${report.error}`)}`];
  if (report.diagnostics.length === 0) return [];
  const rows = report.diagnostics.map((d) => {
    const at = `${d.range.start.line + 1}:${d.range.start.character + 1}`;
    return `| ${at} | ${d.severity} | ${markdownText(d.rule)} | ${markdownText(d.message)} |`;
  });
  return [name, '', '| Line:column | Severity | Rule | Problem |', '|---:|---|---|---|', ...rows];
}

/** The lint of files as `obs lint` reports them (the files read, and those that could not be). */
export function lintMarkdown(results: readonly FileReport[]): MarkdownReport {
  const unread = results.filter((r) => r.error !== undefined).length;
  const counts = lintSummary(results.filter((r) => r.error === undefined));
  const summary = unread === 0 ? counts : `${counts}; ${unread} file${unread === 1 ? '' : 's'} could not be read`;
  const parts = results.map(fileDetails).filter((lines) => lines.length > 0);
  return { summary: markdownText(summary), details: parts.map((lines) => lines.join('\n')).join('\n\n') };
}
