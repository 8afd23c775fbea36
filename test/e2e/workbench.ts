// Drives Debian's Chromium (playwright-core, never a downloaded browser) against code-server.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot, requireInstall, type CodeServer } from '../../scripts/codeServer';

export const resultsDir = join(repoRoot, 'test-results');

/** Flags that work on these machines; the networking ones stop Chromium from calling home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: requireInstall().chromium, headless: true, args: CHROMIUM_ARGS });
}

export interface Workbench {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Dialogs, page errors, popups and navigations away from the workbench seen so far. */
  readonly problems: string[];
}

/**
 * Opens the workbench in a fresh browser context and waits for `.monaco-workbench`.
 * Records (and dismisses) any dialog, uncaught page error, popup window or navigation off the
 * workbench origin in `problems`; tests assert it stays empty.
 */
export async function openWorkbench(
  browser: Browser,
  server: CodeServer,
  options: { trace?: boolean } = {},
): Promise<Workbench> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (options.trace) await context.tracing.start({ screenshots: true, snapshots: true });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(server.url).origin;
  page.on('dialog', (dialog) => {
    problems.push(`unexpected ${dialog.type()} dialog: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.stack ?? error.message}`));
  let arrived = false;
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const url = frame.url();
    if (originOf(url) === origin) arrived = true;
    else if (arrived) problems.push(`navigated away from the workbench to ${url}`);
  });
  // A navigation that fails (nothing listening there) never commits, so also watch the requests.
  page.on('request', (request) => {
    if (!arrived || !request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    if (originOf(request.url()) !== origin) problems.push(`navigation away from the workbench to ${request.url()}`);
  });
  context.on('page', (other) => {
    if (other !== page) problems.push(`unexpected new window: ${other.url()}`);
  });
  await page.goto(server.workbenchUrl);
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
  return { context, page, problems };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Problems seen so far, plus a main frame that is no longer on the workbench's origin. */
export function workbenchProblems(workbench: Workbench, server: CodeServer): string[] {
  const url = workbench.page.url();
  const away = originOf(url) === new URL(server.url).origin ? [] : [`the page is no longer the workbench: ${url}`];
  return [...workbench.problems, ...away];
}

function slug(name: string): string {
  return name
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 80);
}

/**
 * Runs a UI test body against a fresh workbench page, once: a test that fails is fixed at its cause, never
 * retried. On failure keeps a screenshot, a Playwright trace (open it with `npx playwright show-trace <file>`
 * on a machine with a browser) and VS Code's logs as they are then (the extension host's and the extension's
 * own output channel among them) under test-results/. Fails on any recorded problem.
 */
export async function uiTest(
  name: string,
  browser: Browser,
  server: CodeServer,
  body: (workbench: Workbench) => Promise<void>,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  let workbench: Workbench | undefined;
  try {
    workbench = await openWorkbench(browser, server, { trace: true });
    await body(workbench);
    const problems = workbenchProblems(workbench, server);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    await workbench.context.tracing.stop();
    await workbench.context.close();
  } catch (error) {
    const base = join(resultsDir, slug(name));
    mkdirSync(resultsDir, { recursive: true });
    if (workbench) {
      await workbench.page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
      await workbench.context.tracing.stop({ path: `${base}-trace.zip` }).catch(() => undefined);
      await workbench.context.close().catch(() => undefined);
    }
    const logs = join(server.userDataDir, 'logs');
    if (existsSync(logs)) cpSync(logs, `${base}-logs`, { recursive: true });
    log(
      `failed (artifacts: ${base}.png, ${base}-trace.zip, ${base}-logs): ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
}
