// UI suite: the editor's Apply of a burn alert file (code-server + Chromium), against the sandbox started from
// the welcome view. An edited threshold, applied from the editor's title bar, is planned in the plan view under
// the burn alerts' heading, member by member; Apply writes it and shows the outcome, the service holds the new
// threshold, and a second Apply of the same file finds nothing to change.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  clearNotifications,
  exactly,
  openFile,
  replaceAllAndSave,
  sandboxInfo,
  startSandboxFromWelcome,
  titleAction,
  webviewContent,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const EXHAUSTION = 'Gateway-availability.exhaustion-240min.burn-alert.json';

/** The burn alert as the service holds it, read with the sandbox's configuration key. */
async function serviceAlert(baseUrl: string): Promise<Record<string, unknown>> {
  const info = await sandboxInfo(baseUrl);
  const res = await fetch(`${baseUrl}/1/burn_alerts/api-gateway/ba_gw_exhaustion`, {
    headers: { 'X-Service-Team': info.configKey },
  });
  if (!res.ok) throw new Error(`the burn alert answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

describe('UI: apply a burn alert file through the plan view (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    "Apply on an edited burn alert file plans it under the burn alerts' heading, writes it, and planned again finds nothing to change",
    { timeout: 300_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1600, height: 1000 });
          const baseUrl = await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await openFile(page, EXHAUSTION);
          await replaceAllAndSave(page, '"exhaustion_minutes": 240', '"exhaustion_minutes": 120');
          await titleAction(page, 'Apply to Service...').click();

          const view = webviewContent(page);
          const section = view.locator('section.group[data-kind="burn-alert"]');
          await section.waitFor({ state: 'visible', timeout: 60_000 });
          // The plan of this one file holds its burn alert alone, under the burn alerts' heading.
          assert.deepEqual(await view.locator('section.group h2').allTextContents(), [
            "1 burn alert to update (Sandbox's value -> the file's value)",
          ]);
          const update = section.locator('li.change');
          const rows = await update
            .locator('table.members tbody tr')
            .evaluateAll((trs) =>
              trs.map((r) =>
                [...r.querySelectorAll('th, td.before, td.after')].map((c) => (c.textContent ?? '').trim()),
              ),
            );
          assert.deepEqual(rows, [['exhaustion_minutes', '240', '120']]);
          assert.equal(await update.locator('.file').textContent(), `burn-alerts/api-gateway/${EXHAUSTION}`);
          assert.equal(await view.locator('#apply').textContent(), 'Apply 1 change to Sandbox');
          await view.locator('#apply').click();

          await view
            .locator('#status', { hasText: 'Applied to Sandbox: 1 applied, 0 skipped, 0 refused, 0 failed.' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await update.locator('.outcome .headline').textContent(), 'Updated');
          assert.equal((await serviceAlert(baseUrl))['exhaustion_minutes'], 120);

          // The same file applied again (its tab beside the plan view): the service matches it, and the view says so.
          await page
            .locator('.tabs-container .tab')
            .filter({ has: page.locator('.label-name', { hasText: exactly(EXHAUSTION) }) })
            .first()
            .click();
          await titleAction(page, 'Apply to Service...').click();
          await view
            .locator('#status', { hasText: 'Nothing to change on Sandbox: the service matches the files.' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await view.locator('section.group').count(), 0);
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
