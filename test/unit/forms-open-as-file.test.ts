// Open as File on the burn alert and definitions forms (src/extension/forms/formFiles.ts) in a fake editor: the
// context key that shows the button follows the active form, and the command opens the file holding the form's
// alert or dataset, found by what the files hold among those the settings name.
import { asked, FakeWebviewPanel } from './forms-panels-fake';
import { fake, jobsDone, Uri } from './vscode-fake';
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { FORM_FILE_FOUND, FormFiles } from '../../src/extension/forms/formFiles';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const ALERT_FILE = Uri.file('/w/alerting/api/renamed.burn-alert.json');
const DEFINITIONS_FILE = Uri.file('/w/defs/web.definitions.json');

afterEach(() => {
  fake.files.clear();
  fake.executed.splice(0);
  fake.shownDocuments.splice(0);
  asked.splice(0);
});

function workspace(): FormFiles {
  fake.files.set(ALERT_FILE.toString(), json({ id: 'ba_1', dataset_slug: 'api', alert_type: 'exhaustion_time' }));
  fake.files.set(
    Uri.file('/w/alerting/api/ba_1.burn-alert.json').toString(),
    json({ id: 'ba_9', dataset_slug: 'api' }),
  );
  fake.files.set(DEFINITIONS_FILE.toString(), json({ dataset_slug: 'api', definitions: {} }));
  // Outside the settings' patterns: never looked at, whatever it holds.
  fake.files.set(Uri.file('/w/notes/ba_1.json').toString(), json({ id: 'ba_1', dataset_slug: 'api' }));
  return new FormFiles({ burnAlert: () => ['**/*.burn-alert.json'], definitions: () => ['**/*.definitions.json'] });
}

/** The values the context key was set to, in order. */
const fileFound = () =>
  fake.executed.filter((e) => e.command === 'setContext' && e.args[0] === FORM_FILE_FOUND).map((e) => e.args[1]);

test('an active burn alert form whose alert a file holds shows Open as File, which opens that file', async () => {
  const files = workspace();
  files.track(new FakeWebviewPanel('obs.form.burnAlert', 'Edit'), {
    kind: 'burn-alert',
    dataset: 'api',
    alertId: 'ba_1',
  });
  await jobsDone();
  assert.deepEqual(fileFound(), [true]);
  await files.openActive();
  assert.deepEqual(
    fake.shownDocuments.map((u) => u.toString()),
    [ALERT_FILE.toString()],
  );
});

test("a definitions form's file is the one holding its dataset, not the one bearing its name", async () => {
  const files = workspace();
  files.track(new FakeWebviewPanel('obs.form.datasetDefinitions', 'Edit'), { kind: 'definitions', dataset: 'api' });
  await jobsDone();
  assert.deepEqual(fileFound(), [true]);
  await files.openActive();
  assert.deepEqual(
    fake.shownDocuments.map((u) => u.toString()),
    [DEFINITIONS_FILE.toString()],
  );
});

test('a form whose object no file holds hides the button; run anyway, it says to pull first and opens nothing', async () => {
  const files = workspace();
  files.track(new FakeWebviewPanel('obs.form.burnAlert', 'Edit'), {
    kind: 'burn-alert',
    dataset: 'web',
    alertId: 'ba_1',
  });
  await jobsDone();
  assert.deepEqual(fileFound(), [false]);
  await files.openActive();
  assert.deepEqual(fake.shownDocuments, []);
  assert.deepEqual(
    asked.map((a) => a.message),
    ['No file of the workspace holds the burn alert ba_1: pull it first.'],
  );
});

test('the key follows the focus: a form that loses it clears the key, one that gains it sets it again', async () => {
  const files = workspace();
  const panel = new FakeWebviewPanel('obs.form.burnAlert', 'Edit');
  files.track(panel, { kind: 'burn-alert', dataset: 'api', alertId: 'ba_1' });
  await jobsDone();
  panel.focus(false);
  await jobsDone();
  panel.focus(true);
  await jobsDone();
  assert.deepEqual(fileFound(), [true, false, true]);
});
