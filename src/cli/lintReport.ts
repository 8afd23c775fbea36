// The text and JSON reports of `obs lint`.
import { visible, visibleJson } from './visible';
import type { Severity } from '../lint';
import type { FileReport } from './lintSarif';

/** The diagnostic that stands for those left out past --max-problems: the summary counts what it stands for instead. */
const LEFT_OUT_RULE = 'file/too-many-problems';

/** Problems found by severity, those left out past --max-problems counted in, the one standing for them not. */
export function lintCounts(reports: readonly FileReport[]): Record<Severity, number> {
  const count = { error: 0, warning: 0, info: 0 };
  for (const report of reports) {
    for (const d of report.diagnostics) if (d.rule !== LEFT_OUT_RULE) count[d.severity]++;
    count.error += report.hidden?.error ?? 0;
    count.warning += report.hidden?.warning ?? 0;
    count.info += report.hidden?.info ?? 0;
  }
  return count;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 files checked: 1 error, 2 warnings, 0 infos", of the files that were read. */
export function lintSummary(reports: readonly FileReport[]): string {
  const count = lintCounts(reports);
  return `${plural(reports.length, 'file')} checked: ${plural(count.error, 'error')}, ${plural(count.warning, 'warning')}, ${plural(count.info, 'info')}`;
}

/** `file:line:col severity rule message`, 1-based line and column as terminals and editors expect. */
export function toText(reports: readonly FileReport[]): string {
  const lines = reports.flatMap((report) =>
    report.diagnostics.map((d) =>
      visible(
        `${report.file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.rule} ${d.message}`,
      ),
    ),
  );
  lines.push(lintSummary(reports));
  return `${lines.join('\n')}\n`;
}

/** One JSON array, one element per file in the order given. */
export function toJson(reports: readonly FileReport[]): string {
  const out = reports.map((r) => ({
    file: r.file,
    ...(r.error === undefined ? {} : { error: r.error }),
    diagnostics: r.diagnostics.map((d) => ({ rule: d.rule, severity: d.severity, message: d.message, range: d.range })),
  }));
  return `${visibleJson(out)}\n`;
}
