// Text from the service or the user in every webview page: bidi controls (U+202E right-to-left override,
// U+2066 left-to-right isolate) and other control characters (ESC) are shown as visible escapes, never
// applied; a 10,000-character name or value wraps instead of widening the page. Each page is driven
// through its states with such text everywhere the host puts service or user text. In headless Chromium;
// skipped only without /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { renderNoticePage } from '../../src/extension/forms/html';
import { browserSkip, closeAllForms, launchBrowser, openForm } from './forms-harness';
import { openResults, resultModel, T0, type ResultsPage } from '../../scripts/resultsPage';

/** A name with every kind of character that must not act: it would read "evil.exe" reversed, and more. */
const HOSTILE = 'key\u202Eexe.live\u2066x\u2069\u001B[31mred';
const SHOWN = 'key[U+202E]exe.live[U+2066]x[U+2069][U+001B][31mred';
const LONG = 'x'.repeat(10_000);
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

/**
 * Every text node and every attribute a user sees or hears (title, aria-label, placeholder, label), in
 * the document and its open shadow roots, that still holds a control character. Field values being edited
 * are properties, not text, and are left out (the form warns about them instead).
 */
function controlsShown(page: Page): Promise<string[]> {
  return page.evaluate((source) => {
    const control = new RegExp(source, 'u');
    const found: string[] = [];
    const roots: (HTMLElement | ShadowRoot)[] = [document.body];
    for (let root = roots.pop(); root !== undefined; root = roots.pop()) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if (node.parentElement?.closest('script, style') === null && control.test(node.textContent ?? ''))
          found.push(JSON.stringify(node.textContent));
      }
      for (const el of root.querySelectorAll('*')) {
        for (const name of ['title', 'aria-label', 'placeholder', 'label', 'aria-description']) {
          const value = el.getAttribute(name);
          if (value !== null && control.test(value)) found.push(`${name}=${JSON.stringify(value)}`);
        }
        if (el.shadowRoot !== null) roots.push(el.shadowRoot);
      }
    }
    return found;
  }, CONTROL.source);
}

const pageText = (page: Page): Promise<string> => page.evaluate(() => document.body.innerText);
const overflow = (page: Page): Promise<{ scrollWidth: number; innerWidth: number }> =>
  page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));

