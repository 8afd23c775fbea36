// The preview's one-sentence answer: "would have fired 3 times (3 notifications and 3 resolves on_change;
// 17 notifications if on_true) in the last 24 h, for groups ...". No vscode import.
import * as l10n from '@vscode/l10n';
import type { PreviewOutcome } from './evaluate';

// Each count with its noun as one text per number form (languages inflect differently).
const times = (n: number): string => (n === 1 ? l10n.t('1 time') : l10n.t('{0} times', n));
const firings = (n: number): string => (n === 1 ? l10n.t('1 firing') : l10n.t('{0} firings', n));
const notifications = (n: number): string => (n === 1 ? l10n.t('1 notification') : l10n.t('{0} notifications', n));
const resolves = (n: number): string => (n === 1 ? l10n.t('1 resolve') : l10n.t('{0} resolves', n));
const evaluations = (n: number): string => (n === 1 ? l10n.t('1 evaluation') : l10n.t('{0} evaluations', n));

/** "1 h", "6 h", "24 h", "7 d", or minutes for anything shorter than an hour. */
export function spanLabel(seconds: number): string {
  if (seconds % 86_400 === 0 && seconds >= 2 * 86_400) return l10n.t('{0} d', seconds / 86_400);
  if (seconds % 3600 === 0) return l10n.t('{0} h', seconds / 3600);
  return l10n.t('{0} min', Math.round(seconds / 60));
}

function groupsText(groups: readonly { label: string }[]): string {
  const labels = groups.map((g) => g.label).filter((l) => l !== '');
  if (labels.length === 0) return '';
  const shown = labels.slice(0, 3);
  const more = labels.length - shown.length;
  if (labels.length === 1) return l10n.t(', for group {0}', shown.join(', '));
  return more > 0
    ? l10n.t(', for groups {0} and {1} more', shown.join(', '), more)
    : l10n.t(', for groups {0}', shown.join(', '));
}

export function previewSummary(
  o: PreviewOutcome,
  alertType: 'on_change' | 'on_true',
  windowSeconds: number,
  disabled: boolean,
): string {
  const span = spanLabel(windowSeconds);
  const skipped = o.outsideSchedule > 0 ? l10n.t(', {0} more outside its schedule', o.outsideSchedule) : '';
  if (o.firings.length === 0) {
    return disabled
      ? l10n.t(
          'It is disabled, so the service would not have evaluated it; enabled, it would not have fired in the last {0} ({1}{2}).',
          span,
          evaluations(o.evaluated),
          skipped,
        )
      : l10n.t('It would not have fired in the last {0} ({1}{2}).', span, evaluations(o.evaluated), skipped);
  }
  const still =
    o.firings[o.firings.length - 1]?.end === null ? ` ${l10n.t('It would still be firing at the end.')}` : '';
  const changeText = l10n.t('{0} and {1}', notifications(o.onChange.notifications), resolves(o.onChange.resolves));
  const groups = groupsText(o.groups);
  if (alertType === 'on_true') {
    const args = [times(o.onTrue.notifications), firings(o.firings.length), changeText, span, groups] as const;
    const sentence = disabled
      ? l10n.t(
          'It is disabled, so the service would not have evaluated it; enabled, it would have notified {0} (on_true, over {1}; {2} if on_change) in the last {3}{4}.',
          ...args,
        )
      : l10n.t('It would have notified {0} (on_true, over {1}; {2} if on_change) in the last {3}{4}.', ...args);
    return `${sentence}${still}`;
  }
  const args = [times(o.firings.length), changeText, notifications(o.onTrue.notifications), span, groups] as const;
  const sentence = disabled
    ? l10n.t(
        'It is disabled, so the service would not have evaluated it; enabled, it would have fired {0} ({1} on_change; {2} if on_true) in the last {3}{4}.',
        ...args,
      )
    : l10n.t('It would have fired {0} ({1} on_change; {2} if on_true) in the last {3}{4}.', ...args);
  return `${sentence}${still}`;
}
