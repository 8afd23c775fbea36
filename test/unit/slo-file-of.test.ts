// Finding the workspace file of a burn alert or of a dataset's definitions by what it holds (the forms' Open as
// File), and the service's canonical text of such a file (Compare with Service), against the sandbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { DEMO } from '../../src/sandbox';
import { burnAlertServiceText, definitionsServiceText } from '../../src/triggerFiles';
import { burnAlertFilesOf, definitionsFilesOf, type FileText } from '../../src/extension/forms/formFileOf';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

const files: FileText[] = [
  { path: '/w/burn-alerts/api/renamed-by-hand.json', text: json({ id: 'ba_1', dataset_slug: 'api' }) },
  { path: '/w/burn-alerts/api/ba_2.burn-alert.json', text: json({ id: 'ba_1', dataset_slug: 'web' }) },
  { path: '/w/burn-alerts/__all__/up.burn-alert.json', text: json({ id: 'ba_env', dataset_slug: '__all__' }) },
  { path: '/w/copy/ba_1.burn-alert.json', text: `\uFEFF${json({ id: 'ba_1', dataset_slug: 'api' })}` },
  { path: '/w/broken/ba_1.burn-alert.json', text: '{ "id": "ba_1", ' },
  { path: '/w/definitions/web.definitions.json', text: json({ dataset_slug: 'api', definitions: {} }) },
  { path: '/w/definitions/api.definitions.json', text: json({ dataset_slug: 'web', definitions: {} }) },
];

test("a burn alert's files are those holding its id and dataset, whatever their names, sorted by path", () => {
  assert.deepEqual(burnAlertFilesOf(files, 'api', 'ba_1'), [
    '/w/burn-alerts/api/renamed-by-hand.json',
    '/w/copy/ba_1.burn-alert.json',
  ]);
});

test("an environment-wide alert's file is found whether the form names the environment all or __all__", () => {
  assert.deepEqual(burnAlertFilesOf(files, 'all', 'ba_env'), ['/w/burn-alerts/__all__/up.burn-alert.json']);
});

test('a file named after an alert that holds another id or dataset is not its file', () => {
  assert.deepEqual(burnAlertFilesOf(files, 'api', 'ba_2'), []);
});

test("a dataset's definitions file is the one holding its dataset_slug, not the one bearing its name", () => {
  assert.deepEqual(definitionsFilesOf(files, 'api'), ['/w/definitions/web.definitions.json']);
});

let sandbox: TestSandbox;
let client: ServiceClient;
before(async () => {
  sandbox = await startTestSandbox();
  client = new ServiceClient({ baseUrl: sandbox.base, configKey: sandbox.handle.info.configKey });
});
after(async () => {
  await client.close();
  await sandbox.handle.close();
});

const GATEWAY = DEMO.datasets.gateway;

test("the service's side of a burn alert file is the alert read whole, canonical, the SLO named as the file names it", async () => {
  const local = json({
    id: DEMO.burnAlerts.gwExhaustion,
    dataset_slug: GATEWAY,
    slo: { id: DEMO.slos.gwAvailability, name: 'What the file calls it' },
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 10,
    recipients: [],
  });
  assert.deepEqual(await burnAlertServiceText(client, local), {
    ok: true,
    dataset: GATEWAY,
    text: json({
      id: DEMO.burnAlerts.gwExhaustion,
      dataset_slug: GATEWAY,
      slo: { id: DEMO.slos.gwAvailability, name: 'What the file calls it' },
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 240,
      description: 'Budget gone within four hours.',
      recipients: [{ id: DEMO.recipients.emailOncall, type: 'email', target: 'oncall@example.com' }],
    }),
  });
});

test('a burn alert file without an id cannot be compared, and the service is not asked', async () => {
  assert.deepEqual(await burnAlertServiceText(client, json({ dataset_slug: GATEWAY })), {
    ok: false,
    reason: 'no-id',
  });
});

test("the service's side of a definitions file is the whole map the empty update answers, canonical", async () => {
  // The demo workspace's file was pulled from the sandbox and is canonical: the service's side is that text.
  const demo = readFileSync(join('demo', 'workspace', 'definitions', `${GATEWAY}.definitions.json`), 'utf8');
  assert.deepEqual(await definitionsServiceText(client, json({ dataset_slug: GATEWAY, definitions: {} })), {
    ok: true,
    dataset: GATEWAY,
    text: demo,
  });
});

test('a definitions file naming no dataset cannot be compared', async () => {
  assert.deepEqual(await definitionsServiceText(client, json({ definitions: {} })), {
    ok: false,
    reason: 'no-dataset',
  });
});
