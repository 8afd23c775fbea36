// Trigger files over 5 MB are linted on open and save only, with a notice saying so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LINT_ON_CHANGE_MAX_SIZE,
  documentSize,
  largeFileNotice,
  shouldLint,
} from '../../src/extension/diagnostics/lintSizeGuard';

const MB = 1024 * 1024;

test('the limit is 5 MB', () => {
  assert.equal(LINT_ON_CHANGE_MAX_SIZE, 5 * MB);
});

test('a file of exactly 5 MB is still linted on each change', () => {
  assert.equal(shouldLint(5 * MB, 'change'), true);
});

test('a file over 5 MB is not linted on change', () => {
  assert.equal(shouldLint(5 * MB + 1, 'change'), false);
});

test('a file over 5 MB is linted on open and on save', () => {
  assert.deepEqual([shouldLint(20 * MB, 'open'), shouldLint(20 * MB, 'save')], [true, true]);
});

test('files up to 5 MB get no notice', () => {
  assert.deepEqual([largeFileNotice(0), largeFileNotice(5 * MB)], [undefined, undefined]);
});

test('a file over 5 MB gets a notice naming its size in MB, rounded up to one decimal', () => {
  assert.equal(
    largeFileNotice(7.25 * MB),
    'Large trigger file, linted on save only (not while typing): 7.3 MB is over 5 MB.',
  );
});

test('a file just over 5 MB never reads as "5.0 MB is over 5 MB"', () => {
  assert.equal(
    largeFileNotice(5 * MB + 1),
    'Large trigger file, linted on save only (not while typing): 5.1 MB is over 5 MB.',
  );
});

test("a document's size is the offset of the end of its last line, read without its text", () => {
  const lines = ['{', '  "name": "x"', '}'];
  const offsets = [0, 2, 16];
  const doc = {
    lineCount: lines.length,
    lineAt: (line: number) => ({ range: { end: { line, character: lines[line]?.length ?? 0 } } }),
    offsetAt: (p: { line: number; character: number }) => (offsets[p.line] ?? 0) + p.character,
  };
  assert.equal(documentSize(doc), 17);
  assert.equal(documentSize({ ...doc, lineCount: 0 }), 0);
});
