// The in-host suite (test/vscode/suite/*.test.ts) run inside code-server's extension host; each
// in-host test becomes one node:test test here, so the summary counts them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunReport } from '../vscode/runner-extension/src/extension';
import { runInHostSuite } from './inHost';

const grep = process.env['OBS_E2E_GREP'] ?? '';

describe('in-host suite (code-server extension host)', { timeout: 420_000 }, async () => {
  let report: RunReport | undefined;
  let failure: unknown;
  const notes: string[] = [];
  // Run once: a suite that cannot start is a failure to fix, never retried.
  try {
    report = await runInHostSuite({ grep, log: (m) => notes.push(m) });
  } catch (error) {
    failure = error;
    notes.push(`the in-host suite did not run: ${error instanceof Error ? error.message : String(error)}`);
  }

  if (!report) {
    it('runs the in-host suite', () => {
      for (const note of notes) console.log(note);
      throw failure;
    });
    return;
  }
  const run = report;
  console.log(`# in-host suite ran in VS Code ${run.vscodeVersion} (${run.appHost})`);
  for (const note of notes) console.log(`# ${note}`);
  if (run.fatal) it('in-host runner', () => assert.fail(run.fatal ?? ''));
  if (run.results.length === 0) it('in-host tests ran', () => assert.fail(`no in-host test matched "${grep}"`));
  for (const result of run.results) {
    it(result.name, (t) => {
      t.diagnostic(`${result.durationMs} ms in the extension host`);
      if (result.passed) return;
      const error = new Error(result.error ?? 'failed');
      error.stack = result.error ?? 'failed'; // the in-host stack, not this file's
      throw error;
    });
  }
});
