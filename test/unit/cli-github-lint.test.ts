// obs lint --format github: GitHub's workflow commands escaped as the runner unescapes them, hostile text that
// cannot start a second command, paths relative to the checkout, the cap of 10 annotations a run, the Markdown
// summary appended to GITHUB_STEP_SUMMARY (what was there kept; a failure to write it said, nothing else
// changed), and --fail-on.
import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { escapeData, escapeProperty, stepSummaryText, workflowCommand } from '../../src/cli/github/report';
import { runObs } from './obs-run';
import { runnerCommands } from './github-runner';
import { trigger } from './lint-helpers';

let dir = '';
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-github-lint-'));
  mkdirSync(join(dir, 'repo', 'triggers'), { recursive: true });
});
after(() => rmSync(dir, { recursive: true, force: true }));

const repo = () => join(dir, 'repo');
const write = (name: string, text: string) => writeFileSync(join(repo(), 'triggers', name), text);
const run = (argv: string[], env: Record<string, string> = {}, cwd = repo()) => runObs(argv, { cwd, env });

const WITH_ERROR = trigger('"frequency": 90');
const WITH_WARNING = trigger('"recipients": [{ "type": "email", "target": "ops@example.com" }]');
const FREQUENCY_90 =
  'frequency 90 is not a multiple of 60; expected a whole number of seconds from 60 to 86400, a multiple of 60';
const deprecated = (target: string) =>
  `recipient email ${target} is named by type and target, which is deprecated; name it by id`;

