// UI suite: applying trigger files from the editor (code-server + Chromium), against the sandbox started from
// the welcome view. Apply from the CodeLens of an edited file: the plan beside, one question naming the
// connection, the write, then the Datasets tree, the lens and the service agree. Apply a folder from the
// Explorer: a new trigger gets its id written into its file, and a trigger changed on the service after the
// plan is skipped and said so. Writes the pictures apply-plan.png and apply-result.png.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { clearNotifications, contextMenu, expand, notificationText, openFile, replaceAllAndSave, runCommand, saveImageOf, sandboxInfo, startSandboxFromWelcome, tooltipOf, treeRow, waitForEditorLine } from './uiDriver';
import { useUiFixture } from './uiSuite';
import { uiTest } from './workbench';

const FILE = 'High-error-rate.trigger.json';

/** A CodeLens of the active editor whose text matches. */
function lens(page: Page, text: RegExp): Locator {
  return page.locator('.part.editor .codelens-decoration a').filter({ hasText: text }).first();
}

/** The workbench's modal dialog (VS Code draws its own, in the page). */
function dialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box');
}

async function dialogText(page: Page, part: 'message-text' | 'message-detail'): Promise<string> {
  return ((await dialog(page).locator(`.dialog-${part}`).first().textContent()) ?? '').replace(/\u00a0/g, ' ');
}

