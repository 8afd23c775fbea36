// The editor never takes a trigger test file for a trigger file: the default globs of obs.triggerFiles
// (`**/*.trigger.json`, `**/triggers/**/*.json`) would match `triggers/.../x.trigger-test.json`, so the
// matcher (lint while editing, Lint All, the Preview lens) leaves that suffix out whatever the globs.
import { fake, TextDocument, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TRIGGER_FILES } from '../../src/extension/core/settings';
import { TriggerFileMatcher } from '../../src/extension/diagnostics/triggerFiles';

const WORKSPACE = 'file:///w';
const files = [
  `${WORKSPACE}/triggers/api-gateway/errors.trigger.json`,
  `${WORKSPACE}/triggers/api-gateway/errors.trigger-test.json`,
  `${WORKSPACE}/triggers/api-gateway/legacy.json`,
  `${WORKSPACE}/tests/errors.trigger-test.json`,
];

function matcher(patterns: readonly string[]): TriggerFileMatcher {
  fake.reset();
  fake.folders = [{ uri: Uri.parse(WORKSPACE), name: 'w', index: 0 }];
  for (const f of files) fake.files.set(f, '{}');
  return new TriggerFileMatcher(() => [...patterns], 'obs-trigger');
}

test('with the default globs, a test file under triggers/ is not a trigger file; the files beside it are', () => {
  const m = matcher(DEFAULT_TRIGGER_FILES);
  assert.deepEqual(
    files.map((f) => m.matches(new TextDocument(Uri.parse(f), '{}'))),
    [true, false, true, false],
  );
});

test('Lint All finds the trigger files and not the test files, whatever the globs', async () => {
  for (const patterns of [DEFAULT_TRIGGER_FILES, ['**/*.json']]) {
    const found = (await matcher(patterns).findAll()).map((u) => u.toString());
    assert.deepEqual(found, [files[0], files[2]], patterns.join(', '));
  }
});
