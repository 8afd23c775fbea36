// UI suite: environments in real VS Code (code-server + Chromium), from the demo workspace's obs.environments.json
// (docs/ENVIRONMENTS.md): "Show as an Environment Sees It..." on a trigger file opens the file beside itself as
// production sees it, with production's override, dataset and recipients, and no home id. No connection needed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openFile, runCommand } from './uiDriver';
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
          await runCommand(page, 'Observability: Show as an Environment Sees It...');
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: `${FILE} ↔ as production sees it` })
            .waitFor({ state: 'visible', timeout: 30_000 });
          const diff = page.locator('.part.editor .monaco-diff-editor').first();
          // The environment's side is a document made after the diff opens: its lines are waited for.
          for (const [side, value] of [
            ['original', 5],
            ['modified', 20],
          ] as const)
            await diff
              .locator(`.editor.${side} .view-lines`)
              .first()
              .filter({ hasText: new RegExp(`"value":\\s${value}\\b`) })
              .waitFor({ state: 'visible', timeout: 30_000 });
          const side = async (which: 'original' | 'modified') =>
            (await diff.locator(`.editor.${which} .view-lines`).first().innerText()).replace(/\u00a0/g, ' ');
          const [original, modified] = [await side('original'), await side('modified')];
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
