// The JUnit XML report of `obs test`, the format CI systems show test results in: a <testsuite> per test
// file, a <testcase> per expectation, <failure message> with what was expected and what happened,
// <skipped message> for a window the service no longer keeps, <error message> for what could not run.
// Text from files and the service is made visible first (visible.ts: no control or invisible character,
// none of which XML 1.0 allows either), then escaped for XML.
import type { ExpectationOutcome } from '../backtest';
import { tally } from '../backtest';
import { totals, type TestFileReport } from './testReport';
import { visible } from './visible';

/** Text for an XML attribute or element: visible, then `&`, `<`, `>`, `"` and `'` escaped; noncharacters shown as escapes. */
export function xmlText(text: string): string {
  return visible(text)
    .replace(/[\uFFFE\uFFFF]/g, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const seconds = (s: number) => (Number.isFinite(s) && s > 0 ? s.toFixed(3) : '0.000');

/** The body of a failure: expected, actual and the notes, one per line (the lines are ours; each part is escaped). */
function detail(o: ExpectationOutcome): string {
  const lines = [o.expected === undefined ? undefined : `expected: ${o.expected}`, o.actual === undefined ? undefined : `actual: ${o.actual}`, ...o.notes.map((n) => `note: ${n}`)];
  return lines
    .filter((l): l is string => l !== undefined)
    .map(xmlText)
    .join('\n');
}

function testcase(r: TestFileReport, o: ExpectationOutcome, time: number): string {
  const open = `    <testcase classname="${xmlText(r.file)}" name="${xmlText(o.name)}" time="${seconds(time)}"`;
  switch (o.status) {
    case 'passed': {
      const more = detail(o);
      return `${open}>\n      <system-out>${xmlText(o.message)}${more === '' ? '' : `\n${more}`}</system-out>\n    </testcase>`;
    }
    case 'failed':
      return `${open}>\n      <failure message="${xmlText(o.message)}" type="expectation">${detail(o)}</failure>\n    </testcase>`;
    case 'not-testable':
      return `${open}>\n      <skipped message="${xmlText(`not testable: ${o.message}`)}"/>\n    </testcase>`;
    case 'error':
      return `${open}>\n      <error message="${xmlText(o.message)}" type="error"/>\n    </testcase>`;
  }
}

function testsuite(r: TestFileReport): string {
  const t = tally(r.outcomes);
  const errors = t.error + (r.problems.length > 0 ? 1 : 0);
  const tests = r.outcomes.length + (r.problems.length > 0 ? 1 : 0);
  const lines = [`  <testsuite name="${xmlText(r.file)}" tests="${tests}" failures="${t.failed}" errors="${errors}" skipped="${t['not-testable']}" time="${seconds(r.totalSeconds)}">`];
  if (r.trigger) {
    lines.push('    <properties>');
    lines.push(`      <property name="trigger" value="${xmlText(r.trigger.name)}"/>`);
    lines.push(`      <property name="trigger file" value="${xmlText(r.trigger.file)}"/>`);
    lines.push(`      <property name="dataset" value="${xmlText(r.trigger.dataset)}"/>`);
    lines.push('    </properties>');
  }
  // A file that could not be read is one test case in error, so that CI shows it.
  if (r.problems.length > 0) lines.push(`    <testcase classname="${xmlText(r.file)}" name="${xmlText('(the test file)')}" time="0.000">\n      <error message="${xmlText(r.problems.join('; '))}" type="unreadable test file"/>\n    </testcase>`);
  r.outcomes.forEach((o, i) => lines.push(testcase(r, o, r.seconds[i] ?? 0)));
  lines.push('  </testsuite>');
  return lines.join('\n');
}

export function testJunit(reports: readonly TestFileReport[]): string {
  const t = totals(reports);
  const time = reports.reduce((s, r) => s + r.totalSeconds, 0);
  const head = `<testsuites name="obs test" tests="${t.expectations}" failures="${t.failed}" errors="${t.error}" skipped="${t['not-testable']}" time="${seconds(time)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...reports.map(testsuite), '</testsuites>', ''].join('\n');
}
