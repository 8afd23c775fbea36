// The agents' apply tool (obs_apply_plan) in plain Node: it writes only after the user chose Apply in the
// extension's own dialog, only to the connection the plan was made against at the same address and with the
// same key, one apply at a time per service, and only when planning again gives the changes shown. The chat's
// question is bounded and links to the whole plan. Every call the tool makes to the service is counted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanWithNotes, SourceFile } from '../../src/agentTools';
import {
  agentQuestion,
  applyPreparation,
  planDocumentOf,
  runApply,
  type AgentQuestion,
  type AppliedConnection,
  type ApplyDeps,
  type PlanSources,
} from '../../src/extension/agents/applyTool';
import { PlanStore } from '../../src/extension/agents/planStore';
import { ApplyLocks } from '../../src/extension/core/applyLocks';
import { RecipientDirectory } from '../../src/extension/core/recipients';
import type { Logger } from '../../src/extension/core/logger';
import type { WritingClient } from '../../src/extension/sync/applyPlan';
import { serviceVersion, type Plan, type PlannedChange, type ServiceTrigger } from '../../src/triggerFiles';

const OLD: ServiceTrigger = {
  id: 'trig_1',
  name: 'Old',
  dataset_slug: 'api-gateway',
  threshold: { op: '>', value: 5 },
  updated_at: '2026-01-01T00:00:00Z',
};
const BASE_URL = 'https://api.example.com';

const planOf = (changes: PlannedChange[]): Plan => ({
  format: 'obs-trigger-plan',
  version: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  target: { baseUrl: BASE_URL, key: { salt: '', sha256: '' } },
  inputs: { scope: { kind: 'all' }, allowUnknownColumns: false, matchByName: false },
  prune: true,
  files: [],
  changes,
  blocked: [],
  unchanged: 0,
});

const deleteOld = (): PlannedChange => ({
  kind: 'trigger',
  action: 'delete',
  dataset: 'api-gateway',
  id: OLD.id,
  name: OLD.name,
  service: serviceVersion(OLD),
});

/** The service as the apply sees it, counting every call: it holds OLD. */
class CountingClient implements WritingClient {
  readonly calls: string[] = [];
  async getTrigger(_d: string, id: string) {
    this.calls.push(`get ${id}`);
    return { data: OLD };
  }
  async listTriggers() {
    this.calls.push('list');
    return { data: [OLD] };
  }
  async createTrigger(): Promise<never> {
    this.calls.push('create');
    throw new Error('no create in these tests');
  }
  async replaceTrigger(): Promise<never> {
    this.calls.push('replace');
    throw new Error('no update in these tests');
  }
  async deleteTrigger(_d: string, id: string) {
    this.calls.push(`delete ${id}`);
    return {};
  }
  async getBurnAlert(): Promise<never> {
    this.calls.push('get burn alert');
    throw new Error('no burn alert in these tests');
  }
  async updateBurnAlert(): Promise<never> {
    this.calls.push('update burn alert');
    throw new Error('no burn alert in these tests');
  }
  async updateDatasetDefinitions(): Promise<never> {
    this.calls.push('update definitions');
    throw new Error('no definitions in these tests');
  }
}

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const noFiles: PlanSources = {
  readAgain: async () => [],
  state: async () => assert.fail('no file is read for a delete'),
  editAndSave: async () => assert.fail('no file is written for a delete'),
};

/** One kept plan deleting OLD from Prod, and an apply's dependencies around it; `over` changes what the test is about. */
function fixture(over: Partial<ApplyDeps<AppliedConnection>> & { replanned?: Plan } = {}) {
  const client = new CountingClient();
  const plans = new PlanStore<PlanSources>();
  const shown = planOf([deleteOld()]);
  const id = plans.remember(
    { plan: shown, notes: [] },
    { id: 'prod', name: 'Prod', baseUrl: BASE_URL, client },
    noFiles,
  );
  const asked: AgentQuestion[] = [];
  const replans: readonly SourceFile[][] = [];
  const active: AppliedConnection = { profile: { id: 'prod', name: 'Prod', baseUrl: BASE_URL }, client };
  const deps: ApplyDeps<AppliedConnection> = {
    plans,
    active,
    locks: new ApplyLocks(),
    confirm: async (q) => {
      asked.push(q);
      return true;
    },
    replan: async (_c, files): Promise<PlanWithNotes> => {
      (replans as SourceFile[][]).push([...files]);
      return { plan: over.replanned ?? planOf([deleteOld()]), notes: [] };
    },
    recipients: () => undefined,
    onWritten: () => undefined,
    log: quiet,
    ...over,
  };
  return { id, client, deps, asked, replans, plans };
}

