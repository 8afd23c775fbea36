// The JUnit XML report of `obs test`, the format CI systems show test results in: a <testsuite> per test
// file, a <testcase> per expectation, <failure message> with what was expected and what happened,
// <error message> for what could not run. A window the service no longer keeps is a <failure> too, unless
// --allow-not-testable makes it a <skipped>: the counts are those of the exit status (testReport.ts), so a
// dashboard never shows green while the job is red.
//
// It is valid against both schemas CI tools read it with: Jenkins' junit-10.xsd and Ant's JUnit schema (the
// "JUnit.xsd" most tools cite). What they allow together shapes it: <testsuites> carries no attribute (Ant's
// has none; Jenkins' has no `skipped`), each <testsuite> has `id`, `package`, `timestamp` (UTC, without a
// zone, as Ant's requires) and `hostname`, then <properties>, its test cases, <system-out> and <system-err>
// in that order; a <testcase> holds at most one of <failure>, <error> or <skipped> and no output of its own
// (Ant's allows none there), so what each expectation did is in its suite's <system-out>, as the text report
// says it. test/unit/junitSchemas.ts holds the rules of both schemas that this relies on.
//
// Text from files and the service is made visible first (visible.ts: no control or invisible character,
// none of which XML 1.0 allows either), then escaped for XML.
import type { ExpectationOutcome } from '../backtest';
import { fileText, type TestFileReport, type TestRunReport } from './testReport';
import { visible } from './visible';

/** What the report says of where and when it ran, besides the run itself. */
export interface JunitRun extends TestRunReport {
  /** The computer it ran on ('localhost' when it has no name, as Ant's schema asks). */
  hostname: string;
  /** When the run started, in milliseconds since the epoch (the suite of the run's own problems). */
  startedAt: number;
}

