// obs in a GitHub Actions step (GITHUB_ACTIONS=true): a file or trigger named like a workflow command cannot make
// the runner act on the text obs prints for people (it reads every line of stdout and stderr), while the JSON and
// the annotations of --format github are written exactly as elsewhere. Each command family is read here as the
// runner reads it (github-runner.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { withoutWorkflowCommands, writeData, type MainIo } from '../../src/cli/io';
import { DEMO_TRIGGER, demoFolder } from './demo-folder';
import { runnerCommands } from './github-runner';
import { trigger } from './lint-helpers';

const demo = demoFolder('obs-github-forged-');
const IN_STEP = { GITHUB_ACTIONS: 'true' };
const inStep = (argv: string[]) => demo.run(argv, { env: { ...demo.env, ...IN_STEP } });

/** The commands the runner would take from both streams of a run. */
const taken = (r: { stdout: string; stderr: string }) => [...runnerCommands(r.stdout), ...runnerCommands(r.stderr)];

/** The demo trigger's file with its name replaced: the name every report of it prints. */
function renameTrigger(name: string): void {
  const file = join(demo.dir, DEMO_TRIGGER);
  const t = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...t, name }, null, 2)}\n`);
}

const FORGED = '##[error]forged';
const SHOWN = '##\\u{5b}error]forged';

describe('text output in a GitHub Actions step starts no workflow command', () => {
  test('obs lint: a file named like a command begins its lines with the second colon escaped', async () => {
    writeFileSync(join(demo.dir, '::warning::x.trigger.json'), trigger('"frequency": 90'));
    const r = await inStep(['lint', '::warning::x.trigger.json']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(taken(r), []);
    assert.match(r.stdout, /^:\\u\{3a\}warning::x\.trigger\.json:\d+:\d+ error trigger\/frequency frequency 90 /);
  });

  test('obs drift: a trigger renamed like an old-style command is shown with its bracket escaped', async () => {
    renameTrigger(FORGED);
    const r = await inStep(['drift', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(taken(r), []);
    assert.ok(r.stdout.includes(`name: "High error rate" -> "${SHOWN}"`), r.stdout);
  });

  test('obs plan: the update of a trigger renamed like an old-style command shows its bracket escaped', async () => {
    renameTrigger(FORGED);
    const r = await inStep(['plan', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(taken(r), []);
    assert.ok(r.stdout.includes(`name: "High error rate" -> "${SHOWN}"`), r.stdout);
  });

  test('obs apply: an applied trigger renamed like an old-style command shows its bracket escaped', async () => {
    renameTrigger(FORGED);
    const planned = await demo.run(['plan', '--out', 'plan.json', 'triggers']);
    assert.equal(planned.code, 1, planned.stderr);
    const r = await inStep(['apply', 'plan.json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(taken(r), []);
    assert.match(r.stdout, /\napplied {2}~ api-gateway "##\\u\{5b\}error\]forged" \([^)]+\)\n/);
  });

  test('obs test: a tested trigger renamed like an old-style command shows its bracket escaped', async () => {
    renameTrigger(FORGED);
    const r = await inStep(['test']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(taken(r), []);
    assert.ok(r.stdout.includes(`"${SHOWN}"`), r.stdout);
  });

  test('obs review: a FIFO named like an old-style command, not read, is said on stderr, its bracket escaped', async () => {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: demo.dir });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'base');
    execFileSync('mkfifo', [join(demo.dir, 'triggers', 'api-gateway', `${FORGED}.trigger.json`)]);
    const r = await inStep(['review', '--no-noise', '--changed-since', 'main', 'triggers']);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(taken(r), []);
    assert.match(r.stderr, /^obs: cannot read triggers\/api-gateway\/##\\u\{5b\}error\]forged\.trigger\.json: /m);
  });
});

describe('output for programs in a GitHub Actions step is written as elsewhere', () => {
  test('obs lint --format json prints the same bytes in a step as outside one', async () => {
    writeFileSync(join(demo.dir, '::warning::x.trigger.json'), trigger('"frequency": 90'));
    const outside = await demo.run(['lint', '--format', 'json', '::warning::x.trigger.json']);
    const r = await inStep(['lint', '--format', 'json', '::warning::x.trigger.json']);
    assert.equal(r.stdout, outside.stdout);
    assert.equal(JSON.parse(r.stdout)[0].file, '::warning::x.trigger.json');
  });

  test('obs lint --format json in a step: an old-style command in a file name is read by no runner, and parses back whole', async () => {
    const name = `${FORGED}.trigger.json`;
    writeFileSync(join(demo.dir, name), trigger('"frequency": 90'));
    const r = await inStep(['lint', '--format', 'json', name]);
    assert.deepEqual(taken(r), []);
    assert.ok(r.stdout.includes('"##\\u005berror]forged.trigger.json"'), r.stdout);
    assert.equal(JSON.parse(r.stdout)[0].file, name);
  });

  test('obs test --reporter junit in a step: an old-style command in a trigger name is read by no runner', async () => {
    renameTrigger(FORGED);
    const r = await inStep(['test', '--reporter', 'junit']);
    assert.deepEqual(taken(r), []);
    assert.ok(r.stdout.includes('##&#91;error]forged'), r.stdout);
  });

  test('obs lint --format github still writes its annotations, then the counts', async () => {
    writeFileSync(join(demo.dir, '::warning::x.trigger.json'), trigger('"frequency": 90'));
    const r = await inStep(['lint', '--format', 'github', '::warning::x.trigger.json']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      runnerCommands(r.stdout).map((c) => [c.command, c.properties.file, c.properties.title]),
      [['error', '::warning::x.trigger.json', 'obs lint: trigger/frequency']],
    );
    assert.match(r.stdout, /\n1 file checked: 1 error, 0 warnings, 0 infos\n$/);
  });
});

describe('the writers of a step', () => {
  /** The io of a step and what each of its streams received. */
  function stepIo(env: Record<string, string>) {
    const got = { stdout: '', stderr: '' };
    const io: MainIo = {
      cwd: '.',
      env,
      stdout: (t) => (got.stdout += t),
      stderr: (t) => (got.stderr += t),
    };
    return { io: withoutWorkflowCommands(io), got };
  }

  test('a command split over writes, after white space the runner trims, or after a CR is still escaped', () => {
    const { io, got } = stepIo(IN_STEP);
    io.stdout('\u00a0 :');
    io.stdout(':add-mask::secret\n');
    io.stdout('first\r::set-output name=x::y\n#');
    io.stdout('#');
    io.stdout('[warning]z\n');
    assert.equal(
      got.stdout,
      '\u00a0 :\\u{3a}add-mask::secret\nfirst\r:\\u{3a}set-output name=x::y\n##\\u{5b}warning]z\n',
    );
    assert.deepEqual(runnerCommands(got.stdout), []);
  });

  test('stderr is escaped too; data for programs is written whole', () => {
    const { io, got } = stepIo(IN_STEP);
    io.stderr('::stop-commands::t\n');
    writeData(io, '::error::meant\n');
    assert.equal(got.stderr, ':\\u{3a}stop-commands::t\n');
    assert.equal(got.stdout, '::error::meant\n');
  });

  test('outside a step (GITHUB_ACTIONS not true) every write is as given', () => {
    const { io, got } = stepIo({ GITHUB_ACTIONS: 'false' });
    io.stdout('::warning::x ##[error]y\n');
    io.stderr('::warning::x\n');
    assert.deepEqual(got, { stdout: '::warning::x ##[error]y\n', stderr: '::warning::x\n' });
  });
});