const run = (id: string, deps: ApplyDeps<AppliedConnection>) =>
  runApply({ plan_id: id }, deps, new AbortController().signal);

test("confirmed in the extension's dialog and the same when planned again, the plan is written once", async () => {
  const { id, client, deps, asked, plans } = fixture();
  const answer = JSON.parse(await run(id, deps)) as { counts: Record<string, number> };
  assert.deepEqual(answer.counts, {
    applied: 1,
    skipped: 0,
    refused: 0,
    failed: 0,
    outcome_unknown: 0,
    written_not_verified: 0,
  });
  assert.equal(asked.length, 1);
  assert.deepEqual(client.calls, ['get trig_1', 'delete trig_1']);
  assert.equal(plans.peek(id), undefined, 'a plan applies once');
});

test('once written, the plan document beside the dialog ends with the outcomes, no longer saying nothing is written', async () => {
  const documents: string[] = [];
  const { id, deps } = fixture({ onApplied: (text) => documents.push(text) });
  assert.match(
    agentQuestion({ ...planOf([deleteOld()]), target: { ...planOf([]).target, connection: 'Prod' } }, [], undefined)
      .document,
    /\nNothing is written until you confirm\.\n$/,
  );
  await run(id, deps);
  assert.equal(documents.length, 1);
  assert.match(documents[0] ?? '', /^Plan: apply the trigger files to Prod \(https:\/\/api\.example\.com\)\n/);
  assert.match(
    documents[0] ?? '',
    /\n {2}- api-gateway "Old" \(trig_1\)\n\nApplied to Prod: 1 applied, 0 skipped, 0 refused, 0 failed\.\n$/,
  );
  assert.doesNotMatch(documents[0] ?? '', /Nothing is written until you confirm/);
});

test('a production-like connection is asked for its name typed after the dialog; another connection is not', () => {
  const prod = agentQuestion(
    { ...planOf([deleteOld()]), target: { ...planOf([]).target, connection: 'prod-eu' } },
    [],
    undefined,
  );
  assert.equal(prod.typeName, 'prod-eu');
  const staging = agentQuestion(
    { ...planOf([deleteOld()]), target: { ...planOf([]).target, connection: 'staging' } },
    [],
    undefined,
  );
  assert.equal(staging.typeName, undefined);
});

test('without a yes in the dialog nothing is written, whatever the chat did (its confirmation may be skipped by settings)', async () => {
  const { id, client, deps, replans } = fixture({ confirm: async () => false });
  await assert.rejects(run(id, deps), { message: 'nothing was written: the user did not confirm the apply' });
  assert.deepEqual(client.calls, []);
  assert.equal(replans.length, 0);
});

test("a plan made before the connection's address, key or proxy changed (it has a new client) writes nothing and asks nothing", async () => {
  const { id, client, deps, asked } = fixture();
  const rebuilt = {
    ...deps,
    active: { profile: { id: 'prod', name: 'Prod', baseUrl: BASE_URL }, client: new CountingClient() },
  };
  await assert.rejects(run(id, rebuilt), {
    message: "nothing was written: Prod's address, key or proxy changed since the plan was made; call obs_plan again",
  });
  assert.deepEqual([client.calls, asked.length], [[], 0]);
});

test('a plan made before the connection was pointed at another address writes nothing', async () => {
  const { id, client, deps } = fixture();
  const moved = {
    ...deps,
    active: { profile: { id: 'prod', name: 'Prod', baseUrl: 'https://elsewhere.example.com' }, client },
  };
  await assert.rejects(run(id, moved), /address, key or proxy changed/);
  assert.deepEqual(client.calls, []);
});

test("while another apply to the same service runs (the editor's), an agent's apply writes nothing and asks nothing", async () => {
  const { id, client, deps, asked } = fixture();
  const held = deps.locks.take(`${BASE_URL}/`, "the editor's Apply");
  assert.ok(!('heldBy' in held));
  await assert.rejects(run(id, deps), {
    message: "nothing was written: an apply to Prod is already running (the editor's Apply); try again when it is done",
  });
  assert.deepEqual([client.calls, asked.length], [[], 0]);
  held.release();
  assert.ok(!('heldBy' in deps.locks.take(BASE_URL, 'x')), 'the lock is free again after the refused apply');
});

test('planned again after the yes, a plan whose changes are no longer the ones shown writes nothing and says what differs', async () => {
  const { id, client, deps } = fixture({ replanned: planOf([]) });
  await assert.rejects(run(id, deps), {
    message:
      'nothing was written: the files or the service changed since the plan (the delete of "Old" (trig_1) in api-gateway is in the plan, and would not be made now); call obs_plan again',
  });
  assert.deepEqual(client.calls, []);
});

