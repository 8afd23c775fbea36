// `obs drift` in Markdown: the counts, then each difference as the text report says it (service value -> file
// value), one list item per trigger, then the burn alert and definitions files under a heading of their kind.
import { driftFindings, driftSummary, sloSections, type DriftRun } from '../driftReport';
import { markdownItems, markdownText, type MarkdownReport } from './text';

/** A drift as `obs drift` reports it. */
export function driftMarkdown(
  report: Pick<DriftRun, 'files' | 'onlyOnService' | 'sloFiles' | 'counts'>,
): MarkdownReport {
  const triggers = driftFindings(report).filter((f) => f.of === 'trigger');
  const details = triggers.flatMap((f) => markdownItems(markdownText(f.head), f.lines.map(markdownText)));
  for (const section of sloSections(report))
    details.push(
      ...(details.length === 0 ? [] : ['']),
      `**${markdownText(section.title)}**`,
      '',
      ...section.items.flatMap((i) => markdownItems(markdownText(i.head), i.lines.map(markdownText))),
    );
  return { summary: markdownText(driftSummary(report)), details: details.join('\n') };
}
