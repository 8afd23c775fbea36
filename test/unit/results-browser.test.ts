// The query results panel in Chromium: the chart drawn, groups toggled, hover values by keyboard in
// local time or UTC, the table sorted and filtered, CSV and JSON exact, failures, empty and huge results,
// and a trigger preview with its summary and firings.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { MAX_STATE_CHARS, toCsv, type ResultsModel } from '../../src/webview/protocol/queryResults';
import { browserSkip, HOSTILE, launchBrowser } from './forms-harness';
import { openResults, resultModel, T0, type ResultsPage } from '../../scripts/resultsPage';

describe('query results panel (Chromium)', { skip: browserSkip }, () => {
  let browser: Browser;
  const pages: ResultsPage[] = [];
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await Promise.all(pages.map((p) => p.close()));
    await browser.close();
  });
  const show = async (model: ResultsModel): Promise<ResultsPage> => {
    const p = await openResults(browser);
    pages.push(p);
    await p.fromHost({ type: 'show', model });
    await p.page.locator('h1').waitFor();
    return p;
  };
  const clean = async (p: ResultsPage) =>
    assert.deepEqual(await p.incidents(), { dialogs: [], pageErrors: [], csp: [] });
  /** Pixels of the plot canvas that are not transparent. */
  const inked = (p: ResultsPage) =>
    p.page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('.chart canvas');
      if (!c) return -1;
      const d = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if ((d[i] ?? 0) > 0) n++;
      return n;
    });

  test('draws the top 10 of 50 groups as lines and lists every group to toggle', async () => {
    const p = await show(resultModel(50, 120));
    await p.page.locator('.legend-note').waitFor({ state: 'attached' });
    // More than 20 groups: the list starts folded.
    await p.page.locator('.groups summary').click();
    assert.equal(await p.page.locator('.legend-note').textContent(), '10 of 50 groups drawn.');
    assert.ok((await inked(p)) > 2000, 'the canvas has lines on it');
    assert.equal(await p.page.locator('.legend li').count(), 50);
    // The largest group first, checked; the eleventh unchecked until the user ticks it.
    assert.equal(await p.page.locator('.legend li').first().textContent(), '/route/00049');
    const eleventh = p.page.locator('.legend li vscode-checkbox').nth(10);
    assert.equal(await eleventh.evaluate((el) => (el as HTMLElement & { checked: boolean }).checked), false);
    await eleventh.click();
    assert.equal(await eleventh.evaluate((el) => (el as HTMLElement & { checked: boolean }).checked), true);
    assert.equal(await p.page.locator('.legend-note').textContent(), '11 of 50 groups drawn.');
    await clean(p);
  });

  test('the arrow keys read values at a time, in local time or UTC', async () => {
    const p = await show(resultModel(3, 30));
    await p.page.locator('.chart').focus();
    await p.page.keyboard.press('Home');
    await p.page.keyboard.press('ArrowRight');
    const local = (await p.page.locator('.chart-readout').textContent()) ?? '';
    assert.match(
      local,
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} — \/route\/00002: 31 · \/route\/00001: 21 · \/route\/00000: 11$/,
    );
    await p.page.locator('#utc').click();
    await p.page.locator('.chart').focus();
    await p.page.keyboard.press('Home');
    await p.page.keyboard.press('ArrowRight');
    assert.equal(
      await p.page.locator('.chart-readout').textContent(),
      '2025-06-02 00:01 UTC — /route/00002: 31 · /route/00001: 21 · /route/00000: 11',
    );
    await clean(p);
  });

  test('a legend under the chart names each line with its colour; its toggle hides and shows the line', async () => {
    const p = await show(
      resultModel(1, 30, {
        chart: {
          times: Array.from({ length: 30 }, (_, i) => T0 + i * 60),
          aggregates: ['COUNT'],
          lines: [{ group: '', aggregate: 'COUNT', values: Array.from({ length: 30 }, (_, i) => i % 3) }],
        },
      }),
    );
    const legend = p.page.locator('.series-legend');
    assert.equal(await legend.getAttribute('aria-label'), 'Lines drawn');
    assert.deepEqual(
      await legend.locator('li').allTextContents(),
      ['COUNT'],
      'a result without breakdowns names its line by the aggregate',
    );
    const swatch = await legend.locator('.swatch').evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.notEqual(swatch, 'rgba(0, 0, 0, 0)', "the swatch has the line's colour");
    const ink = await inked(p);
    await legend.locator('vscode-checkbox').click();
    assert.equal(
      await legend.locator('vscode-checkbox').evaluate((el) => (el as HTMLElement & { checked: boolean }).checked),
      false,
    );
    const hidden = await inked(p);
    assert.ok(hidden < ink - 200, `the line is hidden: ${ink} inked pixels, then ${hidden}`);
    assert.equal(await p.page.locator('.chart-hint').textContent(), 'No group is shown: pick groups below.');
    await legend.locator('vscode-checkbox').click();
    assert.equal(await inked(p), ink, 'and shown again');
    await clean(p);
  });

  test("a preview's legend also names the dashed threshold line and the bands of its firings", async () => {
    const model = resultModel(2, 30, {
      preview: {
        summary: 's',
        notes: [],
        threshold: { op: '>', value: 15, label: 'threshold > 15' },
        firings: [{ start: T0 + 600, end: T0 + 900, groups: ['/route/00001'] }],
        exact: true,
        valueLabel: 'COUNT over 20 min',
      },
    });
    const p = await show(model);
    assert.deepEqual(await p.page.locator('.series-legend li').allTextContents(), [
      '/route/00001',
      '/route/00000',
      'threshold > 15',
      'while it fired',
    ]);
    await clean(p);
  });

  test('a count axis steps by whole numbers, never 0.2', async () => {
    const p = await openResults(browser);
    pages.push(p);
    // What uPlot writes on the canvas: the axis labels.
    await p.page.evaluate(() => {
      const drawn: string[] = [];
      window.__drawn = drawn;
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text: string, x: number, y: number, max?: number) {
        drawn.push(text);
        return max === undefined ? fillText.call(this, text, x, y) : fillText.call(this, text, x, y, max);
      };
    });
    const times = Array.from({ length: 30 }, (_, i) => T0 + i * 60);
    await p.fromHost({
      type: 'show',
      model: resultModel(1, 1, {
        chart: {
          times,
          aggregates: ['COUNT'],
          lines: [{ group: '', aggregate: 'COUNT', values: times.map((_, i) => (i % 4 === 0 ? 1 : 0)) }],
        },
      }),
    });
    await p.page.locator('.series-legend').waitFor();
    const numbers = ((await p.page.evaluate(() => window.__drawn)) ?? []).filter((t) => /^-?[\d,.]+$/.test(t));
    assert.ok(numbers.length >= 2, `value labels drawn: ${numbers.join(' ')}`);
    assert.deepEqual(
      numbers.filter((t) => t.includes('.')),
      [],
      `whole steps only: ${numbers.join(' ')}`,
    );
    await clean(p);
  });

  test('the values at the cursor show in a tooltip beside it, for the mouse and for the arrow keys', async () => {
    const p = await show(resultModel(3, 30));
    const tooltip = p.page.locator('.chart-tooltip');
    assert.equal(await tooltip.isVisible(), false);
    const over = await p.page.locator('.u-over').boundingBox();
    assert.ok(over);
    const at = { x: over.x + over.width * 0.3, y: over.y + over.height * 0.4 };
    await p.page.mouse.move(at.x, at.y);
    await tooltip.waitFor();
    const box = await tooltip.boundingBox();
    assert.ok(box);
    assert.ok(
      Math.abs(box.x - at.x) < 40 && Math.abs(box.y - at.y) < 40,
      `the tooltip at ${box.x},${box.y}, the cursor at ${at.x},${at.y}`,
    );
    assert.deepEqual(await tooltip.locator('.tooltip-name').allTextContents(), [
      '/route/00002',
      '/route/00001',
      '/route/00000',
    ]);
    await p.page.mouse.move(5, 5);
    await tooltip.waitFor({ state: 'hidden' });
    // The keyboard: the tooltip comes with the read-out a screen reader hears.
    await p.page.locator('.chart').focus();
    await p.page.keyboard.press('End');
    await tooltip.waitFor();
    assert.match((await tooltip.locator('.tooltip-time').textContent()) ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    assert.match((await p.page.locator('.chart-readout').textContent()) ?? '', / — \/route\/00002: \d+ · /);
    await clean(p);
  });

  test("the firings table writes its times beside how long ago, in local time or UTC as the page's setting says", async () => {
    const model = resultModel(2, 60, {
      table: {
        columns: ['fired at', 'resolved at', 'groups'],
        rows: [['2025-06-02T00:10:00.000Z', '2025-06-02T00:20:00.000Z', '/route/00001']],
        timeColumns: [0, 1],
      },
      preview: {
        summary: 's',
        notes: [],
        threshold: { op: '>', value: 15, label: 'threshold > 15' },
        firings: [{ start: T0 + 600, end: T0 + 1200, groups: ['/route/00001'] }],
        exact: true,
        valueLabel: 'v',
      },
    });
    const p = await show(model);
    await p.page.locator('#utc').click();
    const cells = await p.page.locator('.results-table tbody td').allTextContents();
    assert.match(cells[0] ?? '', /^2025-06-02 00:10 UTC \(.+ ago\)$/);
    assert.match(cells[1] ?? '', /^2025-06-02 00:20 UTC \(.+ ago\)$/);
    await clean(p);
  });

  test('the table sorts by a header (click or keyboard) and filters by text', async () => {
    const p = await show(resultModel(12, 5));
    const firstCell = () => p.page.locator('.results-table tbody tr').first().locator('td').first().textContent();
    assert.equal(await firstCell(), '/route/00000');
    // A number column sorts largest first, then the other way.
    await p.page.locator('th button.sort', { hasText: 'COUNT' }).click();
    assert.equal(await firstCell(), '/route/00011');
    assert.equal(await p.page.locator('th[aria-sort="descending"] button').textContent(), 'COUNT ▼');
    await p.page.locator('th button.sort', { hasText: 'COUNT' }).press('Enter');
    assert.equal(await firstCell(), '/route/00000');
    assert.equal(await p.page.locator('th[aria-sort="ascending"] button').textContent(), 'COUNT ▲');
    await p.page.locator('.table-filter input').fill('0001');
    assert.equal(await p.page.locator('.results-table tbody tr').count(), 3);
    assert.equal(await p.page.locator('.table-count').textContent(), '3 of 12 rows match');
    await clean(p);
  });

  test('Copy CSV posts exactly the table as sorted and filtered, quoted where needed', async () => {
    const model = resultModel(0, 0, {
      chart: null,
      table: {
        columns: ['http.route', 'COUNT', 'note'],
        rows: [
          ['/a,b', 2, 'say "hi"'],
          [HOSTILE[0], 10, null],
          ['/c', 1, ' padded'],
        ],
      },
    });
    const p = await show(model);
    await p.page.locator('th button.sort', { hasText: 'COUNT' }).click();
    await p.page.getByRole('button', { name: 'Copy CSV' }).click();
    const csv = await p.waitForPosted('export');
    assert.deepEqual(csv, {
      type: 'export',
      format: 'csv',
      action: 'copy',
      text: 'http.route,COUNT,note\r\n<img src=x onerror=alert(1)>,10,\r\n"/a,b",2,"say ""hi"""\r\n/c,1," padded"\r\n',
    });
    await p.page.getByRole('button', { name: 'Save JSON...' }).click();
    const json = await p.waitForPosted('export', 1);
    assert.equal(json.action, 'save');
    assert.deepEqual(JSON.parse(String(json.text)), [
      { 'http.route': HOSTILE[0], COUNT: 10, note: null },
      { 'http.route': '/a,b', COUNT: 2, note: 'say "hi"' },
      { 'http.route': '/c', COUNT: 1, note: ' padded' },
    ]);
    assert.equal(await p.page.locator('img').count(), 0, 'hostile text stays text');
    await clean(p);
  });

  test("a failed query is shown as a failure with the service's text", async () => {
    const p = await show(
      resultModel(0, 0, {
        status: 'failed',
        message: 'query failed: column "nope" does not exist',
        chart: null,
        table: null,
      }),
    );
    assert.equal(
      await p.page.getByRole('alert').textContent(),
      'The query failed: query failed: column "nope" does not exist',
    );
    assert.equal(await p.page.locator('.chart').count(), 0);
    await clean(p);
  });

  test('empty results and a single point render sanely', async () => {
    const empty = await show(
      resultModel(0, 0, { chart: { times: [], aggregates: [], lines: [] }, table: { columns: ['COUNT'], rows: [] } }),
    );
    assert.equal(await empty.page.locator('#no-chart').textContent(), 'The result has no data points to draw.');
    assert.equal(await empty.page.locator('.empty').last().textContent(), 'The query returned no rows.');
    await clean(empty);
    const one = await show(resultModel(1, 1));
    assert.ok((await inked(one)) > 0, 'one point is drawn');
    await clean(one);
  });

  test('10,000 groups: ten drawn, the list capped at 200 with a filter for the rest', async () => {
    const p = await show(resultModel(10_000, 20));
    await p.page.locator('.legend-note').waitFor({ state: 'attached' });
    await p.page.locator('.groups summary').click();
    assert.equal(
      await p.page.locator('.legend-note').textContent(),
      '10 of 10,000 groups drawn; 9,800 more match: type to filter.',
    );
    assert.equal(await p.page.locator('.legend li').count(), 200);
    await p.page.locator('.group-filter input').fill('/route/0421');
    assert.equal(await p.page.locator('.legend li').count(), 10);
    assert.equal(await p.page.locator('.results-table tbody tr').count(), 500, 'the table shows 500 rows at a time');
    assert.equal(await p.page.locator('.results-table vscode-button.more', { hasText: 'Show 500 more' }).count(), 1);
    await clean(p);
  });

  test('a long series (7 days of minutes) renders', async () => {
    const p = await show(resultModel(5, 10_080));
    assert.ok((await inked(p)) > 2000);
    await clean(p);
  });

  test('a preview shows its summary, notes, threshold line, firing bands and the firings table', async () => {
    const model = resultModel(2, 60, {
      title: 'Preview: High error rate',
      table: {
        columns: ['fired at (UTC)', 'resolved at (UTC)', 'groups'],
        rows: [['2025-06-02T00:10:00.000Z', '2025-06-02T00:20:00.000Z', '/route/00001']],
      },
      preview: {
        summary:
          'It would have fired 1 time (1 notification and 1 resolve on_change; 10 notifications if on_true) in the last 1 h, for group /route/00001.',
        notes: ['Approximate: P99 cannot be added up over buckets.'],
        threshold: { op: '>', value: 15, label: 'threshold > 15' },
        firings: [{ start: T0 + 600, end: T0 + 1200, groups: ['/route/00001'] }],
        exact: false,
        valueLabel: 'COUNT over 20 min',
      },
    });
    const p = await show(model);
    assert.equal(await p.page.locator('#summary').textContent(), model.preview?.summary);
    assert.equal(await p.page.locator('.notes li').textContent(), 'Approximate: P99 cannot be added up over buckets.');
    assert.equal(
      await p.page.locator('.value-label').textContent(),
      'Chart: COUNT over 20 min; dashed line: threshold > 15; shaded: while it fired.',
    );
    assert.deepEqual(await p.page.locator('.results-table tbody td').allTextContents(), [
      '2025-06-02T00:10:00.000Z',
      '2025-06-02T00:20:00.000Z',
      '/route/00001',
    ]);
    // The band: a column inside the firing is tinted where one outside is not (sampled at mid-height, above the lines).
    const tint = await p.page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('.chart canvas');
      const ctx = c?.getContext('2d');
      if (!c || !ctx) return [-1, -1];
      const y = Math.round(c.height * 0.1);
      return [
        ctx.getImageData(Math.round(c.width * 0.27), y, 1, 1).data[3] ?? 0,
        ctx.getImageData(Math.round(c.width * 0.8), y, 1, 1).data[3] ?? 0,
      ];
    });
    assert.ok((tint[0] ?? 0) > 0 && tint[1] === 0, `inside the band ${tint[0]}, outside ${tint[1]}`);
    await clean(p);
  });

  test('the toolbar posts Run Again, Options and Open in Browser', async () => {
    const p = await show(resultModel(1, 3));
    await p.page.getByRole('button', { name: 'Run Again' }).click();
    await p.page.getByRole('button', { name: 'Options...' }).click();
    await p.page.getByRole('button', { name: 'Open in Browser' }).click();
    assert.equal(
      await p.page.getByRole('button', { name: 'Open Graph Image' }).count(),
      0,
      'a link that failed the check is not offered',
    );
    assert.deepEqual((await p.posted()).slice(1), [
      { type: 'rerun', withOptions: false },
      { type: 'rerun', withOptions: true },
      { type: 'openLink', which: 'query' },
    ]);
  });

  test('the controls are vscode-elements; only the table headers keep native sort buttons', async () => {
    const p = await show(
      resultModel(3, 10, {
        chart: {
          times: [T0, T0 + 60],
          aggregates: ['COUNT', 'P99(duration_ms)'],
          lines: [
            { group: '/a', aggregate: 'COUNT', values: [1, 2] },
            { group: '/b', aggregate: 'COUNT', values: [3, 4] },
          ],
        },
      }),
    );
    await p.page.locator('.series-legend').waitFor({ state: 'attached' });
    const native = await p.page.evaluate(() => ({
      inputs: document.querySelectorAll('#app input, #app select').length,
      buttons: [...document.querySelectorAll('#app button')].map((b) => b.className),
    }));
    assert.deepEqual(native, { inputs: 0, buttons: ['sort', 'sort'] });
    assert.deepEqual(
      await p.page
        .locator('.toolbar > *')
        .evaluateAll((els) => els.map((e) => `${e.tagName.toLowerCase()} ${e.textContent}`)),
      ['vscode-button Run Again', 'vscode-button Options...', 'vscode-button Open in Browser'],
    );
    assert.equal(await p.page.locator('#utc').evaluate((e) => e.tagName.toLowerCase()), 'vscode-checkbox');
    assert.equal(await p.page.locator('#aggregate').evaluate((e) => e.tagName.toLowerCase()), 'vscode-single-select');
    assert.equal(
      await p.page
        .locator('.series-toggle')
        .first()
        .evaluate((e) => e.tagName.toLowerCase()),
      'vscode-checkbox',
    );
    assert.equal(await p.page.locator('.table-filter').evaluate((e) => e.tagName.toLowerCase()), 'vscode-textfield');
    // The keyboard still drives them: Space ticks the UTC box.
    await p.page.locator('#utc').focus();
    await p.page.keyboard.press('Space');
    assert.equal(
      await p.page.locator('#utc').evaluate((el) => (el as HTMLElement & { checked: boolean }).checked),
      true,
    );
    await clean(p);
  });

  test('when it ran is relative, with the exact UTC time on hover; a restored panel says so', async () => {
    const ranAt = Date.now() - 3 * 3600_000;
    const p = await show(resultModel(1, 3, { ranAt }));
    assert.equal(await p.page.locator('#ran-at').textContent(), 'Run 3 hours ago');
    assert.equal(
      await p.page.locator('#ran-at time').getAttribute('title'),
      `${new Date(ranAt).toISOString().slice(0, 19).replace('T', ' ')} UTC`,
    );
    await p.fromHost({
      type: 'show',
      model: resultModel(1, 3, {
        ranAt,
        restored: true,
        note: 'The connection of this result no longer exists, so it cannot be run again.',
        canRerun: false,
      }),
    });
    await p.page.locator('#note').waitFor();
    assert.equal(
      await p.page.locator('#ran-at').textContent(),
      'Restored after a window reload: as it was 3 hours ago',
    );
    assert.equal(
      await p.page.locator('#note').textContent(),
      'The connection of this result no longer exists, so it cannot be run again.',
    );
    assert.equal(await p.page.getByRole('button', { name: 'Run Again' }).count(), 0);
    await clean(p);
  });

  test('time columns show the time beside the relative time, the exact UTC time on hover, and are copied exactly', async () => {
    const fired = new Date(Date.now() - 2 * 86400_000).toISOString();
    const p = await show(
      resultModel(0, 0, {
        chart: null,
        table: { columns: ['fired at', 'resolved at', 'groups'], rows: [[fired, null, '/a']], timeColumns: [0, 1] },
      }),
    );
    // No named inner functions in the page: tsx would wrap them in a helper the page does not have.
    const local = await p.page.evaluate((iso) => {
      const d = new Date(iso);
      return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes()]
        .map((n) => String(n).padStart(2, '0'))
        .join(',');
    }, fired);
    const [y, mo, da, h, mi] = local.split(',');
    assert.deepEqual(await p.page.locator('.results-table tbody td').allTextContents(), [
      `${y}-${mo}-${da} ${h}:${mi} (2 days ago)`,
      '',
      '/a',
    ]);
    assert.equal(
      await p.page.locator('.results-table tbody td time').getAttribute('title'),
      `${fired.slice(0, 19).replace('T', ' ')} UTC`,
    );
    await p.page.getByRole('button', { name: 'Copy CSV' }).click();
    assert.equal((await p.waitForPosted('export')).text, `fired at,resolved at,groups\r\n${fired},,/a\r\n`);
    await clean(p);
  });

  test('a failed preview says so in the panel and offers Run Again', async () => {
    const p = await show(
      resultModel(0, 0, {
        title: 'Preview: High error rate',
        status: 'failed',
        subject: 'preview',
        message: 'Trigger "High error rate" cannot be previewed: the threshold needs an op of >, >=, < or <=.',
        chart: null,
        table: null,
        links: { query: false, graph: false },
      }),
    );
    assert.equal(
      await p.page.getByRole('alert').textContent(),
      'The preview failed: Trigger "High error rate" cannot be previewed: the threshold needs an op of >, >=, < or <=.',
    );
    await p.page.getByRole('button', { name: 'Run Again' }).click();
    assert.deepEqual((await p.posted()).at(-1), { type: 'rerun', withOptions: false });
    await clean(p);
  });

  test('the page keeps the model, its title and how to run it again for a window reload; a huge model is not kept', async () => {
    const saved = {
      run: {
        kind: 'query' as const,
        connectionId: 'c1',
        dataset: 'api',
        queryId: 'q_1',
        label: 'saved query q_1',
        request: { query_id: 'q_1' },
      },
      links: { query: 'https://ui.example/r/1' },
    };
    const p = await show(resultModel(2, 3));
    await p.fromHost({ type: 'show', model: resultModel(2, 3), title: 'Query q_1', saved });
    await p.page.waitForFunction(() => window.__state?.['saved'] !== undefined);
    assert.deepEqual(await p.state(), { title: 'Query q_1', saved, model: resultModel(2, 3) });
    // 800 groups of 1,440 points: over the limit (a third more), so only the title and the run are kept.
    const huge = resultModel(800, 1440);
    assert.ok(JSON.stringify(huge).length > MAX_STATE_CHARS);
    await p.fromHost({ type: 'show', model: huge, title: 'Query q_2', saved });
    await p.page.waitForFunction(() => window.__state?.['title'] === 'Query q_2', undefined, { timeout: 20_000 });
    assert.deepEqual(await p.state(), { title: 'Query q_2', saved });
    await clean(p);
  });

  test('toCsv is RFC 4180 with CRLF line ends', () => {
    assert.equal(
      toCsv({
        columns: ['a', 'b'],
        rows: [
          ['x\ny', true],
          [null, 1.5],
        ],
      }),
      'a,b\r\n"x\ny",true\r\n,1.5\r\n',
    );
  });
});
