// What `obs review` found, as one value: the lint of the files checked, the plan (its changes split by whether
// the change under review makes them), the trigger tests, and the counts its first line and exit status come
// from. The JSON output is this value; the Markdown report is made from it (reviewMarkdown.ts).
import type { NoiseDiffEntry } from '../backtest/noiseDiff';
import { identities, type Plan, type PlannedChange } from '../triggerFiles';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE } from './io';
import type { Diagnostic } from '../lint/types';
import type { FileReport } from './lintSarif';
import { exitStatus, type TestFileReport } from './testReport';

export type FailOn = 'error' | 'warning';

export interface ReviewReport {
  format: 'obs-review';
  version: 1;
  /** With --env: the environment the files were linted, planned and tested for, as it sees them. */
  environment?: string;
  /** With --changed-since: the ref, the commit compared with, and the files the change touches. */
  changedSince?: { ref: string; base: string; changed: string[]; deleted: string[] };
  lint: FileReport[];
  /**
   * With --changed-since: the lines of each linted file the change adds or edits ('whole' for a new file), so a
   * reviewer reads the findings on them first; absent when git could not tell (every finding is then shown).
   */
  changedLines?: Record<string, number[] | 'whole'>;
  /** Undefined when no plan could be made (the reason is among `problems`). */
  plan?: Plan;
  /**
   * The plan's changes (indexes into plan.changes) that the change under review makes: of a file it touches, or a
   * delete of a trigger a file it deleted held. The others are differences already between the service and the
   * files: an apply after the merge would make them too.
   */
  fromChange: number[];
  /** What the change's own changes would have notified over the last days, each version; none with --no-noise. */
  noise?: { days: number; entries: NoiseDiffEntry[] };
  tests: { files: TestFileReport[]; problems: string[] };
  /** What kept the review from checking everything: each also said on stderr. */
  problems: string[];
}

export interface ReviewCounts {
  changes: number;
  otherChanges: number;
  blocked: number;
  errors: number;
  warnings: number;
  testsFailed: number;
  testsPassed: number;
}

export function reviewCounts(r: ReviewReport): ReviewCounts {
  const diagnostics = r.lint.flatMap((f) => f.diagnostics);
  const outcomes = r.tests.files.flatMap((f) => f.outcomes);
  const changes = r.fromChange.length;
  return {
    changes,
    otherChanges: (r.plan?.changes.length ?? 0) - changes,
    blocked: r.plan?.blocked.length ?? 0,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    testsFailed: outcomes.filter((o) => o.status !== 'passed').length,
    testsPassed: outcomes.filter((o) => o.status === 'passed').length,
  };
}

/**
 * 2 when the review could not check everything (a file or the service unreadable, a test that errored); 1 when
 * the change needs work: a lint finding at --fail-on, a trigger the plan blocks, a test that fails or cannot be
 * tested; else 0. Planned changes alone are what a pull request is for: never a failure.
 */
export function reviewExit(r: ReviewReport, failOn: FailOn): number {
  const tests = exitStatus({ files: r.tests.files, problems: r.tests.problems, allowNotTestable: false });
  if (r.problems.length > 0 || r.plan === undefined || r.lint.some((f) => f.error !== undefined)) return EXIT_TROUBLE;
  if (tests === EXIT_TROUBLE) return EXIT_TROUBLE;
  const c = reviewCounts(r);
  const findings = c.errors + (failOn === 'warning' ? c.warnings : 0) + c.blocked;
  return findings > 0 || tests === EXIT_FOUND ? EXIT_FOUND : EXIT_OK;
}

/** Nothing worth a comment: no change planned from the files under review, no finding, no test run. */
export function saysNothing(r: ReviewReport): boolean {
  const c = reviewCounts(r);
  return c.changes + c.blocked + c.errors + c.warnings + c.testsFailed + c.testsPassed === 0 && r.problems.length === 0;
}

/** Whether a planned change is the change's own: a file it touches, or a delete of a trigger a file it deleted held. */
export function isFromChange(
  c: PlannedChange,
  touches: (file: string) => boolean,
  deletedTriggers: ReadonlySet<string>,
): boolean {
  if (c.action !== 'delete') return touches(c.file);
  return identities(c).some((k) => deletedTriggers.has(k));
}

/** Whether a finding touches a line the change adds or edits (every finding does without line information). */
export function onChangedLine(r: ReviewReport, file: string, d: Diagnostic): boolean {
  const lines = r.changedLines?.[file];
  if (r.changedLines === undefined || lines === 'whole') return true;
  if (lines === undefined) return false;
  return lines.some((n) => n >= d.range.start.line + 1 && n <= d.range.end.line + 1);
}
