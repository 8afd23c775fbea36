// The plan view's page in headless Chromium (the host's own HTML, CSP and nonce; acquireVsCodeApi stubbed to
// record what the page sends), drawn from the models the host makes: each change with its members and
// actions, a change left out, Apply with the exclusions shown; Enter applies nothing, and a production-like
// connection's Apply waits for its name typed; once applied, the outcomes and Plan Again, no Apply. Names and
// values stay text. Skipped only without /usr/bin/chromium.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { changeKey, type Plan, type PlannedChange } from '../../src/triggerFiles';
import { PlanSession } from '../../src/extension/sync/planSession';
import { browserSkip, HOSTILE, useFormsBrowser, type FormPage } from './forms-harness';

const version = { updatedAt: '2026-11-20T00:00:00Z', sha256: 'abc' };
const create: PlannedChange = {
  kind: 'trigger',
  action: 'create',
  file: 'triggers/api/New.trigger.json',
  index: -1,
  dataset: 'api',
  name: HOSTILE[0],
  body: { name: HOSTILE[0], frequency: 300 },
};
const update: PlannedChange = {
  kind: 'trigger',
  action: 'update',
  file: 'triggers/api/High-latency.trigger.json',
  index: -1,
  dataset: 'api',
  name: 'High latency',
  id: 't-1',
  matchedBy: 'id',
  differences: [{ path: 'threshold.value', member: 'threshold', service: 500, local: HOSTILE[1] }],
  body: {},
  service: version,
};

const plan = (connection: string): Plan => ({
  format: 'obs-trigger-plan',
  version: 3,
  createdAt: '2026-11-26T12:00:00.000Z',
  target: { baseUrl: 'http://127.0.0.1:4321', connection, key: { salt: '', sha256: '' } },
  inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
  prune: false,
  files: [{ file: create.file, sha256: 'x' }],
  changes: [create, update],
  blocked: [],
  unchanged: 0,
});

const session = (connection: string, production = false): PlanSession =>
  new PlanSession(4, { plan: plan(connection), notes: [], idsIgnored: false, production });

/** What the page sent besides its first `ready`. */
async function sent(p: FormPage): Promise<unknown[]> {
  return (await p.posted()).slice(1);
}

describe('plan view page (Chromium)', { skip: browserSkip }, () => {
  const forms = useFormsBrowser();

  async function shown(s: PlanSession): Promise<FormPage> {
    const p = await forms.open('planView');
    await p.fromHost({ type: 'show', model: s.model() });
    await p.page.locator('#title').waitFor();
    return p;
  }

  test('each change shows its members and actions; names and values from files stay text', async () => {
    const p = await shown(session('Sandbox'));
    assert.deepEqual(await p.page.locator('section.group h2').allTextContents(), [
      '1 trigger to create',
      "1 trigger to update (Sandbox's value -> the file's value)",
    ]);
    assert.deepEqual(await p.page.locator('.change .change-label').allTextContents(), [
      `api "${HOSTILE[0]}"`,
      'api "High latency" (t-1)',
    ]);
    assert.deepEqual(await p.page.locator('.change.update .members tbody td').allTextContents(), [
      '500',
      '→',
      JSON.stringify(HOSTILE[1]),
    ]);
    assert.deepEqual(await p.page.locator('.change.create vscode-button').allTextContents(), ['Open File']);
    assert.deepEqual(await p.page.locator('.change.update vscode-button').allTextContents(), ['Open File', 'Compare']);
    assert.equal(await p.page.locator('img, script:not([type]), .change script').count(), 0);
    assert.equal(await p.page.locator('#status').textContent(), 'Nothing is written until you confirm.');
    assert.deepEqual(await p.incidents(), { dialogs: [], pageErrors: [], csp: [] });
    await p.close();
  });

  test('a change left out is sent as such, and Apply sends the exclusions the view shows', async () => {
    const s = session('Sandbox');
    const p = await shown(s);
    await p.page.locator('.change.update vscode-checkbox.include').click();
    const exclude = await p.waitForPosted('exclude');
    assert.deepEqual(exclude, { type: 'exclude', review: 4, key: changeKey(update), excluded: true });
    // The host answers with the model less that change.
    s.receive({ type: 'exclude', review: 4, key: changeKey(update), excluded: true });
    await p.fromHost({ type: 'show', model: s.model() });
    assert.equal(await p.page.locator('#apply').textContent(), 'Apply 1 change to Sandbox');
    assert.equal(await p.page.locator('.change.update .excluded-mark').textContent(), '(left out of this apply)');
    await p.page.locator('#apply').click();
    assert.deepEqual(await p.waitForPosted('apply'), {
      type: 'apply',
      review: 4,
      excluded: [changeKey(update)],
      typed: '',
    });
    await p.close();
  });

  test('Enter applies nothing: no control is focused when the plan is shown', async () => {
    const p = await shown(session('Sandbox'));
    await p.page.keyboard.press('Enter');
    await p.page.keyboard.press('Space');
    await p.page.locator('#cancel').click();
    assert.deepEqual(await sent(p), [{ type: 'cancel', review: 4 }]);
    await p.close();
  });

  test("a production-like connection's Apply stays off until its name is typed exactly; Enter in the field applies nothing", async () => {
    const p = await shown(session('prod-eu', true));
    assert.equal(
      await p.page
        .locator('.type-name')
        .textContent()
        .then((t) => t?.trim().startsWith('prod-eu looks like a production connection. Type its name to apply:')),
      true,
    );
    const apply = p.page.locator('#apply');
    assert.equal(await apply.getAttribute('disabled'), '');
    const field = p.page.locator('#type-name');
    await field.click();
    await p.page.keyboard.type('prod');
    await p.page.keyboard.press('Enter');
    await apply.click({ force: true });
    assert.equal(await apply.getAttribute('disabled'), '');
    await field.click();
    await p.page.keyboard.press('End');
    await p.page.keyboard.type('-eu');
    await p.page.keyboard.press('Enter');
    assert.equal(await apply.getAttribute('disabled'), null);
    await apply.click();
    assert.deepEqual(await sent(p), [{ type: 'apply', review: 4, excluded: [], typed: 'prod-eu' }]);
    await p.close();
  });

  test('once applied, each outcome is shown with Plan Again, and neither Apply nor the words before it remain', async () => {
    const s = session('Sandbox');
    s.receive({ type: 'apply', review: 4, excluded: [], typed: '' });
    s.applied([
      { change: create, outcome: 'applied', id: 't-new', storedDifferently: [] },
      {
        change: update,
        outcome: 'refused',
        reason: 'replace trigger failed: HTTP 422',
        members: [{ field: 'threshold.value', message: 'must be a number' }],
        cause: { kind: 'http', status: 422 },
      },
    ]);
    const p = await shown(s);
    assert.deepEqual(await p.page.locator('.outcome .headline').allTextContents(), [
      'Created as t-new',
      'Refused by the service: the service did not take it as sent',
    ]);
    assert.equal(
      await p.page.locator('#status').textContent(),
      'Applied to Sandbox: 1 applied, 0 skipped, 1 refused, 0 failed.',
    );
    assert.deepEqual([await p.page.locator('#apply').count(), await p.page.locator('vscode-checkbox').count()], [0, 0]);
    assert.doesNotMatch(
      (await p.page.locator('body').textContent()) ?? '',
      /Nothing is written until you confirm|HTTP 422/,
    );
    await p.page.locator('#plan-again').click();
    assert.deepEqual(await sent(p), [{ type: 'planAgain', review: 4 }]);
    await p.close();
  });
});
