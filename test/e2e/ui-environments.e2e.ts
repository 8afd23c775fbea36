// UI suite: environments in real VS Code (code-server + Chromium), from the demo workspace's obs.environments.json
// (docs/ENVIRONMENTS.md): "Show as an Environment Sees It..." (the editor's title button, shown once the
// environments file is read) on a trigger file opens the file beside itself as
// production sees it, with production's override, dataset and recipients, and no home id. No connection needed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { diffSides, openFile, titleAction } from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const FILE = 'High-error-rate.trigger.json';

describe('UI: environments (code-server + Chromium)', { timeout: 300_000 }, () => {
  const ready = useUiFixture();

  it(
    'Show as an Environment Sees It opens the trigger file beside itself as production sees it',
    { timeout: 180_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await openFile(page, FILE);
          // The editor's title button shows once the environments file is read and names such an environment.
          const show = titleAction(page, 'Show as an Environment Sees It...');
          await show.waitFor({ state: 'visible', timeout: 30_000 });
          await show.click();
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: `${FILE} ↔ as production sees it` })
            .waitFor({ state: 'visible', timeout: 30_000 });
          // The environment's side is a document made after the diff opens: its lines are waited for.
          const { original, modified } = await diffSides(page, { original: 5, modified: 20 });
          assert.match(original, /"id": "trig_gw_errors"/, "the file holds the home's id");
          assert.doesNotMatch(modified, /"id":/, "production's side holds no home id");
          assert.match(modified, /"dataset_slug": "api-gateway"/);
          assert.match(modified, /"value": 20$/m);
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
