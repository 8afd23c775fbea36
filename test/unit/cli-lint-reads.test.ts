// How obs lint reads its files: a small one (most trigger files) at once on its own thread, a larger one
// through the thread pool within the read-ahead's budget. Counted from outside: the file handles opened
// through node:fs/promises.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fsPromises from 'node:fs/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintFiles, lintOptions } from '../../src/cli/lintFiles';
import { DEFAULT_MAX_BYTES, SMALL_FILE_BYTES } from '../../src/cli/read';
import { triggers } from '../../bench/inputs';
import { watchCalls } from './outside-work';

const dir = mkdtempSync(join(tmpdir(), 'obs-lint-reads-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const io = { cwd: dir, stdout: () => undefined, stderr: () => undefined };

/** Lints the files; the handles opened meanwhile through node:fs/promises, and the reports. */
async function lintCounting(files: string[]) {
  let opened = 0;
  const restore = watchCalls(fsPromises, 'open', () => opened++);
  try {
    const reports = await lintFiles(files, lintOptions({ maxProblems: 1000 }, []), io, DEFAULT_MAX_BYTES);
    return { opened, reports };
  } finally {
    restore();
  }
}

test('100 small files are read at once: no file handle through the thread pool, each linted in its order', async () => {
  const files = Array.from({ length: 100 }, (_, i) => {
    const file = `t${i}.trigger.json`;
    writeFileSync(join(dir, file), triggers(1 + (i % 3), false));
    return file;
  });
  const { opened, reports } = await lintCounting(files);
  assert.equal(opened, 0);
  assert.deepEqual(
    reports.map((r) => [r.file, r.error, r.diagnostics.length]),
    files.map((f) => [f, undefined, 0]),
  );
});

test('a file larger than 256 KiB is read through the thread pool, once', async () => {
  const text = triggers(400, false);
  assert.ok(text.length > SMALL_FILE_BYTES);
  writeFileSync(join(dir, 'large.trigger.json'), text);
  const { opened, reports } = await lintCounting(['large.trigger.json']);
  assert.equal(opened, 1);
  assert.deepEqual(reports[0]?.diagnostics, []);
});

test('a small file that cannot be read is reported as before, the files after it read', async () => {
  writeFileSync(join(dir, 'ok.trigger.json'), triggers(1, false));
  const { reports } = await lintCounting(['missing.trigger.json', '.', 'ok.trigger.json']);
  assert.deepEqual(
    reports.map((r) => [r.file, r.error]),
    [
      ['missing.trigger.json', 'no such file'],
      ['.', 'is a folder, not a file'],
      ['ok.trigger.json', undefined],
    ],
  );
});
