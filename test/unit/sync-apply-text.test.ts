// An apply as the agents' apply shows it, word for word: the plan document (a create, an update with two
// members, a delete, a blocked trigger) and the one question (stronger for production); and that a hostile
// name cannot forge a line of the plan. (The editor's plan view: sync-plan-view.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Plan, PlannedChange } from '../../src/triggerFiles';
import { confirmation, planDocumentText } from '../../src/extension/sync/applyPlanText';
import { burnAlertUpdate, definitionsUpdate } from './plan-kind-changes';

const version = { updatedAt: '2026-11-20T00:00:00Z', sha256: 'abc' };
const create: PlannedChange = {
  kind: 'trigger',
  action: 'create',
  file: 'triggers/api/New-trigger.trigger.json',
  index: -1,
  dataset: 'api',
  name: 'New trigger',
  body: {},
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
  differences: [
    { path: 'threshold.value', member: 'threshold', service: 500, local: 750 },
    { path: 'frequency', member: 'frequency', service: 300, local: 600 },
  ],
  body: {},
  service: version,
};
const remove: PlannedChange = {
  kind: 'trigger',
  action: 'delete',
  dataset: 'api',
  id: 't-9',
  name: 'Old trigger',
  service: version,
};

const plan = (changes: PlannedChange[], over: Partial<Plan> = {}): Plan => ({
  format: 'obs-trigger-plan',
  version: 3,
  createdAt: '2026-11-26T12:00:00.000Z',
  target: { baseUrl: 'http://127.0.0.1:4321', connection: 'Sandbox', key: { salt: '', sha256: '' } },
  inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
  prune: false,
  files: [
    { file: create.file, sha256: 'x' },
    { file: update.file, sha256: 'y' },
    { file: 'triggers/api/Broken.trigger.json', sha256: 'z' },
  ],
  changes,
  blocked: [],
  unchanged: 4,
  ...over,
});

test('the plan document lists creates, updates member by member, deletes apart and blocked triggers with their reasons', () => {
  const blocked = [
    {
      kind: 'trigger' as const,
      file: 'triggers/api/Broken.trigger.json',
      index: -1,
      name: 'Broken',
      dataset: 'api',
      reasons: ['trigger/frequency (line 4): frequency must be between 60 and 86400'],
    },
  ];
  assert.equal(
    planDocumentText(plan([create, update, remove], { blocked }), [
      'The recipients were not checked: list recipients: 403 forbidden',
    ]),
    [
      'Plan: apply the trigger files to Sandbox (http://127.0.0.1:4321)',
      '3 files read: 1 to create, 1 to update, 1 to delete, 4 unchanged, 1 blocked',
      '',
      'Create:',
      '  + api "New trigger"',
      '      file: triggers/api/New-trigger.trigger.json',
      '',
      "Update (Sandbox's value -> the file's value):",
      '  ~ api "High latency" (t-1)',
      '      file: triggers/api/High-latency.trigger.json',
      '      threshold.value: 500 -> 750',
      '      frequency: 300 -> 600',
      '',
      'Delete from Sandbox (no trigger file holds them):',
      '  - api "Old trigger" (t-9)',
      '',
      'Blocked (never written):',
      '  ! triggers/api/Broken.trigger.json "Broken":',
      '      trigger/frequency (line 4): frequency must be between 60 and 86400',
      '',
      'Not checked:',
      '  The recipients were not checked: list recipients: 403 forbidden',
      '',
      'Nothing is written until you confirm.',
      '',
    ].join('\n'),
  );
});

test('the plan document shows burn alerts and then definitions after the triggers, each kind with its blocked files', () => {
  const burnAlert = burnAlertUpdate('name');
  const definitions = definitionsUpdate;
  const blocked = [
    { kind: 'definitions' as const, file: 'definitions/web.definitions.json', index: -1, reasons: ['no dataset web'] },
    { kind: 'burn-alert' as const, file: 'burn-alerts/api/Gone.burn-alert.json', index: -1, reasons: ['no alert'] },
  ];
  const text = planDocumentText(plan([definitions, burnAlert, update], { blocked }));
  assert.equal(
    text.slice(text.indexOf("Update (Sandbox's")),
    [
      "Update (Sandbox's value -> the file's value):",
      '  ~ api "High latency" (t-1)',
      '      file: triggers/api/High-latency.trigger.json',
      '      threshold.value: 500 -> 750',
      '      frequency: 300 -> 600',
      '',
      "Update burn alerts (Sandbox's value -> the file's value):",
      '  ~ api "Availability, exhaustion in 240 min" (ba_1)',
      '      file: burn-alerts/api/Availability.exhaustion-240min.burn-alert.json',
      "      (the file has no id: matched by its SLO's name and alert type)",
      '      exhaustion_minutes: 240 -> 120',
      '',
      'Blocked burn alerts (never written):',
      '  ! burn-alerts/api/Gone.burn-alert.json:',
      '      no alert',
      '',
      "Update definitions (Sandbox's value -> the file's value):",
      '  ~ definitions of api',
      '      file: definitions/api.definitions.json',
      '      duration_ms.name: "latency" -> "duration_ms"',
      '',
      'Blocked definitions (never written):',
      '  ! definitions/web.definitions.json:',
      '      no dataset web',
      '',
      'Nothing is written until you confirm.',
      '',
    ].join('\n'),
  );
});

