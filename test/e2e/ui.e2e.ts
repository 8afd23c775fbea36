// UI suite: Debian's Chromium (headless, playwright-core) against code-server with the packaged
// extension installed and demo/workspace (a copy) open. This file: the side bar, the welcome view's
// "Try the Local Sandbox" and the Datasets tree over the sandbox's demo data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HOSTILE } from '../../src/sandbox/demoData';
import {
  clearHover,
  clearNotifications,
  collapse,
  editorText,
  expand,
  openObservability,
  paletteTitles,
  rowDescription,
  rowIcon,
  runCommand,
  sandboxInfo,
  saveSidebarImage,
  startSandboxFromWelcome,
  tooltipOf,
  treeLabels,
  treeRow,
  treeSettled,
  widenSidebar,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

describe('UI: side bar and Datasets tree (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    '"Try the Local Sandbox" in the welcome view starts the sandbox and lists its datasets',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          const bar = await openObservability(page);
          const welcome = bar.locator('.welcome-view-content');
          await welcome
            .getByText('No observability connection is configured.')
            .waitFor({ state: 'visible', timeout: 30_000 });
          assert.deepEqual(await welcome.locator('.monaco-button').allTextContents(), [
            'Add Connection...',
            'Try the Local Sandbox',
          ]);
          assert.deepEqual(
            await paletteTitles(page, 'Local Sandbox'),
            ['Observability: Start Local Sandbox'],
            'only Start while it does not run',
          );

          const baseUrl = await startSandboxFromWelcome(page);
          await welcome.waitFor({ state: 'hidden' });
          // The demo's environments file names the sandbox's connection as its staging environment.
          await page.locator('.part.statusbar').getByText('Obs: Sandbox (staging)').waitFor({ state: 'visible' });
          // The view's header names the connection the tree shows, beside a title short enough not to be cut.
          const header = bar
            .locator('.pane-header')
            .filter({ has: page.locator('.title', { hasText: /^Datasets$/i }) })
            .first();
          await header.locator('.description', { hasText: 'Sandbox' }).waitFor({ state: 'visible' });
          assert.equal(
            await header.locator('.title').evaluate((el) => el.scrollWidth <= el.clientWidth),
            true,
            'the title is shown whole',
          );
          assert.deepEqual(
            await paletteTitles(page, 'Local Sandbox'),
            ['Observability: Stop Local Sandbox'],
            'only Stop while it runs',
          );
          await treeSettled(page);
          // The hostile strings' dataset comes last, below the datasets a newcomer looks at.
          assert.deepEqual(await treeLabels(page), [
            'Environment-wide',
            'api-gateway',
            'bench-wide',
            'checkout-service',
            'empty-dataset',
            'metrics-hosts',
            'zz-hostile-strings',
            'API keys',
          ]);
          assert.equal(await rowDescription(treeRow(page, 'metrics-hosts')), 'metrics');

          // The URL the UI announced is the sandbox serving this tree.
          const info = await sandboxInfo(baseUrl);
          assert.equal(info.baseUrl, baseUrl);
          assert.ok(info.datasets.includes('api-gateway'), `sandbox datasets: ${info.datasets.join(', ')}`);
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'a dataset expands into columns, triggers and burn alerts that show their states',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1280, height: 900 });
          await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await expand(treeRow(page, 'api-gateway'));
          await treeRow(page, 'Burn alerts').waitFor({ state: 'visible' });
          assert.deepEqual((await treeLabels(page)).slice(1, 5), ['api-gateway', 'Columns', 'Triggers', 'Burn alerts']);

          // Columns: type as description, hidden ones marked.
          const columns = treeRow(page, 'Columns');
          await expand(columns);
          await treeRow(page, 'trace.trace_id').waitFor({ state: 'visible' });
          assert.equal(await rowDescription(columns), '19');
          assert.equal(await rowDescription(treeRow(page, 'duration_ms')), 'float');
          assert.equal(await rowDescription(treeRow(page, 'sample_rate')), 'integer · hidden');
          assert.deepEqual(await rowIcon(treeRow(page, 'status_code')), { id: 'symbol-number', color: '' });
          await collapse(columns);

          // Triggers: triggered and disabled ones by icon and description.
          const triggers = treeRow(page, 'Triggers');
          await expand(triggers);
          const triggered = treeRow(page, 'High error rate');
          await triggered.waitFor({ state: 'visible' });
          assert.equal(await rowDescription(triggers), '7');
          // The demo's trigger files hold these triggers as pulled: once drift compared them, each row says so.
          await triggered
            .locator('.label-description', { hasText: / · in sync$/ })
            .waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await rowDescription(triggered), 'triggered · notify on change · every 5m · in sync');
          assert.equal((await rowIcon(triggered)).id, 'bell-dot');
          assert.notEqual((await rowIcon(triggered)).color, '', 'a triggered trigger has a coloured icon');
          const disabled = treeRow(page, 'Slow routes (disabled)');
          assert.equal(await rowDescription(disabled), 'disabled · notify on change · every 15m · in sync');
          assert.equal((await rowIcon(disabled)).id, 'bell-slash');
          const quiet = treeRow(page, 'Office-hours latency');
          assert.equal(await rowDescription(quiet), 'notify on change · every 10m · in sync');
          assert.deepEqual(await rowIcon(quiet), { id: 'bell', color: '' });

          // Burn alerts under their SLO: the triggered one is flagged.
          await expand(treeRow(page, 'Burn alerts'));
          await expand(treeRow(page, 'Gateway availability'));
          const exhaustion = treeRow(page, 'Exhaustion in 240 min');
          await exhaustion.waitFor({ state: 'visible' });
          assert.equal(await rowDescription(exhaustion), 'triggered · Budget gone within four hours.');
          assert.equal((await rowIcon(exhaustion)).id, 'flame');
          assert.notEqual((await rowIcon(exhaustion)).color, '', 'a triggered burn alert has a coloured icon');
          const budgetRate = treeRow(page, 'Budget rate: drop of 10000 per million in 60 min');
          assert.ok(!(await rowDescription(budgetRate)).includes('triggered'));
          assert.deepEqual(await rowIcon(budgetRate), { id: 'flame', color: '' });

          await treeSettled(page);
          await widenSidebar(page, 520);
          // Focus the editor area: the tree's focus outline would cover a row in the picture.
          await runCommand(page, 'View: Focus Active Editor Group');
          await clearHover(page);
          await saveSidebarImage(page, 'sidebar.png');

          // A click on a trigger opens it as read-only JSON, its natural view.
          await treeRow(page, 'High error rate').click();
          await page
            .locator('.tabs-container .tab.active')
            .filter({ hasText: 'High-error-rate.trigger.json' })
            .waitFor({ state: 'visible', timeout: 30_000 });
          assert.match(await editorText(page), /"id": "trig_gw_errors"/);
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'rows left open stay open across Refresh and across a restart of the sandbox (a reconnect)',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1280, height: 900 });
          await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await expand(treeRow(page, 'api-gateway'));
          await expand(treeRow(page, 'Triggers'));
          await treeRow(page, 'High error rate').waitFor({ state: 'visible' });
          const open = async () =>
            Promise.all(
              ['api-gateway', 'Columns', 'Triggers'].map((label) => treeRow(page, label).getAttribute('aria-expanded')),
            );

          await runCommand(page, 'Observability: Refresh');
          await treeSettled(page);
          await treeRow(page, 'High error rate').waitFor({ state: 'visible', timeout: 30_000 });
          assert.deepEqual(await open(), ['true', 'false', 'true'], 'after Refresh');

          // The sandbox's rows leave the tree with it, and come back when it starts again.
          await runCommand(page, 'Observability: Stop Local Sandbox');
          await treeRow(page, 'api-gateway').waitFor({ state: 'hidden', timeout: 30_000 });
          await startSandboxFromWelcome(page);
          await treeRow(page, 'High error rate').waitFor({ state: 'visible', timeout: 30_000 });
          assert.deepEqual(await open(), ['true', 'false', 'true'], 'after the restart: what was open, and only that');
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it('tooltips show the hostile demo strings as plain text', { timeout: 240_000 }, async (t) => {
    const { server, browser } = ready();
    await uiTest(
      t.name,
      browser,
      server,
      async ({ page }) => {
        await startSandboxFromWelcome(page);
        await clearNotifications(page);
        // The hostile strings live in a dataset of their own.
        await expand(treeRow(page, 'zz-hostile-strings'));
        await expand(treeRow(page, 'Columns'));
        // The columns are read when the group opens: the row is waited for, then counted (once, as text).
        await treeRow(page, HOSTILE.img).first().waitFor({ state: 'visible', timeout: 30_000 });
        assert.equal(
          await treeRow(page, HOSTILE.img).count(),
          1,
          'the column named <img src=x onerror=alert(1)> shows its name as text',
        );
        await collapse(treeRow(page, 'Columns'));
        await expand(treeRow(page, 'Triggers'));
        const hostile = treeRow(page, HOSTILE.img);
        await hostile.waitFor({ state: 'visible' });

        const text = await tooltipOf(page, hostile, /trig_hs_markup/);
        const hover = page.locator('.workbench-hover .rendered-markdown').first();
        for (const s of [
          HOSTILE.img,
          HOSTILE.script,
          HOSTILE.markdownLink,
          HOSTILE.markdownCommand,
          HOSTILE.commandUri,
          HOSTILE.bold,
          'owner=edge',
        ]) {
          assert.ok(text.includes(s), `the tooltip shows ${JSON.stringify(s)} literally; it reads: ${text}`);
        }
        // Nothing in it became markup: no image, script, link or bold tag from the service's text.
        assert.equal(await hover.locator('img, script, a, b, iframe').count(), 0, await hover.innerHTML());
        // Only our own title is bold.
        assert.deepEqual(await hover.locator('strong').allTextContents(), [HOSTILE.img]);
      },
      (m) => t.diagnostic(m),
    );
  });
});
