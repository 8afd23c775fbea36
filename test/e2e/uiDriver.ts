// Drivers for the workbench UI shared by the ui*.e2e.ts suites: the Observability side bar, its tree,
// the command palette, notifications, the Problems view, webview forms and the sandbox's control
// endpoint. Every wait is on a concrete UI state (a locator or a predicate), never a fixed sleep.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { RecordedRequest, SandboxInfo } from '../../src/sandbox/types';
import { repoRoot } from '../../scripts/codeServer';

/**
 * Where the UI suite writes its pictures: test-results/screenshots, so a test run never changes a tracked
 * file. `npm run screenshots` points OBS_SCREENSHOTS_DIR at docs/images to refresh the README's on purpose.
 */
export const imagesDir = resolve(repoRoot, process.env['OBS_SCREENSHOTS_DIR'] ?? join('test-results', 'screenshots'));

/** A RegExp that matches exactly `text` (after Playwright's whitespace normalisation). */
export function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
}

export function sidebar(page: Page): Locator {
  return page.locator('.part.sidebar');
}

/** Opens the Observability view container from the activity bar; resolves once the Datasets view shows. */
export async function openObservability(page: Page): Promise<Locator> {
  const bar = sidebar(page);
  const entry = page.locator('.part.activitybar').locator('[aria-label*="Observability"]').first();
  await entry.waitFor({ state: 'visible', timeout: 60_000 });
  // A click on the entry of the container already shown would close the side bar.
  if (!(await bar.locator('[id="workbench.view.extension.obs"]').isVisible())) await entry.click();
  await bar
    .locator('.pane-header, .title-label')
    .filter({ hasText: /Datasets/ })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 });
  return bar;
}

/** The Datasets view's pane of the side bar (the Drift view shares the container). */
export function datasetsPane(page: Page): Locator {
  return sidebar(page)
    .locator('.pane')
    .filter({ has: page.locator('.pane-header', { hasText: /Datasets/i }) });
}

/** The Drift view's pane header, by its title. */
const DRIFT_TITLE = /\bDrift\b/;

/** Expands the Drift view (collapsed at first) below the Datasets view. */
export async function expandDriftView(page: Page): Promise<void> {
  const header = sidebar(page).locator('.pane-header').filter({ hasText: DRIFT_TITLE });
  await header.waitFor({ state: 'visible' });
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await header.and(page.locator('[aria-expanded="true"]')).waitFor({ state: 'visible' });
}

/** A row of the Drift view whose label is exactly `label`. */
export function driftRow(page: Page, label: string): Locator {
  return sidebar(page)
    .locator('.pane')
    .filter({ has: page.locator('.pane-header', { hasText: DRIFT_TITLE }) })
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });
}

/** A CodeLens of the editor whose text matches `text`. */
export function codeLens(page: Page, text: RegExp): Locator {
  return page.locator('.part.editor .codelens-decoration a').filter({ hasText: text }).first();
}

/** An action of the active editor's title bar, by its title. */
export function titleAction(page: Page, title: string): Locator {
  return page.locator(`.part.editor .editor-actions .action-label[aria-label="${title}"]`).first();
}

/** A row of the Datasets tree whose label (not description) is exactly `label`. */
export function treeRow(page: Page, label: string): Locator {
  return datasetsPane(page)
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) });
}

/** The labels of the visible tree rows, top to bottom. */
export async function treeLabels(page: Page): Promise<string[]> {
  return datasetsPane(page).locator('.monaco-list-row .label-name').allTextContents();
}

/** Expands a collapsed tree row (a no-op when already expanded) and waits until it shows as expanded. */
export async function expand(row: Locator): Promise<void> {
  await row.waitFor({ state: 'visible' });
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
  await row.and(row.page().locator('[aria-expanded="true"]')).waitFor({ state: 'visible' });
}

export async function collapse(row: Locator): Promise<void> {
  await row.waitFor({ state: 'visible' });
  if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click();
  await row.and(row.page().locator('[aria-expanded="false"]')).waitFor({ state: 'visible' });
}

/** The codicon id of a tree row's icon (`bell-dot` for `codicon codicon-bell-dot`). */
export async function rowIcon(row: Locator): Promise<{ id: string | undefined; color: string }> {
  return row.locator('.custom-view-tree-node-item-icon').evaluate((el) => ({
    id: [...el.classList].find((c) => c.startsWith('codicon-'))?.slice('codicon-'.length),
    color: (el as HTMLElement).style.color,
  }));
}

export async function rowDescription(row: Locator): Promise<string> {
  const description = row.locator('.label-description');
  return (await description.count()) > 0 ? ((await description.textContent()) ?? '') : '';
}

