// The window a trigger test evaluates: its times resolved at the run's now, cut where the newest minutes
// may still be filling up, started early enough that the state at its first evaluation (exceeded_limit,
// firing or not) is the service's, and judged testable only when every bucket it needs is still kept: the
// service keeps query results for 7 days, so an older window is NOT TESTABLE, never passed. No vscode import.
import { firstEvaluation, type TriggerRules } from './evaluate';
import { earliestStart, oldestKept, warmUpFrom } from './history';
import { exactStep, planFetch, SAFETY_SECONDS, type Fetch } from './plan';
import { spanLabel } from './summary';
import { resolveTime, utcText, type TimeSpec } from './times';
import * as l10n from '@vscode/l10n';

export interface ResolvedWindow {
  /** Evaluations in (from, to]. */
  from: number;
  to: number;
  /** The evaluation starts here (before `from`): the evaluations that decide the state at the window's start (history.ts). */
  evalFrom: number;
  fetch: Fetch;
  /** Said with the outcome: the window was cut at the newest complete minutes. */
  notes: string[];
}

export type WindowResult =
  | { kind: 'window'; window: ResolvedWindow }
  | { kind: 'not-testable'; reason: string }
  | { kind: 'error'; reason: string };

/** `1 d 2 h 25 min`: each unit that is not 0. */
function durationText(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3_600);
  const m = Math.round((seconds % 3_600) / 60);
  const parts = [
    d > 0 ? l10n.t('{0} d', d) : '',
    h > 0 ? l10n.t('{0} h', h) : '',
    m > 0 || (d === 0 && h === 0) ? l10n.t('{0} min', m) : '',
  ];
  return parts.filter((p) => p !== '').join(' ');
}

export function resolveWindow(
  rules: TriggerRules,
  spec: { from: TimeSpec; to: TimeSpec; fromText: string; toText: string },
  nowSeconds: number,
): WindowResult {
  const from = resolveTime(spec.from, nowSeconds);
  const asked = resolveTime(spec.to, nowSeconds);
  if (asked <= from)
    return {
      kind: 'error',
      reason: l10n.t(
        'the window ends ({0}, {1}) before it starts ({2}, {3})',
        spec.toText,
        utcText(asked),
        spec.fromText,
        utcText(from),
      ),
    };
  const f = rules.frequency;
  const newest = Math.floor((nowSeconds - SAFETY_SECONDS) / f) * f;
  // The last evaluation in the window: the same whatever second of it the run reads "now-2h" at, so a run
  // again a little later asks the service for the same windows (the session's cache has them).
  const to = Math.floor(Math.min(asked, newest) / f) * f;
  if (from >= newest)
    return {
      kind: 'not-testable',
      reason: l10n.t(
        'the window has not happened yet: it starts at {0}, and the newest evaluation with complete data is at {1}',
        utcText(from),
        utcText(newest),
      ),
    };
  // Not a list of every evaluation time only to see that it is empty: 10,080 of them for a week at 60 s.
  if (firstEvaluation(f, from) > to) {
    return {
      kind: 'error',
      reason: l10n.t(
        'the window holds no evaluation: the trigger is evaluated every {0}, at multiples of it (UTC)',
        spanLabel(rules.frequency),
      ),
    };
  }
  const evalFrom = warmUpFrom(rules, from);
  const fetch = planFetch(rules, evalFrom, to, 'exact');
  const oldest = oldestKept(nowSeconds);
  if (fetch.fetchStart < oldest) {
    const needs = l10n.t(
      'the service keeps query results for 7 days, and this window needs data from {0} ({1} before it starts)',
      utcText(fetch.fetchStart),
      durationText(from - fetch.fetchStart),
    );
    // The earliest start whose history the service still keeps; none when the evaluations that decide the
    // state at a start (exceeded_limit of them inside the schedule) are spread over more than the days kept.
    const earliest = earliestStart(rules, oldest, exactStep(rules), true);
    return {
      kind: 'not-testable',
      reason:
        earliest === undefined
          ? l10n.t(
              '{0}; no window is testable now: its schedule holds fewer than {1} evaluations in the days the service keeps',
              needs,
              rules.exceededLimit,
            )
          : l10n.t('{0}; the earliest window testable now starts at {1}', needs, utcText(earliest)),
    };
  }
  // A window asked to end at an absolute time but cut is said; one ending "now" ends at the newest data anyway.
  const notes =
    to < asked && spec.to.kind === 'absolute'
      ? [l10n.t('Evaluated up to {0}: the newest minutes may still be filling up.', utcText(to))]
      : [];
  return { kind: 'window', window: { from, to, evalFrom, fetch, notes } };
}