describe('escaping', () => {
  test('a message escapes %, CR and LF; a property also : and ,', () => {
    assert.equal(escapeData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
    assert.equal(escapeProperty('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext%3A a%2C b');
  });

  test('an annotation holds its lines joined by escaped line breaks, and hostile text shown, not acted on', () => {
    const line = workflowCommand(
      {
        level: 'warning',
        title: 'obs drift: a::b,c',
        lines: ['first', 'hostile "x\n::error::y" 50%0A'],
        file: 'triggers/a,b:c.trigger.json',
        range: { start: { line: 3, column: 5 }, end: { line: 3, column: 9 } },
      },
      { cwd: '/repo', env: {} },
    );
    assert.equal(
      line,
      '::warning file=triggers/a%2Cb%3Ac.trigger.json,line=3,col=5,endLine=3,endColumn=9,' +
        'title=obs drift%3A a%3A%3Ab%2Cc::first%0Ahostile "x\\u{a}::error::y" 50%250A',
    );
    assert.deepEqual(runnerCommands(line), [
      {
        command: 'warning',
        properties: {
          file: 'triggers/a,b:c.trigger.json',
          line: '3',
          col: '5',
          endLine: '3',
          endColumn: '9',
          title: 'obs drift: a::b,c',
        },
        data: 'first\nhostile "x\\u{a}::error::y" 50%0A',
      },
    ]);
  });
});

describe('obs lint --format github', () => {
  test('one annotation per problem at its range, error and warning, then the counts; exit as for text', async () => {
    write('a.trigger.json', WITH_ERROR);
    write('b.trigger.json', WITH_WARNING);
    const r = await run(['lint', '--format', 'github', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(
      r.stdout,
      [
        '::error file=triggers/a.trigger.json,line=3,col=3,endLine=3,endColumn=18,' +
          `title=obs lint%3A trigger/frequency::${FREQUENCY_90}`,
        '::warning file=triggers/b.trigger.json,line=6,col=18,endLine=6,endColumn=66,' +
          `title=obs lint%3A trigger/recipient-deprecated::${deprecated('ops@example.com')}`,
        '2 files checked: 1 error, 1 warning, 0 infos',
        '',
      ].join('\n'),
    );
  });

  test('hostile text in a value or a file name starts no second command: one warning holds it', async () => {
    const hostile = 'a\n::error file=x::injected\r\n##[error]old style %0A, :: %';
    const name = 'x\n::error::y,%0A.trigger.json';
    write(name, trigger(`"recipients": [{ "type": "email", "target": ${JSON.stringify(hostile)} }]`));
    const r = await run(['lint', '--format', 'github', 'triggers']);
    assert.equal(r.code, 0, r.stderr);
    const shown = 'a\\u{a}::error file=x::injected\\u{d}\\u{a}##[error]old style %0A, :: %';
    assert.deepEqual(runnerCommands(r.stdout), [
      {
        command: 'warning',
        properties: {
          file: 'triggers/x\\u{a}::error::y,%0A.trigger.json',
          line: '6',
          col: '18',
          endLine: '6',
          endColumn: `${18 + '{ "type": "email", "target": '.length + JSON.stringify(hostile).length + ' }'.length}`,
          title: 'obs lint: trigger/recipient-deprecated',
        },
        data: deprecated(shown),
      },
    ]);
  });

  test('paths are relative to GITHUB_WORKSPACE when set (obs run in a subfolder), else to the cwd', async () => {
    write('a.trigger.json', WITH_ERROR);
    const from = (r: { stdout: string }) => runnerCommands(r.stdout).map((c) => c.properties.file);
    const sub = join(repo(), 'triggers');
    assert.deepEqual(from(await run(['lint', '--format', 'github', 'a.trigger.json'], {}, sub)), ['a.trigger.json']);
    const inWorkspace = await run(['lint', '--format', 'github', 'a.trigger.json'], { GITHUB_WORKSPACE: repo() }, sub);
    assert.deepEqual(from(inWorkspace), ['triggers/a.trigger.json']);
    const absolute = join(sub, 'a.trigger.json');
    assert.deepEqual(from(await run(['lint', '--format', 'github', absolute], { GITHUB_WORKSPACE: repo() })), [
      'triggers/a.trigger.json',
    ]);
    // Outside the checkout: the path stays absolute, as the runner leaves it (it points at no file of the repository).
    assert.deepEqual(from(await run(['lint', '--format', 'github', absolute], { GITHUB_WORKSPACE: sub + 'x' })), [
      absolute,
    ]);
  });

  test('past 10 annotations: the first 9, errors before warnings, and one notice counting the rest', async () => {
    for (let i = 0; i < 6; i++) write(`e${i}.trigger.json`, WITH_ERROR);
    for (let i = 0; i < 6; i++) write(`w${i}.trigger.json`, WITH_WARNING);
    const r = await run(['lint', '--format', 'github', 'triggers']);
    assert.equal(r.code, 1);
    const commands = runnerCommands(r.stdout);
    assert.deepEqual(
      commands.map((c) => `${c.command} ${c.properties.file ?? ''}`),
      [
        ...[0, 1, 2, 3, 4, 5].map((i) => `error triggers/e${i}.trigger.json`),
        ...[0, 1, 2].map((i) => `warning triggers/w${i}.trigger.json`),
        'notice ',
      ],
    );
    assert.deepEqual(commands[9], {
      command: 'notice',
      properties: { title: 'obs lint: more not annotated' },
      data:
        '3 more not annotated (3 warnings): obs writes at most 10 annotations a run, GitHub shows 10 of each kind ' +
        'a step. obs lint --format json lists them all.',
    });
    assert.match(r.stdout, /\n12 files checked: 6 errors, 6 warnings, 0 infos\n$/);
  });
});

describe('the step summary', () => {
  const SUMMARY = [
    '### obs lint',
    '',
    '1 file checked\\: 1 error\\, 0 warnings\\, 0 infos',
    '',
    '<details><summary>Details</summary>',
    '',
    '**triggers\\/a\\.trigger\\.json**',
    '',
    '| Line:column | Severity | Rule | Problem |',
    '|---:|---|---|---|',
    '| 3:3 | error | trigger\\/frequency | frequency 90 is not a multiple of 60\\; ' +
      'expected a whole number of seconds from 60 to 86400\\, a multiple of 60 |',
    '',
    '</details>',
    '',
    '',
  ].join('\n');

  test('is appended by --format github to the file GITHUB_STEP_SUMMARY names, after what it held', async () => {
    write('a.trigger.json', WITH_ERROR);
    const file = join(dir, 'summary.md');
    writeFileSync(file, '# Written before\n\n');
    const env = { GITHUB_STEP_SUMMARY: file };
    // Only --format github writes it.
    for (const format of ['text', 'json', 'sarif']) await run(['lint', '--format', format, 'triggers'], env);
    assert.equal((await run(['lint', '--format', 'github', 'triggers/a.trigger.json'], env)).code, 1);
    assert.equal((await run(['lint', '--format', 'github', 'triggers/a.trigger.json'], env)).code, 1);
    assert.equal(readFileSync(file, 'utf8'), `# Written before\n\n${SUMMARY}${SUMMARY}`);
  });

  test('is cut at a line before 512 KiB, saying how many lines were left out and where they all are', () => {
    const line = 'x'.repeat(1023);
    const text = stepSummaryText({
      command: 'lint',
      markdown: { summary: 'counts', details: Array.from({ length: 600 }, () => line).join('\n') },
      fullReport: 'obs lint --format json',
    });
    const kept = Array.from({ length: 512 }, () => line).join('\n');
    assert.equal(
      text,
      `### obs lint\n\ncounts\n\n<details><summary>Details</summary>\n\n${kept}\n\n` +
        '(88 more lines left out: a step summary holds at most 1 MiB; obs lint --format json has them all)\n\n' +
        '</details>\n\n',
    );
  });

  test('with it set, the notice counting the annotations left out names it too', async () => {
    for (let i = 0; i < 11; i++) write(`e${i}.trigger.json`, WITH_ERROR);
    const r = await run(['lint', '--format', 'github', 'triggers'], { GITHUB_STEP_SUMMARY: join(dir, 's.md') });
    assert.equal(
      runnerCommands(r.stdout).at(-1)?.data,
      '2 more not annotated (2 errors): obs writes at most 10 annotations a run, GitHub shows 10 of each kind ' +
        'a step. The step summary lists them all, and obs lint --format json too.',
    );
  });

  test('that cannot be written is said on stderr; the annotations and the exit status stay as they are', async () => {
    write('a.trigger.json', WITH_ERROR);
    const plain = await run(['lint', '--format', 'github', 'triggers']);
    const r = await run(['lint', '--format', 'github', 'triggers'], { GITHUB_STEP_SUMMARY: dir });
    assert.equal(r.code, plain.code);
    assert.equal(r.stdout, plain.stdout);
    assert.match(
      r.stderr,
      /^obs: could not append the summary to GITHUB_STEP_SUMMARY \(.+\): .+; the annotations above are whole\n$/,
    );
  });
});

describe('--fail-on', () => {
  test('error (the default): warnings alone exit 0, an error exits 1', async () => {
    write('w.trigger.json', WITH_WARNING);
    assert.equal((await run(['lint', 'triggers'])).code, 0);
    assert.equal((await run(['lint', '--fail-on', 'error', 'triggers'])).code, 0);
    write('e.trigger.json', WITH_ERROR);
    assert.equal((await run(['lint', 'triggers'])).code, 1);
  });

  test('warning: a warning exits 1 as an error does; a clean file still exits 0', async () => {
    write('ok.trigger.json', trigger());
    assert.equal((await run(['lint', '--fail-on', 'warning', 'triggers'])).code, 0);
    write('w.trigger.json', WITH_WARNING);
    assert.equal((await run(['lint', '--fail-on', 'warning', 'triggers'])).code, 1);
    assert.equal((await run(['lint', '--fail-on', 'warning', '--format', 'github', 'triggers'])).code, 1);
  });

  test('anything else is a usage problem: exit 2', async () => {
    write('w.trigger.json', WITH_WARNING);
    const r = await run(['lint', '--fail-on', 'info', 'triggers']);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^obs: Option '--fail-on <severity>' argument 'info' is invalid\. Allowed choices are error, warning\./,
    );
  });
});
