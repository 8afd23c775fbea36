// `obs test --reporter github`: an annotation for each expectation that did not pass, on its object in the test
// file: FAILED and ERROR as errors, NOT TESTABLE as a warning (a notice with --allow-not-testable, which skips
// it); a test file that could not be run is an error on the file, a problem of the run an error on none.
import type { ExpectationOutcome, ExpectationStatus } from '../backtest';
import type { Annotation, AnnotationLevel } from './github/report';
import { jsonLocator, type TextRange } from './jsonPlace';
import { STATUS_WORDS, type TestFileReport, type TestRunReport } from './testReport';

function level(status: Exclude<ExpectationStatus, 'passed'>, allowNotTestable: boolean): AnnotationLevel {
  if (status !== 'not-testable') return 'error';
  return allowNotTestable ? 'notice' : 'warning';
}

function outcomeAnnotation(r: TestFileReport, o: ExpectationOutcome, allowNotTestable: boolean): Annotation[] {
  if (o.status === 'passed') return [];
  const place = r.places?.[o.index];
  return [
    {
      level: level(o.status, allowNotTestable),
      title: `obs test: ${STATUS_WORDS[o.status]}`,
      lines: [`${o.name}: ${o.message}`, ...o.notes.map((n) => `note: ${n}`)],
      file: r.file,
      ...(place === undefined ? {} : { range: place }),
    },
  ];
}

function fileAnnotations(r: TestFileReport, allowNotTestable: boolean): Annotation[] {
  const problems = r.problems.map(
    (p): Annotation => ({ level: 'error', title: `obs test: ${STATUS_WORDS.error}`, lines: [p], file: r.file }),
  );
  return [...problems, ...r.outcomes.flatMap((o) => outcomeAnnotation(r, o, allowNotTestable))];
}

export function testAnnotations(run: TestRunReport): Annotation[] {
  const problems = run.problems.map((p): Annotation => ({ level: 'error', title: 'obs test', lines: [p] }));
  return [...problems, ...run.files.flatMap((r) => fileAnnotations(r, run.allowNotTestable))];
}

/** Where each of a test file's `count` expectations lies in its text. */
export function expectationPlaces(text: string, count: number): (TextRange | undefined)[] {
  // A byte order mark is not a character of the first line, as editors show it.
  const locate = jsonLocator(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return Array.from({ length: count }, (_, i) => locate(['expectations', i]));
}
