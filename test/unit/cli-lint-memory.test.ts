// What obs lint frees before it reads a large file: the file's bytes once decoded, and what JSON.parse
// built of a broken file before refusing it (most of its value when it is broken near its end). Counted
// from outside (the full collections obs asks for), never timed or weighed.
import { measuredAsync } from './outside-work';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintFiles, lintOptions } from '../../src/cli/lintFiles';
import { DEFAULT_MAX_BYTES } from '../../src/cli/read';
import { triggers } from '../../bench/inputs';

const dir = mkdtempSync(join(tmpdir(), 'obs-lint-memory-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `count` triggers; `broken`: a comma between two of them left out near the end. */
function file(name: string, count: number, broken: boolean): string {
  const text = triggers(count, true);
  const at = text.indexOf('},\n  {', Math.floor(text.length * 0.95));
  const path = join(dir, name);
  writeFileSync(path, broken ? `${text.slice(0, at + 1)}${text.slice(at + 2)}` : text);
  return path;
}

const io = { cwd: dir, stdout: () => undefined, stderr: () => undefined };

async function collections(path: string): Promise<number> {
  const work = await measuredAsync(() =>
    lintFiles([path], lintOptions({ maxProblems: 1000 }, []), io, DEFAULT_MAX_BYTES),
  );
  assert.equal(work.result[0]?.error, undefined);
  return work.calls('src/cli/collect', 'collectGarbage');
}

// 20,000 triggers: about 17 MB, past the 16 MiB from which obs collects.
test('a large broken file: a full collection once its bytes are decoded, and one when JSON.parse has refused it', async () => {
  assert.equal(await collections(file('large-broken.json', 20_000, true)), 2);
});

test('a large valid file: one collection, once its bytes are decoded', async () => {
  assert.equal(await collections(file('large-valid.json', 20_000, false)), 1);
});

test('a small broken file: none', async () => {
  assert.equal(await collections(file('small-broken.json', 100, true)), 0);
});
