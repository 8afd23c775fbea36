// The text report of `obs test`: per test file its trigger, then one line per expectation (status, name,
// what happened), its notes below it, and a last line counting them. Whatever comes from files or the
// service is printed escaped (visible.ts). Also the exit status, which the JUnit report's counts agree with.
import type { ExpectationOutcome, ExpectationStatus, Tally } from '../backtest';
import { tally } from '../backtest';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE } from './io';
import type { TextRange } from './jsonPlace';
import { visible } from './visible';

/** One test file as `obs test` ran it. */
export interface TestFileReport {
  /** As named on the command line. */
  file: string;
  trigger?: { name: string; dataset: string; file: string } | undefined;
  /** Why none of its expectations ran: the file could not be read, or does not hold a valid test file. */
  problems: string[];
  outcomes: ExpectationOutcome[];
  /** Seconds each outcome took (in the order of `outcomes`), and the whole file. */
  seconds: number[];
  totalSeconds: number;
  /** When the file's run started, in milliseconds since the epoch. */
  startedAt: number;
  /** Where each expectation lies in the test file, by its place in `expectations` (GitHub annotations point there). */
  places?: readonly (TextRange | undefined)[];
}

/** A whole run: its files, what it could not run, and how a window older than the service keeps counts. */
export interface TestRunReport {
  files: readonly TestFileReport[];
  /**
   * What went wrong outside any file: a path the command line named that was refused or named nothing, and
   * an interrupt that left expectations unrun. Each is an error of the run.
   */
  problems: readonly string[];
  /** --allow-not-testable: a not-testable expectation is skipped, and fails nothing. */
  allowNotTestable: boolean;
}

/** Each status as the reports write it. */
export const STATUS_WORDS: Record<ExpectationStatus, string> = {
  passed: 'passed',
  failed: 'FAILED',
  'not-testable': 'NOT TESTABLE',
  error: 'ERROR',
};
const WIDTH = 14;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** Counts over every file: expectations by status, a file that could not be read counting as one error. */
function totals(reports: readonly TestFileReport[]): Tally & { expectations: number } {
  const t = tally(reports.flatMap((r) => r.outcomes));
  t.error += reports.filter((r) => r.problems.length > 0).length;
  return { ...t, expectations: t.passed + t.failed + t['not-testable'] + t.error };
}

/**
 * 0 every expectation passed (not-testable ones too, when allowed); 1 one failed or is not testable; 2 the run
 * had trouble (an error of a file or of the run). The JUnit report counts the same: a failure for each 1, an
 * error for each 2, so a dashboard never shows green while the job is red.
 */
export function exitStatus(run: TestRunReport): number {
  const t = totals(run.files);
  if (run.problems.length > 0 || t.error > 0) return EXIT_TROUBLE;
  return t.failed + (run.allowNotTestable ? 0 : t['not-testable']) > 0 ? EXIT_FOUND : EXIT_OK;
}

export function summaryLine(reports: readonly TestFileReport[], allowNotTestable = false): string {
  const t = totals(reports);
  const notTestable = `${t['not-testable']} not testable${allowNotTestable && t['not-testable'] > 0 ? ' (skipped: --allow-not-testable)' : ''}`;
  return `${plural(t.expectations, 'expectation', 'expectations')} in ${plural(reports.length, 'file', 'files')}: ${t.passed} passed, ${t.failed} failed, ${notTestable}, ${plural(t.error, 'error', 'errors')}`;
}

/** The line naming a test file in the reports: the file, and the trigger it tests when it was read. */
export function fileHeading(r: TestFileReport): string {
  return r.trigger ? `${r.file}: "${r.trigger.name}" (${r.trigger.file}) on ${r.trigger.dataset}` : `${r.file}:`;
}

/** A file's part of the text report, with the line naming it. */
export function fileText(r: TestFileReport): string {
  const lines = [visible(fileHeading(r))];
  for (const p of r.problems) lines.push(`  ${STATUS_WORDS.error.padEnd(WIDTH)}${visible(p)}`);
  for (const o of r.outcomes) {
    lines.push(`  ${STATUS_WORDS[o.status].padEnd(WIDTH)}${visible(`${o.name}: ${o.message}`)}`);
    for (const n of o.notes) lines.push(`  ${''.padEnd(WIDTH)}${visible(`note: ${n}`)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function testText(reports: readonly TestFileReport[], allowNotTestable = false): string {
  return `${reports.map(fileText).join('\n')}\n${summaryLine(reports, allowNotTestable)}\n`;
}
