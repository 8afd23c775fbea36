// UI suite: triggers as code in real VS Code (code-server + Chromium), against the sandbox started from
// the welcome view: pull a dataset's triggers to files, edit one, see its Explorer badge and CodeLens
// change, and compare it with the service's version. Writes the picture trigger-drift.png.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  diffSides,
  clearHover,
  clearNotifications,
  contextMenu,
  driftRow,
  expandDriftView,
  exactly,
  expand,
  notificationText,
  openFile,
  replaceAllAndSave,
  rowDescription,
  runCommand,
  saveImageOf,
  startSandboxFromWelcome,
  tooltipOf,
  treeRow,
  waitForEditorLine,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const FILE = 'High-error-rate.trigger.json';

/** The CodeLens of the active editor whose text matches. */
function lens(page: Page, text: RegExp) {
  return page.locator('.part.editor .codelens-decoration a').filter({ hasText: text }).first();
}

/** The badge VS Code draws after a file's name in the Explorer (a CSS ::after of its label). */
async function explorerBadge(page: Page, fileName: string): Promise<string> {
  const label = page
    .locator('.explorer-folders-view .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: fileName }) })
    .first()
    .locator('.monaco-icon-label');
  await label.waitFor({ state: 'visible' });
  return label.evaluate((el) => getComputedStyle(el, '::after').content);
}

/** Problems view rows of one obs-lint rule. */
function lintProblem(page: Page, code: string): Locator {
  return page
    .locator('.markers-panel .monaco-list-row')
    .filter({ has: page.locator('.marker-source', { hasText: exactly('obs-lint') }) })
    .filter({ has: page.locator('.marker-code', { hasText: exactly(code) }) });
}

describe('UI: triggers as code (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    'a dataset pulled from the tree is in sync; an edited file gets a badge and a "Differs" lens, and Compare shows the service side',
    { timeout: 300_000 },
    async (t) => {
      const { server, browser, workspace } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1400, height: 1000 });
          // Each attempt pulls into an empty folder (a retry would find the first attempt's files).
          rmSync(join(workspace, 'triggers', 'api-gateway'), { recursive: true, force: true });
          await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await contextMenu(treeRow(page, 'api-gateway'), 'Pull Triggers to Files...');
          // The folder from the obs.pullFolder setting is offered first.
          const pick = page.locator('.quick-input-widget');
          await pick.locator('.monaco-list-row').filter({ hasText: 'triggers' }).first().waitFor({ state: 'visible' });
          await page.keyboard.press('Enter');
          const report = await notificationText(page, /^Pulled \d+ triggers? of api-gateway from /, 60_000);
          assert.equal(
            report,
            'Pulled 7 triggers of api-gateway from Sandbox into triggers: 7 written, 0 unchanged, 0 skipped.',
          );

          const path = join(workspace, 'triggers', 'api-gateway', FILE);
          assert.ok(existsSync(path), `${path} was written`);
          const pulled = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
          assert.equal(pulled['name'], 'High error rate');
          assert.equal(typeof pulled['id'], 'string');
          assert.equal(pulled['triggered'], undefined, 'read-only members are left out');

          await openFile(page, FILE);
          await lens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });
          // The Datasets tree's row of the trigger says the same, in the Drift view's words.
          await expand(treeRow(page, 'api-gateway'));
          await expand(treeRow(page, 'Triggers'));
          const treeTrigger = treeRow(page, 'High error rate');
          await treeTrigger
            .locator('.label-description', { hasText: / · in sync$/ })
            .waitFor({ state: 'visible', timeout: 30_000 });

          // Edit the threshold in the editor and save.
          await replaceAllAndSave(page, '"value": 5', '"value": 9');
          const differs = lens(page, /Differs: threshold - Compare$/);
          await differs.waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal((JSON.parse(readFileSync(path, 'utf8')) as { threshold: { value: number } }).threshold.value, 9);
          // The tree's row follows the save: the state, and the file and the member in its tooltip.
          await treeTrigger
            .locator('.label-description', { hasText: / · differs: threshold$/ })
            .waitFor({ state: 'visible', timeout: 30_000 });
          assert.equal(
            await rowDescription(treeTrigger),
            'triggered · notify on change · every 5m · differs: threshold',
          );
          await tooltipOf(
            page,
            treeTrigger,
            /Trigger file: triggers\/api-gateway\/High-error-rate\.trigger\.json, differs from the service in threshold/,
          );
          await clearHover(page);
          // The Drift view lists the file with the member that differs.
          await expandDriftView(page);
          const row = driftRow(page, FILE);
          await row.waitFor({ state: 'visible', timeout: 30_000 });
          assert.equal(await rowDescription(row), 'differs: threshold · triggers/api-gateway');

          await runCommand(page, 'View: Show Explorer');
          await page.waitForFunction(
            (name) =>
              [...document.querySelectorAll('.explorer-folders-view .monaco-list-row')].some(
                (row) =>
                  row.querySelector('.label-name')?.textContent === name &&
                  getComputedStyle(row.querySelector('.monaco-icon-label') as Element, '::after').content === '"≠"',
              ),
            FILE,
            { timeout: 30_000 },
          );
          assert.equal(await explorerBadge(page, FILE), '"≠"');
          assert.equal(
            await explorerBadge(page, 'Slow-routes-disabled.trigger.json'),
            'none',
            'a file in sync has no badge',
          );

          await differs.click();
          const diff = page.locator('.part.editor .monaco-diff-editor').first();
          await diff.waitFor({ state: 'visible', timeout: 30_000 });
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: `${FILE} (` })
            .waitFor({ state: 'visible' });
          // The service's side is a document read from the service after the diff opens: its lines are waited for.
          const sides = await diffSides(page, { original: 5, modified: 9 });
          assert.match(sides.original, /"value": 5$/m);
          assert.match(sides.modified, /"value": 9$/m);
          await page.mouse.move(5, 5);
          await saveImageOf(page, [page.locator('.part.editor')], 'trigger-drift.png');
        },
        (m) => t.diagnostic(m),
      );
    },
  );
  it(
    'with the sandbox active, a column the dataset does not have is a warning whose quick fix picks the nearest name',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser, workspace } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1400, height: 1000 });
          const dir = join(workspace, 'triggers', 'columns');
          mkdirSync(dir, { recursive: true });
          const file = join(dir, 'misspelt.trigger.json');
          const body = {
            dataset_slug: 'api-gateway',
            name: 'Misspelt column',
            threshold: { op: '>', value: 5 },
            query: {
              calculations: [{ op: 'COUNT' }],
              filters: [{ column: 'eror', op: '=', value: true }],
              time_range: 1800,
            },
          };
          writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
          await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await openFile(page, 'misspelt.trigger.json');
          await runCommand(page, 'Problems: Focus on Problems View');
          const problem = lintProblem(page, 'query/unknown-column');
          await problem.waitFor({ state: 'visible', timeout: 60_000 });
          assert.match(
            (await problem.textContent()) ?? '',
            /"eror" is not a column of api-gateway as the service lists them; did you mean "error"\?/,
          );
          await problem.dblclick();
          await page.locator('.part.editor .monaco-editor.focused').waitFor({ state: 'visible' });
          await page.keyboard.press('Control+.');
          const fix = page.locator('.action-widget .monaco-list-row.action', { hasText: exactly('Change to "error"') });
          await fix.waitFor({ state: 'visible' });
          for (let i = 0; i < 10 && !(await fix.getAttribute('class'))?.split(' ').includes('focused'); i++)
            await page.keyboard.press('ArrowDown');
          await fix.and(page.locator('.focused')).waitFor({ state: 'visible' });
          await page.keyboard.press('Enter');
          await waitForEditorLine(page, '"column": "error",');
          await problem.waitFor({ state: 'detached', timeout: 15_000 });
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
