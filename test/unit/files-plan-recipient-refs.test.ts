// Recipients a trigger or burn alert file names by type and target, resolved at plan against the team's list:
// the write names them by id alone, the plan shows what each reference resolved to, and a reference the team
// does not answer with one recipient blocks the file's entry with the team's recipients of that type.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccountRecipient } from '../../src/api/schemas/account';
import { RecipientWrite } from '../../src/api/schemas/common';
import { CreateTriggerRequest, ReplaceTriggerRequest } from '../../src/api/schemas/triggerWrite';
import { UpdateBurnAlertRequest } from '../../src/api/schemas/burnAlert';
import { planDifferences, planWithGates, type PlanService, type PlanSource } from '../../src/triggerFiles';
import type { ServiceTrigger } from '../../src/triggerFiles/drift';
import { parsePlan, planFileText } from '../../src/cli/planFile';
import { planText } from '../../src/cli/planReport';

type Json = Record<string, unknown>;

const TEAM: AccountRecipient[] = [
  { id: 'rcp_mail', type: 'email', details: { email_address: 'oncall@example.com' } },
  { id: 'rcp_slack', type: 'slack', details: { slack_channel: '#alerts' } },
  { id: 'rcp_slack_ops', type: 'slack', details: { slack_channel: '#ops' } },
  { id: 'rcp_slack_ops_2', type: 'slack', details: { slack_channel: '#ops' } },
];

const QUERY = { calculations: [{ op: 'COUNT' }], time_range: 900 };
const TRIGGER = { dataset_slug: 'api', name: 'Errors', threshold: { op: '>', value: 5 }, query: QUERY };

const ALERT = {
  id: 'ba_1',
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 60,
  recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
};

function serviceOf(
  triggers: ServiceTrigger[],
  team: AccountRecipient[] = TEAM,
): PlanService & { recipientLists: number } {
  const service = {
    recipientLists: 0,
    listTriggers: async () => ({ data: triggers }),
    listColumns: async () => ({ data: [] }),
    listRecipients: async () => {
      service.recipientLists++;
      return { data: team };
    },
    getQuery: () => Promise.reject(new Error('no saved query in these tests')),
    listSlos: async () => ({ data: [{ id: 'slo1', name: 'Availability' }] }),
    listBurnAlerts: async () => ({ data: [ALERT] }),
    getBurnAlert: async () => ({ data: { ...ALERT, slo: { id: 'slo1' } } }),
    updateDatasetDefinitions: () => Promise.reject(new Error('no definitions in these tests')),
  };
  return service;
}

const triggerFile = (value: Json): PlanSource => ({
  file: 'triggers/api/errors.json',
  text: JSON.stringify({ ...TRIGGER, ...value }),
});

const alertFile = (recipients: unknown[]): PlanSource => ({
  file: 'burn-alerts/api/availability.burn-alert.json',
  text: JSON.stringify({
    id: 'ba_1',
    dataset_slug: 'api',
    slo: { id: 'slo1', name: 'Availability' },
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 30,
    recipients,
  }),
});

const plan = (sources: PlanSource[], service: PlanService) =>
  planWithGates({
    sources,
    service,
    lint: async () => [],
    target: { baseUrl: 'http://127.0.0.1:1', key: { salt: 's', sha256: '0'.repeat(64) } },
    inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
    concurrency: 2,
    now: new Date('2026-12-07T00:00:00Z'),
  });

test('a recipient named by type and target is created with the id of the team recipient it names', async () => {
  const service = serviceOf([]);
  const { plan: p } = await plan(
    [triggerFile({ recipients: [{ type: 'email', target: 'oncall@example.com' }] })],
    service,
  );
  const [change] = p.changes;
  assert.ok(change?.kind === 'trigger' && change.action === 'create');
  assert.deepEqual(change.body.recipients, [{ id: 'rcp_mail' }]);
  assert.deepEqual(change.recipientReferences, [{ type: 'email', target: 'oncall@example.com', id: 'rcp_mail' }]);
  assert.equal(CreateTriggerRequest.safeParse(change.body).success, true);
  assert.equal(RecipientWrite.safeParse((change.body.recipients as unknown[])[0]).success, true);
  assert.equal(service.recipientLists, 1);
});

test('a trigger naming by type and target the paging recipient the service holds by id is in sync', async () => {
  // The service answers a paging recipient named by id with an empty target: only the team's list names it.
  const held = { id: 'tr_1', ...TRIGGER, recipients: [{ id: 'rcp_pd', type: 'pagerduty', target: '' }] };
  const team = [...TEAM, { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'Checkout' } }];
  const { plan: p } = await plan(
    [triggerFile({ recipients: [{ type: 'pagerduty', target: 'Checkout' }] })],
    serviceOf([held], team),
  );
  assert.deepEqual([p.changes, p.blocked, p.unchanged], [[], [], 1]);
});

test('an update replaces the recipient by the id its reference resolves to', async () => {
  const held = {
    id: 'tr_1',
    ...TRIGGER,
    recipients: [{ id: 'rcp_mail', type: 'email', target: 'oncall@example.com' }],
  };
  const { plan: p } = await plan(
    [triggerFile({ id: 'tr_1', recipients: [{ type: 'slack', target: '#alerts' }] })],
    serviceOf([held]),
  );
  const [change] = p.changes;
  assert.ok(change?.kind === 'trigger' && change.action === 'update');
  assert.deepEqual(change.body.recipients, [{ id: 'rcp_slack' }]);
  assert.deepEqual(change.recipientReferences, [{ type: 'slack', target: '#alerts', id: 'rcp_slack' }]);
  assert.equal(ReplaceTriggerRequest.safeParse(change.body).success, true);
});

