// The one plan pipeline of every caller (triggerFiles/planPipeline.ts), through the editor's adapter
// (sync/applyPlan.ts, which adds only the unsaved file left out) and directly, with the real client against
// the sandbox: the service's lists read fresh, the gates (the linter with the connection's live columns, on
// the files to be written only; the team's recipients), a plan narrowed to one trigger or one delete; then
// applied: the created id written back, planning again finds nothing, and a trigger changed on the service
// after the plan is skipped. The CLI's tests (cli-plan-apply.test.ts) check only what obs adds: its output,
// exit statuses and saved plans.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import { ReplaceTriggerRequest } from '../../src/api/schemas/triggerWrite';
import { lint } from '../../src/lint';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import {
  applyChanges,
  PacedPool,
  planCounts,
  planWithGates,
  triggerFileText,
  writeBody,
  type ServiceTrigger,
  type TextEdit,
} from '../../src/triggerFiles';
import { idWriter } from '../../src/extension/sync/applyIdWrite';
import {
  pacedWriter,
  planForConnection,
  type ConnectionPlanInput,
  type Linter,
  type PlanScope,
  type SourceFile,
} from '../../src/extension/sync/applyPlan';

let sandbox: SandboxHandle;
let client: ServiceClient;
let gateway: ServiceTrigger[];

before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000 });
  client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
  gateway = (await client.listTriggers('api-gateway')).data;
});
after(async () => {
  await client.close();
  await sandbox.close();
});

