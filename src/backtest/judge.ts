// An expectation of a trigger test judged on the evaluation of its window: how many times the trigger
// fired and how many notifications it sent between `from` and `to`, against what was expected, in one
// sentence ("fired 0 times between 2025-06-02 09:10 and 09:40 UTC; expected at least 1"). No vscode import.
import { STATE_FIRING, STATE_SKIPPED, type PreviewOutcome } from './evaluate';
import type { Expectation } from './testFile';
import { utcSpan, utcText } from './times';
import * as l10n from '@vscode/l10n';

export interface WindowCounts {
  /** Firings with at least one firing evaluation in (from, to]; one that began before `from` counts too. */
  firings: number;
  /** The first firing evaluation in the window, if any. */
  firstFiringAt: number | undefined;
  /** Evaluations in the window at which it was firing: on_true's notifications. */
  firingEvaluations: number;
  /** Firings that began in the window: on_change's notifications. */
  firingsBegun: number;
}

/** What happened at the evaluations in (from, to] of an outcome (which may start earlier, for the state). */
export function countWindow(outcome: PreviewOutcome, from: number, to: number): WindowCounts {
  const counts: WindowCounts = { firings: 0, firstFiringAt: undefined, firingEvaluations: 0, firingsBegun: 0 };
  const { times, states } = outcome;
  // Read once: an imported binding may be a getter (transpiled CommonJS), and this loop runs per evaluation.
  const skipped = STATE_SKIPPED;
  const firingState = STATE_FIRING;
  let wasFiring = false;
  let prevInWindow = false;
  for (let j = 0; j < times.length; j++) {
    const t = times[j] as number;
    const state = states[j];
    if (state === skipped) continue;
    const firing = state === firingState;
    if (t > from && t <= to && firing) {
      counts.firingEvaluations++;
      counts.firstFiringAt ??= t;
      // A firing already on before the window counts once, at its first evaluation inside it.
      if (!wasFiring || !prevInWindow) counts.firings++;
      if (!wasFiring) counts.firingsBegun++;
    }
    wasFiring = firing;
    prevInWindow = t > from;
  }
  return counts;
}

export type Verdict = { passed: boolean; message: string; expected: string; actual: string };

const firingsText = (n: number): string => (n === 1 ? l10n.t('1 firing') : l10n.t('{0} firings', n));
const timesText = (n: number): string => (n === 1 ? l10n.t('fired 1 time') : l10n.t('fired {0} times', n));
const notificationsText = (n: number): string => (n === 1 ? l10n.t('1 notification') : l10n.t('{0} notifications', n));

/** " for group http.route = /api/cart" */
export function groupText(group: Expectation['group']): string {
  if (!group) return '';
  return l10n.t(
    ' for group {0}',
    Object.entries(group)
      .map(([k, v]) => `${k} = ${v === null ? '(none)' : String(v)}`)
      .join(', '),
  );
}

export function judge(
  e: Expectation,
  counts: WindowCounts,
  alertType: 'on_change' | 'on_true',
  from: number,
  to: number,
): Verdict {
  const span = utcSpan(from, to);
  const where = l10n.t('between {0} and {1}{2}', span.from, span.to, groupText(e.group));
  const first = counts.firstFiringAt === undefined ? '' : l10n.t(', first at {0}', utcText(counts.firstFiringAt));
  const actualFirings = `${firingsText(counts.firings)}${first}`;
  if (e.expect === 'fires') {
    const passed = counts.firings >= 1;
    const said = `${timesText(counts.firings)} ${where}`;
    return {
      passed,
      message: passed ? `${said}${first}` : l10n.t('{0}; expected at least 1', said),
      expected: l10n.t('at least 1 firing'),
      actual: actualFirings,
    };
  }
  if (e.expect === 'does-not-fire') {
    const passed = counts.firings === 0;
    const said = `${timesText(counts.firings)} ${where}`;
    return {
      passed,
      message: passed ? said : l10n.t('{0}{1}; expected none', said, first),
      expected: l10n.t('no firing'),
      actual: actualFirings,
    };
  }
  const sent = alertType === 'on_true' ? counts.firingEvaluations : counts.firingsBegun;
  const passed = sent <= e.notifications;
  const said = l10n.t('sent {0} ({1}) {2}', notificationsText(sent), alertType, where);
  return {
    passed,
    message: passed
      ? l10n.t('{0}; at most {1} allowed', said, e.notifications)
      : l10n.t('{0}; expected at most {1}', said, e.notifications),
    expected: l10n.t('at most {0}', notificationsText(e.notifications)),
    actual: l10n.t('{0} ({1})', notificationsText(sent), alertType),
  };
}
