// The preview's one-sentence answer: "would have fired 3 times (3 notifications and 3 resolves on_change;
// 17 notifications if on_true) in the last 24 h, for groups ...". No vscode import.
import type { PreviewOutcome } from './evaluate';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "1 h", "6 h", "24 h", "7 d", or minutes for anything shorter than an hour. */
export function spanLabel(seconds: number): string {
  if (seconds % 86_400 === 0 && seconds >= 2 * 86_400) return `${seconds / 86_400} d`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  return `${Math.round(seconds / 60)} min`;
}

function groupsText(groups: readonly { label: string }[]): string {
  const labels = groups.map((g) => g.label).filter((l) => l !== '');
  if (labels.length === 0) return '';
  const shown = labels.slice(0, 3);
  const more = labels.length - shown.length;
  return `, for ${labels.length === 1 ? 'group' : 'groups'} ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

export function previewSummary(o: PreviewOutcome, alertType: 'on_change' | 'on_true', windowSeconds: number, disabled: boolean): string {
  const span = `in the last ${spanLabel(windowSeconds)}`;
  const skipped = o.outsideSchedule > 0 ? `, ${o.outsideSchedule} more outside its schedule` : '';
  const lead = disabled ? 'It is disabled, so the service would not have evaluated it; enabled, it ' : 'It ';
  if (o.firings.length === 0) {
    return `${lead}would not have fired ${span} (${plural(o.evaluated, 'evaluation')}${skipped}).`;
  }
  const still = o.firings[o.firings.length - 1]?.end === null ? ' It would still be firing at the end.' : '';
  const changeText = `${plural(o.onChange.notifications, 'notification')} and ${plural(o.onChange.resolves, 'resolve')}`;
  if (alertType === 'on_true') {
    return (
      `${lead}would have notified ${plural(o.onTrue.notifications, 'time')} (on_true, over ${plural(o.firings.length, 'firing')}; ` +
      `${changeText} if on_change) ${span}${groupsText(o.groups)}.${still}`
    );
  }
  return (
    `${lead}would have fired ${plural(o.firings.length, 'time')} (${changeText} on_change; ` +
    `${plural(o.onTrue.notifications, 'notification')} if on_true) ${span}${groupsText(o.groups)}.${still}`
  );
}