const named = (name: string): ServiceTrigger => {
  const t = gateway.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no demo trigger ${name}`);
  return t;
};

/** The file a pull writes for the trigger, after `edit`. */
function pulled(name: string, edit: (t: Record<string, unknown>) => void = () => {}): string {
  const value = JSON.parse(triggerFileText(named(name))) as Record<string, unknown>;
  edit(value);
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The real linter, counting the texts it is given and the columns it is given with them. */
function countingLinter(): Linter & { calls: { text: string; datasets: string[] }[] } {
  const calls: { text: string; datasets: string[] }[] = [];
  const run: Linter = async (text, columns) => {
    calls.push({ text, datasets: Object.keys(columns ?? {}).sort() });
    return lint(text, { metricsDatasets: [], ...(columns === undefined ? {} : { columns }) });
  };
  return Object.assign(run, { calls });
}

const plan = (files: SourceFile[], scope: PlanScope = { kind: 'files' }, linter: Linter = countingLinter()) => {
  const input: ConnectionPlanInput = {
    files,
    client,
    connection: { name: 'Sandbox', baseUrl: sandbox.info.baseUrl },
    scope,
    lint: linter,
    concurrency: 4,
    now: new Date('2026-11-26T12:00:00Z'),
  };
  return planForConnection(input);
};

const saved = (file: string, text: string): SourceFile => ({ file, text, dirty: false });

test("a changed threshold plans one update of that member; only that file is linted, with its dataset's live columns", async () => {
  const linter = countingLinter();
  const changed = pulled('High error rate', (t) => ((t.threshold as Record<string, unknown>).value = 9));
  const { plan: p } = await plan(
    [
      saved('triggers/api-gateway/High-error-rate.trigger.json', changed),
      saved('triggers/api-gateway/Slow.trigger.json', pulled('Slow routes (disabled)')),
    ],
    { kind: 'files' },
    linter,
  );
  assert.deepEqual(planCounts(p), { create: 0, update: 1, delete: 0, blocked: 0, unchanged: 1 });
  const [change] = p.changes;
  assert.equal(change?.action, 'update');
  assert.deepEqual(change?.action === 'update' ? change.differences.map((d) => [d.path, d.service, d.local]) : [], [
    ['threshold.value', 5, 9],
  ]);
  assert.deepEqual(linter.calls, [{ text: changed, datasets: ['api-gateway'] }]);
  assert.deepEqual(p.target, { baseUrl: sandbox.info.baseUrl, connection: 'Sandbox', key: { salt: '', sha256: '' } });
});

test('a file open with unsaved edits is left out, blocked with "save the file first", and not linted', async () => {
  const linter = countingLinter();
  const dirty: SourceFile = {
    file: 'triggers/api-gateway/High-error-rate.trigger.json',
    text: pulled('High error rate', (t) => (t.frequency = 600)),
    dirty: true,
  };
  const { plan: p } = await plan([dirty], { kind: 'files' }, linter);
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked, [
    {
      kind: 'trigger',
      file: dirty.file,
      index: -1,
      reasons: ['it has unsaved changes in the editor: save the file first'],
    },
  ]);
  assert.deepEqual(linter.calls, []);
});

test('a new trigger naming a column api-gateway does not have is blocked by the live columns, not created', async () => {
  const text = `${JSON.stringify({ dataset_slug: 'api-gateway', name: 'Misspelt', threshold: { op: '>', value: 1 }, query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'eror', op: '=', value: true }], time_range: 600 } }, null, 2)}\n`;
  const { plan: p } = await plan([saved('triggers/api-gateway/Misspelt.trigger.json', text)]);
  assert.deepEqual(p.changes, []);
  assert.equal(p.blocked.length, 1);
  assert.equal(p.blocked[0]?.name, 'Misspelt');
  assert.match(
    p.blocked[0]?.reasons[0] ?? '',
    /^query\/unknown-column \(line 16\): "eror" is not a column of api-gateway/,
  );
});

test('with unknown columns allowed (derived columns are not listed), the same trigger is planned, as obs plan --allow-unknown-columns asks', async () => {
  const text = `${JSON.stringify({ dataset_slug: 'api-gateway', name: 'Derived', threshold: { op: '>', value: 1 }, frequency: 300, query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'dc.is_slow', op: '=', value: true }], time_range: 600 } }, null, 2)}\n`;
  const request = (allowUnknownColumns: boolean) =>
    planWithGates({
      sources: [{ file: 'triggers/api-gateway/Derived.trigger.json', text }],
      service: client,
      lint: countingLinter(),
      target: { baseUrl: sandbox.info.baseUrl, key: { salt: '', sha256: '' } },
      inputs: { scope: { kind: 'files' }, allowUnknownColumns, matchByName: false },
      concurrency: 4,
      now: new Date('2026-11-26T12:00:00Z'),
    });
  assert.deepEqual(planCounts((await request(false)).plan), {
    create: 0,
    update: 0,
    delete: 0,
    blocked: 1,
    unchanged: 0,
  });
  assert.deepEqual(planCounts((await request(true)).plan), {
    create: 1,
    update: 0,
    delete: 0,
    blocked: 0,
    unchanged: 0,
  });
});

test("an environment-wide trigger's columns are read at __all__, whether the file says all or __all__", async () => {
  const calls: string[] = [];
  const counting = {
    listTriggers: client.listTriggers.bind(client),
    listRecipients: client.listRecipients.bind(client),
    getQuery: client.getQuery.bind(client),
    listSlos: client.listSlos.bind(client),
    listBurnAlerts: client.listBurnAlerts.bind(client),
    getBurnAlert: client.getBurnAlert.bind(client),
    updateDatasetDefinitions: client.updateDatasetDefinitions.bind(client),
    listColumns: (d: string, o?: { signal?: AbortSignal }) => (calls.push(d), client.listColumns(d, o)),
  };
  const text = (slug: string) =>
    `${JSON.stringify({ dataset_slug: slug, name: `Everywhere ${slug}`, threshold: { op: '>', value: 1 }, frequency: 300, query: { calculations: [{ op: 'COUNT' }], time_range: 600 } }, null, 2)}\n`;
  const { plan: p } = await planForConnection({
    files: [saved('t/__all__/a.trigger.json', text('all')), saved('t/__all__/b.trigger.json', text('__all__'))],
    client: counting,
    connection: { name: 'Sandbox', baseUrl: sandbox.info.baseUrl },
    scope: { kind: 'files' },
    lint: countingLinter(),
    concurrency: 4,
  });
  assert.deepEqual(calls, ['__all__']);
  assert.equal(planCounts(p).create, 2);
});

test('a trigger of a dataset the service does not have is blocked, and an unchanged pull plans nothing', async () => {
  const ghost = `${JSON.stringify({ dataset_slug: 'no-such-dataset', name: 'Ghost', threshold: { op: '>', value: 1 }, query: { calculations: [{ op: 'COUNT' }], time_range: 600 } }, null, 2)}\n`;
  const { plan: p } = await plan([
    saved('a/Ghost.trigger.json', ghost),
    saved('a/High.trigger.json', pulled('High error rate')),
  ]);
  assert.deepEqual(planCounts(p), { create: 0, update: 0, delete: 0, blocked: 1, unchanged: 1 });
  assert.deepEqual(p.blocked[0]?.reasons, ['the service has no dataset no-such-dataset']);
});

test('a plan narrowed to one trigger of a file holds only that trigger', async () => {
  const array = JSON.stringify(
    [
      JSON.parse(pulled('High error rate', (t) => (t.frequency = 600))),
      JSON.parse(pulled('Slow routes (disabled)', (t) => (t.frequency = 1800))),
    ],
    null,
    2,
  );
  const file = 'triggers/two.trigger.json';
  const { plan: p } = await plan([saved(file, array)], { kind: 'trigger', file, index: 1 });
  assert.deepEqual(
    p.changes.map((c) => [c.action, c.name]),
    [['update', 'Slow routes (disabled)']],
  );
  assert.equal(p.unchanged, 0);
});

test('a delete is planned only when asked for, and withheld while a file of the workspace has unsaved edits', async () => {
  const others = gateway
    .filter((t) => t.name !== 'High error rate')
    .map((t, i) => saved(`g/${i}.trigger.json`, `${triggerFileText(t)}`));
  const target = named('High error rate');
  const scope: PlanScope = { kind: 'delete', id: target.id, dataset: 'api-gateway' };
  const everyFile = await plan(others);
  assert.deepEqual(everyFile.plan.changes, [], 'applying the files never deletes');
  const asked = await plan(others, scope);
  assert.deepEqual(
    asked.plan.changes.map((c) => [c.action, c.name]),
    [['delete', 'High error rate']],
  );
  const withDirty = await plan([...others, { file: 'g/unsaved.trigger.json', text: '{}', dirty: true }], scope);
  assert.deepEqual(withDirty.plan.changes, []);
  assert.deepEqual(
    withDirty.plan.blocked.map((b) => b.reasons),
    [
      ['it has unsaved changes in the editor: save the file first'],
      ['not deleted: "High error rate" (g/unsaved.trigger.json could not be planned and may hold them)'],
    ],
  );
});

test('a recipient the team does not have blocks the trigger; with the recipients listed, nothing is said to be unchecked', async () => {
  const text = pulled('High error rate', (t) => (t.recipients = [{ id: 'rcp_not_ours' }]));
  const { plan: p, notes } = await plan([saved('a/High.trigger.json', text)]);
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, ['recipient "rcp_not_ours" is not one of the team\'s recipients']);
  assert.deepEqual(notes, []);
});

test('applied through the paced writer: a created id goes into the file, and planning again finds nothing to change', async () => {
  const newTrigger = `${JSON.stringify({ dataset_slug: 'api-gateway', name: 'Editor apply test', threshold: { op: '>', value: 3 }, frequency: 300, query: { calculations: [{ op: 'COUNT' }], time_range: 600 } }, null, 2)}\n`;
  const changed = pulled('Server errors (every interval)', (t) => (t.frequency = 600));
  const files = new Map([
    ['a/New.trigger.json', newTrigger],
    ['a/Server.trigger.json', changed],
  ]);
  const first = await plan([...files].map(([f, text]) => saved(f, text)));
  assert.deepEqual(planCounts(first.plan), { create: 1, update: 1, delete: 0, blocked: 0, unchanged: 0 });
  const docs = {
    state: async (f: string) => ({ dirty: false as const, text: files.get(f) ?? '' }),
    editAndSave: async (f: string, e: TextEdit) => {
      const t = files.get(f) ?? '';
      const next = t.slice(0, e.offset) + e.content + t.slice(e.offset + e.length);
      files.set(f, next);
      return next;
    },
  };
  const results = await applyChanges(first.plan.changes, pacedWriter(client, new PacedPool({ concurrency: 1 })), {
    onCreated: idWriter(first.plan, docs),
  });
  assert.deepEqual(
    results.map((r) => [r.outcome, r.change.action, r.outcome === 'applied' ? r.storedDifferently : []]),
    [
      ['applied', 'create', []],
      ['applied', 'update', []],
    ],
  );
  const created = results[0];
  assert.equal(created?.outcome === 'applied' ? created.note : undefined, 'id written into a/New.trigger.json');
  assert.equal(
    JSON.parse(files.get('a/New.trigger.json') ?? '{}').id,
    created?.outcome === 'applied' ? created.id : 'none',
  );
  const again = await plan([...files].map(([f, text]) => saved(f, text)));
  assert.deepEqual(planCounts(again.plan), { create: 0, update: 0, delete: 0, blocked: 0, unchanged: 2 });
});

test('a trigger changed on the service between the plan and the apply is skipped and said so, not written over', async () => {
  const first = await plan([
    saved(
      'a/Baseline.trigger.json',
      pulled('Traffic up against yesterday', (t) => (t.description = 'edited in the file')),
    ),
  ]);
  const change = first.plan.changes[0];
  assert.ok(change !== undefined && change.action === 'update');
  const now = (await client.getTrigger('api-gateway', change.id)).data;
  // A colleague's write, as any client makes it: the whole writable trigger.
  const body = writeBody(JSON.parse(triggerFileText(now)) as Record<string, unknown>, now);
  await client.replaceTrigger(
    'api-gateway',
    change.id,
    ReplaceTriggerRequest.parse({ ...body, threshold: { op: '>=', value: 75 }, disabled: body.disabled === true }),
  );
  const [result] = await applyChanges(first.plan.changes, pacedWriter(client, new PacedPool({ concurrency: 1 })));
  assert.equal(result?.outcome, 'skipped');
  assert.match(
    result?.outcome === 'skipped' ? result.reason : '',
    /^"Traffic up against yesterday" \(trig_gw_baseline\) changed on the service since the plan \(updated .+\); plan again to see the change$/,
  );
  const after = (await client.getTrigger('api-gateway', change.id)).data;
  assert.deepEqual(
    [after.threshold?.value, after.description],
    [75, now.description],
    "the colleague's trigger is as they left it",
  );
});
