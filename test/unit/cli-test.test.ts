// obs test against the sandbox: the demo's test file in text and JUnit XML, --out, each exit status (0 all
// passed, 1 failed or not testable, 2 trouble), broken files named, hostile names escaped, and test files
// kept beside trigger files never read as trigger files by lint, drift or plan.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runMain } from '../../src/cli/main';
import { onceEachWait } from '../../src/cli/test';
import { xmlText } from '../../src/cli/testJunit';
import { ANT_JUNIT, elementsNamed, JENKINS_JUNIT_10, readXml, violations } from './junitSchemas';
import { DEMO_TESTS as TESTS, DEMO_TRIGGER as TRIGGER, demoFolder } from './demo-folder';

const demo = demoFolder('obs-test-');
const { run } = demo;

const writeTests = (value: unknown, name = TESTS) =>
  writeFileSync(join(demo.dir, name), typeof value === 'string' ? value : JSON.stringify(value));
/** Times of day and durations vary with the time the suite runs: the rest of the report is exact. */
const TIME =
  /\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})? UTC|\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?= and)|(?<=and )\d{2}:\d{2} UTC/g;
/** How many times the demo trigger fired in the last 24 h depends on when that is (1 or more): counts become N. */
const stable = (text: string) =>
  text
    .replace(TIME, '<time>')
    .replace(/time="\d+\.\d{3}"/g, 'time="<s>"')
    .replace(
      /fired \d+ times?|sent \d+ notifications?|(?<!least )\d+ firings?(?=,| \(|<|\n)|\d+ notifications? \(/g,
      (m) => m.replace(/\d+/, 'N').replace(/(time|firing|notification)s?/, '$1s'),
    );

describe('the demo test file', () => {
  test('text: one line per expectation and a count; exit 1 for the failing one', async () => {
    const r = await run(['test']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(
      stable(r.stdout),
      [
        `${TESTS}: "High error rate" (${TRIGGER}) on api-gateway`,
        '  passed        catches the error bursts of the last day: fired N times between <time> and <time>, first at <time>',
        '  passed        pages at most 10 times a day: sent N notifications (on_change) between <time> and <time>; at most 10 allowed',
        '  FAILED        stays quiet for a whole day: fired N times between <time> and <time>, first at <time>; expected none',
        '',
        '3 expectations in 1 file: 2 passed, 1 failed, 0 not testable, 0 errors',
        '',
      ].join('\n'),
      r.stdout,
    );
  });

  test('JUnit XML: a testsuite per file with where and when it ran, a testcase per expectation, the failure with expected and actual', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const r = await run(['test', '--reporter', 'junit', TESTS]);
    const after = Date.now();
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      stable(r.stdout).replace(/ timestamp="[^"]*"/, ' timestamp="<when>"'),
      `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite id="0" package="triggers/api-gateway" name="${TESTS}" timestamp="<when>" hostname="${xmlText(hostname())}" tests="3" failures="1" errors="0" skipped="0" time="<s>">
    <properties>
      <property name="trigger" value="High error rate"/>
      <property name="trigger file" value="${TRIGGER}"/>
      <property name="dataset" value="api-gateway"/>
    </properties>
    <testcase classname="${TESTS}" name="catches the error bursts of the last day" time="<s>"/>
    <testcase classname="${TESTS}" name="pages at most 10 times a day" time="<s>"/>
    <testcase classname="${TESTS}" name="stays quiet for a whole day" time="<s>">
      <failure message="fired N times between <time> and <time>, first at <time>; expected none" type="expectation">expected: no firing
actual: N firings, first at <time></failure>
    </testcase>
    <system-out>${TESTS}: &quot;High error rate&quot; (${TRIGGER}) on api-gateway
  passed        catches the error bursts of the last day: fired N times between <time> and <time>, first at <time>
  passed        pages at most 10 times a day: sent N notifications (on_change) between <time> and <time>; at most 10 allowed
  FAILED        stays quiet for a whole day: fired N times between <time> and <time>, first at <time>; expected none</system-out>
    <system-err/>
  </testsuite>
</testsuites>
`,
    );
    // When the file ran, in UTC to the second and without a zone (Ant's schema refuses one).
    const when = /timestamp="(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})"/.exec(r.stdout)?.[1] ?? '';
    const ran = Date.parse(`${when}Z`);
    assert.ok(
      ran >= before && ran <= after,
      `${when} is not between ${new Date(before).toISOString()} and ${new Date(after).toISOString()}`,
    );
  });

  test('--out writes the JUnit report whole to the file; the text report still goes to the standard output', async () => {
    const r = await run(['test', '--reporter', 'junit', '--out', 'junit.xml']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^triggers\/api-gateway\/High-error-rate\.trigger-test\.json: "High error rate"/);
    assert.match(
      readFileSync(join(demo.dir, 'junit.xml'), 'utf8'),
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites>\n {2}<testsuite id="0" [^\n]* tests="3" failures="1" /,
    );
  });
});

describe('exit status', () => {
  test('0 when every expectation passed', async () => {
    const tests = JSON.parse(readFileSync(join(demo.dir, TESTS), 'utf8')) as { expectations: unknown[] };
    writeTests({ expectations: tests.expectations.slice(0, 2) });
    const r = await run(['test']);
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /\n2 expectations in 1 file: 2 passed, 0 failed, 0 not testable, 0 errors\n$/);
  });

  test('1 for a window older than the service keeps: NOT TESTABLE, a <failure> in JUnit with the reason', async () => {
    writeTests({ expectations: [{ name: 'last week', expect: 'fires', from: 'now-8d', to: 'now-7d' }] });
    const text = await run(['test']);
    assert.equal(text.code, 1);
    assert.match(
      text.stdout,
      /\n {2}NOT TESTABLE {2}last week: the service keeps query results for 7 days, and this window needs data from [^;]+; the earliest window testable now starts at [^\n]+\n/,
    );
    assert.match(text.stdout, /\n1 expectation in 1 file: 0 passed, 0 failed, 1 not testable, 0 errors\n$/);
    const junit = await run(['test', '--reporter', 'junit']);
    assert.equal(junit.code, 1);
    assert.match(junit.stdout, / tests="1" failures="1" errors="0" skipped="0" /);
    assert.match(
      junit.stdout,
      /\n {6}<failure message="not testable: the service keeps query results for 7 days, and this window needs data from [^"]+" type="not testable"><\/failure>\n/,
    );
  });

  test('0 for a window older than the service keeps with --allow-not-testable: skipped, a <skipped> case in JUnit with the reason', async () => {
    writeTests({ expectations: [{ name: 'last week', expect: 'fires', from: 'now-8d', to: 'now-7d' }] });
    const text = await run(['test', '--allow-not-testable']);
    assert.equal(text.code, 0);
    assert.match(
      text.stdout,
      /\n1 expectation in 1 file: 0 passed, 0 failed, 1 not testable \(skipped: --allow-not-testable\), 0 errors\n$/,
    );
    const junit = await run(['test', '--reporter', 'junit', '--allow-not-testable']);
    assert.equal(junit.code, 0);
    assert.match(junit.stdout, / tests="1" failures="0" errors="0" skipped="1" /);
    assert.match(
      junit.stdout,
      /\n {6}<skipped message="not testable: the service keeps query results for 7 days, and this window needs data from [^"]+"\/>\n/,
    );
  });

  test('2 for a count of notifications past the largest whole number: worded as a number, not a length', async () => {
    writeTests({
      expectations: [{ name: 'quiet', expect: 'at-most', notifications: 1e308, from: 'now-2h', to: 'now' }],
    });
    const r = await run(['test']);
    assert.deepEqual(
      [r.code, r.stdout.split('\n')[1]],
      [2, '  ERROR         expectations[0].notifications must be a whole number of at most 9007199254740991'],
    );
  });

  test('2 for a test file that is not valid, each problem named; JUnit shows it as a case in error', async () => {
    writeTests({ expectations: [{ name: 'a', expect: 'fires', from: 'yesterday', to: 'now' }], trigers: 'x.json' });
    const text = await run(['test']);
    assert.equal(text.code, 2);
    assert.equal(
      text.stdout,
      [
        `${TESTS}:`,
        '  ERROR         expectations[0].from must be an ISO 8601 time in UTC ("2025-06-02T09:10:00Z") or a time relative to the run ("now", "now-2h", "now-1d12h", "now-90m")',
        '  ERROR         the file has "trigers" that a trigger test file does not have (its members: $schema, trigger, dataset, expectations)',
        '',
        '1 expectation in 1 file: 0 passed, 0 failed, 0 not testable, 1 error',
        '',
      ].join('\n'),
    );
    const junit = await run(['test', '--reporter', 'junit']);
    assert.match(
      junit.stdout,
      /<testcase classname="[^"]+" name="\(the test file\)" time="0\.000">\n {6}<error message="expectations\[0\]\.from must be an ISO 8601 time in UTC \(&quot;2025-06-02T09:10:00Z&quot;\)/,
    );
  });

  test('2 for a test file that is not UTF-8: said, never read with replacement characters', async () => {
    writeFileSync(join(demo.dir, TESTS), Buffer.from([0x7b, 0xff, 0x7d]));
    const r = await run(['test']);
    assert.equal(r.code, 2);
    assert.equal(
      r.stdout,
      `${TESTS}:\n  ERROR         cannot read ${TESTS}: the file is not UTF-8\n\n1 expectation in 1 file: 0 passed, 0 failed, 0 not testable, 1 error\n`,
    );
  });

  test('2 when the trigger file is missing: each expectation is an error naming it', async () => {
    rmSync(join(demo.dir, TRIGGER));
    const r = await run(['test']);
    assert.equal(r.code, 2);
    assert.match(
      r.stdout,
      /\n {2}ERROR {9}catches the error bursts of the last day: cannot read triggers\/api-gateway\/High-error-rate\.trigger\.json: no such file\n/,
    );
  });

  test('1 without the service in the environment and without recordings (each expectation needs the service); 2 with half of it, or without any test file', async () => {
    const noEnv = await run(['test'], { env: {} });
    assert.deepEqual(
      [noEnv.code, noEnv.stderr],
      [
        1,
        'obs: no service in the environment (OBS_BASE_URL, OBS_CONFIG_KEY): the tests run from their recordings, and those without one are not testable\n',
      ],
    );
    const needs =
      'needs the service: no recording holds its window; set OBS_BASE_URL and OBS_CONFIG_KEY to run it against the service, or record it with obs test --record';
    assert.equal(
      noEnv.stdout,
      [
        `${TESTS}:`,
        ...[
          'catches the error bursts of the last day',
          'pages at most 10 times a day',
          'stays quiet for a whole day',
        ].map((n) => `  NOT TESTABLE  ${n}: ${needs}`),
        '',
        '3 expectations in 1 file: 0 passed, 0 failed, 3 not testable, 0 errors',
        '',
      ].join('\n'),
    );
    const half = await run(['test'], { env: { OBS_BASE_URL: demo.sandbox.base } });
    assert.deepEqual(
      [half.code, half.stderr],
      [
        2,
        "obs: set OBS_CONFIG_KEY in the environment: the service's address and a configuration key are read from there only\n",
      ],
    );
    rmSync(join(demo.dir, TESTS));
    const none = await run(['test']);
    assert.deepEqual([none.code, none.stderr], [2, 'obs: no *.trigger-test.json file under .\n']);
  });
});

