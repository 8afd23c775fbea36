// UI suite: applying trigger files from the editor (code-server + Chromium), against the sandbox started from
// the welcome view, through the plan view. Apply run on the service's side of a Compare diff plans the file on
// its other side: the plan view shows the change member by member, Apply there writes it, the view shows the
// outcome, the diff's left side reads the new value with no error in the extension host's log, and the
// Datasets tree, the lens and the service agree. Apply a folder from the Explorer: a change left out is not
// written; a trigger changed on the service while the plan is shown writes nothing and is named; Plan Again
// shows the new plan (the change still left out), and applied, a new trigger's id goes into its file. Writes
// the pictures apply-plan.png and apply-result.png.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import {
  clearNotifications,
  contextMenu,
  exactly,
  expand,
  notificationText,
  openFile,
  replaceAllAndSave,
  runCommand,
  saveImageOf,
  sandboxInfo,
  startSandboxFromWelcome,
  tooltipOf,
  treeRow,
  webviewContent,
} from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const FILE = 'High-error-rate.trigger.json';

/** A CodeLens of the active editor whose text matches. */
function lens(page: Page, text: RegExp): Locator {
  return page.locator('.part.editor .codelens-decoration a').filter({ hasText: text }).first();
}

/** Pulls api-gateway's triggers into triggers/api-gateway from its context menu (the folder the setting names). */
async function pullGateway(page: Page): Promise<void> {
  await contextMenu(treeRow(page, 'api-gateway'), 'Pull Triggers to Files...');
  const pick = page.locator('.quick-input-widget');
  await pick.locator('.monaco-list-row').filter({ hasText: 'triggers' }).first().waitFor({ state: 'visible' });
  await page.keyboard.press('Enter');
  await notificationText(page, /^Pulled 7 triggers of api-gateway from Sandbox/, 60_000);
  await clearNotifications(page);
}

/** A version 1 call to the sandbox with its configuration key, as any client of the service makes it. */
async function service(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const info = await sandboxInfo(baseUrl);
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      'X-Service-Team': info.configKey,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The error lines of the extension host's logs so far (code-server writes them under its user data folder). */
function extensionHostErrors(userDataDir: string): string[] {
  const logs = join(userDataDir, 'logs');
  const files = readdirSync(logs, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('exthost.log'));
  return files.flatMap((f) =>
    readFileSync(join(logs, f), 'utf8')
      .split('\n')
      .filter((l) => l.includes('[error]')),
  );
}

/** A change of the plan view by its label. */
function change(view: FrameLocator, label: string): Locator {
  return view.locator('li.change').filter({ has: view.locator('.change-label', { hasText: label }) });
}

/** The rows of a change's members: [member, before, after] (a create has no before). */
async function members(c: Locator): Promise<string[][]> {
  return c
    .locator('table.members tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) =>
        [...r.querySelectorAll('th, td.before, td.after')].map((cell) => (cell.textContent ?? '').trim()),
      ),
    );
}

/** Waits for the plan view's status line to read `text`. */
async function status(view: FrameLocator, text: string): Promise<void> {
  await view.locator('#status', { hasText: text }).waitFor({ state: 'visible', timeout: 60_000 });
}

