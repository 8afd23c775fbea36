// obs test --reporter github against the sandbox: an annotation on each expectation that did not pass, where it
// lies in the test file (FAILED an error, NOT TESTABLE a warning, or a notice when --allow-not-testable skips it),
// the counts, the step summary, exit statuses as for text, and --out refused with it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_TESTS as TESTS, demoFolder } from './demo-folder';
import { runnerCommands } from './github-runner';

const demo = demoFolder('obs-github-test-');
const { run } = demo;

/** The demo test file's lines: its third expectation, "stays quiet for a whole day", is lines 18 to 24. */
const demoLines = () => readFileSync(join(demo.dir, TESTS), 'utf8').split('\n');

describe('obs test --reporter github', () => {
  test('the failing expectation is an error on its object in the test file; the passing ones get none', async () => {
    assert.equal(demoLines()[17], '    {');
    assert.equal(demoLines()[18], '      "name": "stays quiet for a whole day",');
    assert.equal(demoLines()[23], '    }');
    const r = await run(['test', '--reporter', 'github']);
    assert.equal(r.code, 1, r.stderr);
    const commands = runnerCommands(r.stdout);
    assert.deepEqual(
      commands.map((c) => ({ command: c.command, properties: c.properties })),
      [
        {
          command: 'error',
          properties: { file: TESTS, line: '18', col: '5', endLine: '24', endColumn: '6', title: 'obs test: FAILED' },
        },
      ],
    );
    assert.match(commands[0]?.data ?? '', /^stays quiet for a whole day: fired \d+ times? between .+; expected none$/);
    assert.match(r.stdout, /\n3 expectations in 1 file: 2 passed, 1 failed, 0 not testable, 0 errors\n$/);
  });

  test('a window older than the service keeps is a warning, a notice when --allow-not-testable skips it', async () => {
    const tests = JSON.parse(readFileSync(join(demo.dir, TESTS), 'utf8')) as { expectations: unknown[] };
    tests.expectations = [
      { name: 'long ago', expect: 'fires', from: '2020-01-01T00:00:00Z', to: '2020-01-02T00:00:00Z' },
    ];
    writeFileSync(join(demo.dir, TESTS), JSON.stringify(tests, null, 2));
    const strict = await run(['test', '--reporter', 'github']);
    assert.equal(strict.code, 1, strict.stderr);
    const allowed = await run(['test', '--reporter', 'github', '--allow-not-testable']);
    assert.equal(allowed.code, 0, allowed.stderr);
    const shape = (stdout: string) =>
      runnerCommands(stdout).map((c) => [c.command, c.properties.title, c.properties.line, c.properties.endLine]);
    assert.deepEqual(shape(strict.stdout), [['warning', 'obs test: NOT TESTABLE', '3', '8']]);
    assert.deepEqual(shape(allowed.stdout), [['notice', 'obs test: NOT TESTABLE', '3', '8']]);
  });

  test('the step summary gets the counts and each verdict', async () => {
    const summary = join(demo.dir, 'summary.md');
    const r = await run(['test', '--reporter', 'github'], { env: { ...demo.env, GITHUB_STEP_SUMMARY: summary } });
    assert.equal(r.code, 1, r.stderr);
    const text = readFileSync(summary, 'utf8');
    assert.ok(
      text.startsWith(
        [
          '### obs test',
          '',
          '3 expectations in 1 file\\: 2 passed\\, 1 failed\\, 0 not testable\\, 0 errors',
          '',
          '<details><summary>Details</summary>',
          '',
          '- triggers\\/api\\-gateway\\/High\\-error\\-rate\\.trigger\\-test\\.json\\: \\"High error rate\\" ' +
            '\\(triggers\\/api\\-gateway\\/High\\-error\\-rate\\.trigger\\.json\\) on api\\-gateway',
          '  - **passed** catches the error bursts of the last day\\: ',
        ].join('\n'),
      ),
      text,
    );
    assert.match(text, /\n {2}- \*\*FAILED\*\* stays quiet for a whole day\\: fired .+\n\n<\/details>\n\n$/);
  });

  test('--out goes with text or junit only: with github it is a usage problem, and no test runs', async () => {
    const r = await run(['test', '--reporter', 'github', '--out', 'report.txt']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^obs: --out goes with --reporter text or junit: --reporter github writes its annotations to the standard output/,
    );
    assert.equal(r.stdout, '');
  });
});
