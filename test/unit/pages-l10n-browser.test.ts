// Every word a webview page shows comes from the translations the host hands it. Each page is opened with
// a "translation" that marks every text of the English bundle (⟦text⟧) and German as its language, driven
// through its states, and every text node and labelling attribute, open shadow roots included, is checked:
// what is not marked must be data the test gave it (names, ids, the service's values). An English word
// written into a page, or read before the page took its translations, shows up unmarked. Skipped only
// without /usr/bin/chromium.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEFINITION_TYPE_NAMES } from '../../src/api/schemas';
import type { PageL10n } from '../../src/webview/protocol/pageL10n';
import { browserSkip, closeAllForms, launchBrowser, openForm, type FormPage } from './forms-harness';
import { openResults, resultModel, T0, type ResultsPage } from '../../scripts/resultsPage';

const english = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'l10n', 'bundle.l10n.json'), 'utf8'),
) as Record<string, string>;
const MARKED: PageL10n = {
  language: 'de',
  bundle: Object.fromEntries(Object.keys(english).map((key) => [key, `⟦${key}⟧`])),
};

/**
 * Every text node of the page and every labelling attribute, in the document and in every open shadow root
 * (the @vscode-elements components draw their own words there), but in scripts, styles, <time> (which Intl
 * words) and the elements `skip` selects (data shown as it is, e.g. a request body).
 */
function shownTexts(page: Page, skip: string): Promise<string[]> {
  // No named inner functions: tsx would wrap them in a helper the page does not have.
  return page.evaluate((skipped) => {
    const out: string[] = [];
    const excluded = `script, style, time${skipped === '' ? '' : `, ${skipped}`}`;
    // The document, then each open shadow root met on the way; a left-out element's shadow root is left out too.
    const roots: (HTMLElement | ShadowRoot)[] = [document.body];
    for (let root = roots.pop(); root !== undefined; root = roots.pop()) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        if ((node.parentElement?.closest(excluded) ?? null) === null) out.push(node.textContent ?? '');
      }
      for (const el of root.querySelectorAll('*')) {
        if (el.closest(excluded) !== null) continue;
        for (const name of ['title', 'aria-label', 'placeholder', 'label', 'aria-description']) {
          const value = el.getAttribute(name);
          if (value !== null) out.push(value);
        }
        if (el.shadowRoot !== null) roots.push(el.shadowRoot);
      }
    }
    return out;
  }, skip);
}

/** The texts that still hold a letter once every marked text and every given data string is taken out. */
async function unmarked(page: Page, data: readonly string[], skip = ''): Promise<string[]> {
  const left: string[] = [];
  for (const text of await shownTexts(page, skip)) {
    let rest = text;
    // Innermost first: a marked sentence may hold a marked label.
    for (let before = ''; before !== rest; ) {
      before = rest;
      rest = rest.replace(/⟦[^⟦⟧]*⟧/g, '');
    }
    // A marked sentence with an element inside it is split over text nodes: "⟦Changed {0}" | <time> | ".⟧".
    rest = rest.replace(/⟦[^⟦⟧]*$/, '').replace(/^[^⟦⟧]*⟧/, '');
    for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.split(d).join('');
    if (/\p{L}/u.test(rest)) left.push(text);
  }
  return [...new Set(left)];
}

