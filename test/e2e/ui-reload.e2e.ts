// UI suite: form state survives hiding the panel (webview getState/setState) and a window reload (the
// registered webview panel serializers), and a created API key's secret is never part of that state.
// The sandbox runs inside the extension host, which a window reload restarts: after a reload the
// sandbox (an in-memory connection) is gone, and the restored form must say so and keep the user's edits.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import type { RecordedRequest } from '../../src/sandbox/types';
import {
  clearNotifications,
  clearSandboxRequests,
  contextMenu,
  openFile,
  reloadWindow,
  runCommand,
  sandboxRequests,
  startSandboxFromWelcome,
  treeRow,
  webviewContent,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const DATASET_PATH = '/1/dataset_definitions/api-gateway';

async function sandboxReady(page: Page): Promise<string> {
  const baseUrl = await startSandboxFromWelcome(page);
  await clearNotifications(page);
  await clearSandboxRequests(baseUrl);
  return baseUrl;
}

/** The bodies of the PATCHes of api-gateway's definitions the sandbox received, in order. */
function definitionPatches(requests: readonly RecordedRequest[]): unknown[] {
  return requests.filter((r) => r.method === 'PATCH' && r.path === DATASET_PATH).map((r) => r.body);
}

/** Opens "Edit Dataset Definitions" on api-gateway and types `notes` into log_message (not saved). */
async function editLogMessage(page: Page): Promise<FrameLocator> {
  await contextMenu(treeRow(page, 'api-gateway'), 'Edit Dataset Definitions...');
  const form = webviewContent(page);
  await form
    .locator('h1', { hasText: 'Dataset definitions of api-gateway' })
    .waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(await form.locator('#f-log_message').inputValue(), '');
  await form.locator('#f-log_message').fill('notes');
  await form.locator('#summary', { hasText: '1 definition will be sent: Log message.' }).waitFor({ state: 'visible' });
  return form;
}

/** The form panel's tab. */
function definitionsTab(page: Page) {
  return page.locator('.tabs-container .tab').filter({ hasText: 'Edit Dataset Definitions api-gateway' });
}

/** The visible text of the page in the (last) webview, scripts' and styles' text aside. */
async function webviewText(form: FrameLocator): Promise<string> {
  return form.locator('body').innerText();
}

describe('UI: form state across hide/show and window reload (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    'Edit Dataset Definitions: an unsaved edit survives hiding the panel behind another editor and showing it again',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          const baseUrl = await sandboxReady(page);
          await editLogMessage(page);

          // Another editor in the same group hides the panel; without retainContextWhenHidden its page is gone.
          await openFile(page, 'High-error-rate.trigger.json');
          await page.locator('iframe.webview').first().waitFor({ state: 'detached' });

          await definitionsTab(page).click();
          const form = webviewContent(page);
          await form
            .locator('h1', { hasText: 'Dataset definitions of api-gateway' })
            .waitFor({ state: 'visible', timeout: 30_000 });
          assert.equal(await form.locator('#f-log_message').inputValue(), 'notes', 'the unsaved edit is back');
          await form
            .locator('#summary', { hasText: '1 definition will be sent: Log message.' })
            .waitFor({ state: 'visible' });
          assert.equal(
            await form.locator('#f-route').inputValue(),
            'http.route',
            'the other definitions are as loaded',
          );
          // Nothing was written, and showing the page again did not read the map again (the host keeps it).
          assert.deepEqual(definitionPatches(await sandboxRequests(baseUrl)), [{}], 'one read (PATCH {}), no write');
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'Edit Dataset Definitions: after a window reload with the sandbox gone, the restored panel says so and shows the unsaved edit',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          const baseUrl = await sandboxReady(page);
          await editLogMessage(page);
          // The edit stays in the form: the service saw only the read (PATCH {}).
          assert.deepEqual(
            definitionPatches(await sandboxRequests(baseUrl)),
            [{}],
            'before the reload: one read, no write',
          );

          await reloadWindow(page);
          await definitionsTab(page).waitFor({ state: 'visible', timeout: 60_000 });
          const restored = webviewContent(page);
          // The serializer restored the panel; its connection, the in-memory sandbox, died with the old extension host.
          await restored
            .locator('h1', { hasText: 'This form could not be restored' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          assert.equal(
            await restored.locator('p[role="alert"]').textContent(),
            'The connection of this item no longer exists. Your unsaved changes (not sent): log_message = "notes".',
          );
          await assert.rejects(sandboxRequests(baseUrl), 'the sandbox stopped with the extension host that ran it');
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'Create API Key: after a window reload the restored panel does not show the secret it showed before',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await sandboxReady(page);
          await runCommand(page, 'Observability: Create API Key...');
          const form = webviewContent(page);
          await form.locator('h1', { hasText: 'Create an API key' }).waitFor({ state: 'visible', timeout: 30_000 });
          await form.locator('#f-name input').fill('ui-e2e reload key');
          await form.locator('#submit').click();
          await form.locator('h1', { hasText: 'API key created' }).waitFor({ state: 'visible', timeout: 20_000 });
          const secret = ((await form.locator('#secret').textContent()) ?? '').trim();
          assert.match(secret, /^\S{8,}$/, 'the secret is shown');
          assert.ok((await webviewText(form)).includes(secret));

          await reloadWindow(page);
          await page
            .locator('.tabs-container .tab')
            .filter({ hasText: 'Create API Key' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          const restored = webviewContent(page);
          await restored.locator('body').waitFor({ state: 'visible', timeout: 60_000 });
          await restored
            .locator('h1', { hasText: 'This form could not be restored' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          const text = await webviewText(restored);
          assert.equal(text, 'This form could not be restored\n\nThe connection of this item no longer exists.');
          assert.ok(!text.includes(secret), 'the restored panel does not show the secret');
          assert.ok(!(await restored.locator('html').innerHTML()).includes(secret), 'nor holds it in its markup');
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
