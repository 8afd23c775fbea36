// UI suite: a real account at a glance. The sandbox runs as an EXTERNAL service (started by this test
// process on a loopback port, as a real service would be reached), a connection to it is added through the
// Add Connection dialogue, and the Datasets view fills itself from the service's listings: every dataset
// (one never written to shown dimmed), SLOs by name with target and period, recipients named in tooltips.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox/index';
import { clearNotifications, expand, openObservability, rowDescription, rowIcon, tooltipOf, treeLabels, treeRow, treeSettled } from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

/** Answers the Add Connection dialogue's seven questions, as a user types them. */
async function addConnection(page: Page, answers: readonly string[]): Promise<void> {
  const bar = await openObservability(page);
  const button = bar.locator('.welcome-view-content .monaco-button', { hasText: 'Add Connection...' });
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  await button.click();
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  for (const [i, answer] of answers.entries()) {
    // Each question shows its step ("1/7"); wait for it before typing, so no answer lands in the previous box.
    await widget.locator('.quick-input-title, .quick-input-header').filter({ hasText: `${i + 1}/${answers.length}` }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill(answer);
    await input.press('Enter');
  }
  await widget.waitFor({ state: 'hidden' });
}

describe('UI: a real account at a glance (code-server + Chromium, the sandbox as an external service)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it('Add Connection to a running service fills the Datasets view with its datasets, its SLOs by name and its recipients by name', { timeout: 240_000 }, async (t) => {
    const { server, browser } = ready();
    const sandbox: SandboxHandle = await startSandbox({ port: 0, host: '127.0.0.1' });
    try {
      await uiTest(t.name, browser, server, async ({ page }) => {
        // A retry runs against the same sandbox: count this attempt's requests only.
        const first = sandbox.requests.length;
        await page.setViewportSize({ width: 1280, height: 1000 });
        const info = sandbox.info;
        await addConnection(page, ['ui-account', info.baseUrl, info.uiUrl, info.team, info.environmentId, info.configKey, '']);
        await page.locator('.part.statusbar').getByText('Obs: ui-account').waitFor({ state: 'visible', timeout: 30_000 });
        await treeRow(page, DEMO.datasets.empty).waitFor({ state: 'visible', timeout: 30_000 });
        await treeSettled(page);
        await clearNotifications(page);

        // Every dataset the service lists, sorted; the one never written to is dimmed and says so.
        assert.deepEqual(await treeLabels(page), ['Environment-wide', 'api-gateway', 'bench-wide', 'checkout-service', 'empty-dataset', 'metrics-hosts', 'zz-hostile-strings', 'API keys']);
        assert.equal(await rowDescription(treeRow(page, DEMO.datasets.empty)), 'no data yet');
        const dimmed = await rowIcon(treeRow(page, DEMO.datasets.empty));
        assert.equal(dimmed.id, 'database');
        assert.notEqual(dimmed.color, '', 'a dataset that never received data has a dimmed icon');
        assert.deepEqual(await rowIcon(treeRow(page, DEMO.datasets.gateway)), { id: 'database', color: '' });

        // Its SLOs by name, with target and period; their burn alerts under them.
        await expand(treeRow(page, DEMO.datasets.gateway));
        await expand(treeRow(page, 'Burn alerts'));
        const slo = treeRow(page, 'Gateway availability');
        await slo.waitFor({ state: 'visible' });
        assert.equal(await rowDescription(slo), '99.9% · 30 days');
        await expand(slo);
        await treeRow(page, 'Exhaustion in 240 min').waitFor({ state: 'visible' });

        // A trigger's tooltip names its recipient.
        await expand(treeRow(page, 'Triggers'));
        const triggerRow = treeRow(page, 'High error rate');
        await triggerRow.waitFor({ state: 'visible' });
        assert.match(await tooltipOf(page, triggerRow, /Recipients:/), /Recipients: oncall@example\.com \(email\)/);

        // One list call per kind, however the tree was opened; Add Connection's check before saving reads the
        // datasets once more (one read: the tree and the linter's dataset check share theirs).
        const paths = sandbox.requests.slice(first).map((r) => `${r.method} ${r.path}`);
        assert.deepEqual(paths.filter((p) => p === 'GET /1/datasets' || p === 'GET /1/recipients').sort(), ['GET /1/datasets', 'GET /1/datasets', 'GET /1/recipients']);
        assert.deepEqual(paths.filter((p) => p.startsWith('GET /1/slos/')), [`GET /1/slos/${DEMO.datasets.gateway}`]);
      }, (m) => t.diagnostic(m));
    } finally {
      await sandbox.close();
    }
  });
});
