// Debian's Chromium through playwright-core (which never downloads a browser): the browser the webview
// tests, the bench's panel figures and the results page helper drive.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium; OBS_CHROMIUM names another binary. */
export const CHROMIUM = process.env['OBS_CHROMIUM'] ?? '/usr/bin/chromium';

export const missingBrowser = existsSync(CHROMIUM)
  ? undefined
  : `Chromium is not installed at ${CHROMIUM}: run "apt-get install -y chromium" to run the webview tests`;

/**
 * Why the browser tests are skipped (said on each skipped suite and counted in the summary), or false when
 * they run. In CI (CI=true) they are never skipped: a missing browser fails them, naming what to install.
 */
export const browserSkip: string | false =
  missingBrowser !== undefined && process.env['CI'] !== 'true' ? `SKIPPED: ${missingBrowser}` : false;

export async function launchBrowser(): Promise<Browser> {
  if (missingBrowser !== undefined) throw new Error(`${missingBrowser} (CI=true: the webview tests must run in CI)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