test('the dialog names the connection, its address and each change; past 20 changes it says how many more the plan beside holds', () => {
  const changes: PlannedChange[] = Array.from({ length: 25 }, (_, i) => ({
    kind: 'trigger',
    action: 'create',
    file: `t/${i}.trigger.json`,
    index: -1,
    dataset: 'api',
    name: `T${i}`,
    body: {},
  }));
  const q = agentQuestion({ ...planOf(changes), target: { ...planOf([]).target, connection: 'Prod' } }, [], undefined);
  assert.equal(q.message, 'Prod looks like a production connection. Apply 25 changes to Prod?');
  const lines = q.detail.split('\n');
  assert.equal(lines[0], `An AI agent asked to apply this plan to Prod (${BASE_URL}).`);
  assert.deepEqual(lines.slice(3, 5), ['+ api "T0"', '+ api "T1"']);
  assert.equal(lines.filter((l) => l.startsWith('+ ')).length, 20);
  assert.equal(lines.at(-1), 'and 5 more changes: every one is in the plan beside');
  assert.equal(q.button, 'Apply to Prod');
  assert.match(q.document, /^ {2}\+ api "T24"$/m);
});

test("the dialog names burn alert and definitions changes after the triggers', each kind under its heading as the plan view groups them", () => {
  const version = { sha256: 'h' };
  const changes: PlannedChange[] = [
    {
      kind: 'definitions',
      action: 'update',
      file: 'definitions/api.definitions.json',
      index: -1,
      dataset: 'api',
      name: 'definitions of api',
      id: 'api',
      matchedBy: 'id',
      differences: [{ path: 'definitions.route', member: 'definitions', service: null, local: { name: 'http.route' } }],
      body: { route: { name: 'http.route' } },
      service: version,
    },
    {
      kind: 'burn-alert',
      action: 'update',
      file: 'burn-alerts/api/a.burn-alert.json',
      index: -1,
      dataset: 'api',
      name: 'Availability, exhaustion 300 min',
      id: 'ba_1',
      matchedBy: 'id',
      differences: [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 240, local: 300 }],
      body: {},
      service: version,
    },
    { kind: 'trigger', action: 'create', file: 't/x.trigger.json', index: -1, dataset: 'api', name: 'T', body: {} },
  ];
  const q = agentQuestion(
    { ...planOf(changes), target: { ...planOf([]).target, connection: 'Staging' } },
    [],
    undefined,
  );
  assert.deepEqual(q.detail.split('\n').slice(3), [
    '+ api "T"',
    'Burn alerts to update:',
    '~ api "Availability, exhaustion 300 min" (ba_1)',
    'Definitions to update:',
    '~ definitions of api',
  ]);
});

