// `obs drift` in Markdown: the counts, then each difference as the text report says it (service value -> file
// value), one list item per trigger.
import { driftFindings, driftSummary, type DriftRun } from '../driftReport';
import { markdownItems, markdownText, type MarkdownReport } from './text';

/** A drift as `obs drift` reports it. */
export function driftMarkdown(report: Pick<DriftRun, 'files' | 'onlyOnService' | 'counts'>): MarkdownReport {
  const details = driftFindings(report).flatMap((f) => markdownItems(markdownText(f.head), f.lines.map(markdownText)));
  return { summary: markdownText(driftSummary(report)), details: details.join('\n') };
}