describe('a trigger path from a test file', () => {
  test('leading out of the folder obs test runs in, as written or through a link, is not read', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'obs-outside-'));
    try {
      writeFileSync(
        join(outside, 'secret.trigger.json'),
        JSON.stringify({ name: 'SECRET-NAME', dataset_slug: 'api-gateway' }),
      );
      symlinkSync(join(outside, 'secret.trigger.json'), join(demo.dir, 'triggers', 'linked.trigger.json'));
      const up = relative(join(demo.dir, 'triggers', 'api-gateway'), join(outside, 'secret.trigger.json'));
      writeTests({ trigger: up, expectations: [{ name: 'a', expect: 'fires', from: 'now-2h', to: 'now' }] });
      const written = await run(['test']);
      assert.equal(written.code, 2);
      assert.match(
        written.stdout,
        /\n {2}ERROR {9}a: [^\n]*secret\.trigger\.json: it lies outside the folder obs test runs in, so it is not read\n/,
      );
      writeTests({
        trigger: '../linked.trigger.json',
        expectations: [{ name: 'a', expect: 'fires', from: 'now-2h', to: 'now' }],
      });
      const linked = await run(['test']);
      assert.equal(linked.code, 2);
      assert.match(
        linked.stdout,
        /\n {2}ERROR {9}a: triggers\/linked\.trigger\.json: it is a link leading outside the folder obs test runs in, so it is not read\n/,
      );
      assert.doesNotMatch(written.stdout + written.stderr + linked.stdout + linked.stderr, /SECRET-NAME/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('what is echoed is escaped', () => {
  test('a hostile expectation name and trigger name: visible escapes in the text, XML escapes in JUnit', async () => {
    const t = JSON.parse(readFileSync(join(demo.dir, TRIGGER), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(demo.dir, TRIGGER), JSON.stringify({ ...t, name: 'High\u001b]0;pwned\u0007 rate' }));
    writeTests({
      expectations: [
        { name: '<b>"x" & \'y\'</b>\u202e\ufffe', expect: 'at-most', notifications: 99, from: 'now-2h', to: 'now' },
      ],
    });
    const text = await run(['test']);
    assert.equal(text.code, 0, text.stdout);
    assert.ok(text.stdout.startsWith(`${TESTS}: "High\\u{1b}]0;pwned\\u{7} rate" (`), text.stdout);
    assert.match(text.stdout, /\n {2}passed {8}<b>"x" & 'y'<\/b>\\u\{202e\}\ufffe: sent /);
    const junit = await run(['test', '--reporter', 'junit']);
    assert.match(junit.stdout, /<property name="trigger" value="High\\u\{1b\}\]0;pwned\\u\{7\} rate"\/>/);
    assert.match(
      junit.stdout,
      /<testcase classname="[^"]+" name="&lt;b&gt;&quot;x&quot; &amp; &apos;y&apos;&lt;\/b&gt;\\u\{202e\}\\u\{fffe\}" /,
    );
    const refused = [...junit.stdout].filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return (code < 0x20 && c !== '\n') || code === 0x202e || code === 0xfffe;
    });
    assert.deepEqual(refused, [], 'no character XML 1.0 refuses, nor a hidden one');
  });
});

describe('test files beside trigger files are not trigger files', () => {
  test('lint of triggers/**/*.json, and drift and plan of the folder, never read the test file', async () => {
    const lint = await run(['lint', 'triggers/**/*.json']);
    assert.equal(lint.code, 0, lint.stdout);
    assert.doesNotMatch(lint.stdout, /trigger-test/);
    assert.match(lint.stdout, /^1 file checked: /m);
    for (const command of [
      ['drift', 'triggers'],
      ['drift', 'triggers/**/*.json'],
      ['plan', 'triggers'],
    ]) {
      const r = await run(command);
      assert.doesNotMatch(r.stdout + r.stderr, /trigger-test/, command.join(' '));
    }
  });
});

describe('JUnit XML as CI reads it', () => {
  /** The report of a run, checked against both schemas; what a dashboard counts in it. */
  function dashboard(xml: string): { failures: number; errors: number; skipped: number } {
    const root = readXml(xml);
    assert.deepEqual(violations(JENKINS_JUNIT_10, root), [], 'junit-10.xsd');
    assert.deepEqual(violations(ANT_JUNIT, root), [], 'JUnit.xsd');
    const counted = {
      failures: elementsNamed(root, 'failure').length,
      errors: elementsNamed(root, 'error').length,
      skipped: elementsNamed(root, 'skipped').length,
    };
    // A dashboard adds up the suites' counts, or counts the cases: both give the same.
    for (const key of ['failures', 'errors', 'skipped'] as const) {
      assert.equal(
        elementsNamed(root, 'testsuite').reduce((n, s) => n + Number(s.attributes.get(key)), 0),
        counted[key],
        key,
      );
    }
    return counted;
  }

  const LAST_WEEK = { name: 'last week', expect: 'fires', from: 'now-8d', to: 'now-7d' };
  const QUIET = { name: 'pages at most 99 times', expect: 'at-most', notifications: 99, from: 'now-2h', to: 'now' };
  const NEVER = { name: 'never fires', expect: 'does-not-fire', from: 'now-24h', to: 'now' };
  const scenarios: { what: string; tests?: unknown; args?: string[]; aborted?: boolean; code: number }[] = [
    { what: 'every expectation passed', tests: { expectations: [QUIET] }, code: 0 },
    { what: 'one failed', tests: { expectations: [QUIET, NEVER] }, code: 1 },
    { what: 'one not testable', tests: { expectations: [QUIET, LAST_WEEK] }, code: 1 },
    {
      what: 'one not testable, allowed',
      tests: { expectations: [QUIET, LAST_WEEK] },
      args: ['--allow-not-testable'],
      code: 0,
    },
    {
      what: 'one not testable, allowed, and one failed',
      tests: { expectations: [LAST_WEEK, NEVER] },
      args: ['--allow-not-testable'],
      code: 1,
    },
    { what: 'a test file that is not valid', tests: { expectations: [{ ...QUIET, expect: 'maybe' }] }, code: 2 },
    { what: 'a run stopped before it began', tests: { expectations: [QUIET] }, aborted: true, code: 2 },
  ];

  for (const s of scenarios) {
    test(`the exit status and the report agree: ${s.what} (exit ${s.code}), and the report is valid against junit-10.xsd and JUnit.xsd`, async () => {
      writeTests(s.tests);
      let xml = '';
      const signal = s.aborted === true ? AbortSignal.abort() : undefined;
      const code = await runMain(['test', '--reporter', 'junit', ...(s.args ?? [])], {
        cwd: demo.dir,
        env: demo.env,
        stdout: (t) => (xml += t),
        stderr: () => undefined,
        ...(signal ? { signal } : {}),
      });
      const seen = dashboard(xml);
      assert.equal(
        code,
        seen.errors > 0 ? 2 : seen.failures > 0 ? 1 : 0,
        `exit ${code} beside ${JSON.stringify(seen)}`,
      );
      assert.equal(code, s.code);
    });
  }

  test('the demo report, a hostile one and one of an unreadable file are valid against both schemas', async () => {
    const reports = [(await run(['test', '--reporter', 'junit'])).stdout];
    writeTests({ expectations: [{ ...QUIET, name: '<b>"x" & \'y\'</b>\u202e\ufffe\u0000 \n ' }] });
    reports.push((await run(['test', '--reporter', 'junit'])).stdout);
    writeTests('{');
    reports.push((await run(['test', '--reporter', 'junit'])).stdout);
    for (const xml of reports) dashboard(xml);
  });

  test('each schema refuses what the report used to write: attributes of <testsuites>, output in a <testcase>, a zone in a timestamp', () => {
    const suite = (attributes: string, inside: string) =>
      readXml(
        `<testsuites${attributes}><testsuite id="0" package="." name="a" timestamp="2025-06-02T09:10:00" hostname="h" tests="1" failures="0" errors="0" time="0.000"><properties/>${inside}<system-out/><system-err/></testsuite></testsuites>`,
      );
    const valid = suite('', '<testcase classname="a" name="b" time="0.000"/>');
    assert.deepEqual([violations(JENKINS_JUNIT_10, valid), violations(ANT_JUNIT, valid)], [[], []]);
    assert.deepEqual(violations(JENKINS_JUNIT_10, suite(' skipped="1"', '')), [
      'testsuites/@skipped: not an attribute of <testsuites>',
    ]);
    assert.deepEqual(violations(ANT_JUNIT, suite(' name="obs test"', '')), [
      'testsuites/@name: not an attribute of <testsuites>',
    ]);
    assert.deepEqual(
      violations(
        ANT_JUNIT,
        suite('', '<testcase classname="a" name="b" time="0.000"><system-out>x</system-out></testcase>'),
      ),
      ['testsuites/testsuite[0]/testcase[1]: children ["system-out"] do not match ((skipped|error|failure) )?'],
    );
    assert.deepEqual(
      violations(
        ANT_JUNIT,
        readXml(
          '<testsuite name="a" timestamp="2025-06-02T09:10:00Z" hostname="h" tests="0" failures="0" errors="0" time="0"><properties/><system-out/><system-err/></testsuite>',
        ),
      ),
      ['testsuite/@timestamp: "2025-06-02T09:10:00Z" is not of its type'],
    );
  });
});

test('the rate-limit wait goes to the standard error once per wait, not once a second', () => {
  const said: string[] = [];
  const report = onceEachWait((m) => said.push(m));
  for (const m of [
    'Saving the preview query...',
    'Waiting 60 s: the service runs at most 10 queries a minute...',
    'Waiting 59 s: the service runs at most 10 queries a minute...',
    'Starting the query...',
    'Waiting 3 s: the service runs at most 10 queries a minute...',
    'Waiting 2 s: the service runs at most 10 queries a minute...',
  ])
    report(m);
  assert.deepEqual(said, [
    'waiting 60 s: the service runs at most 10 queries a minute',
    'waiting 3 s: the service runs at most 10 queries a minute',
  ]);
});
