// UI suite: burn alert and definitions files in real VS Code (code-server + Chromium), against the sandbox
// started from the welcome view: pull a dataset's burn alerts and definitions from the Datasets view, compare
// an edited burn alert file with the service, and open the burn alert form's file with Open as File. Writes
// the picture slo-compare.png.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  clearNotifications,
  contextMenu,
  diffSides,
  expand,
  inlineAction,
  notificationText,
  openFile,
  replaceAllAndSave,
  runCommand,
  saveImageOf,
  startSandboxFromWelcome,
  titleAction,
  treeRow,
  webviewContent,
} from './uiDriver';
import { demoWorkspace } from './inHost';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const EXHAUSTION = 'Gateway-availability.exhaustion-240min.burn-alert.json';
const BUDGET_RATE = 'Gateway-availability.budget-rate-60min-10000ppm.burn-alert.json';
const DEFINITIONS = 'api-gateway.definitions.json';

/** Runs a pull command from the dataset's context menu into the folder its setting offers first. */
async function pullFromTree(page: Page, item: string, folder: string, report: RegExp): Promise<string> {
  await clearNotifications(page);
  await contextMenu(treeRow(page, 'api-gateway'), item);
  const pick = page.locator('.quick-input-widget');
  await pick.locator('.monaco-list-row').filter({ hasText: folder }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  return notificationText(page, report, 60_000);
}

describe('UI: burn alert and definitions files (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    "a dataset's burn alerts and definitions pulled from the tree are the demo's files; Compare shows the service side; Open as File opens the form's file",
    { timeout: 300_000 },
    async (t) => {
      const { server, browser, workspace } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1400, height: 1000 });
          // The workspace's copies of the demo's files go: the pull writes them again.
          rmSync(join(workspace, 'burn-alerts', 'api-gateway'), { recursive: true, force: true });
          rmSync(join(workspace, 'definitions', DEFINITIONS), { force: true });
          await startSandboxFromWelcome(page);

          assert.equal(
            await pullFromTree(page, 'Pull Burn Alerts to Files...', 'burn-alerts', /^Pulled the burn alerts of /),
            'Pulled the burn alerts of api-gateway from Sandbox into burn-alerts: 2 written, 0 unchanged, 0 skipped.',
          );
          assert.equal(
            await pullFromTree(page, 'Pull Dataset Definitions to Files...', 'definitions', /^Pulled the definitions/),
            'Pulled the definitions of api-gateway from Sandbox into definitions: 1 written, 0 unchanged, 0 skipped.',
          );
          // Canonical, as `obs pull` wrote the demo's files: the same bytes.
          for (const file of [
            join('burn-alerts', 'api-gateway', EXHAUSTION),
            join('burn-alerts', 'api-gateway', BUDGET_RATE),
            join('definitions', DEFINITIONS),
          ])
            assert.equal(readFileSync(join(workspace, file), 'utf8'), readFileSync(join(demoWorkspace, file), 'utf8'));

          // An edited threshold, compared with the service's alert read now.
          await openFile(page, EXHAUSTION);
          await replaceAllAndSave(page, '"exhaustion_minutes": 240', '"exhaustion_minutes": 120');
          await titleAction(page, 'Compare with Service').click();
          const diff = page.locator('.part.editor .monaco-diff-editor').first();
          await diff.waitFor({ state: 'visible', timeout: 30_000 });
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: `${EXHAUSTION} (Sandbox)` })
            .waitFor({ state: 'visible' });
          // The service's side is a document read from the service after the diff opens: its lines are waited for.
          const sides = await diffSides(page, { original: 240, modified: 120 }, 'exhaustion_minutes');
          assert.match(sides.original, /"exhaustion_minutes": 240,$/m);
          assert.match(sides.modified, /"exhaustion_minutes": 120,$/m);
          await page.mouse.move(5, 5);
          await saveImageOf(page, [page.locator('.part.editor')], 'slo-compare.png');
          await runCommand(page, 'View: Close All Editors');

          // The burn alert form of a pulled alert offers its file.
          await expand(treeRow(page, 'api-gateway'));
          await expand(treeRow(page, 'Burn alerts'));
          await expand(treeRow(page, 'Gateway availability'));
          await inlineAction(treeRow(page, 'Budget rate: drop of 10000 per million in 60 min'), 'Edit Burn Alert...');
          const form = webviewContent(page);
          await form.locator('h1', { hasText: 'Edit burn alert' }).waitFor({ state: 'visible', timeout: 30_000 });
          const openAsFile = titleAction(page, 'Open as File');
          await openAsFile.waitFor({ state: 'visible', timeout: 30_000 });
          await openAsFile.click();
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: BUDGET_RATE })
            .waitFor({ state: 'visible' });
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
