// The burn alert form's "Recipient ID" field: any recipient can be added by its id, also one the team's list
// lacks (the service decides), which the row then says. In headless Chromium with a stubbed VS Code API;
// skipped only without /usr/bin/chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HOSTILE,
  browserSkip,
  textOf,
  type FormPage,
  useFormsBrowser,
  BURN_ALERT_CONTEXT,
  EXHAUSTION_ALERT,
} from './forms-harness';

const context = BURN_ALERT_CONTEXT;
const alert = EXHAUSTION_ALERT;
const options = [
  { id: 'rcp_mail', label: 'oncall@example.com (email)' },
  { id: 'rcp_pd', label: 'Primary on-call (PagerDuty)' },
];
const init = (extra: Record<string, unknown> = {}) => ({
  type: 'init',
  context,
  connectionName: 'Sandbox',
  loaded: alert,
  recipientOptions: options,
  listedRecipientIds: ['rcp_mail', 'rcp_pd'],
  discardEdits: false,
  ...extra,
});
const NOT_LISTED = '(not among the recipients the service lists)';

describe('burn alert form: a recipient added by its ID', { skip: browserSkip }, () => {
  const forms = useFormsBrowser();

  async function opened(message: unknown = init(), state?: unknown): Promise<FormPage> {
    const form = await forms.open('burnAlertForm', state);
    await form.fromHost(message);
    await form.page.locator('#f-recipient-id input').waitFor();
    return form;
  }

  const idInput = (form: FormPage) => form.page.locator('#f-recipient-id input');
  const rows = (form: FormPage) => form.page.locator('#recipients .recipient-label').allTextContents();
  const drafts = async (form: FormPage) =>
    (await form.posted()).filter((m) => (m as { type: string }).type === 'draft');

  test('an ID typed and added with Add is trimmed and joins the list; the field empties; Enter adds too', async () => {
    const form = await opened();
    await idInput(form).fill('  rcp_pd  ');
    await form.page.locator('#add-recipient-id').click();
    assert.deepEqual(
      await rows(form),
      ['oncall@example.com (email)', 'Primary on-call (PagerDuty)'],
      'a listed id shows by its name',
    );
    assert.equal(await idInput(form).inputValue(), '');
    await idInput(form).fill('rcp_by_enter');
    await idInput(form).press('Enter');
    assert.deepEqual(await rows(form), [
      'oncall@example.com (email)',
      'Primary on-call (PagerDuty)',
      `rcp_by_enter ${NOT_LISTED}`,
    ]);
    assert.equal(await idInput(form).inputValue(), '');
    assert.deepEqual(
      (await form.posted()).filter((m) => (m as { type: string }).type === 'submit'),
      [],
      'Enter in the field adds; it does not save',
    );
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });

  test('an empty ID (or only spaces) is refused inline and adds nothing', async () => {
    const form = await opened();
    await form.page.locator('#add-recipient-id').click();
    assert.equal(await textOf(form.page, '#f-recipient-id-error'), 'Type a recipient ID to add.');
    await idInput(form).fill('   ');
    assert.equal(
      await form.page.locator('#f-recipient-id-error').isVisible(),
      false,
      'typing again clears what Add said',
    );
    await form.page.locator('#add-recipient-id').click();
    assert.equal(await textOf(form.page, '#f-recipient-id-error'), 'Type a recipient ID to add.');
    assert.deepEqual(await rows(form), ['oncall@example.com (email)']);
    assert.deepEqual(await drafts(form), [], 'nothing to lose: the host is told of no unsaved edit');
    await form.close();
  });

  test('an ID the alert already has is not added twice, and the field says so', async () => {
    const form = await opened();
    await idInput(form).fill(' rcp_mail');
    await form.page.locator('#add-recipient-id').click();
    assert.equal(await textOf(form.page, '#f-recipient-id-error'), 'rcp_mail is already a recipient of this alert.');
    assert.equal(await form.page.locator('#f-recipient-id').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await rows(form), ['oncall@example.com (email)']);
    await form.close();
  });

  test("an ID the team's list lacks is accepted and its row says so; without the list it shows as it is", async () => {
    const form = await opened();
    await idInput(form).fill('rcp_unknown');
    await form.page.locator('#add-recipient-id').click();
    assert.deepEqual(await rows(form), ['oncall@example.com (email)', `rcp_unknown ${NOT_LISTED}`]);
    assert.equal(
      await form.page.locator('#recipients vscode-button').nth(1).getAttribute('aria-label'),
      `Remove recipient rcp_unknown ${NOT_LISTED}`,
    );
    await form.close();

    const { listedRecipientIds: _l, ...unlisted } = init();
    const refused = await opened(unlisted);
    await idInput(refused).fill('rcp_unknown');
    await refused.page.locator('#add-recipient-id').click();
    assert.deepEqual(
      await rows(refused),
      ['oncall@example.com (email)', 'rcp_unknown'],
      'the list could not be read: nothing is said about the id',
    );
    await refused.close();
  });

  test('a hostile ID is shown as text: no dialog, no page error, no CSP violation', async () => {
    const form = await opened();
    await idInput(form).fill(HOSTILE[0]);
    await form.page.locator('#add-recipient-id').click();
    await idInput(form).fill(HOSTILE[0]);
    await form.page.locator('#add-recipient-id').click();
    assert.deepEqual(await rows(form), ['oncall@example.com (email)', `${HOSTILE[0]} ${NOT_LISTED}`]);
    assert.equal(
      await textOf(form.page, '#f-recipient-id-error'),
      `${HOSTILE[0]} is already a recipient of this alert.`,
    );
    assert.equal(await form.page.locator('#app img, #app script').count(), 0);
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });

  test('Save sends a typed ID as { id } and nothing else, beside the recipients as loaded', async () => {
    const form = await opened();
    await idInput(form).fill('rcp_unknown');
    await form.page.locator('#add-recipient-id').click();
    await form.page.locator('#submit').click();
    assert.deepEqual((await form.posted()).at(-1), {
      type: 'submit',
      edits: { recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }, { id: 'rcp_unknown' }] },
    });
    await form.close();
  });

  test('an ID typed and not added holds Save back, named in the summary, until it is added or cleared', async () => {
    const form = await opened();
    await idInput(form).fill('rcp_pd');
    assert.equal(await form.page.locator('#f-recipient-id-error').isVisible(), false, 'not said while typing');
    await form.page.locator('#submit').click();
    assert.equal((await form.posted()).filter((m) => (m as { type: string }).type === 'submit').length, 0);
    assert.equal(
      await textOf(form.page, '#f-recipient-id-error'),
      'This ID is not added yet: add it or clear the field.',
    );
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [
      'Recipient ID: This ID is not added yet: add it or clear the field.',
    ]);
    assert.equal(await form.page.evaluate(() => document.activeElement?.id), 'f-recipient-id');
    await form.page.locator('#add-recipient-id').click();
    await form.page.locator('#submit').click();
    assert.deepEqual((await form.posted()).at(-1), {
      type: 'submit',
      edits: { recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }, { id: 'rcp_pd' }] },
    });
    await form.close();
  });

  test('an ID typed and not added survives a hide and a close, as number text does', async () => {
    const first = await opened();
    await idInput(first).fill('rcp_half');
    const kept = { context, loaded: alert, edits: {}, drafts: {}, recipientId: 'rcp_half' };
    assert.deepEqual(
      (await drafts(first)).at(-1),
      { type: 'draft', state: kept },
      'the host is told: the tab is marked and the close keeps it',
    );
    assert.deepEqual(await first.state(), kept);
    const state = await first.state();
    await first.close();

    const shownAgain = await opened(init(), state);
    assert.equal(await idInput(shownAgain).inputValue(), 'rcp_half');
    await shownAgain.close();

    const reopened = await opened(init({ unsaved: { state: kept, savedAt: Date.parse('2024-03-02T10:32:00.000Z') } }));
    await reopened.page.locator('#edits-restored').waitFor();
    assert.equal(await idInput(reopened).inputValue(), 'rcp_half');
    await reopened.page.locator('#discard-edits').click();
    assert.equal(await idInput(reopened).inputValue(), '');
    assert.deepEqual((await drafts(reopened)).at(-1), { type: 'draft', state: null });
    await reopened.close();
  });
});