/** Runs a command by its palette title ("Observability: Create API Key..."), as a user would with F1. */
export async function runCommand(page: Page, title: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const item = widget
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(title) }) })
    .first();
  await item.waitFor({ state: 'visible' });
  await item.click();
  // Done when the palette closed, or when the command opened a quick input of its own.
  await page.waitForFunction((typed) => {
    const box = document.querySelector<HTMLElement>('.quick-input-widget');
    if (!box || box.style.display === 'none' || box.offsetParent === null) return true;
    return box.querySelector<HTMLInputElement>('.quick-input-box input')?.value !== typed;
  }, `>${title}`);
}

/** The palette titles that F1 offers for `query`, then closes the palette. */
export async function paletteTitles(page: Page, query: string): Promise<string[]> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  await page.keyboard.press('F1');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${query}`);
  // The list filters as it is typed: wait until every row shown matches the query.
  await page.waitForFunction((q) => {
    const rows = [...document.querySelectorAll('.quick-input-widget .monaco-list-row .label-name')];
    return rows.length > 0 && rows.every((r) => (r.textContent ?? '').toLowerCase().includes(q.toLowerCase()));
  }, query);
  const titles = await widget.locator('.monaco-list-row .label-name').allTextContents();
  await page.keyboard.press('Escape');
  await widget.waitFor({ state: 'hidden' });
  return titles.map((t) => t.replace(/\u00a0/g, ' ')).sort();
}

/** Opens a workspace file by name through "Go to File..." and waits for its editor tab to be active. */
export async function openFile(page: Page, fileName: string): Promise<void> {
  await runCommand(page, 'Go to File...');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('.quick-input-box input').fill(fileName);
  await widget
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exactly(fileName) }) })
    .first()
    .click();
  await page.locator('.tabs-container .tab.active').filter({ hasText: fileName }).waitFor({ state: 'visible' });
}

/** The text of the first notification toast whose message matches `pattern`. */
export async function notificationText(page: Page, pattern: RegExp, timeout = 30_000): Promise<string> {
  const message = page
    .locator('.notifications-toasts .notification-list-item-message')
    .filter({ hasText: pattern })
    .first();
  await message.waitFor({ state: 'visible', timeout });
  return (await message.textContent()) ?? '';
}

/** Clears every notification (toasts and centre), so screenshots and clicks are not covered. */
export async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'hidden' });
}

/**
 * Clicks "Try the Local Sandbox" in the Datasets view's welcome content and returns the sandbox's base
 * URL as the extension announces it. Resolves once the tree shows the sandbox's datasets.
 */
export async function startSandboxFromWelcome(page: Page): Promise<string> {
  const bar = await openObservability(page);
  const button = bar.locator('.welcome-view-content .monaco-button', { hasText: exactly('Try the Local Sandbox') });
  await button.waitFor({ state: 'visible', timeout: 30_000 });
  await button.click();
  const text = await notificationText(page, /The local sandbox runs at/);
  const baseUrl = /runs at (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
  if (baseUrl === undefined) throw new Error(`no loopback base URL in the notification "${text}"`);
  await treeRow(page, 'api-gateway').waitFor({ state: 'visible', timeout: 30_000 });
  return baseUrl;
}

/** Waits until the side bar's view shows no progress bar (the tree finished loading what it asked for). */
export async function treeSettled(page: Page): Promise<void> {
  await sidebar(page).locator('.monaco-progress-container.active').first().waitFor({ state: 'hidden' });
}

/**
 * The control token of the sandboxes the extension starts in code-server: the UI fixture hands it over in
 * OBS_SANDBOX_CONTROL_TOKEN (docs/SANDBOX.md), since the test cannot read it from the extension host.
 */
export const SANDBOX_CONTROL_TOKEN = randomBytes(16).toString('hex');
const control = { headers: { 'X-Sandbox-Token': SANDBOX_CONTROL_TOKEN } };

/** The sandbox's own description of itself (team, environment, keys' ids), from its control endpoint. */
export async function sandboxInfo(baseUrl: string): Promise<SandboxInfo> {
  const res = await fetch(`${baseUrl}/__sandbox/info`, control);
  if (!res.ok) throw new Error(`GET ${baseUrl}/__sandbox/info answered ${res.status}`);
  return (await res.json()) as SandboxInfo;
}

/** What the sandbox received, from its control endpoint (loopback only, never recorded itself). */
export async function sandboxRequests(baseUrl: string): Promise<RecordedRequest[]> {
  const res = await fetch(`${baseUrl}/__sandbox/requests`, control);
  if (!res.ok) throw new Error(`GET ${baseUrl}/__sandbox/requests answered ${res.status}`);
  return (await res.json()) as RecordedRequest[];
}

export async function clearSandboxRequests(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/__sandbox/requests`, { method: 'DELETE', ...control });
  if (!res.ok) throw new Error(`DELETE ${baseUrl}/__sandbox/requests answered ${res.status}`);
}

