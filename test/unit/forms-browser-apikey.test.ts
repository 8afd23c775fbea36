// The API key form script in headless Chromium with a stubbed VS Code API: what it validates inline,
// exactly what it posts, and that hostile strings stay text. Skipped only without /usr/bin/chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOSTILE, browserSkip, textOf, type FormPage, useFormsBrowser } from './forms-harness';

const createInit = (values: Record<string, unknown> = {}) => ({
  type: 'init',
  mode: 'create',
  connectionId: 'conn-1',
  connectionName: 'Sandbox',
  values: { name: '', keyType: 'ingest', disabled: false, createDatasets: false, environmentId: 'env_1', ...values },
});

describe('API key form in a browser', { skip: browserSkip }, () => {
  const forms = useFormsBrowser();

  /** What the page asked of the host: its messages but the drafts it reports as the user types. */
  const requests = async (form: FormPage) =>
    (await form.posted()).filter((m) => (m as { type: string }).type !== 'draft');

  async function created(init = createInit()): Promise<FormPage> {
    const form = await forms.open('apiKeyForm');
    await form.fromHost(init);
    await form.page.locator('#f-name input').waitFor();
    return form;
  }

  test('it asks the host for its data when loaded', async () => {
    const form = await forms.open('apiKeyForm');
    assert.deepEqual(await form.posted(), [{ type: 'ready' }]);
    await form.close();
  });

  test("an emptied name shows the rule inline in the user's words, before any submit", async () => {
    const form = await created();
    await form.page.locator('#f-name input').fill('x');
    await form.page.locator('#f-name input').fill('');
    assert.equal(await textOf(form.page, '#f-name-error'), 'Name is required.');
    assert.equal(await form.page.locator('#form-errors').isVisible(), false, 'the summary waits for a submit');
    assert.equal(await form.page.locator('#f-name').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await requests(form), [{ type: 'ready' }]);
    await form.close();
  });

  test('submitting invalid values posts nothing and shows every problem, on its field and in a summary at the top', async () => {
    const form = await created(createInit({ environmentId: '' }));
    await form.page.locator('#submit').click();
    assert.equal(await textOf(form.page, '#f-name-error'), 'Name is required.');
    assert.equal(await textOf(form.page, '#f-environmentId-error'), 'Environment ID is required.');
    assert.equal(await textOf(form.page, '#form-errors .summary-title'), 'There are 2 problems to fix:');
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [
      'Name is required.',
      'Environment ID is required.',
    ]);
    assert.deepEqual(
      await form.page.locator('#form-errors li a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ['#f-name', '#f-environmentId'],
    );
    assert.equal(await form.page.evaluate(() => document.activeElement?.id), 'f-name', 'focus on the first problem');
    // The summary's link takes the user to its field.
    await form.page.locator('#form-errors a', { hasText: 'Environment ID' }).click();
    assert.equal(await form.page.evaluate(() => document.activeElement?.id), 'f-environmentId');
    // Fixing a field takes it off the summary at once.
    await form.page.locator('#f-name input').fill('fixed');
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), ['Environment ID is required.']);
    assert.deepEqual(await requests(form), [{ type: 'ready' }]);
    await form.close();
  });

  test('submit posts exactly the values, once, and disables the button while busy', async () => {
    const form = await created();
    await form.page.locator('#f-name input').fill('checkout ingest');
    await form.page.locator('#f-createDatasets').click();
    await form.page.locator('#submit').click();
    await form.page.locator('#submit').click({ force: true });
    assert.deepEqual(await requests(form), [
      { type: 'ready' },
      {
        type: 'submitCreate',
        values: {
          name: 'checkout ingest',
          keyType: 'ingest',
          disabled: false,
          createDatasets: true,
          environmentId: 'env_1',
        },
      },
    ]);
    assert.equal(
      await form.page.locator('#submit').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled),
      true,
    );
    assert.equal(await form.page.locator('vscode-progress-ring').isVisible(), true);
    assert.match(await textOf(form.page, '#status-text'), /Creating the key/);
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });

  test('the keyboard alone fills and submits the form (Tab, type, Space, Enter)', async () => {
    const form = await created();
    const focused = () => form.page.evaluate(() => document.activeElement?.id ?? '');
    await form.page.locator('#f-name input').focus();
    await form.page.keyboard.type('typed key');
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await form.page.keyboard.press('Tab');
      order.push(await focused());
    }
    assert.deepEqual(order, ['f-keyType', 'f-environmentId', 'f-disabled', 'f-createDatasets', 'submit']);
    await form.page.keyboard.press('Shift+Tab');
    await form.page.keyboard.press('Space');
    await form.page.keyboard.press('Tab');
    await form.page.keyboard.press('Enter');
    const message = await form.waitForPosted('submitCreate');
    assert.deepEqual(message.values, {
      name: 'typed key',
      keyType: 'ingest',
      disabled: false,
      createDatasets: true,
      environmentId: 'env_1',
    });
    await form.close();
  });

  test('Enter in a text field submits, as in a native form', async () => {
    const form = await created();
    await form.page.locator('#f-name input').fill('enter key');
    await form.page.locator('#f-name input').press('Enter');
    const message = await form.waitForPosted('submitCreate');
    assert.equal((message.values as { name: string }).name, 'enter key');
    assert.equal(new URL(form.page.url()).pathname, '/form.html');
    await form.close();
  });

  test('the labels name their controls for screen readers', async () => {
    const form = await created();
    assert.equal(await form.page.locator('#f-name input').getAttribute('aria-label'), 'Name');
    assert.equal(await form.page.locator('#f-environmentId input').getAttribute('aria-label'), 'Environment ID');
    assert.equal(await form.page.locator('#status').getAttribute('aria-live'), 'polite');
    await form.close();
  });

  test('service problems land on the field they name, the rest at the top', async () => {
    const form = await created();
    await form.page.locator('#f-name input').fill('dup');
    await form.page.locator('#submit').click();
    // The host answers a submit it received: wait for it, or the submit's own check could run after the answer.
    await form.waitForPosted('submitCreate');
    await form.fromHost({
      type: 'problems',
      problems: { fields: { name: ['a live API key named "dup" already exists'] }, form: ['create API key: conflict'] },
    });
    assert.equal(await textOf(form.page, '#f-name-error'), 'a live API key named "dup" already exists');
    assert.equal(await textOf(form.page, '#form-errors .summary-title'), 'There are 2 problems to fix:');
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [
      'Name: a live API key named "dup" already exists',
      'create API key: conflict',
    ]);
    assert.equal(await form.page.locator('#form-errors li a').getAttribute('href'), '#f-name');
    assert.equal(
      await form.page.locator('#submit').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled),
      false,
    );
    await form.close();
  });

  test('the secret is shown once with copy buttons, and never written to the state', async () => {
    const form = await created();
    await form.fromHost({ type: 'created', key: { id: 'hcxik_1', name: 'k1', secret: 'deadbeefsecret' } });
    await form.page.locator('#secret').waitFor();
    assert.equal(await textOf(form.page, '#secret'), 'deadbeefsecret');
    assert.match(await textOf(form.page, '#secret-warning'), /cannot be retrieved again/);
    await form.page.locator('#copy-both').click();
    await form.page.locator('#copy-secret').click();
    const posted = await form.posted();
    assert.deepEqual(posted.slice(1), [
      { type: 'copy', what: 'idAndSecret' },
      { type: 'copy', what: 'secret' },
    ]);
    const state = await form.state();
    assert.deepEqual((state as { created: unknown }).created, { id: 'hcxik_1', name: 'k1' });
    assert.ok(!JSON.stringify(state).includes('deadbeefsecret'));
    assert.ok(!JSON.stringify(posted).includes('deadbeefsecret'));
    await form.close();
  });

  test('notes about an odd answer are shown with the secret; without a key id only the secret can be copied', async () => {
    const form = await created();
    const notes = [
      "The service's answer was unusual (data.id): check it on the service.",
      "The service did not say the key's id.",
    ];
    await form.fromHost({ type: 'created', key: { id: '', name: 'k1', secret: 'deadbeefsecret' }, notes });
    await form.page.locator('#secret').waitFor();
    assert.equal(await textOf(form.page, '#secret'), 'deadbeefsecret');
    assert.deepEqual(await form.page.locator('#created-notes li').allTextContents(), notes);
    assert.equal(await textOf(form.page, '#created-id'), '(the service gave none)');
    assert.equal(await form.page.locator('#copy-both').count(), 0);
    await form.page.locator('#copy-secret').click();
    assert.deepEqual((await form.posted()).at(-1), { type: 'copy', what: 'secret' });
    await form.close();
  });

  test('after a reload the form says the secret is gone instead of showing a stale one', async () => {
    const form = await forms.open('apiKeyForm', {
      mode: 'create',
      connectionId: 'conn-1',
      created: { id: 'hcxik_1', name: 'k1' },
    });
    await form.fromHost(createInit());
    await form.page.locator('#secret-gone').waitFor();
    assert.equal(await form.page.locator('#secret').count(), 0);
    assert.equal(await textOf(form.page, '#created-id'), 'hcxik_1');
    await form.close();
  });

  test('typed values survive hiding and showing (restored from the state)', async () => {
    const first = await created();
    await first.page.locator('#f-name input').fill('half typed');
    const state = await first.state();
    await first.close();
    const again = await forms.open('apiKeyForm', state);
    await again.fromHost(createInit());
    await again.page.locator('#f-name input').waitFor();
    assert.equal(await again.page.locator('#f-name input').inputValue(), 'half typed');
    await again.close();
  });

  test('hostile strings are shown as text: no dialog, no page error, no CSP violation', async () => {
    const form = await created(createInit({ name: HOSTILE[0] }));
    await form.fromHost({ type: 'created', key: { id: HOSTILE[1], name: HOSTILE[0], secret: HOSTILE[1] } });
    await form.page.locator('#secret').waitFor();
    assert.equal(await textOf(form.page, '#created-name'), HOSTILE[0]);
    assert.equal(await textOf(form.page, '#created-id'), HOSTILE[1]);
    assert.equal(await textOf(form.page, '#secret'), HOSTILE[1]);
    assert.equal(await form.page.locator('#app img, #app script').count(), 0);
    await form.fromHost({ type: 'status', message: HOSTILE[0] });
    assert.equal(await textOf(form.page, '#status-text'), HOSTILE[0]);
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });

  test('the update form of a known key shows its id read-only and posts the id, name and disabled state', async () => {
    const form = await forms.open('apiKeyForm');
    await form.fromHost({
      type: 'init',
      mode: 'update',
      connectionId: 'c',
      connectionName: 'S',
      values: { id: 'hcxik_9', name: 'old', disabled: false },
      idFixed: true,
    });
    await form.page.locator('#f-name input').waitFor();
    assert.equal(await form.page.locator('#f-id input').inputValue(), 'hcxik_9');
    assert.equal(await form.page.locator('#f-id input').getAttribute('readonly'), '');
    await form.page.locator('#f-id input').press('End');
    await form.page.keyboard.type('x');
    assert.equal(await form.page.locator('#f-id input').inputValue(), 'hcxik_9', 'typing does not change it');
    await form.page.locator('#f-name input').fill('new name');
    await form.page.locator('#f-disabled').click();
    await form.page.locator('#submit').click();
    assert.deepEqual((await form.posted()).at(-1), {
      type: 'submitUpdate',
      values: { id: 'hcxik_9', name: 'new name', disabled: true },
    });
    await form.fromHost({ type: 'updated', key: { id: 'hcxik_9', name: 'new name', disabled: true } });
    // The page handles the message on its own turn: wait for the status it shows, then check it whole.
    await form.page.locator('#status-text', { hasText: 'Saved:' }).waitFor({ timeout: 5_000 });
    assert.match(await textOf(form.page, '#status-text'), /Saved: "new name" is disabled/);
    await form.close();
  });

  test('the update form opened by id lets the user type the id', async () => {
    const form = await forms.open('apiKeyForm');
    await form.fromHost({
      type: 'init',
      mode: 'update',
      connectionId: 'c',
      connectionName: 'S',
      values: { id: '', name: '', disabled: false },
      idFixed: false,
    });
    await form.page.locator('#f-id input').waitFor();
    assert.equal(await form.page.locator('#f-id input').getAttribute('readonly'), null);
    await form.page.locator('#f-id input').fill('hcxik_7');
    await form.page.locator('#f-name input').fill('typed');
    await form.page.locator('#submit').click();
    assert.deepEqual((await form.posted()).at(-1), {
      type: 'submitUpdate',
      values: { id: 'hcxik_7', name: 'typed', disabled: false },
    });
    await form.close();
  });

  test('a malformed host message is ignored', async () => {
    const form = await created();
    await form.fromHost({ type: 'created', key: { id: 'k' } });
    assert.equal(await form.page.locator('#secret').count(), 0);
    assert.deepEqual((await form.incidents()).pageErrors, []);
    await form.close();
  });
});
