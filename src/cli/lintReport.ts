// The text and JSON reports of `obs lint`.
import { visible, visibleJson } from './visible';
import type { FileReport } from './lintSarif';

/** The diagnostic that stands for those left out past --max-problems: the summary counts what it stands for instead. */
const LEFT_OUT_RULE = 'file/too-many-problems';

/** `file:line:col severity rule message`, 1-based line and column as terminals and editors expect. */
export function toText(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  const count = { error: 0, warning: 0, info: 0 };
  for (const report of reports) {
    for (const d of report.diagnostics) {
      if (d.rule !== LEFT_OUT_RULE) count[d.severity]++;
      lines.push(
        visible(
          `${report.file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.rule} ${d.message}`,
        ),
      );
    }
    count.error += report.hidden?.error ?? 0;
    count.warning += report.hidden?.warning ?? 0;
    count.info += report.hidden?.info ?? 0;
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(
    `${plural(reports.length, 'file')} checked: ${plural(count.error, 'error')}, ${plural(count.warning, 'warning')}, ${plural(count.info, 'info')}`,
  );
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