/** Polls the sandbox until a recorded request satisfies `match`; returns it. */
export async function waitForSandboxRequest(
  baseUrl: string,
  what: string,
  match: (r: RecordedRequest) => boolean,
  timeoutMs = 20_000,
): Promise<RecordedRequest> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await sandboxRequests(baseUrl)).find(match);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = (await sandboxRequests(baseUrl)).map((r) => `${r.method} ${r.path}`).join(', ');
      throw new Error(`the sandbox received no ${what} within ${timeoutMs} ms (received: ${seen || 'nothing'})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/**
 * The content of the webview panel: `iframe.webview` then its `#active-frame`. With several webviews
 * open, the last one created (tests open one form at a time).
 */
export function webviewContent(page: Page): FrameLocator {
  return page.locator('iframe.webview').last().contentFrame().frameLocator('#active-frame');
}

/** Runs a tree row's context-menu item, as a right-click would. */
export async function contextMenu(row: Locator, item: string): Promise<void> {
  await row.click({ button: 'right' });
  const entry = row
    .page()
    .locator('.context-view .monaco-menu .action-item')
    .filter({ has: row.page().locator('.action-label', { hasText: exactly(item) }) });
  await entry.waitFor({ state: 'visible' });
  await entry.click();
  const menu = row.page().locator('.context-view .monaco-menu');
  try {
    await menu.waitFor({ state: 'hidden', timeout: 3_000 });
    return;
  } catch {
    // The workbench ignores a click that comes right after the menu opened (it guards against the
    // right-click's own mouse-up), which happened in loaded runs; the item is highlighted: Enter runs it.
  }
  await entry.hover();
  await row.page().keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden' });
}

/** Clicks a tree row's inline action (shown on hover) by its title. */
export async function inlineAction(row: Locator, title: string): Promise<void> {
  await row.hover();
  const action = row.locator(`.actions .action-label[aria-label="${title.replace(/"/g, '\\"')}"]`);
  await action.waitFor({ state: 'visible' });
  await action.click();
}

/** The text of the active editor's visible lines (non-breaking spaces as spaces), top to bottom. */
export async function editorText(page: Page): Promise<string> {
  return page
    .locator('.part.editor .editor-instance .monaco-editor .view-lines')
    .first()
    .evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('.view-line')]
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
        .map((line) => (line.textContent ?? '').replace(/\u00a0/g, ' '))
        .join('\n'),
    );
}

/** Waits until the active editor shows a line whose text is exactly `line` (leading/trailing spaces aside). */
export async function waitForEditorLine(page: Page, line: string, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor .view-lines .view-line')].some(
        (el) => (el.textContent ?? '').replace(/\u00a0/g, ' ').trim() === wanted,
      ),
    line,
    { timeout },
  );
}

/** Drags the side bar's edge until the side bar is `width` pixels wide (labels and descriptions fit). */
export async function widenSidebar(page: Page, width: number): Promise<void> {
  const box = await sidebar(page).boundingBox();
  if (!box) throw new Error('the side bar is not shown');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(
    (min) => (document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) >= min,
    width - 20,
  );
}

/** Writes a screenshot of the smallest rectangle holding every one of `parts` to docs/images/<name>. */
export async function saveImageOf(page: Page, parts: Locator[], name: string): Promise<string> {
  const boxes = await Promise.all(parts.map((p) => p.boundingBox()));
  if (boxes.some((b) => b === null)) throw new Error(`a part of the picture ${name} is not shown`);
  const shown = boxes.filter((b): b is NonNullable<typeof b> => b !== null);
  const x = Math.min(...shown.map((b) => b.x));
  const y = Math.min(...shown.map((b) => b.y));
  const right = Math.max(...shown.map((b) => b.x + b.width));
  const bottom = Math.max(...shown.map((b) => b.y + b.height));
  mkdirSync(imagesDir, { recursive: true });
  const path = join(imagesDir, name);
  await page.screenshot({ path, clip: { x, y, width: right - x, height: bottom - y } });
  return path;
}

/** A picture of the side bar down to its last tree row (not the empty space below). */
export async function saveSidebarImage(page: Page, name: string): Promise<string> {
  const bar = await sidebar(page).boundingBox();
  const last = await sidebar(page).locator('.monaco-list-row').last().boundingBox();
  if (!bar || !last) throw new Error('the side bar shows no tree rows');
  mkdirSync(imagesDir, { recursive: true });
  const path = join(imagesDir, name);
  const height = Math.min(bar.height, last.y + last.height + 12 - bar.y);
  await page.screenshot({ path, clip: { x: bar.x, y: bar.y, width: bar.width, height } });
  return path;
}