test("a reference the team does not have blocks the trigger with the team's recipients of its type", async () => {
  const { plan: p } = await plan(
    [triggerFile({ recipients: [{ type: 'slack', target: '#alerts-staging' }] })],
    serviceOf([]),
  );
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, [
    'the team has no slack recipient "#alerts-staging"; its slack recipients: "#alerts", "#ops"',
  ]);
});

test('a reference two team recipients answer blocks the trigger with both ids, even where it is in sync', async () => {
  const held = { id: 'tr_1', ...TRIGGER, recipients: [{ id: 'rcp_slack_ops', type: 'slack', target: '#ops' }] };
  const { plan: p } = await plan(
    [triggerFile({ id: 'tr_1', recipients: [{ type: 'slack', target: '#ops' }] })],
    serviceOf([held]),
  );
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, [
    'the team has 2 slack recipients "#ops" (rcp_slack_ops, rcp_slack_ops_2): name the one meant by its id',
  ]);
});

test('a key that cannot list the team blocks a reference, and says the list was not read', async () => {
  const service: PlanService = {
    ...serviceOf([]),
    listRecipients: () => Promise.reject(Object.assign(new Error('forbidden'), { status: 403 })),
  };
  const { plan: p, notes } = await plan(
    [triggerFile({ recipients: [{ type: 'email', target: 'oncall@example.com' }] })],
    service,
  );
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, [
    'email recipient "oncall@example.com" could not be resolved: the team\'s recipients could not be listed',
  ]);
  assert.deepEqual(notes, ['the recipients were not checked: forbidden']);
});

test('a burn alert file naming a recipient by type and target is updated with its id alone', async () => {
  const { plan: p } = await plan([alertFile([{ type: 'slack', target: '#alerts' }])], serviceOf([]));
  const [change] = p.changes;
  assert.ok(change?.kind === 'burn-alert');
  assert.deepEqual(change.body.recipients, [{ id: 'rcp_slack' }]);
  assert.deepEqual(change.recipientReferences, [{ type: 'slack', target: '#alerts', id: 'rcp_slack' }]);
  assert.equal(UpdateBurnAlertRequest.safeParse(change.body).success, true);
});

test("a burn alert file's unknown reference blocks it with the team's recipients of that type", async () => {
  const { plan: p } = await plan([alertFile([{ type: 'email', target: 'nobody@example.com' }])], serviceOf([]));
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, [
    'the team has no email recipient "nobody@example.com"; its email recipients: "oncall@example.com"',
  ]);
});

test('a recipient renamed on the team between the plan and the apply stops the apply', async () => {
  const source = triggerFile({ recipients: [{ type: 'email', target: 'oncall@example.com' }] });
  const { plan: reviewed } = await plan([source], serviceOf([]));
  const renamed = TEAM.map((r) =>
    r.id === 'rcp_mail' ? { ...r, details: { email_address: 'pager@example.com' } } : r,
  );
  const { plan: now } = await plan([source], serviceOf([], renamed));
  assert.deepEqual(planDifferences(reviewed, now), [
    'the create of "Errors" in api (triggers/api/errors.json) is in the plan, and would not be made now',
  ]);
});

test('a reference resolving to another recipient at the apply than in the plan stops the apply', async () => {
  const source = triggerFile({ recipients: [{ type: 'email', target: 'oncall@example.com' }] });
  const { plan: reviewed } = await plan([source], serviceOf([]));
  const moved = TEAM.map((r) => (r.id === 'rcp_mail' ? { ...r, id: 'rcp_mail_new' } : r));
  const { plan: now } = await plan([source], serviceOf([], moved));
  assert.deepEqual(planDifferences(reviewed, now), [
    'the create of "Errors" in api (triggers/api/errors.json): it would now send other values of recipients',
  ]);
});

test('the saved plan keeps each reference and the id it resolved to, and its text shows them', async () => {
  const { plan: p } = await plan(
    [triggerFile({ recipients: [{ type: 'email', target: 'oncall@example.com' }] })],
    serviceOf([]),
  );
  const saved = parsePlan(
    planFileText({ ...p, inputs: { ...p.inputs, paths: ['triggers'], metricsDatasets: [] } }, 'k'),
  );
  assert.ok('saved' in saved, JSON.stringify(saved));
  const [change] = saved.saved.plan.changes;
  assert.ok(change?.kind === 'trigger' && change.action === 'create');
  assert.deepEqual(change.recipientReferences, [{ type: 'email', target: 'oncall@example.com', id: 'rcp_mail' }]);
  assert.match(planText(p), /^ {2,}\(recipient email "oncall@example\.com" is rcp_mail in this team\)$/m);
});

test("a marker, which the team's list never holds, is written as the file names it, never refused", async () => {
  const { plan: p } = await plan([triggerFile({ recipients: [{ type: 'marker', target: 'deploys' }] })], serviceOf([]));
  const [change] = p.changes;
  assert.ok(change?.kind === 'trigger' && change.action === 'create');
  assert.deepEqual([change.body.recipients, p.blocked], [[{ type: 'marker', target: 'deploys' }], []]);
});
