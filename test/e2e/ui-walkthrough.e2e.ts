// UI suite: the extension's walkthrough ("Get Started with Observability Config") as a newcomer meets it.
// Its steps show with their pictures (from the repository's address), and the first step's button starts
// the local sandbox, which marks the step done.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { exactly, notificationText, runCommand, saveImageOf } from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const TITLE = 'Get Started with Observability Config';
const STEPS = [
  'Connect, or try the local sandbox',
  'Browse datasets, triggers and burn alerts',
  'Lint a trigger file',
  'Run a query, preview a trigger',
  'Change triggers as files, apply from a plan',
  'Keep burn alerts and definitions in files',
  'Test a trigger against past data',
  'Find noisy triggers',
];
/** Where the walkthrough's pictures are: the repository's docs/images (package.json, docs/ARCHITECTURE.md). */
const IMAGES_BASE = 'https://example.invalid/obs-vscode/raw/HEAD/';
const root = join(import.meta.dirname, '..', '..');

/**
 * Answers the page's requests for the repository's pictures with the checkout's files, as the repository
 * would: the .vsix ships no picture, this machine has no network and the repository's address is a placeholder.
 */
async function serveRepositoryPictures(page: Page): Promise<void> {
  await page.route(`${IMAGES_BASE}**`, (route) => {
    const path = route.request().url().slice(IMAGES_BASE.length);
    if (!/^docs\/images\/[\w-]+\.png$/.test(path)) return route.fulfill({ status: 404 });
    return route.fulfill({ path: join(root, path), contentType: 'image/png' });
  });
}

/** The buttons of the steps for apply, burn alert and definitions files, trigger tests and the noise report. */
const LATER_BUTTONS: Record<string, string[]> = {
  'Change triggers as files, apply from a plan': ['Pull All Triggers to Files', 'Apply Trigger Files to the Service'],
  'Keep burn alerts and definitions in files': ['Pull Burn Alerts to Files', 'Pull Dataset Definitions to Files'],
  'Test a trigger against past data': ['Open the Test Explorer', 'Run All Tests'],
  'Find noisy triggers': ['Show Noise Report'],
};

/** Opens the walkthrough through "Welcome: Open Walkthrough...", as a user who closed it would. */
async function openWalkthrough(page: Page): Promise<void> {
  await runCommand(page, 'Welcome: Open Walkthrough...');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-box input').fill('Observability');
  // Chosen with Enter once it is the focused row: a hover over the row (its long description) can take the click.
  await widget.locator('.monaco-list-row.focused').filter({ hasText: TITLE }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await page
    .locator('.gettingStartedContainer')
    .getByText(TITLE, { exact: true })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
}

describe('UI: walkthrough (code-server + Chromium)', { timeout: 300_000 }, () => {
  const ready = useUiFixture();

  it(
    'the walkthrough lists its eight steps (apply, burn alert and definitions files, trigger tests and the noise report among them, each with its buttons), and its first button starts the sandbox and marks the step done',
    { timeout: 240_000 },
    async (t) => {
      const { server, browser } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1400, height: 900 });
          // The steps' pictures show beside them only in an editor wider than 950 px: the side bar makes room.
          await runCommand(page, 'View: Close Primary Side Bar');
          await serveRepositoryPictures(page);
          await openWalkthrough(page);
          const container = page.locator('.gettingStartedContainer');
          const steps = container.locator('.getting-started-step');
          for (const title of STEPS)
            await steps
              .filter({ has: page.locator('.step-title', { hasText: exactly(title) }) })
              .first()
              .waitFor({ state: 'visible' });
          assert.deepEqual(
            (await steps.locator('.step-title').allTextContents()).map((s) => s.trim()),
            STEPS,
          );
          const step = (title: string) =>
            steps.filter({ has: page.locator('.step-title', { hasText: exactly(title) }) }).first();
          for (const [title, buttons] of Object.entries(LATER_BUTTONS)) {
            await step(title).click();
            for (const name of buttons)
              await step(title)
                .getByRole('button', { name: exactly(name) })
                .waitFor({ state: 'visible' });
          }
          const first = step(STEPS[0] ?? '');
          await first.click();
          assert.equal(await first.locator('.codicon.complete').count(), 0, 'not done before its button was used');
          // The step's picture comes from the repository's address of docs/images/sidebar.png, and loads.
          const picture = container.locator('.getting-started-media img').first();
          await picture.waitFor({ state: 'visible' });
          assert.equal(
            await picture.evaluate((img: HTMLImageElement) => img.currentSrc),
            `${IMAGES_BASE}docs/images/sidebar.png`,
          );
          assert.ok(
            await picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
            'the step picture loaded',
          );
          await saveImageOf(page, [container], 'walkthrough.png');

          await first.getByRole('button', { name: 'Try the Local Sandbox' }).click();
          await notificationText(page, /The local sandbox runs at/);
          // Running the step's command completes it (completionEvents onCommand:obs.sandbox.start).
          await first
            .locator('.codicon.complete, .codicon-getting-started-step-checked')
            .first()
            .waitFor({ state: 'visible', timeout: 30_000 });
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
