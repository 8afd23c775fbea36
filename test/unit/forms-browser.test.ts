// The webview tests need Debian's Chromium. Without it they are skipped locally, and this one test says
// so in the summary ("skipped 1", with the reason); in CI (CI=true) it fails, naming what to install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkip, CHROMIUM, missingBrowser } from './forms-harness';

test(`the browser for the webview tests is installed (${CHROMIUM})`, { skip: browserSkip }, () => {
  assert.equal(missingBrowser, undefined, missingBrowser);
});