test('an update matched by name says so; a plan with nothing to change says the service matches the files', () => {
  const byName = {
    ...update,
    matchedBy: 'name' as const,
    differences: [{ path: 'threshold.value', member: 'threshold', service: 500, local: 750 }],
  };
  assert.match(
    planDocumentText(plan([byName])),
    /\n {2}~ api "High latency" \(t-1\)\n {6}file: triggers\/api\/High-latency\.trigger\.json\n {6}\(the file has no id: matched by dataset and name\)\n {6}threshold\.value: 500 -> 750\n/,
  );
  assert.equal(
    planDocumentText(plan([], { unchanged: 3 }))
      .split('\n')
      .slice(-2)[0],
    'Nothing to change on Sandbox: the service matches the files.',
  );
});

test('a name holding a line break or a bidi control cannot forge a line of the plan', () => {
  const hostile = { ...create, name: 'x\n  - api "Everything" (t-0)', file: 'triggers/api/\u202eevil.trigger.json' };
  const lines = planDocumentText(plan([hostile])).split('\n');
  assert.ok(lines.includes('  + api "x\\n  - api \\"Everything\\" (t-0)"'));
  assert.ok(lines.includes('      file: triggers/api/\\u{202e}evil.trigger.json'));
  assert.equal(lines.filter((l) => l.startsWith('  - ')).length, 0);
});

test('the question names the connection once, with the counts; a production-like connection is named as such', () => {
  assert.deepEqual(confirmation(plan([update]), false), {
    message: 'Apply 1 change to Sandbox?',
    detail:
      '0 to create, 1 to update, 0 to delete, 4 unchanged, 0 blocked (http://127.0.0.1:4321). The plan is shown beside. After you confirm it is made again, and written only if it is still this plan.',
    button: 'Apply to Sandbox',
  });
  const prod = plan([create, update], {
    target: { baseUrl: 'https://api.example.com', connection: 'prod-eu', key: { salt: '', sha256: '' } },
    blocked: [{ kind: 'trigger', file: 'f', index: -1, reasons: ['r'] }],
  });
  const q = confirmation(prod, true);
  assert.equal(q.message, 'prod-eu looks like a production connection. Apply 2 changes to prod-eu?');
  assert.match(
    q.detail,
    /^1 to create, 1 to update, 0 to delete, 4 unchanged, 1 blocked \(https:\/\/api\.example\.com\)\. 1 blocked trigger is not written\. /,
  );
  assert.equal(q.button, 'Apply to prod-eu');
});

test('a hostile name of a million characters is cut in the plan, saying how long it was', () => {
  const name = 'x'.repeat(1_000_000);
  const huge: PlannedChange = { ...create, name };
  const shown = planDocumentText(
    plan([huge], {
      blocked: [
        { kind: 'trigger', file: 'triggers/api/Big.trigger.json', index: -1, name, reasons: ['r'.repeat(5_000)] },
      ],
    }),
  );
  assert.ok(shown.length < 10_000, `${shown.length} characters`);
  assert.equal((shown.match(/… \(shortened; 1000000 characters in all\)/g) ?? []).length, 2);
  assert.match(shown, /r… \(shortened; 5000 characters in all\)\n/);
});

test('the plan document shows each recipient a file names by type and target with the id it resolved to', () => {
  const referenced: PlannedChange = {
    ...update,
    recipientReferences: [{ type: 'slack', target: '#alerts', id: 'rcp_slack' }],
  };
  const text = planDocumentText(plan([referenced]));
  assert.ok(
    text.includes(
      '  ~ api "High latency" (t-1)\n      file: triggers/api/High-latency.trigger.json\n' +
        '      (recipient slack "#alerts" is rcp_slack in this team)\n',
    ),
    text,
  );
});
