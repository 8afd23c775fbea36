// Text and JSON reports of the CLI.
import type { FileReport } from './sarif';

/** `file:line:col severity rule message`, 1-based line and column as terminals and editors expect. */
export function toText(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  const count = { error: 0, warning: 0, info: 0 };
  for (const report of reports) {
    for (const d of report.diagnostics) {
      count[d.severity]++;
      lines.push(`${report.file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.rule} ${d.message}`);
    }
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
  return `${JSON.stringify(out, null, 2)}\n`;
}
