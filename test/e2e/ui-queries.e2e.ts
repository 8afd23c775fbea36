// UI suite: query results and the trigger preview in real VS Code (code-server + Chromium), against the
// sandbox started from the welcome view. Writes the pictures trigger-preview.png and query-results.png (docs/images only through npm run screenshots).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  clearNotifications,
  clearSandboxRequests,
  contextMenu,
  expand,
  reloadWindow,
  runCommand,
  sandboxRequests,
  saveImageOf,
  startSandboxFromWelcome,
  treeRow,
  webviewContent,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

async function panelImage(page: Page, name: string): Promise<void> {
  await page.mouse.move(5, 5);
  await saveImageOf(page, [page.locator('.part.editor')], name);
}

describe('UI: query results and trigger preview (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    '"Preview Trigger" on a trigger in the tree evaluates it over the last 24 h and shows when it would have fired',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1400, height: 1000 });
          const baseUrl = await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await expand(treeRow(page, 'api-gateway'));
          await expand(treeRow(page, 'Triggers'));
          const row = treeRow(page, 'High error rate');
          await row.waitFor({ state: 'visible' });
          await clearSandboxRequests(baseUrl);
          await contextMenu(row, 'Preview Trigger: Would It Have Fired?');

          const panel = webviewContent(page);
          const summary = panel.locator('#summary');
          await summary.waitFor({ state: 'visible', timeout: 60_000 });
          assert.match(
            (await summary.textContent()) ?? '',
            /^It would have fired \d+ times? \(\d+ notifications? and \d+ resolves? on_change; \d+ notifications? if on_true\) in the last 24 h\./,
          );
          assert.equal(await panel.locator('h1').textContent(), 'Preview: High error rate');
          assert.equal(
            await panel.locator('.value-label').textContent(),
            'Chart: COUNT over 20 min; dashed line: threshold > 5; shaded: while it fired.',
          );
          assert.equal(await panel.locator('.chart canvas').count(), 1);
          assert.ok((await panel.locator('.results-table tbody tr').count()) >= 1, 'the firings are listed');

          // What the service was asked: the trigger's query saved at the frequency, one result created and polled.
          const calls = (await sandboxRequests(baseUrl))
            .filter((r) => r.path.includes('/quer'))
            .map((r) => `${r.method} ${r.path.replace(/qr_\d+/, 'qr_N')}`);
          assert.deepEqual(calls.slice(0, 2), ['POST /1/queries/api-gateway', 'POST /1/query_results/api-gateway']);
          assert.ok(
            calls.slice(2).every((c) => c === 'GET /1/query_results/api-gateway/qr_N'),
            calls.join(', '),
          );
          const saved = (await sandboxRequests(baseUrl)).find(
            (r) => r.method === 'POST' && r.path === '/1/queries/api-gateway',
          );
          assert.equal((saved?.body as { granularity?: number } | undefined)?.granularity, 300);
          await panelImage(page, 'trigger-preview.png');
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    '"Run Saved Query" picks the dataset and a named saved query from the service, polls the result, shows its chart and table, and the panel comes back after a window reload',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1400, height: 1000 });
          await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await runCommand(page, 'Observability: Run Saved Query...');
          // The datasets the service lists, then the dataset's named saved queries: picked, not typed.
          const row = (text: string) =>
            page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: text }).first();
          await row('api-gateway').click();
          await row('Top routes').waitFor({ state: 'visible' });
          assert.match(
            (await row('Top routes').textContent()) ?? '',
            /q_gw_top_routes/,
            'the query id is shown beside its name',
          );
          await row('Top routes').click();

          const panel = webviewContent(page);
          await panel.locator('.results-table').waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await panel.locator('h1').textContent(), 'Saved query "Top routes"');
          assert.deepEqual(await panel.locator('.results-table thead th').allTextContents(), ['http.route', 'COUNT']);
          assert.equal(await panel.locator('.results-table tbody tr').count(), 6);
          // Six groups: each drawn and named in the legend under the chart (the groups list shows past ten).
          assert.equal(await panel.locator('.series-legend li').count(), 6);
          assert.equal(await panel.getByRole('button', { name: 'Open in Browser' }).count(), 1);
          await panel.locator('.chart').focus();
          await page.keyboard.press('End');
          assert.match(
            (await panel.locator('.chart-readout').textContent()) ?? '',
            /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} — \/api\//,
          );
          await panelImage(page, 'query-results.png');

          // A window reload restarts the extension host: the serializer brings the panel back with its last
          // result; the sandbox (an in-memory connection) died with the old host, so it cannot run again.
          await reloadWindow(page);
          await page
            .locator('.tabs-container .tab')
            .filter({ hasText: 'Query q_gw_top_routes' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          const restored = webviewContent(page);
          await restored
            .locator('#ran-at', { hasText: 'Restored after a window reload: as it was' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(await restored.locator('h1').textContent(), 'Saved query "Top routes"');
          assert.equal(await restored.locator('.results-table tbody tr').count(), 6);
          assert.equal(
            await restored.locator('#note').textContent(),
            'The connection of this result no longer exists, so it cannot be run again.',
          );
          assert.equal(await restored.getByRole('button', { name: 'Run Again' }).count(), 0);
          assert.equal(
            await restored.getByRole('button', { name: 'Open in Browser' }).count(),
            0,
            'no link is offered without its connection',
          );
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
