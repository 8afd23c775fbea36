// `obs drift --format github`: an annotation for each trigger that differs from the service (a warning at the
// first member that differs, every difference in its message), is only local (a warning at the trigger) or only on
// the service (a warning on no file), and an error for each one that could not be compared.
import { driftFindings, type DriftFinding, type DriftRun } from './driftReport';
import type { Annotation, AnnotationLevel } from './github/report';
import { filesLocator } from './jsonPlace';

const LEVEL: Record<DriftFinding['kind'], AnnotationLevel> = {
  differs: 'warning',
  'local-only': 'warning',
  'service-only': 'warning',
  'not-compared': 'error',
};

export function driftAnnotations(run: DriftRun): Annotation[] {
  const locate = filesLocator(run.texts);
  return driftFindings(run).map((f): Annotation => {
    const annotation: Annotation = { level: LEVEL[f.kind], title: `obs drift: ${f.kind}`, lines: [f.head, ...f.lines] };
    if (f.file === undefined) return annotation;
    const range = locate(f.file, f.path);
    // A difference is pointed at its member; a trigger that is only local or not compared at where it starts.
    const at = range === undefined ? {} : { range: f.kind === 'differs' ? range : { start: range.start } };
    return { ...annotation, file: f.file, ...at };
  });
}
