// UI suite: the drift of a burn alert file in real VS Code (code-server + Chromium), against the sandbox started
// from the welcome view. The demo's burn alert file is in sync; its threshold edited and saved, the lens says
// which member differs and the Drift view lists the file with its kind; applied from the lens through the plan
// view, the file is in sync again and leaves the view.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  clearNotifications,
  codeLens,
  driftRow,
  exactly,
  expandDriftView,
  openFile,
  replaceAllAndSave,
  rowDescription,
  startSandboxFromWelcome,
  webviewContent,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const EXHAUSTION = 'Gateway-availability.exhaustion-240min.burn-alert.json';

describe('UI: drift of a burn alert file (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    'an edited burn alert threshold shows in its lens and the Drift view, and is in sync again after Apply',
    { timeout: 300_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1600, height: 1000 });
          await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await openFile(page, EXHAUSTION);
          await codeLens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });

          await replaceAllAndSave(page, '"exhaustion_minutes": 240', '"exhaustion_minutes": 120');
          await codeLens(page, /Differs: exhaustion_minutes - Compare$/).waitFor({ state: 'visible', timeout: 60_000 });
          await expandDriftView(page);
          const row = driftRow(page, EXHAUSTION);
          await row.waitFor({ state: 'visible', timeout: 30_000 });
          assert.equal(await rowDescription(row), 'burn alert, differs: exhaustion_minutes · burn-alerts/api-gateway');

          await codeLens(page, /Apply to Sandbox$/).click();
          const view = webviewContent(page);
          await view.locator('#apply').waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await view.locator('#apply').textContent(), 'Apply 1 change to Sandbox');
          await view.locator('#apply').click();
          await view
            .locator('#status', { hasText: 'Applied to Sandbox: 1 applied, 0 skipped, 0 refused, 0 failed.' })
            .waitFor({ state: 'visible', timeout: 60_000 });

          // Back in the file's tab: drift read the service again after the write, and the file matches it.
          await page
            .locator('.tabs-container .tab')
            .filter({ has: page.locator('.label-name', { hasText: exactly(EXHAUSTION) }) })
            .first()
            .click();
          await codeLens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });
          await row.waitFor({ state: 'hidden', timeout: 30_000 });
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
