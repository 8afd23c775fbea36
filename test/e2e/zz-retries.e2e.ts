// Runs last (node runs test files in name order): reports every UI test that passed only on its retry
// in this run. One retry in a run may be bad luck on a loaded machine; two are a pattern, and in CI they
// fail the run so retries never hide a flaky test for long.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { retriesFile } from './workbench';

interface Retry {
  test: string;
  firstFailure: string;
}

function retries(): Retry[] {
  if (!existsSync(retriesFile)) return [];
  return readFileSync(retriesFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Retry);
}

test('at most one UI test of this run needed its retry (CI fails on more)', (t) => {
  const found = retries();
  for (const r of found) t.diagnostic(`retried: ${r.test} (first failure: ${r.firstFailure.split('\n')[0] ?? ''})`);
  if (process.env['CI'] === 'true') assert.ok(found.length <= 1, `${found.length} UI tests passed only on retry: ${found.map((r) => r.test).join('; ')}`);
});