async function dialogButton(page: Page, title: string): Promise<void> {
  await dialog(page).locator('.dialog-buttons .monaco-button', { hasText: title }).first().click();
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
async function service(baseUrl: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const info = await sandboxInfo(baseUrl);
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'X-Service-Team': info.configKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

describe('UI: apply trigger files (code-server + Chromium)', { timeout: 600_000 }, () => {
  const ready = useUiFixture();

  it('Apply from the CodeLens writes a changed threshold after one question naming the connection; tree, lens and service follow', { timeout: 300_000 }, async (t) => {
    const { server, browser, workspace } = ready();
    await uiTest(t.name, browser, server, async ({ page }) => {
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
      await lens(page, /Differs: threshold - Compare$/).waitFor({ state: 'visible', timeout: 60_000 });

      await lens(page, /Apply to Sandbox$/).click();
      await dialog(page).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await dialogText(page, 'message-text'), 'Apply 1 change to Sandbox?');
      assert.match(await dialogText(page, 'message-detail'), /^0 to create, 1 to update, 0 to delete, 0 unchanged, 0 blocked \(http:\/\/127\.0\.0\.1:\d+\)\./);
      // The plan beside, member by member.
      await waitForEditorLine(page, '~ api-gateway "High error rate" (trig_gw_errors)');
      await waitForEditorLine(page, 'threshold.value: 5 -> 9');
      await saveImageOf(page, [page.locator('.part.editor'), dialog(page)], 'apply-plan.png');
      await dialogButton(page, 'Apply to Sandbox');

      await dialog(page).filter({ hasText: /Applied the plan to Sandbox/ }).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await dialogText(page, 'message-text'), 'Applied the plan to Sandbox: 1 applied, 0 skipped, 0 refused, 0 failed.');
      await dialogButton(page, 'OK');
      await dialog(page).waitFor({ state: 'hidden' });

      const stored = await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_errors');
      const threshold = stored['threshold'] as { op?: unknown; value?: unknown };
      assert.deepEqual([threshold.op, threshold.value], ['>', 9]);
      // The tree read the trigger again (its tooltip comes to say the new threshold; tooltipOf fails if it
      // never does); the file's lens says it is in sync.
      await tooltipOf(page, row, /Threshold:\s*>\s*9(?!\d)/);
      await page.locator('.tabs-container .tab').filter({ hasText: FILE }).first().click();
      await lens(page, /In sync with Sandbox$/).waitFor({ state: 'visible', timeout: 60_000 });
    }, (m) => t.diagnostic(m));
  });

  it('Apply on a folder: a trigger changed on the service while the question was open writes nothing and names the change; applied again, the new plan shows it, a new trigger is created and its id written into the file', { timeout: 300_000 }, async (t) => {
    const { server, browser, workspace } = ready();
    await uiTest(t.name, browser, server, async ({ page }) => {
      await page.setViewportSize({ width: 1600, height: 1000 });
      const folder = join(workspace, 'triggers', 'api-gateway');
      rmSync(folder, { recursive: true, force: true });
      const baseUrl = await startSandboxFromWelcome(page);
      await clearNotifications(page);
      await pullGateway(page);
      // A new trigger, and an edit of a pulled one, both saved to disk.
      const created = join(folder, 'Many-5xx.trigger.json');
      const newTrigger = {
        dataset_slug: 'api-gateway',
        name: 'Many 5xx',
        threshold: { op: '>', value: 50 },
        frequency: 300,
        query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'status_code', op: '>=', value: 500 }], time_range: 600 },
      };
      writeFileSync(created, `${JSON.stringify(newTrigger, null, 2)}\n`);
      const office = join(folder, 'Office-hours-latency.trigger.json');
      const officeText = readFileSync(office, 'utf8');
      assert.match(officeText, /"frequency": 600,/);
      writeFileSync(office, officeText.replace('"frequency": 600,', '"frequency": 1200,'));

      await openFile(page, 'Many-5xx.trigger.json');
      await runCommand(page, 'File: Reveal Active File in Explorer View');
      const folderRow = page.locator('.explorer-folders-view .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^api-gateway$/ }) }).first();
      await contextMenu(folderRow, 'Apply Trigger Files to the Service...');
      await dialog(page).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await dialogText(page, 'message-text'), 'Apply 2 changes to Sandbox?');
      await waitForEditorLine(page, '+ api-gateway "Many 5xx"');
      await waitForEditorLine(page, 'frequency: 600 -> 1200');

      // Someone changes the trigger on the service between the plan and the confirmation.
      const office0 = await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_window');
      // The whole writable trigger, as any client sends it (an inline query is listed with its query_id too).
      const { id: _id, triggered: _t, created_at: _c, updated_at: _u, dataset_slug: _d, query_id: _q, ...writable } = office0;
      const recipients = (writable['recipients'] as { id: string }[]).map((r) => ({ id: r.id }));
      await service(baseUrl, 'PUT', '/1/triggers/api-gateway/trig_gw_window', { ...writable, recipients, description: 'Changed by a colleague' });
      await dialogButton(page, 'Apply to Sandbox');

      // Planned again at the apply, the plan is no longer the one shown: nothing at all is written, and the change is named.
      await dialog(page).filter({ hasText: /Nothing was written to Sandbox/ }).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await dialogText(page, 'message-text'), 'Nothing was written to Sandbox: the files or the service changed since the plan was shown. Apply again to plan anew.');
      assert.match(await dialogText(page, 'message-detail'), /^the update of "Office-hours latency" \(trig_gw_window\) from triggers\/api-gateway\/Office-hours-latency\.trigger\.json: description: "Changed by a colleague" -> "Average latency, [^\n]* was not in the plan$/);
      await dialogButton(page, 'OK');
      await dialog(page).waitFor({ state: 'hidden' });
      assert.equal((JSON.parse(readFileSync(created, 'utf8')) as { id?: unknown }).id, undefined);
      assert.equal((await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_window'))['frequency'], 600, "the colleague's change was not written over");

      // Applied again: the new plan shows what the file would undo of the colleague's change, for the user to decide.
      await contextMenu(folderRow, 'Apply Trigger Files to the Service...');
      await dialog(page).filter({ hasText: /Apply 2 changes to Sandbox\?/ }).waitFor({ state: 'visible', timeout: 60_000 });
      const description = (JSON.parse(officeText) as { description: string }).description;
      await waitForEditorLine(page, `description: "Changed by a colleague" -> ${JSON.stringify(description)}`);
      await dialogButton(page, 'Apply to Sandbox');
      await dialog(page).filter({ hasText: /Applied the plan to Sandbox/ }).waitFor({ state: 'visible', timeout: 60_000 });
      assert.equal(await dialogText(page, 'message-text'), 'Applied the plan to Sandbox: 2 applied, 0 skipped, 0 refused, 0 failed.');
      await saveImageOf(page, [page.locator('.part.editor'), dialog(page)], 'apply-result.png');
      await dialogButton(page, 'Show Details');
      await waitForEditorLine(page, 'Applied to Sandbox (' + baseUrl + '): 2 applied, 0 skipped, 0 refused, 0 failed');

      const written = readFileSync(created, 'utf8');
      const id = (JSON.parse(written) as { id?: unknown }).id;
      assert.equal(typeof id, 'string');
      assert.equal(written, `${JSON.stringify({ id, ...newTrigger }, null, 2)}\n`, 'the id is the one member added');
      assert.equal((await service(baseUrl, 'GET', `/1/triggers/api-gateway/${String(id)}`))['name'], 'Many 5xx');
      assert.equal((await service(baseUrl, 'GET', '/1/triggers/api-gateway/trig_gw_window'))['frequency'], 1200);
    }, (m) => t.diagnostic(m));
  });
});
