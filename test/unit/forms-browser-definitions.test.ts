// The dataset definitions form script in headless Chromium with a stubbed VS Code API. Skipped only
// without /usr/bin/chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFINITION_TYPE_NAMES } from '../../src/api/schemas';
import { DEFINITIONS_TEXT, DEFINITION_GROUPS } from '../../src/webview/protocol/text/datasetDefinitionsForm';
import { HOSTILE, browserSkip, textOf, type FormPage, useFormsBrowser } from './forms-harness';

const loaded = Object.fromEntries(DEFINITION_TYPE_NAMES.map((t) => [t, null])) as Record<string, unknown>;
loaded.trace_id = { name: 'trace.trace_id', column_type: 'column' };
loaded.span_kind = { name: 'span.kind', column_type: 'column' };
loaded.route = { name: 'dc.route', column_type: 'derived_column' };

const columns = [
  { name: 'trace.trace_id', hidden: false },
  { name: 'trace.span_id', hidden: false },
  { name: 'span.kind', hidden: false },
  { name: 'sample_rate', hidden: true },
];

const init = (extra: Record<string, unknown> = {}) => ({
  type: 'init',
  context: { connectionId: 'conn-1', dataset: 'api-gateway' },
  connectionName: 'Sandbox',
  loaded,
  columns,
  discardEdits: false,
  ...extra,
});