/** Text for an XML attribute or element: visible, then `&`, `<`, `>`, `"`, `'` and the `[` of `##[` escaped; noncharacters shown as escapes. */
export function xmlText(text: string): string {
  return (
    visible(text)
      .replace(/[\uFFFE\uFFFF]/g, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
      // GitHub's runner reads `##[` anywhere in a line of a step's log as a command: the bracket as a reference.
      .replace(/##\[/g, '##&#91;')
  );
}

const seconds = (s: number) => (Number.isFinite(s) && s > 0 ? s.toFixed(3) : '0.000');
/** `2025-06-02T09:10:00`: UTC, to the second, without a zone (Ant's schema refuses one). */
const timestamp = (ms: number) => new Date(ms).toISOString().slice(0, 19);
/** The folder of a test file, as its suite's package ("." for the current folder). */
const packageOf = (file: string) => file.split(/[\\/]/).slice(0, -1).join('/') || '.';

/** The body of a failure: expected, actual and the notes, one per line (the lines are ours; each part is escaped). */
function detail(o: ExpectationOutcome): string {
  const lines = [
    o.expected === undefined ? undefined : `expected: ${o.expected}`,
    o.actual === undefined ? undefined : `actual: ${o.actual}`,
    ...o.notes.map((n) => `note: ${n}`),
  ];
  return lines
    .filter((l): l is string => l !== undefined)
    .map(xmlText)
    .join('\n');
}

/** The one element inside a test case that did not pass; none for a pass. */
function verdict(o: ExpectationOutcome, allowNotTestable: boolean): string | undefined {
  switch (o.status) {
    case 'passed':
      return undefined;
    case 'failed':
      return `<failure message="${xmlText(o.message)}" type="expectation">${detail(o)}</failure>`;
    case 'not-testable':
      if (allowNotTestable) return `<skipped message="${xmlText(`not testable: ${o.message}`)}"/>`;
      return `<failure message="${xmlText(`not testable: ${o.message}`)}" type="not testable">${detail(o)}</failure>`;
    case 'error':
      return `<error message="${xmlText(o.message)}" type="error"/>`;
  }
}

function testcase(classname: string, name: string, time: number, inside: string | undefined): string {
  const open = `    <testcase classname="${xmlText(classname)}" name="${xmlText(name)}" time="${seconds(time)}"`;
  return inside === undefined ? `${open}/>` : `${open}>\n      ${inside}\n    </testcase>`;
}

interface Suite {
  name: string;
  package: string;
  startedAt: number;
  seconds: number;
  properties: [string, string][];
  cases: {
    name: string;
    time: number;
    inside: string | undefined;
    counts: 'passed' | 'failure' | 'error' | 'skipped';
  }[];
  out: string;
}

function suiteXml(s: Suite, id: number, hostname: string): string {
  const count = (c: Suite['cases'][number]['counts']) => s.cases.filter((x) => x.counts === c).length;
  const attributes = `id="${id}" package="${xmlText(s.package)}" name="${xmlText(s.name)}" timestamp="${timestamp(s.startedAt)}" hostname="${xmlText(hostname)}"`;
  const lines = [
    `  <testsuite ${attributes} tests="${s.cases.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${seconds(s.seconds)}">`,
  ];
  lines.push(
    s.properties.length === 0
      ? '    <properties/>'
      : [
          '    <properties>',
          ...s.properties.map(([n, v]) => `      <property name="${xmlText(n)}" value="${xmlText(v)}"/>`),
          '    </properties>',
        ].join('\n'),
  );
  for (const c of s.cases) lines.push(testcase(s.name, c.name, c.time, c.inside));
  lines.push(
    s.out === '' ? '    <system-out/>' : `    <system-out>${s.out.split('\n').map(xmlText).join('\n')}</system-out>`,
    '    <system-err/>',
    '  </testsuite>',
  );
  return lines.join('\n');
}

const COUNTS = { passed: 'passed', failed: 'failure', error: 'error' } as const;

function fileSuite(r: TestFileReport, allowNotTestable: boolean): Suite {
  const cases: Suite['cases'] = [];
  // A file that could not be read is one test case in error, so that CI shows it.
  if (r.problems.length > 0)
    cases.push({
      name: '(the test file)',
      time: 0,
      inside: `<error message="${xmlText(r.problems.join('; '))}" type="unreadable test file"/>`,
      counts: 'error',
    });
  r.outcomes.forEach((o, i) => {
    const counts = o.status === 'not-testable' ? (allowNotTestable ? 'skipped' : 'failure') : COUNTS[o.status];
    cases.push({ name: o.name, time: r.seconds[i] ?? 0, inside: verdict(o, allowNotTestable), counts });
  });
  const properties: [string, string][] = r.trigger
    ? [
        ['trigger', r.trigger.name],
        ['trigger file', r.trigger.file],
        ['dataset', r.trigger.dataset],
      ]
    : [];
  return {
    name: r.file,
    package: packageOf(r.file),
    startedAt: r.startedAt,
    seconds: r.totalSeconds,
    properties,
    cases,
    out: fileText(r).replace(/\n$/, ''),
  };
}

/** The run's own problems (a path refused, an interrupt) as one test case in error, so that CI shows them. */
function runSuite(run: JunitRun): Suite {
  const inside = `<error message="${xmlText(run.problems.join('; '))}" type="run"/>`;
  return {
    name: 'obs test',
    package: '.',
    startedAt: run.startedAt,
    seconds: 0,
    properties: [],
    cases: [{ name: '(the run)', time: 0, inside, counts: 'error' }],
    out: '',
  };
}

export function testJunit(run: JunitRun): string {
  const hostname = run.hostname.trim() === '' ? 'localhost' : run.hostname;
  const suites = run.files.map((r) => fileSuite(r, run.allowNotTestable));
  if (run.problems.length > 0) suites.push(runSuite(run));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites>',
    ...suites.map((s, i) => suiteXml(s, i, hostname)),
    '</testsuites>',
    '',
  ].join('\n');
}
