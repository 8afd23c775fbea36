// `obs plan` in Markdown: the counts, then the plan as the text plan shows it: what it is against, each
// section under its title, each change with its members (service value -> file value), what is blocked and why.
import type { Plan } from '../../triggerFiles';
import { NOTHING_TO_CHANGE, planCountsText, planIntro, planSections } from '../planReport';
import { markdownItems, markdownText, type MarkdownReport } from './text';

/** A plan as `obs plan` makes it. */
export function planMarkdown(plan: Plan): MarkdownReport {
  const lines = planIntro(plan).map((l) => `${markdownText(l)}  `);
  for (const section of planSections(plan)) {
    lines.push('', `**${markdownText(section.title)}**`, '');
    for (const e of section.entries) lines.push(...markdownItems(markdownText(e.head), e.lines.map(markdownText)));
  }
  if (plan.changes.length === 0 && plan.blocked.length === 0) lines.push('', markdownText(NOTHING_TO_CHANGE));
  return { summary: markdownText(planCountsText(plan)), details: lines.join('\n') };
}
