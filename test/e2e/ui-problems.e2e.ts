// UI suite: trigger-file diagnostics as a user sees them. The demo workspace's bad trigger file
// (triggers/error-burst.trigger.json) shows its problems in the Problems view with rule codes, and a
// quick fix chosen with Ctrl+. removes its problem.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { demoWorkspace } from './inHost';
import { editorText, exactly, openFile, runCommand, saveImageOf, waitForEditorLine, waitForFile } from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const BAD_FILE = 'error-burst.trigger.json';
const BAD_FILE_PATH = join('triggers', BAD_FILE);

/**
 * Puts the demo's bad trigger file back into the test workspace. A quick fix saves the file it edits
 * (VS Code's files.refactoring.autoSave), so a test that applied one restores it, and so does a retry.
 */
function restoreBadFile(workspace: string): void {
  copyFileSync(join(demoWorkspace, BAD_FILE_PATH), join(workspace, BAD_FILE_PATH));
}

/** Problems view rows of one obs-lint rule (the linter's problems carry source obs-lint and a code). */
function lintProblem(page: Page, code: string): Locator {
  return page
    .locator('.markers-panel .monaco-list-row')
    .filter({ has: page.locator('.marker-source', { hasText: exactly('obs-lint') }) })
    .filter({ has: page.locator('.marker-code', { hasText: exactly(code) }) });
}

function lintProblems(page: Page): Locator {
  return page
    .locator('.markers-panel .monaco-list-row')
    .filter({ has: page.locator('.marker-source', { hasText: exactly('obs-lint') }) });
}

async function openBadFileWithProblems(page: Page, workspace: string): Promise<void> {
  restoreBadFile(workspace);
  await openFile(page, BAD_FILE);
  await runCommand(page, 'Problems: Focus on Problems View');
  await lintProblem(page, 'query/time-range-max').waitFor({ state: 'visible', timeout: 30_000 });
}

describe('UI: trigger file problems and quick fixes (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    'the bad demo trigger file shows its problems with rule codes and links in the Problems view',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser, workspace } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1600, height: 760 });
          await openBadFileWithProblems(page, workspace);
          const rows = lintProblems(page);
          await page.waitForFunction(() => document.querySelectorAll('.markers-panel .marker-code').length >= 3);
          const seen = await rows.evaluateAll((els) =>
            els.map((el) => ({
              severity: el.querySelector('.marker-icon')?.classList.contains('error')
                ? 'error'
                : el.querySelector('.marker-icon')?.classList.contains('warning')
                  ? 'warning'
                  : 'other',
              code: el.querySelector('.marker-code')?.textContent ?? '',
              line: el.querySelector('.marker-line')?.textContent ?? '',
              link: el.querySelector('a.monaco-link')?.getAttribute('href') ?? '',
            })),
          );
          assert.deepEqual(
            seen.map(({ severity, code, line }) => ({ severity, code, line })),
            [
              { severity: 'error', code: 'query/refused-member', line: '[Ln 12, Col 5]' },
              { severity: 'error', code: 'query/time-range-max', line: '[Ln 13, Col 5]' },
              { severity: 'warning', code: 'trigger/recipient-deprecated', line: '[Ln 15, Col 18]' },
            ],
          );
          for (const { code, link } of seen) {
            assert.match(
              link,
              /\/docs\/rules\.md#L\d+$/,
              `the code ${code} links to a line of the shipped rules documentation`,
            );
          }
          await rows
            .filter({ hasText: 'time_range 7200 exceeds 3600 = 4 x frequency 900' })
            .waitFor({ state: 'visible' });
          // The picture: the file with its squiggles above the Problems view, focus in the editor.
          await runCommand(page, 'View: Focus Active Editor Group');
          await page.mouse.move(5, 5);
          await saveImageOf(page, [page.locator('.part.editor'), page.locator('.part.panel')], 'problems.png');

          // The rule code is a link to the rule's section of docs/rules.md, opened in an editor.
          await lintProblem(page, 'query/time-range-max').locator('a.monaco-link').click();
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: 'rules.md' })
            .waitFor({ state: 'visible' });
          await waitForEditorLine(page, '## query/time-range-max');
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it('a quick fix chosen with Ctrl+. repairs the line and its problem disappears', { timeout: 240_000 }, async (t) => {
    const { server, browser, workspace } = ready();
    await uiTest(
      t.name,
      browser,
      server,
      async ({ page }) => {
        await openBadFileWithProblems(page, workspace);
        // Double-click the problem: the editor takes the focus with the cursor on its range.
        await lintProblem(page, 'query/time-range-max').dblclick();
        await page.locator('.part.editor .monaco-editor.focused').waitFor({ state: 'visible' });
        await page.keyboard.press('Control+.');
        const fix = page.locator('.action-widget .monaco-list-row.action', {
          hasText: exactly('Set time_range to 3600'),
        });
        await fix.waitFor({ state: 'visible' });
        // Keyboard, as after Ctrl+. (the widget blocks the pointer until the mouse moves): arrow to the fix, Enter.
        for (let i = 0; i < 10 && !(await fix.getAttribute('class'))?.split(' ').includes('focused'); i++)
          await page.keyboard.press('ArrowDown');
        await fix.and(page.locator('.focused')).waitFor({ state: 'visible' });
        await page.keyboard.press('Enter');
        await fix.waitFor({ state: 'hidden' });

        await waitForEditorLine(page, '"time_range": 3600');
        await lintProblem(page, 'query/time-range-max').waitFor({ state: 'detached', timeout: 15_000 });
        assert.deepEqual(await lintProblems(page).locator('.marker-code').allTextContents(), [
          'query/refused-member',
          'trigger/recipient-deprecated',
        ]);
        assert.match(await editorText(page), /"orders"/, 'the other problems were left alone');

        // Undo brings the problem back (the diagnostics follow the document); saving leaves the workspace
        // as it was (VS Code may have saved the fix already: files.refactoring.autoSave).
        await page.locator('.part.editor .monaco-editor.focused').waitFor({ state: 'visible' });
        await page.keyboard.press('Control+z');
        await waitForEditorLine(page, '"time_range": 7200');
        await lintProblem(page, 'query/time-range-max').waitFor({ state: 'visible', timeout: 15_000 });
        await runCommand(page, 'File: Save');
        await waitForFile(join(workspace, BAD_FILE_PATH), /"time_range": 7200/);
      },
      (m) => t.diagnostic(m),
    );
  });
});