test('a name of a million characters is cut in the dialog, saying how long it was', () => {
  const name = 'x'.repeat(1_000_000);
  const q = agentQuestion(
    planOf([
      { kind: 'trigger', action: 'create', file: 't/x.trigger.json', index: -1, dataset: 'api', name, body: {} },
    ]),
    [],
    undefined,
  );
  const line = q.detail.split('\n').find((l) => l.startsWith('+ ')) ?? '';
  assert.ok(line.length < 300, `${line.length} characters`);
  assert.match(line, /\(shortened; 1000000 characters in all\)"$/);
});

test("the chat's question shows the plan's first 60 lines, then how many more and a link to the whole plan, and does nothing else", () => {
  const plans = new PlanStore<PlanSources>();
  const changes: PlannedChange[] = Array.from({ length: 100 }, (_, i) => ({
    kind: 'trigger',
    action: 'delete',
    dataset: 'api',
    id: `t${i}`,
    name: `T${i}`,
    service: serviceVersion(OLD),
  }));
  const id = plans.remember(
    { plan: planOf(changes), notes: [] },
    { id: 'prod', name: 'Prod', baseUrl: BASE_URL, client: {} },
    noFiles,
  );
  const linked: string[] = [];
  const q = applyPreparation({ plan_id: id }, plans, undefined, (planId) => {
    linked.push(planId);
    return `command:obs.agents.showPlan?${planId}`;
  }).confirmation;
  assert.ok(q);
  assert.match(
    q.message,
    new RegExp(
      `\\n\\nThe plan goes on for \\d+ more lines\\\\\\. \\[Open the whole plan\\]\\(command:obs\\.agents\\.showPlan\\?${id}\\)$`,
    ),
  );
  assert.deepEqual(linked, [id], 'the link names the plan; the whole plan is made only when it is opened');
  assert.doesNotMatch(q.message, /T99/);
  assert.match(
    planDocumentOf(plans.peek(id) ?? assert.fail('kept')),
    /^ {2}- api "T99" \(t99\)$/m,
    'the whole plan holds every change',
  );
  assert.ok(plans.peek(id), 'preparing takes nothing: the plan is still kept');
});

test("the chat's question names the recipients of a difference as the editor's Apply does, when the connection lists them", () => {
  const plans = new PlanStore<PlanSources>();
  const difference = { path: 'recipients[0].id', member: 'recipients', service: 'rcp_old', local: 'rcp_new' };
  const change: PlannedChange = {
    kind: 'trigger',
    action: 'update',
    dataset: 'api-gateway',
    id: 'trig_1',
    name: 'Errors',
    file: 'errors.trigger.json',
    index: -1,
    matchedBy: 'id',
    body: {},
    differences: [difference],
    service: serviceVersion(OLD),
  };
  const id = plans.remember(
    { plan: planOf([change]), notes: [] },
    { id: 'prod', name: 'Prod', baseUrl: BASE_URL, client: {} },
    noFiles,
  );
  const directory = new RecipientDirectory([{ id: 'rcp_new', type: 'slack', details: { slack_channel: '#alerts' } }]);
  const message = applyPreparation({ plan_id: id }, plans, directory).confirmation?.message ?? '';
  assert.match(
    message,
    /recipients\[0\]\.id: "rcp_old" -> "rcp_new" \(rcp_old is rcp_old \(not among the recipients the service lists\); rcp_new is #alerts \(Slack\)\)/,
  );
  assert.doesNotMatch(applyPreparation({ plan_id: id }, plans).confirmation?.message ?? '', /rcp_new is/);
});

test('a name holding a line separator or a bidi override cannot add a line to the dialog or reorder it: both shown as escapes', () => {
  const name = 'Quiet\u2028Checked by the extension: this plan deletes nothing\u202E';
  const q = agentQuestion(
    planOf([
      { kind: 'trigger', action: 'create', file: 't/x.trigger.json', index: -1, dataset: 'api', name, body: {} },
    ]),
    [],
    undefined,
  );
  assert.ok(
    q.detail.includes('+ api "Quiet\\u{2028}Checked by the extension: this plan deletes nothing\\u{202e}"'),
    q.detail,
  );
  assert.ok(![...q.detail].some((c) => c === '\u2028' || c === '\u202e'));
});

test('the lock of a service holds however its address is spelled: a default port, a trailing slash, upper case', () => {
  const locks = new ApplyLocks();
  const held = locks.take('https://api.example.com', 'first');
  assert.ok(!('heldBy' in held));
  for (const spelled of ['https://api.example.com:443', 'https://API.example.com/', 'https://api.example.com//'])
    assert.deepEqual(locks.take(spelled, 'second'), { heldBy: 'first' }, spelled);
  assert.ok(!('heldBy' in locks.take('https://api.example.com:8443', 'another service')));
});

test("a trigger created where the files are matched by name (an environment other than the home one) keeps its file as it is: the id is the home's", async () => {
  class CreatingClient extends CountingClient {
    override async createTrigger(): Promise<never> {
      return Promise.resolve({ data: { ...OLD, id: 'trig_new', name: 'T' } }) as never;
    }
  }
  const client = new CreatingClient();
  const create: PlannedChange = {
    kind: 'trigger',
    action: 'create',
    file: 't/x.trigger.json',
    index: -1,
    dataset: 'api-gateway',
    name: 'T',
    body: {},
  };
  const byName: Plan = { ...planOf([create]), inputs: { ...planOf([]).inputs, matchByName: true } };
  const plans = new PlanStore<PlanSources>();
  const id = plans.remember(
    { plan: byName, notes: [] },
    { id: 'prod', name: 'Prod', baseUrl: BASE_URL, client },
    {
      ...noFiles,
      state: async () => assert.fail('no file is read: no id is written'),
    },
  );
  const { deps } = fixture({
    plans,
    active: { profile: { id: 'prod', name: 'Prod', baseUrl: BASE_URL }, client },
    replanned: byName,
  });
  const answer = JSON.parse(await run(id, deps)) as { results: { outcome: string; id?: string; note?: string }[] };
  assert.deepEqual(
    answer.results.map((r) => [r.outcome, r.id, r.note]),
    [
      [
        'applied',
        'trig_new',
        'its id "trig_new" was not written into t/x.trigger.json: the file\'s ids are the home environment\'s, and in this one it is found by its dataset and name',
      ],
    ],
  );
});
