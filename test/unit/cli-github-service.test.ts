// obs drift and obs plan with --format github against the sandbox: an annotation at the member a change is about
// (service value -> file value in its message), creates and deletes, what is blocked as an error, a hostile slug
// that cannot start a second command, the counts, the step summary appended, and the exit statuses unchanged.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';
import { runnerCommands } from './github-runner';

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';
const dataset = DEMO.datasets.gateway;
const HIGH = `triggers/${dataset}/High-error-rate.trigger.json`;

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[], more: Record<string, string> = {}) => runObs(argv, { cwd: dir, env: { ...env, ...more } });
const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
const write = (file: string, value: unknown) => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);

/** 1-based line and column of the first `needle` after `from` in a file. */
function placeOf(file: string, needle: string, from = ''): { line: number; column: number } {
  const text = readFileSync(join(dir, file), 'utf8');
  const at = text.indexOf(needle, text.indexOf(from));
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before.at(-1) ?? '').length + 1 };
}

/** The demo trigger "High error rate" with its threshold raised by 7: its old and new value, its id. */
function raiseThreshold(): { old: number; now: number; id: string } {
  const t = read(HIGH);
  const threshold = t.threshold as { value: number };
  const old = threshold.value;
  threshold.value = old + 7;
  write(HIGH, t);
  return { old, now: old + 7, id: String(t.id) };
}

/** The threshold's `"value": N` member in the file, as the annotation's range. */
function valueRange(now: number): Record<string, string> {
  const start = placeOf(HIGH, '"value"', '"threshold"');
  const length = `"value": ${now}`.length;
  return {
    line: `${start.line}`,
    col: `${start.column}`,
    endLine: `${start.line}`,
    endColumn: `${start.column + length}`,
  };
}

beforeEach(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-github-'));
  const pulled = await run(['pull', '--dataset', dataset]);
  assert.equal(pulled.code, 0, pulled.stderr);
});

