// UI suite: a real account at a glance. The sandbox runs as an EXTERNAL service (started by this test
// process on a loopback port, as a real service would be reached), a connection to it is added through the
// Add Connection dialogue (with Back, a wrong key the check refuses, and the summary where only the key is
// typed again), and the Datasets view fills itself from the service's listings: every dataset
// (one never written to shown dimmed), SLOs by name with target and period, recipients named in tooltips.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { DEMO, startSandbox, type SandboxHandle, type SandboxInfo } from '../../src/sandbox/index';
import {
  clearNotifications,
  exactly,
  expand,
  openObservability,
  rowDescription,
  rowIcon,
  tooltipOf,
  treeLabels,
  treeRow,
  treeSettled,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const quickInput = (page: Page): Locator => page.locator('.quick-input-widget');
const inputBox = (page: Page): Locator => quickInput(page).locator('.quick-input-box input');

/** Waits until the dialogue shows the box or page of this title ("Add Connection (3/7)"). */
async function showing(page: Page, title: string): Promise<void> {
  await quickInput(page)
    .locator('.quick-input-title')
    .filter({ hasText: exactly(title) })
    .waitFor({ state: 'visible', timeout: 15_000 });
}

/** Types an answer into the box of step `step` of 7 and presses Enter. */
async function answer(page: Page, step: number, value: string): Promise<void> {
  await showing(page, `Add Connection (${step}/7)`);
  await inputBox(page).fill(value);
  await inputBox(page).press('Enter');
}

/** A line of the summary page, by its label. */
function summaryRow(page: Page, label: string): Locator {
  return quickInput(page)
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });
}

/** The summary's first line (its label starts with an icon). */
const checkAndSave = (page: Page): Locator =>
  quickInput(page).locator('.monaco-list-row').filter({ hasText: 'Check and Save' });

/** The modal dialog VS Code draws in the page, and its buttons. */
const dialog = (page: Page): Locator => page.locator('.monaco-dialog-box');

/**
 * Adds the connection as a user who mistypes: Back from the team box to the UI URL box (which holds its
 * answer), a configuration key the service does not know, the summary (the key never shown), Check and
 * Save, the check's Edit Connection back to the summary on the key, the right key typed once, Check and Save.
 */
async function addConnectionWithAMistake(page: Page, name: string, info: SandboxInfo): Promise<void> {
  const bar = await openObservability(page);
  const button = bar.locator('.welcome-view-content .monaco-button', { hasText: 'Add Connection...' });
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  await button.click();
  await answer(page, 1, name);
  await answer(page, 2, info.baseUrl);
  await answer(page, 3, info.uiUrl);
  await showing(page, 'Add Connection (4/7)');
  await quickInput(page).locator('.quick-input-left-action-bar .codicon-quick-input-back').click();
  await showing(page, 'Add Connection (3/7)');
  assert.equal(await inputBox(page).inputValue(), info.uiUrl, 'Back shows the box before with its answer');
  await inputBox(page).press('Enter');
  await answer(page, 4, info.team);
  await answer(page, 5, info.environmentId);
  const wrongKey = 'not-a-key-of-this-service';
  await answer(page, 6, wrongKey);
  await answer(page, 7, '');

  await showing(page, 'Add Connection: review and save');
  await summaryRow(page, 'Team slug').waitFor({ state: 'visible' });
  assert.equal(await rowDescription(summaryRow(page, 'Team slug')), info.team);
  assert.equal(await rowDescription(summaryRow(page, 'Configuration key')), 'typed now (not shown)');
  assert.doesNotMatch((await quickInput(page).textContent()) ?? '', new RegExp(wrongKey), 'a key is never shown');
  await checkAndSave(page).click();

  // The service does not know the key (401): said so, with Edit Connection back to the key's line.
  await dialog(page).waitFor({ state: 'visible', timeout: 30_000 });
  const host = new URL(info.baseUrl).host;
  const said = ((await dialog(page).locator('.dialog-message-text').textContent()) ?? '').replace(/\u00a0/g, ' ');
  assert.equal(
    said,
    `"${name}" does not work yet: ${host} does not know the configuration key: it is mistyped, revoked, or a key of another account.`,
  );
  await dialog(page).locator('.dialog-buttons .monaco-button', { hasText: 'Edit Connection' }).click();
  await showing(page, 'Add Connection: review and save');
  await quickInput(page)
    .locator('.monaco-list-row.focused')
    .filter({ hasText: 'Configuration key' })
    .waitFor({ state: 'visible' });
  await inputBox(page).press('Enter');
  await showing(page, 'Add Connection');
  assert.equal(await inputBox(page).inputValue(), '', 'a key box opens empty');
  await inputBox(page).fill(info.configKey);
  await inputBox(page).press('Enter');
  await showing(page, 'Add Connection: review and save');
  await checkAndSave(page).click();
  await quickInput(page).waitFor({ state: 'hidden' });
}

describe(
  'UI: a real account at a glance (code-server + Chromium, the sandbox as an external service)',
  { timeout: 420_000 },
  () => {
    const ready = useUiFixture();

    it(
      'Add Connection (Back, a wrong key put right on the summary) fills the Datasets view with its datasets, SLOs and recipients by name',
      { timeout: 240_000 },
      async (t) => {
        const { server, browser } = ready();
        const sandbox: SandboxHandle = await startSandbox({ port: 0, host: '127.0.0.1' });
        try {
          await uiTest(
            t.name,
            browser,
            server,
            async ({ page }) => {
              // A retry runs against the same sandbox: count this attempt's requests only.
              const first = sandbox.requests.length;
              await page.setViewportSize({ width: 1280, height: 1000 });
              const info = sandbox.info;
              await addConnectionWithAMistake(page, 'ui-account', info);
              await page
                .locator('.part.statusbar')
                .getByText('Obs: ui-account')
                .waitFor({ state: 'visible', timeout: 30_000 });
              await treeRow(page, DEMO.datasets.empty).waitFor({ state: 'visible', timeout: 30_000 });
              await treeSettled(page);
              await clearNotifications(page);

              // Every dataset the service lists, sorted; the one never written to is dimmed and says so.
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
              assert.match(
                await tooltipOf(page, triggerRow, /Recipients:/),
                /Recipients: oncall@example\.com \(email\)/,
              );

              // One list call per kind, however the tree was opened; Add Connection's check before saving reads the
              // datasets once more (one read: the tree and the linter's dataset check share theirs).
              const paths = sandbox.requests.slice(first).map((r) => `${r.method} ${r.path}`);
              assert.deepEqual(paths.filter((p) => p === 'GET /1/datasets' || p === 'GET /1/recipients').sort(), [
                'GET /1/datasets',
                'GET /1/datasets',
                'GET /1/recipients',
              ]);
              assert.deepEqual(
                paths.filter((p) => p.startsWith('GET /1/slos/')),
                [`GET /1/slos/${DEMO.datasets.gateway}`],
              );
            },
            (m) => t.diagnostic(m),
          );
        } finally {
          await sandbox.close();
        }
      },
    );
  },
);
