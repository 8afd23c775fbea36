// The text report of `obs test`: per test file its trigger, then one line per expectation (status, name,
// what happened), its notes below it, and a last line counting them. Whatever comes from files or the
// service is printed escaped (visible.ts).
import type { ExpectationOutcome, ExpectationStatus, Tally } from '../backtest';
import { tally } from '../backtest';
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
}

const WORDS: Record<ExpectationStatus, string> = { passed: 'passed', failed: 'FAILED', 'not-testable': 'NOT TESTABLE', error: 'ERROR' };
const WIDTH = 14;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** Counts over every file: expectations by status, a file that could not be read counting as one error. */
export function totals(reports: readonly TestFileReport[]): Tally & { expectations: number } {
  const t = tally(reports.flatMap((r) => r.outcomes));
  t.error += reports.filter((r) => r.problems.length > 0).length;
  return { ...t, expectations: t.passed + t.failed + t['not-testable'] + t.error };
}

export function summaryLine(reports: readonly TestFileReport[]): string {
  const t = totals(reports);
  return `${plural(t.expectations, 'expectation', 'expectations')} in ${plural(reports.length, 'file', 'files')}: ${t.passed} passed, ${t.failed} failed, ${t['not-testable']} not testable, ${plural(t.error, 'error', 'errors')}`;
}

function fileText(r: TestFileReport): string {
  const head = r.trigger ? `${r.file}: "${r.trigger.name}" (${r.trigger.file}) on ${r.trigger.dataset}` : `${r.file}:`;
  const lines = [visible(head)];
  for (const p of r.problems) lines.push(`  ${WORDS.error.padEnd(WIDTH)}${visible(p)}`);
  for (const o of r.outcomes) {
    lines.push(`  ${WORDS[o.status].padEnd(WIDTH)}${visible(`${o.name}: ${o.message}`)}`);
    for (const n of o.notes) lines.push(`  ${''.padEnd(WIDTH)}${visible(`note: ${n}`)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function testText(reports: readonly TestFileReport[]): string {
  return `${reports.map(fileText).join('\n')}\n${summaryLine(reports)}\n`;
}
