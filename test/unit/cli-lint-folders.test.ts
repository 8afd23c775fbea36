// obs lint FOLDER: a folder stands for every *.trigger.json file under it, found as drift and plan find them
// (node_modules and dot folders skipped, test files and their recordings never taken for trigger files).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expandPaths } from '../../src/cli/files';
import { trigger } from './lint-helpers';
import { runObs } from './obs-run';

let dir = '';
const WITH_ERROR = trigger('"frequency": 90');

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'obs-lint-folders-'));
  const files: Record<string, string> = {
    'triggers/a.trigger.json': trigger(),
    'triggers/team/b.trigger.json': WITH_ERROR,
    'triggers/team/b.trigger-test.json': '{"expectations": []}',
    'triggers/team/b.trigger-test.recording.json': '{}',
    'triggers/notes.json': '{',
    'triggers/node_modules/pkg/c.trigger.json': '{',
    'triggers/.cache/d.trigger.json': '{',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('obs lint triggers lints the trigger files under it, the ones drift and plan would read, and reports the error', async () => {
  const r = await runObs(['lint', '--format', 'json', 'triggers'], { cwd: dir });
  const linted = (JSON.parse(r.stdout) as { file: string; diagnostics: { rule: string }[] }[]).map((f) => [
    f.file,
    f.diagnostics.map((d) => d.rule),
  ]);
  assert.deepEqual(
    [r.code, r.stderr, linted],
    [
      1,
      '',
      [
        ['triggers/a.trigger.json', []],
        ['triggers/team/b.trigger.json', ['trigger/frequency']],
      ],
    ],
  );
  assert.deepEqual(
    (await expandPaths(['triggers'], dir, '.trigger.json')).files,
    linted.map(([file]) => file),
  );
});

test('obs lint . and obs lint triggers/ name the files as found under the folder as written', async () => {
  const files = async (target: string) =>
    (JSON.parse((await runObs(['lint', '--format', 'json', target], { cwd: dir })).stdout) as { file: string }[]).map(
      (f) => f.file,
    );
  assert.deepEqual(await files('.'), ['triggers/a.trigger.json', 'triggers/team/b.trigger.json']);
  assert.deepEqual(await files('triggers/'), ['triggers/a.trigger.json', 'triggers/team/b.trigger.json']);
});