describe('hostile and huge text in every webview page', { skip: browserSkip }, () => {
  let browser: Browser;
  const results: ResultsPage[] = [];
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await closeAllForms();
    await Promise.all(results.map((p) => p.close()));
    await browser.close();
  });

  async function check(page: Page, what: string): Promise<void> {
    assert.deepEqual(await controlsShown(page), [], `${what}: no control character is shown as it is`);
    const { scrollWidth, innerWidth } = await overflow(page);
    assert.ok(scrollWidth <= innerWidth, `${what}: the page is ${scrollWidth} px wide in a ${innerWidth} px view`);
  }

  test("create API key: the connection, the created key, its notes, the service's problems", async () => {
    const form = await openForm(browser, 'apiKeyForm');
    await form.fromHost({
      type: 'init',
      mode: 'create',
      connectionId: 'c1',
      connectionName: `${HOSTILE}${LONG}`,
      values: { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: HOSTILE },
    });
    await form.page.locator('#f-name input').waitFor();
    await form.page.locator('#f-name input').fill(`${HOSTILE}${LONG}`);
    await form.fromHost({
      type: 'problems',
      problems: { fields: { name: [`${HOSTILE} ${LONG}`] }, form: [`${HOSTILE}${LONG}`] },
    });
    await form.page.locator('#form-errors li').first().waitFor();
    assert.match(
      await pageText(form.page),
      new RegExp(
        `This text holds invisible control characters, shown here as \\[U\\+…\\]: ${SHOWN.replace(/[[\]+.]/g, '\\$&')}`,
      ),
      'the field says what its text holds',
    );
    await check(form.page, 'create form');
    await form.fromHost({
      type: 'created',
      key: { id: HOSTILE, name: `${HOSTILE}${LONG}`, secret: 's3cr3t' },
      notes: [HOSTILE],
    });
    await form.page.locator('#secret').waitFor();
    assert.ok((await pageText(form.page)).includes(SHOWN), 'the escapes are visible');
    await check(form.page, 'created key');
    await form.close();
  });

  test('update API key: the key named with a right-to-left override shows its escape, never reversed', async () => {
    const form = await openForm(browser, 'apiKeyForm');
    await form.fromHost({
      type: 'init',
      mode: 'update',
      connectionId: 'c1',
      connectionName: HOSTILE,
      values: { id: HOSTILE, name: `${HOSTILE}${LONG}`, disabled: false },
      idFixed: true,
    });
    await form.page.locator('#f-name input').waitFor();
    await form.fromHost({ type: 'updated', key: { id: HOSTILE, name: HOSTILE, disabled: true } });
    await form.page.locator('#status-text').filter({ hasText: 'U+202E' }).waitFor();
    await check(form.page, 'update form');
    await form.close();
  });

  test('burn alert: ids, recipients, members it cannot send, the conflict view', async () => {
    const form = await openForm(browser, 'burnAlertForm');
    const loaded = {
      id: HOSTILE,
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 30,
      description: `${HOSTILE}${LONG}`,
      updated_at: '2024-03-02T10:00:00.000Z',
      recipients: [{ id: 'r1', type: HOSTILE, target: `${HOSTILE}${LONG}` }],
      [HOSTILE]: true,
    };
    await form.fromHost({
      type: 'init',
      context: { connectionId: 'c1', dataset: HOSTILE, sloId: HOSTILE, alertId: HOSTILE },
      connectionName: `${HOSTILE}${LONG}`,
      loaded,
      recipientOptions: [{ id: 'r2', label: `${HOSTILE}${LONG}` }],
      discardEdits: false,
    });
    await form.page.locator('#submit').waitFor();
    await check(form.page, 'burn alert form');
    await form.fromHost({
      type: 'conflict',
      current: { ...loaded, updated_at: '2024-03-03T10:00:00.000Z' },
      mine: {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 30,
        description: HOSTILE,
        recipients: [{ id: `${HOSTILE}${LONG}` }],
      },
    });
    await form.page.locator('#conflict-theirs').waitFor();
    await check(form.page, 'conflict view');
    await form.close();
  });

  test("dataset definitions: the dataset, column names offered and typed, the service's refusal", async () => {
    const form = await openForm(browser, 'datasetDefinitionsForm');
    const types = [
      'trace_id',
      'span_id',
      'parent_id',
      'service_name',
      'name',
      'duration_ms',
      'span_kind',
      'annotation_type',
      'link_trace_id',
      'link_span_id',
      'log_severity',
      'log_message',
      'route',
      'status',
      'error',
      'user',
    ];
    const loaded = Object.fromEntries(
      types.map((t) => [t, t === 'route' ? { name: `${HOSTILE}${LONG}`, column_type: 'column' } : null]),
    );
    await form.fromHost({
      type: 'init',
      context: { connectionId: 'c1', dataset: HOSTILE },
      connectionName: HOSTILE,
      loaded,
      columns: [{ name: HOSTILE, hidden: false }],
      discardEdits: false,
    });
    await form.page.locator('#f-user').waitFor();
    await form.page.locator('#f-user').fill(`${LONG}${HOSTILE}`);
    await form.fromHost({
      type: 'problems',
      problems: { fields: { user: [`The service refused the column "${LONG}${HOSTILE}".`] }, form: [] },
    });
    await form.page.locator('#form-errors li').first().waitFor();
    await check(form.page, 'definitions form');
    await form.close();
  });

  test('query results and a trigger preview: titles, groups, the table, the totals, the read-out', async () => {
    const p = await openResults(browser, { width: 900, height: 700 });
    results.push(p);
    const model = resultModel(3, 20, {
      title: `${HOSTILE}${LONG}`,
      subtitle: HOSTILE,
      note: `${HOSTILE}${LONG}`,
      totals: [{ title: HOSTILE, rows: [[HOSTILE, `${HOSTILE}${LONG}`]] }],
    });
    const chart = model.chart;
    assert.ok(chart);
    chart.lines = chart.lines.map((l, i) => ({ ...l, group: i === 0 ? `${HOSTILE}${LONG}` : `${HOSTILE}${i}` }));
    model.table = { columns: [HOSTILE, 'COUNT'], rows: [[`${HOSTILE}${LONG}`, 1]] };
    await p.fromHost({ type: 'show', model });
    await p.page.locator('.chart').waitFor();
    await p.page.locator('.chart').focus();
    await p.page.keyboard.press('Home');
    await check(p.page, 'results');
    await p.fromHost({
      type: 'show',
      model: {
        ...resultModel(1, 10),
        title: HOSTILE,
        status: 'failed',
        message: `${HOSTILE}${LONG}`,
        chart: null,
        table: null,
      },
    });
    await p.page.locator('#status').waitFor();
    await check(p.page, 'a failed run');
    void T0;
  });

  test("the notice page of a form that cannot be restored shows the service's text with its escapes", () => {
    const html = renderNoticePage(`Edit ${HOSTILE}`, `The connection ${HOSTILE} is gone`, 'vscode-webview://x');
    assert.doesNotMatch(html, CONTROL);
    assert.ok(html.includes(`The connection ${SHOWN} is gone`));
  });
});