describe('UI: apply trigger files through the plan view (code-server + Chromium)', { timeout: 600_000 }, () => {
  const ready = useUiFixture();

  it(
    "Apply on the service's side of a Compare diff plans the file beside it; Apply in the plan view writes it and shows the outcome; the diff, tree, lens and service follow",
    { timeout: 300_000 },
    async (t) => {
      const { server, browser, workspace } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1600, height: 1000 });
          rmSync(join(workspace, 'triggers', 'api-gateway'), { recursive: true, force: true });
          const baseUrl = await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await expand(treeRow(page, 'api-gateway'));
          await expand(treeRow(page, 'Triggers'));
          const row = treeRow(page, 'High error rate');
          assert.match(await tooltipOf(page, row, /Threshold/), /Threshold:\s*>\s*5(?!\d)/);
          await pullGateway(page);

          await openFile(page, FILE);
          await lens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });
          await replaceAllAndSave(page, '"value": 5', '"value": 9');
          await lens(page, /Differs: threshold - Compare$/).click();
          const original = page.locator('.part.editor .monaco-diff-editor .editor.original .view-lines');
          await original
            .locator('.view-line', { hasText: /"value":\s5$/ })
            .waitFor({ state: 'visible', timeout: 60_000 });
          // The service's side of the diff is the active editor when Apply runs.
          await original.click();
          await runCommand(page, 'Observability: Apply to Service...');

          const view = webviewContent(page);
          const update = change(view, 'api-gateway "High error rate" (trig_gw_errors)');
          await update.waitFor({ state: 'visible', timeout: 60_000 });
          assert.deepEqual(await members(update), [['threshold.value', '5', '9']]);
          assert.equal(
            await update.locator('.file').textContent(),
            'triggers/api-gateway/High-error-rate.trigger.json',
          );
          await status(view, 'Nothing is written until you confirm.');
          assert.equal(await view.locator('#apply').textContent(), 'Apply 1 change to Sandbox');
          await view.locator('#apply').click();

          await status(view, 'Applied to Sandbox: 1 applied, 0 skipped, 0 refused, 0 failed.');
          assert.equal(await update.locator('.outcome .headline').textContent(), 'Updated');
          assert.doesNotMatch((await view.locator('body').textContent()) ?? '', /Nothing is written until you confirm/);
          assert.equal(await view.locator('#apply').count(), 0);
          const threshold = (await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_errors'))['threshold'] as {
            op?: unknown;
            value?: unknown;
          };
          assert.deepEqual([threshold.op, threshold.value], ['>', 9]);

          // The diff's left side is read again once drift has the service's lists again: the new value, no error.
          await original
            .locator('.view-line', { hasText: /"value":\s9$/ })
            .waitFor({ state: 'visible', timeout: 60_000 });
          // It was asked for its text while the lists were read again, and threw: the extension host logged it.
          assert.deepEqual(
            extensionHostErrors(server.userDataDir).filter((l) => l.includes('not among the triggers read')),
            [],
          );
          await tooltipOf(page, row, /Threshold:\s*>\s*9(?!\d)/);
          await page
            .locator('.tabs-container .tab')
            .filter({ has: page.locator('.label-name', { hasText: exactly(FILE) }) })
            .first()
            .click();
          await lens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });
        },
        (m) => t.diagnostic(m),
      );
    },
  );

  it(
    'Apply on a folder: a change left out is not written; a change on the service while the plan is shown writes nothing and is named; Plan Again, applied, creates the new trigger with its id in its file',
    { timeout: 300_000 },
    async (t) => {
      const { server, browser, workspace } = ready();
      await uiTest(
        t.name,
        browser,
        server,
        async ({ page }) => {
          await page.setViewportSize({ width: 1600, height: 1000 });
          const folder = join(workspace, 'triggers', 'api-gateway');
          rmSync(folder, { recursive: true, force: true });
          const baseUrl = await startSandboxFromWelcome(page);
          await clearNotifications(page);
          await pullGateway(page);
          // A new trigger, an edit of a pulled one, and an edit to leave out, all saved to disk.
          const created = join(folder, 'Many-5xx.trigger.json');
          const newTrigger = {
            dataset_slug: 'api-gateway',
            name: 'Many 5xx',
            threshold: { op: '>', value: 50 },
            frequency: 300,
            query: {
              calculations: [{ op: 'COUNT' }],
              filters: [{ column: 'status_code', op: '>=', value: 500 }],
              time_range: 600,
            },
          };
          writeFileSync(created, `${JSON.stringify(newTrigger, null, 2)}\n`);
          const office = join(folder, 'Office-hours-latency.trigger.json');
          const officeText = readFileSync(office, 'utf8');
          assert.match(officeText, /"frequency": 600,/);
          writeFileSync(office, officeText.replace('"frequency": 600,', '"frequency": 1200,'));
          const errors = join(folder, FILE);
          writeFileSync(errors, readFileSync(errors, 'utf8').replace('"value": 5', '"value": 7'));

          await openFile(page, 'Many-5xx.trigger.json');
          await runCommand(page, 'File: Reveal Active File in Explorer View');
          const folderRow = page
            .locator('.explorer-folders-view .monaco-list-row')
            .filter({ has: page.locator('.label-name', { hasText: /^api-gateway$/ }) })
            .first();
          await contextMenu(folderRow, 'Apply Trigger Files to the Service...');

          const view = webviewContent(page);
          const office0 = change(view, 'api-gateway "Office-hours latency" (trig_gw_window)');
          await office0.waitFor({ state: 'visible', timeout: 60_000 });
          assert.deepEqual(await view.locator('section.group h2').allTextContents(), [
            '1 trigger to create',
            "2 triggers to update (Sandbox's value -> the file's value)",
          ]);
          assert.deepEqual(await members(office0), [['frequency', '600', '1200']]);
          const many = change(view, 'api-gateway "Many 5xx"');
          assert.deepEqual(
            (await members(many)).map((m) => m[0]),
            ['name', 'threshold', 'frequency', 'query', 'disabled'],
          );
          // "High error rate" is left out of this apply.
          const errorsChange = change(view, 'api-gateway "High error rate" (trig_gw_errors)');
          await errorsChange.locator('vscode-checkbox.include').click();
          await errorsChange.locator('.excluded-mark').waitFor({ state: 'visible' });
          assert.equal(await view.locator('#apply').textContent(), 'Apply 2 changes to Sandbox');
          // The pictures show the plan view, its tab included, with the room the side bar took.
          await runCommand(page, 'View: Close Primary Side Bar');
          await page.locator('.part.sidebar').waitFor({ state: 'hidden' });
          const pictured = [
            page.locator('.part.editor .tab', { hasText: 'Plan for Sandbox' }),
            page.locator('iframe.webview').last(),
          ];
          await saveImageOf(page, pictured, 'apply-plan.png');

          // Someone changes the trigger on the service while the plan is shown.
          const before = await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_window');
          // The whole writable trigger, as any client sends it (an inline query is listed with its query_id too).
          const {
            id: _id,
            triggered: _t,
            created_at: _c,
            updated_at: _u,
            dataset_slug: _d,
            query_id: _q,
            ...writable
          } = before;
          const recipients = (writable['recipients'] as { id: string }[]).map((r) => ({ id: r.id }));
          await service(baseUrl, 'PUT', '/1/triggers/api-gateway/trig_gw_window', {
            ...writable,
            recipients,
            description: 'Changed by a colleague',
          });
          await view.locator('#apply').click();

          // Planned again at the apply, the plan is no longer the one shown: nothing at all is written, and the
          // change is named.
          await status(
            view,
            'Nothing was written to Sandbox: the files or the service changed since the plan was shown. Plan again to see the new plan.',
          );
          assert.match(
            (await view.locator('.differences li').allTextContents()).join('\n'),
            /^the update of "Office-hours latency" \(trig_gw_window\) from triggers\/api-gateway\/Office-hours-latency\.trigger\.json: description: "Changed by a colleague" -> "Average latency, [^\n]* was not in the plan$/,
          );
          assert.equal((JSON.parse(readFileSync(created, 'utf8')) as { id?: unknown }).id, undefined);
          assert.equal(
            (await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_window'))['frequency'],
            600,
            "the colleague's change was not written over",
          );

          // Planned again: the new plan shows what the file would undo of the colleague's change; "High error
          // rate" is still left out.
          await view.locator('#plan-again').click();
          const description = (JSON.parse(officeText) as { description: string }).description;
          await office0
            .locator('td.before', { hasText: '"Changed by a colleague"' })
            .waitFor({ state: 'visible', timeout: 60_000 });
          assert.deepEqual(
            (await members(office0)).find((m) => m[0] === 'description'),
            ['description', '"Changed by a colleague"', JSON.stringify(description)],
          );
          await errorsChange.locator('.excluded-mark').waitFor({ state: 'visible' });
          await view.locator('#apply').click();
          await status(view, 'Applied to Sandbox: 2 applied, 0 skipped, 0 refused, 0 failed.');
          assert.match((await many.locator('.outcome .headline').textContent()) ?? '', /^Created as \S+$/);
          assert.equal(
            await errorsChange.locator('.outcome .headline').textContent(),
            'Not written: you left it out of this apply',
          );
          // The new file's lens, read again after the writes, says it is on the service now.
          await lens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });
          await saveImageOf(page, pictured, 'apply-result.png');

          const written = readFileSync(created, 'utf8');
          const id = (JSON.parse(written) as { id?: unknown }).id;
          assert.equal(typeof id, 'string');
          assert.equal(
            written,
            `${JSON.stringify({ id, ...newTrigger }, null, 2)}\n`,
            'the id is the one member added',
          );
          assert.equal(
            await many.locator('.outcome .details li').first().textContent(),
            'id written into triggers/api-gateway/Many-5xx.trigger.json',
          );
          assert.equal((await service(baseUrl, 'GET', `/1/triggers/api-gateway/${String(id)}`))['name'], 'Many 5xx');
          assert.equal((await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_window'))['frequency'], 1200);
          assert.equal(
            (
              (await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_errors'))['threshold'] as {
                value?: unknown;
              }
            ).value,
            5,
            'the change left out was not written',
          );
        },
        (m) => t.diagnostic(m),
      );
    },
  );
});
