// UI suite: the webview forms, filled in and submitted as a user would, checked against what the
// sandbox received (GET <baseUrl>/__sandbox/requests). The sandbox's base URL is read from the UI: the
// notification the extension shows when "Try the Local Sandbox" started it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { DEMO, HOSTILE } from '../../src/sandbox/demoData';
import type { RecordedRequest } from '../../src/sandbox/types';
import {
  clearNotifications,
  clearSandboxRequests,
  collapse,
  contextMenu,
  expand,
  inlineAction,
  runCommand,
  sandboxInfo,
  sandboxRequests,
  saveImageOf,
  startSandboxFromWelcome,
  treeRow,
  waitForSandboxRequest,
  webviewContent,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

/**
 * Starts the sandbox from the welcome view and forgets what the tree and drift asked it so far. Drift compares
 * the demo workspace's burn alert and definitions files once the sandbox is connected, reading the same objects
 * the forms read: its reads are waited for, so what the sandbox receives afterwards is the forms' alone.
 */
async function sandboxReady(page: Page): Promise<string> {
  const baseUrl = await startSandboxFromWelcome(page);
  await clearNotifications(page);
  const gateway = DEMO.datasets.gateway;
  await waitForSandboxRequest(
    baseUrl,
    `drift's read of ${gateway}'s definitions`,
    (r) => r.method === 'PATCH' && r.path === `/1/dataset_definitions/${gateway}`,
    60_000,
  );
  for (const id of [DEMO.burnAlerts.gwBudgetRate, DEMO.burnAlerts.gwExhaustion])
    await waitForSandboxRequest(
      baseUrl,
      `drift's read of burn alert ${id}`,
      (r) => r.method === 'GET' && r.path === `/1/burn_alerts/${gateway}/${id}`,
      60_000,
    );
  await clearSandboxRequests(baseUrl);
  return baseUrl;
}

/** The pagerduty recipient of the demo's budget_rate alert as the service answers it: the form sends it back whole. */
const PAGERDUTY_PRIMARY_AS_READ = {
  id: DEMO.recipients.pagerdutyPrimary,
  type: 'pagerduty',
  target: 'Primary on-call',
  details: {
    pagerduty_severity: 'critical',
    variables: [
      { name: 'runbook', value: 'https://runbooks.example/gateway' },
      { name: 'team', value: 'edge' },
    ],
  },
};

/** The requests that change something (the forms' submits), as "METHOD path". */
function writes(requests: readonly RecordedRequest[]): string[] {
  return requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
}

async function formImage(page: Page, name: string): Promise<void> {
  await page.mouse.move(5, 5);
  await saveImageOf(page, [page.locator('.part.editor')], name);
}

describe('UI: forms (code-server + Chromium)', { timeout: 420_000 }, () => {
  const ready = useUiFixture();

  it(
    'Create API Key: the form creates the key on the service, shows its secret once and lists the key',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          const baseUrl = await sandboxReady(page);
          const info = await sandboxInfo(baseUrl);
          await runCommand(page, 'Observability: Create API Key...');
          const form = webviewContent(page);
          await form.locator('h1', { hasText: 'Create an API key' }).waitFor({ state: 'visible', timeout: 30_000 });
          assert.equal(
            await form.locator('#f-environmentId input').inputValue(),
            info.environmentId,
            "the environment defaults to the connection's",
          );
          await form.locator('#f-name input').fill('ui-e2e ingest key');
          await formImage(page, 'form-api-key.png');

          await form.locator('#submit').click();
          await form.locator('h1', { hasText: 'API key created' }).waitFor({ state: 'visible', timeout: 20_000 });
          assert.equal(await form.locator('#created-name').textContent(), 'ui-e2e ingest key');
          const keyId = (await form.locator('#created-id').textContent()) ?? '';
          assert.match(keyId, /\S/, 'the new key id is shown');
          assert.match((await form.locator('#secret').textContent()) ?? '', /\S{8,}/, 'the secret is shown');

          const sent = await waitForSandboxRequest(
            baseUrl,
            'create API key request',
            (r) => r.method === 'POST' && r.path === `/2/teams/${info.team}/api-keys`,
          );
          assert.equal(sent.headers['content-type'], 'application/vnd.api+json');
          assert.equal(sent.headers['authorization'], '[redacted]', 'sent with the management key');
          assert.deepEqual(sent.body, {
            data: {
              type: 'api-keys',
              attributes: {
                key_type: 'ingest',
                name: 'ui-e2e ingest key',
                disabled: false,
                permissions: { create_datasets: false },
              },
              relationships: { environment: { data: { id: info.environmentId, type: 'environments' } } },
            },
          });
          assert.deepEqual(
            writes(await sandboxRequests(baseUrl)),
            [`POST /2/teams/${info.team}/api-keys`],
            'exactly one create',
          );

          // The tree's "API keys" group lists the key created here.
          await expand(treeRow(page, 'API keys'));
          await treeRow(page, 'ui-e2e ingest key').waitFor({ state: 'visible', timeout: 15_000 });
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'Edit Burn Alert on a burn alert node: the form shows hostile text as text and saves the change with PUT',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          // Tall enough for the whole form and the recipient picker's drop-down.
          await page.setViewportSize({ width: 1280, height: 1300 });
          const baseUrl = await sandboxReady(page);
          // The hostile strings' alert (in a dataset of their own): its description shows as typed, as text.
          await expand(treeRow(page, DEMO.datasets.hostile));
          await expand(treeRow(page, 'Burn alerts'));
          // Listed by the service, the SLO is named as the service names it (its name holds the hostile markup).
          await expand(treeRow(page, `SLO ${HOSTILE.bold}`));
          await inlineAction(treeRow(page, 'Budget rate: drop of 10000 per million in 60 min'), 'Edit Burn Alert...');
          const hostileForm = webviewContent(page);
          await hostileForm
            .locator('h1', { hasText: 'Edit burn alert' })
            .waitFor({ state: 'visible', timeout: 30_000 });
          const hostileDescription = `${HOSTILE.markdownLink} ${HOSTILE.script} ${HOSTILE.markdownCommand}`;
          assert.equal(
            await hostileForm.locator('#f-description textarea').inputValue(),
            hostileDescription,
            'the description is shown as typed',
          );
          assert.equal(
            await hostileForm.locator('#app').locator('script, img, a, iframe').count(),
            0,
            'nothing in the service text became markup',
          );
          await runCommand(page, 'View: Close Editor');
          await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
          await collapse(treeRow(page, DEMO.datasets.hostile));

          // An ordinary alert, for the picture and the save.
          await expand(treeRow(page, 'api-gateway'));
          await expand(treeRow(page, 'Burn alerts'));
          await expand(treeRow(page, 'Gateway availability'));
          const alertRow = treeRow(page, 'Budget rate: drop of 10000 per million in 60 min');
          await inlineAction(alertRow, 'Edit Burn Alert...');

          const form = webviewContent(page);
          await form.locator('h1', { hasText: 'Edit burn alert' }).waitFor({ state: 'visible', timeout: 30_000 });
          const description = 'Loses 1% of the budget within an hour.';
          assert.equal(await form.locator('#f-description textarea').inputValue(), description);
          assert.equal(await form.locator('#f-budget_rate_window_minutes input').inputValue(), '60');
          const thresholdInput = form.locator('#f-budget_rate_decrease_threshold_per_million input');
          assert.equal(await thresholdInput.inputValue(), '10000');
          await thresholdInput.fill('20000');
          // The list of burn alerts carries no recipients (spec 4.3): the form reads the one alert and starts
          // from its real recipients (service facts), and names the member it cannot send before Save.
          await form.locator('#recipients li', { hasText: 'Primary on-call' }).waitFor({ state: 'visible' });
          assert.equal(await form.locator('#recipients-unknown').isVisible(), false, 'the recipients are known');
          assert.match((await form.locator('#unsendable').textContent()) ?? '', /auto_investigate = true/);
          await form.locator('#recipient-pick').click();
          await form.getByRole('option', { name: 'oncall@example.com (email)', exact: true }).click();
          await form.locator('#add-recipient').click();
          await form.locator('#recipients li', { hasText: 'oncall@example.com' }).waitFor({ state: 'visible' });
          await formImage(page, 'form-burn-alert.png');

          await form.locator('#submit').click();
          await form.locator('#status-text', { hasText: 'Saved.' }).waitFor({ state: 'visible', timeout: 20_000 });
          const sent = await waitForSandboxRequest(baseUrl, 'burn alert update', (r) => r.method === 'PUT');
          assert.equal(sent.path, `/1/burn_alerts/api-gateway/${DEMO.burnAlerts.gwBudgetRate}`);
          assert.equal(sent.headers['content-type'], 'application/json');
          // Every writable member, the untouched description sent back exactly as it came.
          assert.deepEqual(sent.body, {
            alert_type: 'budget_rate',
            recipients: [PAGERDUTY_PRIMARY_AS_READ, { id: DEMO.recipients.emailOncall }],
            budget_rate_window_minutes: 60,
            budget_rate_decrease_threshold_per_million: 20000,
            description,
          });
          assert.deepEqual(
            writes(await sandboxRequests(baseUrl)),
            [`PUT /1/burn_alerts/api-gateway/${DEMO.burnAlerts.gwBudgetRate}`],
            'exactly one write',
          );

          // The tree shows the new threshold.
          await treeRow(page, 'Budget rate: drop of 20000 per million in 60 min').waitFor({
            state: 'visible',
            timeout: 15_000,
          });
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'Edit Dataset Definitions on a dataset node: only the changed definition is sent',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          const baseUrl = await sandboxReady(page);
          await contextMenu(treeRow(page, 'api-gateway'), 'Edit Dataset Definitions...');

          const form = webviewContent(page);
          await form
            .locator('h1', { hasText: 'Dataset definitions of api-gateway' })
            .waitFor({ state: 'visible', timeout: 30_000 });
          assert.equal(await form.locator('#f-route').inputValue(), 'http.route', 'the current definitions are shown');
          assert.equal(await form.locator('#f-log_message').inputValue(), '');
          await form.locator('#f-log_message').fill('notes');
          await form
            .locator('#summary', { hasText: '1 definition will be sent: Log message.' })
            .waitFor({ state: 'visible' });
          // The picture: the end of the form, with the changed definition, the summary and the buttons.
          await form.locator('#submit').scrollIntoViewIfNeeded();
          await formImage(page, 'form-dataset-definitions.png');

          await form.locator('#submit').click();
          await form
            .locator('#status-text', { hasText: 'Saved: Log message.' })
            .waitFor({ state: 'visible', timeout: 20_000 });
          const patches = (await sandboxRequests(baseUrl)).filter(
            (r) => r.method === 'PATCH' && r.path === '/1/dataset_definitions/api-gateway',
          );
          // The spec has no GET of definitions: the form reads them with an empty PATCH, then sends the change.
          assert.deepEqual(
            patches.map((r) => r.body),
            [{}, { log_message: { name: 'notes' } }],
          );
          assert.equal(await form.locator('#f-log_message').inputValue(), 'notes', 'the form shows the saved map');
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