describe('dataset definitions form in a browser', { skip: browserSkip }, () => {
  const forms = useFormsBrowser();

  async function opened(message: unknown = init(), state?: unknown): Promise<FormPage> {
    const form = await forms.open('datasetDefinitionsForm', state);
    await form.fromHost(message);
    await form.page.locator('#submit').waitFor();
    return form;
  }

  test('all 16 definition types are shown, each labelled in words with its API name and its meaning tied to the input', async () => {
    const form = await opened();
    for (const type of DEFINITION_TYPE_NAMES) {
      assert.equal(await textOf(form.page, `label[for="f-${type}"]`), DEFINITIONS_TEXT.labels[type]);
      assert.equal(await textOf(form.page, `[data-type="${type}"] .api-name`), type);
      assert.equal(await textOf(form.page, `#f-${type}-help`), DEFINITIONS_TEXT.help[type]);
      assert.match(
        (await form.page.locator(`#f-${type}`).getAttribute('aria-describedby')) ?? '',
        new RegExp(`f-${type}-help`),
      );
    }
    assert.equal(await form.page.locator('#f-trace_id').inputValue(), 'trace.trace_id');
    assert.equal(await textOf(form.page, '#summary'), 'No changes.');
    await form.close();
  });

  test('the definitions come in four groups, traces first, each type in exactly one', async () => {
    const form = await opened();
    const shown = await form.page
      .locator('fieldset.definition-group')
      .evaluateAll((sets) =>
        sets.map((f) => [
          f.querySelector('legend')?.textContent ?? '',
          [...f.querySelectorAll('.definition')].map((d) => d.getAttribute('data-type')),
        ]),
      );
    assert.deepEqual(
      shown,
      DEFINITION_GROUPS.map((g) => [DEFINITIONS_TEXT.groupTitles[g.id], [...g.types]]),
    );
    assert.deepEqual(
      shown.map(([title]) => title),
      ['Traces', 'Span kinds, events and links', 'Logs', 'HTTP and users'],
    );
    assert.deepEqual(shown.flatMap(([, types]) => types).sort(), [...DEFINITION_TYPE_NAMES].sort());
    await form.close();
  });

  test('Save stays in view at the top of a short window, scrolled to the last definition', async () => {
    const form = await opened();
    await form.page.setViewportSize({ width: 1000, height: 600 });
    await form.page.locator('#f-log_message').fill('notes');
    await form.page.locator('#f-user').scrollIntoViewIfNeeded();
    const save = await form.page.locator('#submit').boundingBox();
    assert.ok(save && save.y >= 0 && save.y + save.height <= 600, `Save is at y=${save?.y}`);
    assert.ok((await form.page.evaluate(() => window.scrollY)) > 0, 'the page did scroll');
    const hit = await form.page.evaluate(
      ([x, y]) => document.elementFromPoint(x ?? 0, y ?? 0)?.closest('#submit')?.id ?? '',
      [save.x + save.width / 2, save.y + save.height / 2],
    );
    assert.equal(hit, 'submit', 'nothing covers it');
    await form.page.locator('#submit').click();
    assert.deepEqual(((await form.posted()).at(-1) as { rows: Record<string, unknown> }).rows.log_message, {
      name: 'notes',
    });
    await form.close();
  });

  test('a service problem on a definition shows on its field and in the summary linking to it', async () => {
    const form = await opened();
    await form.page.locator('#f-log_message').fill('no.such.column');
    await form.page.locator('#submit').click();
    await form.waitForPosted('submit');
    await form.fromHost({
      type: 'problems',
      problems: {
        fields: { log_message: ['The service refused the column "no.such.column".'] },
        form: ['HTTP 422: unknown column(s)'],
      },
    });
    assert.equal(await textOf(form.page, '#f-log_message-error'), 'The service refused the column "no.such.column".');
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [
      'Log message: The service refused the column "no.such.column".',
      'HTTP 422: unknown column(s)',
    ]);
    assert.equal(await form.page.locator('#form-errors li a').getAttribute('href'), '#f-log_message');
    assert.equal(await form.page.evaluate(() => document.activeElement?.id), 'f-log_message');
    await form.close();
  });

  test('a 5,000-character name is refused on its field with its real length and the limit, and nothing is sent', async () => {
    const form = await opened();
    await form.page.locator('#f-log_message').fill('x'.repeat(5000));
    await form.page.locator('#submit').click();
    const refused = 'Log message can have at most 255 characters, the most a column name has; it has 5,000.';
    assert.equal(await textOf(form.page, '#f-log_message-error'), refused);
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [refused]);
    assert.equal(
      await form.page.locator('#f-log_message-warning').isVisible(),
      false,
      'no second problem about the same value',
    );
    assert.deepEqual(
      (await form.posted()).filter((m) => (m as { type: string }).type === 'submit'),
      [],
    );
    await form.close();
  });

  test('the column picker completes from the visible columns only', async () => {
    const form = await opened();
    const values = await form.page
      .locator('#columns option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(values, ['span.kind', 'trace.span_id', 'trace.trace_id']);
    assert.equal(await form.page.locator('#f-span_id').getAttribute('list'), 'columns');
    await form.close();
  });

  test('a name that is not a known column gets a warning, not a block', async () => {
    const form = await opened();
    await form.page.locator('#f-span_id').fill('not.a.column');
    assert.match(await textOf(form.page, '#f-span_id-warning'), /"not.a.column" is not a column of this dataset/);
    assert.equal(await form.page.locator('#f-span_id-error').isVisible(), false);
    await form.page.locator('#submit').click();
    const message = (await form.posted()).at(-1) as { type: string; rows: Record<string, unknown> };
    assert.equal(message.type, 'submit');
    assert.deepEqual(message.rows.span_id, { name: 'not.a.column' });
    await form.close();
  });

  test('Unset empties a definition, marks it changed and the submit carries the empty name', async () => {
    const form = await opened();
    assert.equal(
      await form.page.locator('#f-trace_id-unset').getAttribute('aria-label'),
      'Unset Trace ID: no column will mean it',
    );
    assert.equal(
      await form.page.locator('#f-span_id-unset').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled),
      true,
      'an unset definition cannot be unset',
    );
    await form.page.locator('#f-trace_id-unset').click();
    assert.equal(await form.page.locator('#f-trace_id').inputValue(), '');
    assert.equal(
      await form.page.locator('#f-trace_id-unset').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled),
      true,
    );
    assert.equal(await textOf(form.page, '#summary'), '1 definition will be sent: Trace ID.');
    await form.page.locator('#submit').click();
    const message = (await form.posted()).at(-1) as { rows: Record<string, unknown> };
    assert.deepEqual(message.rows.trace_id, { name: '' });
    assert.equal(Object.keys(message.rows).length, 16);
    await form.close();
  });

  test('span_kind set without annotation_type gets a hint toward annotation_type', async () => {
    const form = await opened();
    assert.equal(
      await textOf(form.page, '#f-span_kind-warning'),
      'Marking span events and links with Span kind is deprecated: set Annotation type to the column that marks them.',
    );
    await form.page.locator('#f-annotation_type').fill('meta.annotation_type');
    assert.equal(await form.page.locator('#f-span_kind-warning').isVisible(), false);
    await form.close();
  });

  test('saving with nothing changed posts nothing and says so', async () => {
    const form = await opened();
    await form.page.locator('#submit').click();
    assert.deepEqual(await form.posted(), [{ type: 'ready' }]);
    assert.match(await textOf(form.page, '#status-text'), /Nothing to save/);
    await form.close();
  });

  test('reload asks the host, and a saved answer replaces the rows', async () => {
    const form = await opened();
    await form.page.locator('#reload').click();
    assert.deepEqual((await form.posted()).at(-1), { type: 'reload' });
    await form.fromHost({
      type: 'saved',
      loaded: { ...loaded, user: { name: 'user.id', column_type: 'column' } },
      sent: ['user'],
    });
    await form.page.waitForFunction(() => document.querySelector('#status-text')?.textContent === 'Saved: User.');
    assert.equal(await form.page.locator('#f-user').inputValue(), 'user.id');
    await form.close();
  });

  test('edits survive hiding and showing', async () => {
    const first = await opened();
    await first.page.locator('#f-status').fill('status_code');
    const state = await first.state();
    await first.close();
    const again = await opened(init(), state);
    assert.equal(await again.page.locator('#f-status').inputValue(), 'status_code');
    assert.equal(await textOf(again.page, '#summary'), '1 definition will be sent: Status.');
    await again.close();
  });

  test('hostile strings are shown as text: no dialog, no page error, no CSP violation', async () => {
    const hostileLoaded = { ...loaded, name: { name: HOSTILE[0], column_type: 'column' } };
    const form = await opened(
      init({
        loaded: hostileLoaded,
        columns: [{ name: HOSTILE[1], hidden: false }],
        context: { connectionId: 'c', dataset: HOSTILE[0] },
      }),
    );
    assert.equal(await form.page.locator('#f-name').inputValue(), HOSTILE[0]);
    assert.equal(await textOf(form.page, 'h1'), `Dataset definitions of ${HOSTILE[0]}`);
    assert.equal(await form.page.locator('#columns option').getAttribute('value'), HOSTILE[1]);
    await form.fromHost({ type: 'problems', problems: { fields: { name: [HOSTILE[1]] }, form: [HOSTILE[0]] } });
    assert.equal(await textOf(form.page, '#f-name-error'), HOSTILE[1]);
    assert.equal(await form.page.locator('#app img, #app script').count(), 0);
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });
});
