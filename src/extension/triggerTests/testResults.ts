// An expectation's outcome as the Test Explorer shows it: passed, failed with what was expected and what
// happened (a diff of the two), failed too for a window the service no longer keeps (with the reason: one
// verdict with `obs test`, which exits 1, and its JUnit report, a <failure>), errored when it could not be
// evaluated; the notes after the sentence, and a line for the run's output.
// No vscode import.
import type { ExpectationOutcome } from '../../backtest';
import * as l10n from '@vscode/l10n';

export type TestResultView =
  | { state: 'passed'; line: string }
  | { state: 'failed'; message: string; expected?: string; actual?: string; line: string }
  | { state: 'errored'; message: string; line: string };

const withNotes = (text: string, notes: readonly string[]): string =>
  [text, ...notes.map((n) => l10n.t('Note: {0}', n))].join('\n');

export function resultView(o: ExpectationOutcome): TestResultView {
  const message = withNotes(o.message, o.notes);
  switch (o.status) {
    case 'passed':
      return { state: 'passed', line: l10n.t('passed  {0}: {1}', o.name, message) };
    case 'failed':
      return {
        state: 'failed',
        message,
        ...(o.expected !== undefined ? { expected: o.expected } : {}),
        ...(o.actual !== undefined ? { actual: o.actual } : {}),
        line: l10n.t('FAILED  {0}: {1}', o.name, message),
      };
    case 'not-testable':
      return {
        state: 'failed',
        message: l10n.t('Not testable: {0}', message),
        line: l10n.t('NOT TESTABLE  {0}: {1}', o.name, message),
      };
    case 'error':
      return { state: 'errored', message, line: l10n.t('ERROR  {0}: {1}', o.name, message) };
  }
}

/** The sentence every test of a run without a connection gets. */
export function noConnectionText(): string {
  return l10n.t(
    'There is no connection: trigger tests run against the service. Add a connection or start the local sandbox (Observability view), then run them again.',
  );
}
