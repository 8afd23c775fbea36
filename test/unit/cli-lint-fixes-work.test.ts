// obs lint makes a diagnostic's fix only for the report that shows it (SARIF): the text, JSON and GitHub
// reports show none, and 30 read-only members in each of 20 files (600 infos) cost no fix. Counted from outside (the
// linter's calls V8 counted), never timed.
import { measuredAsync } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLint, type LintInvocation } from '../../src/cli/lintRun';
import { DEFAULT_MAX_BYTES } from '../../src/cli/read';
import { serviceListed } from '../../bench/inputs';

const dir = mkdtempSync(join(tmpdir(), 'obs-lint-fixes-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
// 10 triggers as the service lists them: 3 read-only members each, each an info with a fix (remove it).
const files = Array.from({ length: 20 }, (_, i) => {
  const file = `t${i}.trigger.json`;
  writeFileSync(join(dir, file), serviceListed(10));
  return file;
});

async function lintAs(format: LintInvocation['format']) {
  let out = '';
  const io = { cwd: dir, stdout: (t: string) => (out += t), stderr: () => undefined };
  const invocation: LintInvocation = { format, failOn: 'error', maxProblems: 1000, maxBytes: DEFAULT_MAX_BYTES };
  // A first run compiles what runs on first use, so that the run counted counts the lint's own work.
  await runLint(files, invocation, io);
  out = '';
  const work = await measuredAsync(() => runLint(files, invocation, io));
  return { work, out };
}

test('the text report of 600 fixable infos makes no fix', async () => {
  const { work, out } = await lintAs('text');
  assert.match(out, /20 files checked: 0 errors, 0 warnings, 600 infos\n$/);
  assert.equal(work.calls('/src/lint/repairs', 'repairOf'), 0);
});

test('the JSON report makes no fix either', async () => {
  const { work } = await lintAs('json');
  assert.equal(work.calls('/src/lint/repairs', 'repairOf'), 0);
});

test('the SARIF report makes each of the 600 fixes, and carries it', async () => {
  const { work, out } = await lintAs('sarif');
  assert.equal(work.calls('/src/lint/repairs', 'repairOf'), 600);
  const sarif = JSON.parse(out) as { runs: { results: { fixes?: unknown[] }[] }[] };
  const results = sarif.runs[0]?.results ?? [];
  assert.equal(results.length, 600);
  assert.equal(results.filter((r) => r.fixes?.length === 1).length, 600);
});
