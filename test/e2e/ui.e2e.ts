// UI suite: Debian's Chromium (headless, playwright-core) against code-server with the packaged
// extension installed and demo/workspace (a copy) open.
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { copyWorkspace, repoRoot, startCodeServer, type CodeServer } from './codeServer';
import { demoWorkspace } from './inHost';
import { launchChromium, uiTest } from './workbench';

describe('UI (code-server + Chromium)', { timeout: 420_000 }, () => {
  let tmp = '';
  let server: CodeServer | undefined;
  let browser: Browser | undefined;

  function ready(): { server: CodeServer; browser: Browser } {
    if (!server || !browser) throw new Error('code-server or Chromium did not start (see before hook)');
    return { server, browser };
  }

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'obs-e2e-ui-'));
    const workspace = copyWorkspace(demoWorkspace, tmp);
    const csDir = join(tmp, 'code-server');
    mkdirSync(csDir);
    server = await startCodeServer({ workspace, tmpDir: csDir });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the Observability activity bar entry opens the Datasets view', { timeout: 240_000 }, async (t) => {
    const { server, browser } = ready();
    await uiTest(t.name, browser, server, async ({ page }) => {
      const entry = page.locator('.part.activitybar').locator('[aria-label*="Observability"]').first();
      await entry.waitFor({ state: 'visible', timeout: 60_000 });
      await entry.click();
      const sidebar = page.locator('.part.sidebar');
      await sidebar.waitFor({ state: 'visible' });
      await sidebar.getByText('Datasets', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
      // A clean picture: no tooltip from the hover over the activity bar, no view progress bar.
      await page.mouse.move(900, 500);
      await page.locator('.monaco-hover, .workbench-hover').first().waitFor({ state: 'hidden' });
      await sidebar.locator('.monaco-progress-container.active').first().waitFor({ state: 'hidden' });
      mkdirSync(join(repoRoot, 'docs', 'images'), { recursive: true });
      await sidebar.screenshot({ path: join(repoRoot, 'docs', 'images', 'sidebar.png') });
    }, (m) => t.diagnostic(m));
  });
});
