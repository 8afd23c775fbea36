// `obs plan --format github`: an annotation for each change as the text plan says it: a create at its trigger and
// an update at the first member it changes (notices: what a merge would write), a delete (a warning: an alert the
// service would lose; no file holds it), and each blocked trigger (an error, with the reasons).
import type { Annotation, AnnotationLevel } from './github/report';
import { filesLocator } from './jsonPlace';
import { planSections, type PlanSection } from './planReport';
import type { Plan } from '../triggerFiles';

const LEVEL: Record<PlanSection['kind'], AnnotationLevel> = {
  create: 'notice',
  update: 'notice',
  delete: 'warning',
  blocked: 'error',
};

export function planAnnotations(plan: Plan, texts: ReadonlyMap<string, string>): Annotation[] {
  const locate = filesLocator(texts);
  return planSections(plan).flatMap((section) =>
    section.entries.map((e): Annotation => {
      const annotation: Annotation = {
        level: LEVEL[section.kind],
        title: `obs plan: ${section.kind}`,
        lines: [e.head, ...e.lines],
      };
      if (e.file === undefined) return annotation;
      const range = locate(e.file, e.path);
      // A created or blocked trigger is pointed at where it starts, not across the whole of it.
      const at = range === undefined ? {} : { range: section.kind === 'update' ? range : { start: range.start } };
      return { ...annotation, file: e.file, ...at };
    }),
  );
}