describe('obs drift --format github', () => {
  test('a warning at the member that differs; a file not compared an error, a hostile slug in it', async () => {
    const { old, now, id } = raiseThreshold();
    const slug = 'nope\n::error::injected %0A';
    write(`triggers/${dataset}/Elsewhere.trigger.json`, { ...read(HIGH), id: undefined, dataset_slug: slug });
    const r = await run(['drift', '--format', 'github', 'triggers']);
    // The client refuses to ask for a slug with a line break: the file is not compared (exit 2).
    assert.equal(r.code, 2, r.stderr);
    const shown = 'nope\\u{a}::error::injected %0A';
    assert.deepEqual(runnerCommands(r.stdout), [
      {
        command: 'error',
        properties: {
          file: `triggers/${dataset}/Elsewhere.trigger.json`,
          line: '1',
          col: '1',
          title: 'obs drift: not-compared',
        },
        data:
          `triggers/${dataset}/Elsewhere.trigger.json: not compared: the triggers of ${shown} could not be read: ` +
          'list triggers refused before sending: dataset: dataset slug must not contain "/", "?", "#" or spaces',
      },
      {
        command: 'warning',
        properties: { file: HIGH, ...valueRange(now), title: 'obs drift: differs' },
        data: `${HIGH}: differs from the service: "High error rate" (${id})\nthreshold.value: ${old} -> ${now}`,
      },
    ]);
    assert.match(
      r.stdout,
      /\n8 files compared: 6 in sync, 1 differ, 0 only local, 0 only on the service, 1 not compared\n$/,
    );
  });

  test('the step summary gets the counts and every finding; the exit status is that of the text report', async () => {
    const { old, now, id } = raiseThreshold();
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, 'before\n');
    const r = await run(['drift', '--format', 'github', 'triggers'], { GITHUB_STEP_SUMMARY: summary });
    assert.equal(r.code, (await run(['drift', 'triggers'])).code);
    const md = (s: string) => s.replace(/[!-/:-@[-`{-~]/g, (c) => (c === '>' ? '&gt;' : `\\${c}`));
    assert.equal(
      readFileSync(summary, 'utf8'),
      [
        'before',
        '### obs drift',
        '',
        md('7 files compared: 6 in sync, 1 differ, 0 only local, 0 only on the service'),
        '',
        '<details><summary>Details</summary>',
        '',
        `- ${md(`${HIGH}: differs from the service: "High error rate" (${id})`)}`,
        `  - ${md(`threshold.value: ${old} -> ${now}`)}`,
        '',
        '</details>',
        '',
        '',
      ].join('\n'),
    );
  });

  test('with --applied, the step summary says first what it compares', async () => {
    const summary = join(dir, 'summary.md');
    const r = await run(['drift', '--format', 'github', '--applied', 'triggers', 'triggers'], {
      GITHUB_STEP_SUMMARY: summary,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '7 files compared: 7 in sync, 0 differ, 0 only local, 0 only on the service\n');
    assert.equal(
      readFileSync(summary, 'utf8'),
      '### obs drift\n\n' +
        'What changed on the service since triggers was applied\\, other than to what triggers holds\\:\n\n' +
        '7 files compared\\: 7 in sync\\, 0 differ\\, 0 only local\\, 0 only on the service\n\n',
    );
  });
});

describe('obs plan --format github', () => {
  test('an update at its member, a create at its trigger (notices), a blocked one an error; exit 2', async () => {
    const { old, now, id } = raiseThreshold();
    const created = `triggers/${dataset}/Brand-new.trigger.json`;
    write(created, { ...read(HIGH), id: undefined, name: 'Brand new' });
    const blocked = `triggers/${dataset}/Blocked.trigger.json`;
    write(blocked, { ...read(HIGH), id: undefined, name: 'Blocked', frequency: 90 });
    const r = await run(['plan', '--format', 'github', 'triggers']);
    assert.equal(r.code, 2, r.stderr);
    const commands = runnerCommands(r.stdout);
    assert.deepEqual(
      commands.map((c) => [c.command, c.properties.title, c.properties.file, c.properties.line]),
      [
        ['error', 'obs plan: blocked', blocked, '1'],
        ['notice', 'obs plan: create', created, '1'],
        ['notice', 'obs plan: update', HIGH, valueRange(now).line],
      ],
    );
    assert.match(
      commands[0]?.data ?? '',
      /^! triggers\/api-gateway\/Blocked\.trigger\.json "Blocked":\n.*frequency 90/,
    );
    assert.match(
      commands[1]?.data ?? '',
      /^\+ api-gateway "Brand new" {2}triggers\/api-gateway\/Brand-new\.trigger\.json\nname: "Brand new"\n/,
    );
    assert.deepEqual(commands[2], {
      command: 'notice',
      properties: { file: HIGH, ...valueRange(now), title: 'obs plan: update' },
      data: `~ ${dataset} "High error rate" (${id})  ${HIGH}\nthreshold.value: ${old} -> ${now}`,
    });
    assert.match(r.stdout, /\n1 to create, 1 to update, 0 to delete, \d+ unchanged, 1 blocked\n$/);
  });

  test('a delete of --prune is a warning on no file; nothing to change writes no annotation and exits 0', async () => {
    const quiet = await run(['plan', '--format', 'github', 'triggers']);
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.match(quiet.stdout, /^0 to create, 0 to update, 0 to delete, \d+ unchanged, 0 blocked\n$/);
    const gone = `triggers/${dataset}/Office-hours-latency.trigger.json`;
    const t = read(gone);
    rmSync(join(dir, gone));
    const r = await run(['plan', '--prune', '--format', 'github', 'triggers']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(runnerCommands(r.stdout), [
      {
        command: 'warning',
        properties: { title: 'obs plan: delete' },
        data: `- ${dataset} "Office-hours latency" (${String(t.id)})`,
      },
    ]);
  });
});