describe('webview pages speak the language the host hands them', { skip: browserSkip }, () => {
  let browser: Browser;
  const opened: ResultsPage[] = [];
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await closeAllForms();
    await Promise.all(opened.map((p) => p.close()));
    await browser.close();
  });

  const clean = async (p: FormPage | ResultsPage) =>
    assert.deepEqual(await p.incidents(), { dialogs: [], pageErrors: [], csp: [] });

  test('the page takes its language from the host: <html lang>, numbers and relative times', async () => {
    const form = await openForm(browser, 'burnAlertForm', undefined, MARKED);
    assert.equal(await form.page.evaluate(() => document.documentElement.lang), 'de');
    await form.fromHost({
      type: 'init',
      context: { connectionId: 'c1', dataset: 'ds', sloId: 'slo_1', alertId: 'ba_1' },
      connectionName: 'Sandbox',
      loaded: {
        id: 'ba_1',
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 240,
        updated_at: '2024-03-02T10:00:00.000Z',
        recipients: [],
      },
      recipientOptions: [],
      discardEdits: false,
    });
    await form.page.locator('#submit').waitFor();
    assert.equal(
      await form.page.locator('.counter').first().textContent(),
      '⟦0 / 1.023⟧',
      'a count in German, in the translated pattern',
    );
    assert.match(
      (await form.page.locator('time').first().textContent()) ?? '',
      /^vor \d+ (Jahr|Jahren|Monat|Monaten)$/,
    );
    await clean(form);
    await form.close();
  });

  test('API key forms: create, its problems, the created key, update', async () => {
    const form = await openForm(browser, 'apiKeyForm', undefined, MARKED);
    await form.fromHost({
      type: 'init',
      mode: 'create',
      connectionId: 'c1',
      connectionName: 'Sandbox',
      values: { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: '' },
    });
    await form.page.locator('#f-name input').waitFor();
    await form.page.locator('#submit').click();
    await form.page.locator('#form-errors li').first().waitFor();
    assert.deepEqual(await unmarked(form.page, ['Sandbox']), []);
    await form.fromHost({
      type: 'created',
      key: { id: 'hcxik_01', name: 'ingest-one', secret: 's3cr3t' },
      notes: ['⟦a note⟧'],
    });
    await form.page.locator('#secret').waitFor();
    await form.fromHost({ type: 'copied', what: 'idAndSecret' });
    await form.page.locator('#status').filter({ hasText: '⟦' }).waitFor();
    assert.deepEqual(await unmarked(form.page, ['Sandbox', 'hcxik_01', 'ingest-one', 's3cr3t']), []);
    await clean(form);
    await form.close();

    const update = await openForm(browser, 'apiKeyForm', undefined, MARKED);
    await update.fromHost({
      type: 'init',
      mode: 'update',
      connectionId: 'c1',
      connectionName: 'Sandbox',
      values: { id: 'hcxik_01', name: 'ingest-one', disabled: false },
      idFixed: true,
    });
    await update.page.locator('#f-name input').waitFor();
    await update.fromHost({ type: 'updated', key: { id: 'hcxik_01', name: 'ingest-one', disabled: true } });
    await update.page.locator('#status').filter({ hasText: 'ingest-one' }).waitFor();
    assert.deepEqual(await unmarked(update.page, ['Sandbox', 'hcxik_01', 'ingest-one']), []);
    await clean(update);
    await update.close();
  });

  test('burn alert form: the alert with unknown recipients and a member it cannot send, then a conflict', async () => {
    const form = await openForm(browser, 'burnAlertForm', undefined, MARKED);
    const loaded = {
      id: 'ba_1',
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 240,
      description: '4 h',
      triggered: true,
      updated_at: '2024-03-02T10:00:00.000Z',
      slo: { id: 'slo_1' },
      auto_investigate: true,
    };
    await form.fromHost({
      type: 'init',
      context: { connectionId: 'c1', dataset: 'api-gateway', sloId: 'slo_1', alertId: 'ba_1' },
      connectionName: 'Sandbox',
      loaded,
      recipientOptions: [{ id: 'rcp_mail', label: 'email: oncall@example.com (rcp_mail)' }],
      listedRecipientIds: ['rcp_mail'],
      discardEdits: false,
    });
    await form.page.locator('#submit').waitFor();
    const data = [
      'Sandbox',
      'ba_1',
      'slo_1',
      'api-gateway',
      'auto_investigate',
      'rcp_mail',
      'email',
      'oncall@example.com',
      'UTC',
      'rcp_typed',
    ];
    assert.deepEqual(await unmarked(form.page, data), []);
    // An ID the team's list lacks, added, then one typed and not added (Save names it), then an empty Add.
    await form.page.locator('#f-recipient-id input').fill('rcp_typed');
    await form.page.locator('#add-recipient-id').click();
    assert.equal(
      await form.page.locator('#recipients .recipient-label').first().textContent(),
      '⟦rcp_typed (not among the recipients the service lists)⟧',
    );
    await form.page.locator('#f-recipient-id input').fill('rcp_typed');
    await form.page.locator('#add-recipient-id').click();
    await form.page.locator('#f-recipient-id-error').filter({ hasText: '⟦' }).waitFor();
    assert.deepEqual(await unmarked(form.page, data), []);
    await form.page.locator('#submit').click();
    await form.page.locator('#form-errors li').first().waitFor();
    assert.deepEqual(await unmarked(form.page, data), []);
    await form.page.locator('#f-recipient-id input').fill('');
    await form.page.locator('#add-recipient-id').click();
    assert.deepEqual(await unmarked(form.page, data), []);
    await form.fromHost({
      type: 'conflict',
      current: { ...loaded, exhaustion_minutes: 120, updated_at: '2024-03-03T10:00:00.000Z' },
      mine: { alert_type: 'exhaustion_time', exhaustion_minutes: 240, recipients: [{ id: 'rcp_mail' }] },
    });
    await form.page.locator('#conflict').waitFor();
    assert.match(
      (await form.page.locator('#conflict p').first().textContent()) ?? '',
      /^⟦Changed on the service vor \d+ Jahren\.⟧ ⟦Choose which version/,
      'the time sits inside the translated sentence',
    );
    // The two versions are the request bodies, shown as JSON.
    assert.deepEqual(await unmarked(form.page, data, '#conflict-theirs, #conflict-mine'), []);
    await clean(form);
    await form.close();
  });

  test('dataset definitions form: no column list, an edit, saved', async () => {
    const form = await openForm(browser, 'datasetDefinitionsForm', undefined, MARKED);
    await form.fromHost({
      type: 'init',
      context: { connectionId: 'c1', dataset: 'api-gateway' },
      connectionName: 'Sandbox',
      loaded: {
        trace_id: { name: 'trace.trace_id', column_type: 'column' },
        span_kind: { name: 'span.kind', column_type: 'column' },
      },
      columns: null,
      discardEdits: false,
    });
    await form.page.locator('#submit').waitFor();
    await form.page.locator('#f-route').fill('http.route');
    await form.page.locator('#summary').filter({ hasText: '⟦' }).waitFor();
    // Each definition shows its API name beside its label, on purpose.
    const data = ['Sandbox', 'api-gateway', 'trace.trace_id', 'span.kind', 'http.route', ...DEFINITION_TYPE_NAMES];
    assert.deepEqual(await unmarked(form.page, data), []);
    await form.fromHost({ type: 'saved', loaded: { route: { name: 'http.route' } }, sent: ['route'] });
    await form.page.locator('#status').filter({ hasText: '⟦' }).waitFor();
    assert.deepEqual(await unmarked(form.page, data), []);
    await clean(form);
    await form.close();
  });

  test('query results panel: a result, a preview, a failure', async () => {
    const p = await openResults(browser, undefined, MARKED);
    opened.push(p);
    // The host's own texts (title, subtitle, the preview's summary) arrive translated: marked here too.
    const model = resultModel(3, 20, { title: '⟦title⟧', subtitle: '⟦subtitle⟧', ranAt: T0 * 1000 });
    await p.fromHost({ type: 'show', model });
    await p.page.locator('.results-table tbody tr').first().waitFor();
    const data = ['/route/', 'http.route', 'COUNT'];
    assert.deepEqual(await unmarked(p.page, data), []);
    await p.fromHost({
      type: 'show',
      model: resultModel(2, 20, {
        title: '⟦title⟧',
        subtitle: '⟦subtitle⟧',
        table: {
          columns: ['⟦start⟧', '⟦end⟧', '⟦groups⟧'],
          rows: [['2025-06-02T00:10:00.000Z', '2025-06-02T00:20:00.000Z', '/route/00001']],
        },
        preview: {
          summary: '⟦summary⟧',
          notes: ['⟦note⟧'],
          threshold: { op: '>', value: 15, label: '⟦threshold⟧' },
          firings: [{ start: T0 + 600, end: T0 + 1200, groups: ['/route/00001'] }],
          exact: false,
          valueLabel: '⟦value⟧',
        },
      }),
    });
    await p.page.locator('#summary').waitFor();
    assert.deepEqual(await unmarked(p.page, data, '.results-table tbody'), []);
    await p.fromHost({
      type: 'show',
      model: {
        ...resultModel(0, 0, { title: '⟦title⟧', subtitle: '⟦subtitle⟧', status: 'failed', subject: 'preview' }),
        chart: null,
        table: null,
      },
    });
    await p.page.locator('h1').filter({ hasText: '⟦title⟧' }).waitFor();
    assert.deepEqual(await unmarked(p.page, data), []);
    await clean(p);
  });

  test('the chart reads its values out in the display language', async () => {
    const p = await openResults(browser, undefined, MARKED);
    opened.push(p);
    const model = resultModel(1, 3);
    const line = model.chart?.lines[0];
    if (line) line.values = [1234.5, 0.25, 2];
    await p.fromHost({ type: 'show', model: { ...model, table: null } });
    await p.page.locator('.chart').focus();
    await p.page.keyboard.press('Home');
    assert.match(
      (await p.page.locator('.chart-readout').textContent()) ?? '',
      /^⟦\d{4}-\d{2}-\d{2} \d{2}:\d{2} — \/route\/00000: 1\.234,5⟧$/,
    );
    await p.page.keyboard.press('ArrowRight');
    assert.match((await p.page.locator('.chart-readout').textContent()) ?? '', /: 0,25⟧$/);
    await clean(p);
  });

  test('the check looks inside shadow roots: an English word in a component, or in a shadow root within one, is found', async () => {
    const form = await openForm(browser, 'apiKeyForm', undefined, MARKED);
    await form.fromHost({
      type: 'init',
      mode: 'create',
      connectionId: 'c1',
      connectionName: 'Sandbox',
      values: { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: '' },
    });
    await form.page.locator('#f-name input').waitFor();
    assert.deepEqual(await unmarked(form.page, ['Sandbox']), []);
    const placed = await form.page.evaluate(() => {
      // A word drawn by one of the page's own @vscode-elements components...
      const field = document.querySelector('vscode-textfield');
      field?.shadowRoot?.append(document.createTextNode('Unmarked in a component'));
      // ...and a label two shadow roots deep.
      const outer = document.body.appendChild(document.createElement('div')).attachShadow({ mode: 'open' });
      outer.appendChild(document.createElement('span')).attachShadow({ mode: 'open' }).innerHTML =
        '<button aria-label="Close the panel">⟦x⟧</button>';
      return field?.shadowRoot !== null && field?.shadowRoot !== undefined;
    });
    assert.equal(placed, true, 'the form draws a vscode-textfield with an open shadow root');
    assert.deepEqual((await unmarked(form.page, ['Sandbox'])).sort(), ['Close the panel', 'Unmarked in a component']);
    await form.close();
  });

  test('the check finds an English word: a page given no translation is all unmarked', async () => {
    const form = await openForm(browser, 'apiKeyForm');
    await form.fromHost({
      type: 'init',
      mode: 'create',
      connectionId: 'c1',
      connectionName: 'Sandbox',
      values: { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: 'env_1' },
    });
    await form.page.locator('#f-name input').waitFor();
    const left = await unmarked(form.page, ['Sandbox']);
    assert.ok(left.includes('Create an API key'), left.join(' | '));
    await form.close();
  });
});
