// Edits are never lost on close: each form page tells the host what it holds unsaved as the user types (the
// host marks the tab and keeps it when the panel closes), puts back the edits of a panel closed without
// saving with a notice and a Discard button, and says plainly while its connection is gone. In headless
// Chromium with a stubbed VS Code API; skipped only without /usr/bin/chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSkip,
  textOf,
  type FormPage,
  useFormsBrowser,
  BURN_ALERT_CONTEXT,
  EXHAUSTION_ALERT,
} from './forms-harness';

const context = BURN_ALERT_CONTEXT;
const alert = EXHAUSTION_ALERT;
const burnInit = (extra: Record<string, unknown> = {}) => ({
  type: 'init',
  context,
  connectionName: 'Sandbox',
  loaded: alert,
  recipientOptions: [],
  discardEdits: false,
  ...extra,
});
const drafts = async (form: FormPage) => (await form.posted()).filter((m) => (m as { type: string }).type === 'draft');
// 2024-03-02 10:32 UTC, shown in the page's local time (the browser's zone is UTC unless TZ says otherwise).
const SAVED_AT = Date.parse('2024-03-02T10:32:00.000Z');

describe('unsaved edits in the form pages', { skip: browserSkip }, () => {
  const forms = useFormsBrowser();

  test('burn alert: typing reports the unsaved state to the host, and typing it back reports none', async () => {
    const form = await forms.open('burnAlertForm');
    await form.fromHost(burnInit());
    const textarea = form.page.locator('#f-description textarea');
    await textarea.waitFor();
    assert.deepEqual(await drafts(form), [], 'nothing unsaved on opening');
    await textarea.fill('four hours and more');
    assert.deepEqual(await drafts(form), [
      { type: 'draft', state: { context, loaded: alert, edits: { description: 'four hours and more' }, drafts: {} } },
    ]);
    await textarea.fill('four hours');
    assert.deepEqual(
      (await drafts(form)).at(-1),
      { type: 'draft', state: null },
      'the same text as loaded is nothing to lose',
    );
    await form.close();
  });

  test('burn alert: edits kept from a closed panel come back with a notice; Discard drops them', async () => {
    const form = await forms.open('burnAlertForm');
    const kept = {
      context,
      loaded: alert,
      edits: { description: 'typed before the close', exhaustion_minutes: 90 },
      drafts: {},
    };
    await form.fromHost(burnInit({ unsaved: { state: kept, savedAt: SAVED_AT } }));
    await form.page.locator('#edits-restored').waitFor();
    assert.equal(await form.page.locator('#f-description textarea').inputValue(), 'typed before the close');
    assert.equal(await form.page.locator('#f-exhaustion_minutes input').inputValue(), '90');
    const localTime = await form.page.evaluate((ms) => {
      const d = new Date(ms);
      return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    }, SAVED_AT);
    assert.equal(
      await textOf(form.page, '#edits-restored span'),
      `Your unsaved edits from ${localTime} are back: this form was closed before they were saved.`,
    );
    assert.equal(await form.page.locator('#edits-restored time').getAttribute('title'), '2024-03-02 10:32:00 UTC');
    assert.deepEqual(
      (await drafts(form)).at(-1),
      { type: 'draft', state: kept },
      'still unsaved: the tab keeps its mark',
    );

    await form.page.locator('#discard-edits').click();
    assert.equal(await form.page.locator('#f-description textarea').inputValue(), 'four hours');
    assert.equal(await form.page.locator('#f-exhaustion_minutes input').inputValue(), '240');
    assert.equal(await form.page.locator('#edits-restored').count(), 0);
    assert.deepEqual((await drafts(form)).at(-1), { type: 'draft', state: null });
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });

  test("burn alert: the page's own state (hidden and shown again) wins over kept edits", async () => {
    const own = { context, loaded: alert, edits: { description: 'mine' }, drafts: {} };
    const form = await forms.open('burnAlertForm', own);
    await form.fromHost(
      burnInit({ unsaved: { state: { ...own, edits: { description: 'kept' } }, savedAt: SAVED_AT } }),
    );
    await form.page.locator('#f-description textarea').waitFor();
    assert.equal(await form.page.locator('#f-description textarea').inputValue(), 'mine');
    assert.equal(await form.page.locator('#edits-restored').count(), 0);
    await form.close();
  });

  test('dataset definitions: only the definitions the user changed come back, onto the map read now', async () => {
    const form = await forms.open('datasetDefinitionsForm');
    const empty = Object.fromEntries(
      [
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
      ].map((t) => [t, null]),
    );
    const then = { ...empty, route: { name: 'http.route', column_type: 'column' } };
    const now = {
      ...empty,
      route: { name: 'http.route', column_type: 'column' },
      user: { name: 'user.id', column_type: 'column' },
    };
    const rowsThen = Object.fromEntries(Object.entries(then).map(([t, ref]) => [t, ref === null ? { name: '' } : ref]));
    const kept = {
      context: { connectionId: 'conn-1', dataset: 'api-gateway' },
      loaded: then,
      rows: { ...rowsThen, log_message: { name: 'notes' } },
    };
    await form.fromHost({
      type: 'init',
      context: kept.context,
      connectionName: 'Sandbox',
      loaded: now,
      columns: null,
      discardEdits: false,
      unsaved: { state: kept, savedAt: SAVED_AT },
    });
    await form.page.locator('#edits-restored').waitFor();
    assert.equal(await form.page.locator('#f-log_message').inputValue(), 'notes', "the user's change is back");
    assert.equal(
      await form.page.locator('#f-user').inputValue(),
      'user.id',
      'a change made on the service meanwhile is not turned back',
    );
    assert.equal(await textOf(form.page, '#summary'), '1 definition will be sent: Log message.');
    await form.page.locator('#discard-edits').click();
    assert.equal(await form.page.locator('#f-log_message').inputValue(), '');
    assert.equal(await textOf(form.page, '#summary'), 'No changes.');
    await form.close();
  });

  test("update API key: typed values come back, the fixed id stays the host's", async () => {
    const form = await forms.open('apiKeyForm');
    const values = { id: 'hcxik_1', name: 'ingest-one', disabled: false };
    await form.fromHost({
      type: 'init',
      mode: 'update',
      connectionId: 'conn-1',
      connectionName: 'Sandbox',
      values,
      idFixed: true,
      unsaved: {
        state: {
          mode: 'update',
          connectionId: 'conn-1',
          updateValues: { id: 'other', name: 'renamed', disabled: true },
          idFixed: true,
        },
        savedAt: SAVED_AT,
      },
    });
    await form.page.locator('#edits-restored').waitFor();
    assert.equal(await form.page.locator('#f-id input').inputValue(), 'hcxik_1');
    assert.equal(await form.page.locator('#f-name input').inputValue(), 'renamed');
    await form.page.locator('#f-name input').fill('ingest-one');
    await form.page.locator('#f-disabled').click();
    assert.deepEqual((await drafts(form)).at(-1), { type: 'draft', state: null }, 'back to the values it opened with');
    await form.close();
  });

  test('create API key: once the host says the key was created, the page holds nothing unsaved', async () => {
    const form = await forms.open('apiKeyForm');
    const values = { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: 'env_1' };
    await form.fromHost({ type: 'init', mode: 'create', connectionId: 'conn-1', connectionName: 'Sandbox', values });
    await form.page.locator('#f-name input').fill('sent once');
    const typed = { mode: 'create', connectionId: 'conn-1', createValues: { ...values, name: 'sent once' } };
    assert.deepEqual((await drafts(form)).at(-1), { type: 'draft', state: typed });
    await form.page.locator('#submit').click();
    await form.fromHost({ type: 'created', key: { id: 'hcxik_1', name: 'sent once', secret: 'deadbeefsecret' } });
    await form.page.locator('#secret').waitFor();
    const last = (await drafts(form)).at(-1);
    assert.deepEqual(
      last,
      { type: 'draft', state: null },
      'the values were sent and the key made: nothing to offer again',
    );
    await form.close();
  });

  test('the connection gone: a banner says so plainly, and goes once it is back', async () => {
    const form = await forms.open('burnAlertForm');
    await form.fromHost(burnInit());
    await form.page.locator('#f-description textarea').fill('kept');
    const gone =
      'The connection Sandbox is not available: start the sandbox or switch connections; your edits are kept.';
    await form.fromHost({ type: 'connection', available: false, message: gone });
    assert.equal(await textOf(form.page, '#connection-gone'), gone);
    assert.equal(await form.page.locator('#connection-gone').getAttribute('role'), 'alert');
    await form.fromHost({ type: 'connection', available: true });
    assert.equal(await form.page.locator('#connection-gone').count(), 0);
    assert.equal(await form.page.locator('#f-description textarea').inputValue(), 'kept');
    await form.close();
  });
});
