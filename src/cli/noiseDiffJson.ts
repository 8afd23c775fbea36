// The noise diff as JSON (`obs plan --noise --format json`, and the review's JSON): a versioned shape,
// docs/TRIGGER-FILES.md "What a change does to the pages". Times in ISO 8601 UTC; a version the change has
// not (the service's of a create, the file's of a delete) is null.
import type { NoiseDiffEntry, NoiseSide, SideTests } from '../backtest/noiseDiff';
import { sentBy } from '../backtest/noiseDiff';

const NOISE_DIFF_FORMAT = 'obs-noise-diff';
const NOISE_DIFF_VERSION = 1;

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export type ChangeKind = 'quieter' | 'noisier' | 'same' | 'not-evaluated';

/** Notifications with the file's version less those with the service's (a side the change has not is 0). */
function changeOf(e: NoiseDiffEntry): number | undefined {
  const was = sentBy(e.was);
  const now = sentBy(e.wouldBe);
  return was === undefined || now === undefined ? undefined : now - was;
}

export function kindOf(e: NoiseDiffEntry): ChangeKind {
  const change = changeOf(e);
  return change === undefined ? 'not-evaluated' : change < 0 ? 'quieter' : change > 0 ? 'noisier' : 'same';
}

function sideJson(side: NoiseSide | undefined): Record<string, unknown> | null {
  if (side === undefined) return null;
  if (side.kind === 'skipped') return { status: 'not-evaluated', reason: side.reason };
  const c = side.counts;
  return {
    status: 'evaluated',
    threshold: { op: side.rules.op, value: side.rules.value },
    exceeded_limit: side.rules.exceededLimit,
    alert_type: side.rules.alertType,
    frequency: side.rules.frequency,
    from: iso(side.from),
    to: iso(side.to),
    notifications: c.notifications,
    resolves: c.resolves,
    firings: c.firings,
    flaps: c.flaps,
    evaluations: c.evaluated,
    per_day: c.perDay,
    first: side.first === undefined ? null : iso(side.first),
    last: side.last === undefined ? null : iso(side.last),
    groups:
      side.groups === undefined
        ? null
        : {
            count: side.groups.count,
            top: side.groups.top.map((g) => ({ group: g.label, notifications: g.notifications })),
          },
    estimated: !c.exact,
    notes: side.notes,
  };
}

function testsJson(t: SideTests | undefined): Record<string, unknown> | null {
  if (t === undefined) return null;
  return {
    passed: t.tally.passed,
    failed: t.tally.failed,
    not_testable: t.tally['not-testable'],
    error: t.tally.error,
    not_passed: t.notPassed.map((p) => ({ file: p.file, name: p.name, status: p.status, message: p.message })),
  };
}

function noiseDiffEntryJson(e: NoiseDiffEntry): Record<string, unknown> {
  return {
    action: e.action,
    file: e.action === 'delete' ? null : e.label,
    name: e.name,
    dataset: e.dataset,
    kind: kindOf(e),
    change: changeOf(e) ?? null,
    was: sideJson(e.was),
    would_be: sideJson(e.wouldBe),
    tests: {
      files: e.testFiles,
      not_run: e.testsNotRun ?? null,
      was: testsJson(e.testsWas),
      would_be: testsJson(e.testsWouldBe),
    },
  };
}

/** The whole diff: its window in days, how many changes of each kind, and each change in the order given. */
export function noiseDiffJson(entries: readonly NoiseDiffEntry[], options: { days: number }): Record<string, unknown> {
  const count = (k: ChangeKind) => entries.filter((e) => kindOf(e) === k).length;
  return {
    format: NOISE_DIFF_FORMAT,
    version: NOISE_DIFF_VERSION,
    days: options.days,
    quieter: count('quieter'),
    noisier: count('noisier'),
    same: count('same'),
    not_evaluated: count('not-evaluated'),
    changes: entries.map(noiseDiffEntryJson),
  };
}
