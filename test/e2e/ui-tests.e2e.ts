// UI suite: trigger tests in VS Code's Test Explorer (code-server + Chromium), against the sandbox started from
// the welcome view: the demo's test file listed with its three expectations, a run with two passes and the
// failure on purpose (its message, expected against actual), its window opened in the preview, and a run
// again that creates no query result. Writes trigger-tests.png (docs/images only through npm run screenshots).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { clearNotifications, clearSandboxRequests, expand, exactly, openFile, runCommand, sandboxRequests, saveImageOf, startSandboxFromWelcome, webviewContent } from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const NAMES = ['catches the error bursts of the last day', 'pages at most 6 times a day', 'stays quiet for a whole day'];

/** The Test Explorer's rows: each label (without its description) and the state its icon shows. */
async function testRows(page: Page): Promise<{ label: string; state: string }[]> {
  return page.locator('.test-explorer-tree .monaco-list-row').evaluateAll((rows) =>
    rows.map((row) => {
      const label = row.querySelector('.label')?.firstChild?.textContent ?? '';
      const state = [...(row.querySelector('.computed-state')?.classList ?? [])].find((c) => c.startsWith('codicon-testing-'))?.replace(/^codicon-testing-|-icon$/g, '') ?? '';
      return { label: label.trim(), state };
    }),
  );
}

/** Waits until every expectation's row shows a result (passed or failed). */
async function waitForResults(page: Page): Promise<void> {
  await page.waitForFunction(
    (names) => {
      const rows = [...document.querySelectorAll('.test-explorer-tree .monaco-list-row')];
      return names.every((n) => rows.some((r) => r.querySelector('.label')?.firstChild?.textContent?.trim() === n && /codicon-testing-(passed|failed)-icon/.test(r.querySelector('.computed-state')?.className ?? '')));
    },
    NAMES,
    { timeout: 90_000 },
  );
}

const createdResults = async (baseUrl: string) => (await sandboxRequests(baseUrl)).filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;

describe('UI: trigger tests in the Test Explorer (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it('lists the demo test file with its expectations; a run shows two passes and the failure with expected against actual, opens its window in the preview, and a run again creates no query result', { timeout: 300_000 }, async (t) => {
    const { server, browser } = ready();
    await uiTest(t.name, browser, server, async ({ page }) => {
      await page.setViewportSize({ width: 1400, height: 1000 });
      const baseUrl = await startSandboxFromWelcome(page);
      await clearNotifications(page);
      await openFile(page, 'High-error-rate.trigger-test.json');
      await runCommand(page, 'Testing: Focus on Test Explorer View');

      const fileRow = page.locator('.test-explorer-tree .monaco-list-row').filter({ has: page.locator('.label', { hasText: 'High-error-rate.trigger-test.json' }) });
      await fileRow.waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await fileRow.locator('.test-label-description').textContent(), 'triggers/api-gateway');
      await expand(fileRow);
      await page.locator('.test-explorer-tree .monaco-list-row .label', { hasText: NAMES[2] }).waitFor({ state: 'visible' });
      assert.deepEqual((await testRows(page)).map((r) => r.label), ['High-error-rate.trigger-test.json', ...NAMES]);

      await clearSandboxRequests(baseUrl);
      await runCommand(page, 'Test: Run All Tests');
      await waitForResults(page);
      assert.deepEqual(await testRows(page), [
        { label: 'High-error-rate.trigger-test.json', state: 'failed' },
        { label: NAMES[0], state: 'passed' },
        { label: NAMES[1], state: 'passed' },
        { label: NAMES[2], state: 'failed' },
      ]);
      assert.equal(await createdResults(baseUrl), 1, 'the three expectations share one window: one query result');

      // The failure in the editor: its sentence, and expected against actual.
      await page.locator('.test-error-content-widget').first().click();
      const title = page.locator('.peekview-title .filename');
      await title.waitFor({ state: 'visible' });
      assert.match((await title.getAttribute('title')) ?? '', /^fired 2 times between \d{4}-\d\d-\d\d \d\d:\d\d and \d{4}-\d\d-\d\d \d\d:\d\d UTC, first at \d{4}-\d\d-\d\d \d\d:\d\d UTC; expected none$/);
      const peek = page.locator('.peekview-widget');
      await peek.locator('.view-line', { hasText: 'no firing' }).first().waitFor({ state: 'visible' });
      assert.match((await peek.locator('.view-lines').allTextContents()).join('\n').replace(/\u00a0/g, ' '), /2 firings, first at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
      await page.mouse.move(5, 5);
      await saveImageOf(page, [page.locator('.part.sidebar'), page.locator('.part.editor')], 'trigger-tests.png');

      // Its window in the preview, from the run's evaluation: no new query.
      await page.locator('.floating-click-widget', { hasText: exactly('Open the Window in the Trigger Preview') }).click();
      const panel = webviewContent(page);
      await panel.locator('h1').waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await panel.locator('h1').textContent(), 'Preview: High error rate');
      assert.match((await panel.locator('#summary').textContent()) ?? '', /^fired 2 times between .+; expected none$/);
      assert.equal(await createdResults(baseUrl), 1);

      // A run again in the session reuses the result: no query result created.
      await runCommand(page, 'Test: Clear All Results');
      await page.waitForFunction(() => !document.querySelector('.test-explorer-tree .computed-state.codicon-testing-passed-icon'));
      await runCommand(page, 'Test: Run All Tests');
      await waitForResults(page);
      assert.equal(await createdResults(baseUrl), 1);
    }, (m) => t.diagnostic(m));
  });
});
