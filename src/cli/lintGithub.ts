// `obs lint --format github`: an annotation for each problem at its range (error, warning; info as a notice), one
// error for each file that could not be read and each problem of the command line.
import type { Severity } from '../lint';
import type { Annotation, AnnotationLevel } from './github/report';
import type { FileReport } from './lintSarif';

const LEVEL: Record<Severity, AnnotationLevel> = { error: 'error', warning: 'warning', info: 'notice' };

export function lintAnnotations(reports: readonly FileReport[], problems: readonly string[]): Annotation[] {
  const found = reports.flatMap((r): Annotation[] => {
    if (r.error !== undefined)
      return [
        { level: 'error', title: 'obs lint: cannot read', lines: [`cannot read ${r.file}: ${r.error}`], file: r.file },
      ];
    return r.diagnostics.map((d) => ({
      level: LEVEL[d.severity],
      title: `obs lint: ${d.rule}`,
      lines: [d.message],
      file: r.file,
      range: {
        start: { line: d.range.start.line + 1, column: d.range.start.character + 1 },
        end: { line: d.range.end.line + 1, column: d.range.end.character + 1 },
      },
    }));
  });
  const trouble = problems.map((p): Annotation => ({ level: 'error', title: 'obs lint', lines: [p] }));
  return [...trouble, ...found];
}