/** Moves the mouse off every control and waits for hovers to go, for a clean picture. */
export async function clearHover(page: Page): Promise<void> {
  const hover = page.locator('.monaco-hover, .workbench-hover').first();
  // The mouse is parked in the editor area, away from any hover: a hover the mouse rests on stays open, and a
  // large one (a tooltip of many rows) can cover the usual spot, so the spot moves to the right of it.
  const box = await hover.boundingBox().catch(() => null);
  const inside = box !== null && 900 >= box.x && 900 <= box.x + box.width && 500 >= box.y && 500 <= box.y + box.height;
  const width = page.viewportSize()?.width ?? 1280;
  await page.mouse.move(inside && box !== null ? Math.min(width - 5, box.x + box.width + 20) : 900, 500, { steps: 4 });
  // A hover whose delay ran out after the pointer left its row (the tree redrew under it) is shown with no
  // pointer to leave it, and stays: Escape closes it, as a user would. One that hides by itself is let go.
  await hover.waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => page.keyboard.press('Escape'));
  await hover.waitFor({ state: 'hidden' });
}

/**
 * Replaces every `find` with `replace` in the active editor through Find and Replace (typing would auto-close
 * quotes), then saves it.
 */
export async function replaceAllAndSave(page: Page, find: string, replace: string): Promise<void> {
  await page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+H');
  const widget = page.locator('.part.editor .find-widget');
  await widget.locator('.find-part textarea').fill(find);
  await widget.locator('.replace-part textarea').fill(replace);
  await widget.locator('.replace-part textarea').press('ControlOrMeta+Alt+Enter');
  await page.keyboard.press('Escape');
  await page.locator('.part.editor .monaco-editor .view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+S');
  // The save is under way when the key returns: a command run now would find the document still dirty. The
  // tab turned dirty with the replace (the workbench draws it in the same task), so a clean tab is the save done.
  await page
    .locator('.part.editor .editor-group-container.active .tabs-container .tab.active:not(.dirty)')
    .waitFor({ state: 'visible' });
}

/**
 * The text of the Datasets tree's tooltip of a row once it matches `expected`. VS Code resolves a row's
 * tooltip once per drawing of the row, and the tree redraws when its data arrives (after an apply, when
 * the account's recipients are read): so the pointer leaves the row and comes back, as a user would, until
 * the tooltip says what is expected or 60 s have passed (then the last tooltip seen is in the error).
 */
export async function tooltipOf(page: Page, row: Locator, expected: RegExp): Promise<string> {
  const hover = page.locator('.workbench-hover .rendered-markdown').first();
  const deadline = Date.now() + 60_000;
  let seen = '';
  while (Date.now() < deadline) {
    await clearHover(page);
    await row.hover();
    const matched = await hover
      .filter({ hasText: expected })
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    seen = (await hover.textContent({ timeout: 1_000 }).catch(() => null)) ?? seen;
    if (matched) return seen;
  }
  throw new Error(`the tooltip never matched ${String(expected)}; last seen: ${seen}`);
}

/**
 * Reloads the window the way "Developer: Reload Window" does: the workbench saves its state (editors,
 * webview panels' getState/setState state) before it navigates, then the page loads again. Resolves once
 * the new page shows the workbench. (A bare `page.reload()` is the browser's F5: VS Code writes its
 * state to IndexedDB during unload on a best-effort basis, and the last webview state can be lost.)
 */
export async function reloadWindow(page: Page): Promise<void> {
  const navigated = page.waitForEvent('framenavigated', {
    predicate: (frame) => frame === page.mainFrame(),
    timeout: 60_000,
  });
  await runCommand(page, 'Developer: Reload Window');
  await navigated;
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
}

/** Polls a file on disk until its text matches `pattern`. */
export async function waitForFile(file: string, pattern: RegExp, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(readFileSync(file, 'utf8'))) {
    if (Date.now() > deadline)
      throw new Error(`${file} did not come to match ${String(pattern)} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until each side of the diff editor shows its value of `member` (a side made by the extension after the
 * diff opens is drawn later), then returns each side's text as shown.
 */
export async function diffSides(
  page: Page,
  values: { original: number; modified: number },
  member = 'value',
): Promise<{ original: string; modified: string }> {
  const diff = page.locator('.part.editor .monaco-diff-editor').first();
  const lines = (side: 'original' | 'modified') => diff.locator(`.editor.${side} .view-lines`).first();
  for (const side of ['original', 'modified'] as const)
    await lines(side)
      .filter({ hasText: new RegExp(`"${member}":\\s${values[side]}\\b`) })
      .waitFor({ state: 'visible', timeout: 30_000 });
  const text = async (side: 'original' | 'modified') => (await lines(side).innerText()).replace(/\u00a0/g, ' ');
  return { original: await text('original'), modified: await text('modified') };
}
