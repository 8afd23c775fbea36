// The burn alert form script in headless Chromium with a stubbed VS Code API. Skipped only without
// /usr/bin/chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOSTILE, browserSkip, textOf, type FormPage, useFormsBrowser } from './forms-harness';

const context = { connectionId: 'conn-1', dataset: 'api-gateway', sloId: 'slo_gw', alertId: 'ba_1' };
const exhaustionAlert = {
  id: 'ba_1',
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 240,
  description: 'four hours',
  triggered: false,
  updated_at: '2024-03-02T10:00:00.000Z',
  slo: { id: 'slo_gw' },
  recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
};
const options = [
  { id: 'rcp_mail', label: 'email: oncall@example.com (rcp_mail)' },
  { id: 'rcp_pd', label: 'pagerduty: Primary (rcp_pd)' },
];
const init = (loaded: Record<string, unknown> = exhaustionAlert, extra: Record<string, unknown> = {}) => ({
  type: 'init',
  context,
  connectionName: 'Sandbox',
  loaded,
  recipientOptions: options,
  discardEdits: false,
  ...extra,
});

describe('burn alert form in a browser', { skip: browserSkip }, () => {
  const forms = useFormsBrowser();

  async function opened(message = init(), state?: unknown): Promise<FormPage> {
    const form = await forms.open('burnAlertForm', state);
    await form.fromHost(message);
    await form.page.locator('#submit').waitFor();
    return form;
  }

  const setSelect = (form: FormPage, selector: string, value: string) =>
    form.page.locator(selector).evaluate((el, v) => {
      (el as HTMLElement & { value: string }).value = v;
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }, value);

  test('the fields follow alert_type: exhaustion_minutes or the budget_rate fields', async () => {
    const form = await opened();
    assert.equal(await form.page.locator('#f-exhaustion_minutes').isVisible(), true);
    assert.equal(await form.page.locator('#f-budget_rate_window_minutes').isVisible(), false);
    await setSelect(form, '#f-alert_type', 'budget_rate');
    assert.equal(await form.page.locator('#f-exhaustion_minutes').isVisible(), false);
    assert.equal(await form.page.locator('#f-budget_rate_window_minutes').isVisible(), true);
    assert.equal(
      await textOf(form.page, '#f-budget_rate_window_minutes-error'),
      'Budget rate window (minutes) is required when the alert type is Budget rate.',
    );
    await form.close();
  });

  test('the last update is a relative time with the exact UTC time on hover (the clock pinned)', async () => {
    const form = await forms.open('burnAlertForm');
    await form.page.clock.setFixedTime(new Date('2024-03-02T13:10:00Z'));
    await form.fromHost(init());
    await form.page.locator('#submit').waitFor();
    assert.equal(await textOf(form.page, '.lead time'), '3 hours ago');
    assert.equal(await form.page.locator('.lead time').getAttribute('title'), '2024-03-02 10:00:00 UTC');
    assert.equal(await form.page.locator('.lead time').getAttribute('datetime'), '2024-03-02T10:00:00.000Z');
    assert.equal(
      await textOf(form.page, '.lead'),
      'Alert ba_1 of SLO slo_gw in dataset api-gateway (connection Sandbox). Last updated 3 hours ago.',
    );
    await form.close();
  });

  test('number rules show inline as the user types', async () => {
    const form = await opened();
    const input = form.page.locator('#f-exhaustion_minutes input');
    await input.fill('-5');
    assert.equal(await textOf(form.page, '#f-exhaustion_minutes-error'), 'Exhaustion minutes must be 0 or more.');
    await input.fill('');
    assert.equal(
      await textOf(form.page, '#f-exhaustion_minutes-error'),
      'Exhaustion minutes is required when the alert type is Exhaustion time.',
    );
    await input.fill('30');
    assert.equal(await form.page.locator('#f-exhaustion_minutes-error').isVisible(), false);
    await form.close();
  });

  test('exhaustion minutes are never refused for their size: the help says what a large number comes to', async () => {
    const form = await opened();
    const help = '#f-exhaustion_minutes-help';
    const base = 'Minutes left until the projected budget is used up when the alert fires (0 or more).';
    assert.equal(await textOf(form.page, help), `${base} That is 4 h.`);
    await form.page.locator('#f-exhaustion_minutes input').fill('2147483648');
    assert.equal(await textOf(form.page, help), `${base} That is about 4,083 years.`);
    assert.equal(
      await form.page.locator('#f-exhaustion_minutes-error').isVisible(),
      false,
      'the service takes it: no error',
    );
    await form.page.locator('#f-exhaustion_minutes input').fill('45');
    assert.equal(await textOf(form.page, help), base);
    await form.close();
  });

  test('the description counter sits beside the description, counts to 1023 and the rule shows past it', async () => {
    const form = await opened();
    assert.equal(await textOf(form.page, '#description-counter'), '10 / 1,023');
    await form.page.locator('#f-description textarea').fill('x'.repeat(1024));
    assert.equal(await textOf(form.page, '#description-counter'), '1,024 / 1,023');
    assert.equal(await textOf(form.page, '#f-description-error'), 'Description can have at most 1,023 characters.');
    const field = await form.page.locator('#f-description').boundingBox();
    const count = await form.page.locator('#description-counter').boundingBox();
    assert.ok(field && count);
    assert.ok(
      count.x >= field.x + field.width && count.x - (field.x + field.width) <= 12,
      `the counter starts ${count.x - (field.x + field.width)} px right of the field`,
    );
    assert.ok(
      count.y + count.height <= field.y + field.height + 1 && count.y >= field.y,
      "the counter is level with the field's last line",
    );
    await form.close();
  });

  test("typing keeps the focus, the caret and the text as typed while the field's problem comes and goes", async () => {
    const form = await opened();
    const textarea = form.page.locator('#f-description textarea');
    const caret = () => textarea.evaluate((t) => (t as HTMLTextAreaElement).selectionStart);
    const focused = () => form.page.evaluate(() => document.activeElement?.id);
    await textarea.fill(`${'x'.repeat(1021)}ab`);
    await textarea.press('End');
    await textarea.press('ArrowLeft');
    // One more character than allowed, typed between "a" and "b": the error line appears as the page is drawn again.
    await form.page.keyboard.type('Z');
    assert.equal(await textOf(form.page, '#f-description-error'), 'Description can have at most 1,023 characters.');
    assert.equal(await textarea.inputValue(), `${'x'.repeat(1021)}aZb`);
    assert.deepEqual([await caret(), await focused()], [1023, 'f-description']);
    await form.page.keyboard.press('Backspace');
    assert.equal(await form.page.locator('#f-description-error').isVisible(), false);
    assert.equal(await textarea.inputValue(), `${'x'.repeat(1021)}ab`);
    assert.deepEqual([await caret(), await focused()], [1022, 'f-description']);
    // A number keeps the text it was typed as ("01"), while its number (1) is what is sent.
    const minutes = form.page.locator('#f-exhaustion_minutes input');
    await minutes.fill('');
    assert.equal(
      await textOf(form.page, '#f-exhaustion_minutes-error'),
      'Exhaustion minutes is required when the alert type is Exhaustion time.',
    );
    await form.page.keyboard.type('01');
    assert.equal(await form.page.locator('#f-exhaustion_minutes-error').isVisible(), false);
    assert.deepEqual([await minutes.inputValue(), await focused()], ['01', 'f-exhaustion_minutes']);
    await form.page.locator('#review').click();
    assert.deepEqual((await form.posted()).at(-1), {
      type: 'review',
      edits: { description: `${'x'.repeat(1021)}ab`, exhaustion_minutes: 1 },
    });
    await form.close();
  });

  test('the description counter counts characters, not UTF-16 units: 1023 emoji fit', async () => {
    const form = await opened();
    await form.page.locator('#f-description textarea').fill('\u{1F6A8}'.repeat(1023));
    assert.equal(await textOf(form.page, '#description-counter'), '1,023 / 1,023');
    assert.equal(await form.page.locator('#description-counter.over').count(), 0);
    assert.equal(await form.page.locator('#f-description-error').isVisible(), false);
    await form.close();
  });

  test('submit posts only the edits, with the full recipients list when it changed', async () => {
    const form = await opened();
    await form.page.locator('#f-description textarea').fill('edited');
    await setSelect(form, '#recipient-pick', 'rcp_pd');
    await form.page.locator('#add-recipient').click();
    await form.page.locator('#submit').click();
    assert.deepEqual((await form.posted()).at(-1), {
      type: 'submit',
      edits: {
        description: 'edited',
        recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }, { id: 'rcp_pd' }],
      },
    });
    assert.equal(
      await form.page.locator('#submit').evaluate((b) => (b as HTMLElement & { disabled: boolean }).disabled),
      true,
    );
    await form.close();
  });

  test('the picker offers the recipients the alert does not have, and starts over after each add and remove', async () => {
    const form = await opened();
    // What the picker offers, as it read its options (it reads them again when they change).
    const offered = (count: number) =>
      form.page
        .waitForFunction((n) => {
          const pick = document.querySelector('#recipient-pick') as
            | (HTMLElement & { options: { value: string; label: string }[]; value: string })
            | null;
          return pick && pick.options.length === n
            ? { options: pick.options.map((o) => `${o.value}|${o.label}`), value: pick.value }
            : undefined;
        }, count)
        .then((h) => h.jsonValue());
    assert.deepEqual(await offered(2), {
      options: ['|(choose a recipient)', 'rcp_pd|pagerduty: Primary (rcp_pd)'],
      value: '',
    });
    await setSelect(form, '#recipient-pick', 'rcp_pd');
    await form.page.locator('#add-recipient').click();
    assert.deepEqual(await offered(1), { options: ['|(no other recipients seen in this environment)'], value: '' });
    await form.page.locator('#recipients vscode-button').first().click();
    assert.deepEqual(await offered(2), {
      options: ['|(choose a recipient)', 'rcp_mail|email: oncall@example.com (rcp_mail)'],
      value: '',
    });
    assert.deepEqual(await form.page.locator('#recipients .recipient-label').allTextContents(), [
      'pagerduty: Primary (rcp_pd)',
    ]);
    await form.close();
  });

  test('removing the last recipient blocks the submit with the rule on the recipients', async () => {
    const form = await opened();
    await form.page.locator('#recipients vscode-button').click();
    assert.equal(await textOf(form.page, '#f-recipients-error'), 'Add at least one recipient.');
    await form.page.locator('#submit').click();
    assert.equal((await form.posted()).filter((m) => (m as { type: string }).type === 'submit').length, 0);
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [
      'Recipients: Add at least one recipient.',
    ]);
    // The list cannot take focus: the summary's link goes to the recipient picker.
    await form.page.locator('#form-errors a').click();
    assert.equal(await form.page.evaluate(() => document.activeElement?.id), 'recipient-pick');
    await form.close();
  });

  test('a recipient named by type and target is added and marked deprecated', async () => {
    const form = await opened();
    await form.page.locator('details summary').click();
    await form.page.locator('#f-recipient-type input').fill('email');
    await form.page.locator('#f-recipient-target input').fill('team@example.com');
    await form.page.locator('#add-deprecated-recipient').click();
    assert.equal(await form.page.locator('#recipients li').count(), 2);
    assert.equal(await textOf(form.page, '#recipients li:nth-child(2) .badge'), 'deprecated');
    await form.page.locator('#submit').click();
    const edits = ((await form.posted()).at(-1) as { edits: { recipients: unknown[] } }).edits;
    assert.deepEqual(edits.recipients.at(-1), { type: 'email', target: 'team@example.com' });
    await form.close();
  });

  test('an alert listed without recipients says so and asks for them', async () => {
    const { recipients: _r, ...withoutRecipients } = exhaustionAlert;
    const form = await opened(init(withoutRecipients));
    assert.equal(await form.page.locator('#recipients-unknown').isVisible(), true);
    await form.page.locator('#submit').click();
    assert.equal(await textOf(form.page, '#f-recipients-error'), 'Add at least one recipient.');
    await form.close();
  });

  test('members of the alert the PUT cannot carry are named before Save', async () => {
    const form = await opened(init({ ...exhaustionAlert, auto_investigate: true }));
    assert.equal(
      await textOf(form.page, '#unsendable'),
      'This alert also has auto_investigate = true, which this form cannot send: saving sends only the fields below, and the service decides whether to keep it.',
    );
    await form.close();
    const plain = await opened();
    assert.equal(await plain.page.locator('#unsendable').count(), 0);
    await plain.close();
  });

  test('a conflict with a version listed without recipients shows them as unknown, never []', async () => {
    const form = await opened();
    await form.page.locator('#submit').click();
    const { recipients: _r, ...theirs } = { ...exhaustionAlert, updated_at: '2024-03-03T00:00:00.000Z' };
    await form.fromHost({
      type: 'conflict',
      current: theirs,
      mine: { alert_type: 'exhaustion_time', exhaustion_minutes: 240, recipients: exhaustionAlert.recipients },
    });
    await form.page.locator('#conflict-theirs').waitFor();
    assert.match(
      await textOf(form.page, '#conflict-theirs'),
      /"recipients": "unknown: the service listed this alert without its recipients"/,
    );
    await form.close();
  });

  test('review posts the current edits', async () => {
    const form = await opened();
    await form.page.locator('#f-exhaustion_minutes input').fill('15');
    await form.page.locator('#review').click();
    assert.deepEqual((await form.posted()).at(-1), { type: 'review', edits: { exhaustion_minutes: 15 } });
    await form.close();
  });

  test('a conflict shows both versions and posts the choice', async () => {
    const form = await opened();
    await form.page.locator('#f-description textarea').fill('mine');
    await form.page.locator('#submit').click();
    const theirs = { ...exhaustionAlert, description: 'theirs', updated_at: '2024-03-03T00:00:00.000Z' };
    await form.fromHost({
      type: 'conflict',
      current: theirs,
      mine: {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 240,
        recipients: exhaustionAlert.recipients,
        description: 'mine',
      },
    });
    await form.page.locator('#conflict-overwrite').waitFor();
    assert.match(await textOf(form.page, '#conflict-theirs'), /"description": "theirs"/);
    assert.match(await textOf(form.page, '#conflict-mine'), /"description": "mine"/);
    await form.page.locator('#conflict-compare').click();
    await form.page.locator('#conflict-overwrite').click();
    const posted = await form.posted();
    assert.deepEqual(posted.slice(-2), [{ type: 'reviewConflict' }, { type: 'resolveConflict', choice: 'overwrite' }]);
    assert.equal(await form.page.locator('#conflict').isVisible(), false);
    await form.close();
  });

  test('edits survive hiding and showing; a reload choice drops them', async () => {
    const first = await opened();
    await first.page.locator('#f-description textarea').fill('kept across a hide');
    const state = await first.state();
    await first.close();
    const again = await opened(init(), state);
    assert.equal(await again.page.locator('#f-description textarea').inputValue(), 'kept across a hide');
    await again.fromHost(init({ ...exhaustionAlert, description: 'from the service' }, { discardEdits: true }));
    await again.page.waitForFunction(() => document.querySelector('#status-text')?.textContent?.includes('Reloaded'));
    assert.equal(await again.page.locator('#f-description textarea').inputValue(), 'from the service');
    await again.close();
  });

  test('hostile strings are shown as text: no dialog, no page error, no CSP violation', async () => {
    const hostile = {
      ...exhaustionAlert,
      id: HOSTILE[1],
      description: HOSTILE[0],
      recipients: [{ id: HOSTILE[0], type: HOSTILE[1], target: HOSTILE[0] }],
    };
    const form = await opened(init(hostile, { recipientOptions: [{ id: HOSTILE[1], label: HOSTILE[0] }] }));
    assert.equal(await form.page.locator('#f-description textarea').inputValue(), HOSTILE[0]);
    assert.equal(
      await textOf(form.page, '#recipients .recipient-label'),
      `${HOSTILE[1]}: ${HOSTILE[0]} (${HOSTILE[0]})`,
    );
    assert.match(await textOf(form.page, '.lead'), /<script>alert\(1\)<\/script>/);
    await form.fromHost({ type: 'problems', problems: { fields: { description: [HOSTILE[1]] }, form: [HOSTILE[0]] } });
    assert.deepEqual(await form.page.locator('#form-errors li').allTextContents(), [
      `Description: ${HOSTILE[1]}`,
      HOSTILE[0],
    ]);
    await form.fromHost({
      type: 'conflict',
      current: hostile,
      mine: {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 1,
        recipients: [{ id: HOSTILE[0] }],
        description: HOSTILE[1],
      },
    });
    await form.page.locator('#conflict-theirs').waitFor();
    assert.equal(await form.page.locator('#app img, #app script').count(), 0);
    assert.deepEqual(await form.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await form.close();
  });
});
