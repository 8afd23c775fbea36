// The client's calls beyond the spec (trigger writes, what the account holds) end to end against the real
// local sandbox: the client and the sandbox are written apart, so this shows that they agree.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient, type CreateTriggerRequest } from '../../src/api';
import { DEMO, RECIPIENT_SECRETS, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { captured, failure, fakeTiming } from './api-helpers';

let sandbox: SandboxHandle;
let client: ServiceClient;
let reset: () => Promise<void>;

before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000 });
  client = new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    timing: fakeTiming().timing,
    onLog: (e) => captured.push(JSON.stringify(e)),
  });
  reset = async () => {
    const res = await fetch(`${sandbox.info.baseUrl}/__sandbox/reset`, {
      method: 'POST',
      headers: { 'X-Sandbox-Token': sandbox.info.controlToken },
    });
    assert.equal(res.status, 200);
  };
});
beforeEach(() => reset());
after(async () => {
  await client.close();
  await sandbox.close();
});

const GW = DEMO.datasets.gateway;
const trigger: CreateTriggerRequest = {
  name: 'Client-made errors',
  description: 'made through the client',
  threshold: { op: '>', value: 3 },
  frequency: 300,
  recipients: [{ id: DEMO.recipients.pagerdutyPrimary }],
  query: { calculations: [{ op: 'COUNT' }], filters: [{ column: 'error', op: '=', value: true }], time_range: 900 },
};

test('getTrigger reads a demo trigger as listTriggers lists it', async () => {
  const one = await client.getTrigger(GW, DEMO.triggers.gwBaseline);
  const all = await client.listTriggers(GW);
  assert.deepEqual(
    one.data,
    all.data.find((t) => t.id === DEMO.triggers.gwBaseline),
  );
  assert.equal(one.data.query_id, `q_${DEMO.triggers.gwBaseline}`);
});

test('createTrigger: 201, a new id, listed with its inline query and the query_id of the saved query made of it', async () => {
  const made = await client.createTrigger(GW, trigger);
  assert.equal(made.status, 201);
  assert.equal(made.recovered, undefined);
  assert.deepEqual(
    [made.data.name, made.data.dataset_slug, made.data.triggered, made.data.disabled, made.data.alert_type],
    [trigger.name, GW, false, false, 'on_change'],
  );
  assert.equal(typeof made.data.query_id, 'string');
  const listed = (await client.listTriggers(GW)).data.find((t) => t.id === made.data.id);
  assert.deepEqual(listed, made.data);
  const saved = await client.getQuery(GW, made.data.query_id ?? '');
  assert.deepEqual(saved.data.calculations, trigger.query?.calculations);
});

test('createTrigger whose answer is cut off after the sandbox made it finds it as stored (recipient details, query_id, defaults filled in): one POST', async () => {
  sandbox.faults.truncateBody(1, { method: 'POST', path: `/1/triggers/${GW}` });
  const before = (await client.listTriggers(GW)).data.length;
  const made = await client.createTrigger(GW, trigger);
  assert.equal(made.recovered, true);
  const listed = (await client.listTriggers(GW)).data;
  assert.equal(listed.length, before + 1, 'created once');
  assert.deepEqual(
    listed.find((t) => t.id === made.data.id),
    made.data,
  );
});

test('createTrigger for __all__ makes an environment-wide trigger', async () => {
  const made = await client.createTrigger('__all__', trigger);
  assert.equal(made.data.dataset_slug, 'all');
  assert.equal((await client.getTrigger('__all__', made.data.id)).data.id, made.data.id);
});

test('replaceTrigger: members left out go back to their defaults, disabled is as sent, updated_at moves on', async () => {
  const before = (await client.getTrigger(GW, DEMO.triggers.gwWindow)).data;
  const res = await client.replaceTrigger(GW, DEMO.triggers.gwWindow, { ...trigger, disabled: true });
  assert.equal(res.status, 200);
  assert.deepEqual(
    [res.data.evaluation_schedule_type, res.data.evaluation_schedule, res.data.disabled, res.data.created_at],
    ['frequency', undefined, true, before.created_at],
  );
  assert.ok(Date.parse(res.data.updated_at ?? '') > Date.parse(before.updated_at ?? ''));
  assert.deepEqual((await client.getTrigger(GW, DEMO.triggers.gwWindow)).data, res.data);
});

test('deleteTrigger: 204; the trigger is gone, and deleting it again is a 404 error', async () => {
  const res = await client.deleteTrigger(GW, DEMO.triggers.gwErrors);
  assert.equal(res.status, 204);
  assert.equal((await failure(client.getTrigger(GW, DEMO.triggers.gwErrors))).status, 404);
  const again = await failure(client.deleteTrigger(GW, DEMO.triggers.gwErrors));
  assert.deepEqual([again.kind, again.status], ['http', 404]);
});

test("the sandbox's refusal reaches the caller with the field it names", async () => {
  const unknownRecipient = await failure(client.createTrigger(GW, { ...trigger, recipients: [{ id: 'rcp_nope' }] }));
  assert.deepEqual([unknownRecipient.kind, unknownRecipient.status], ['http', 422]);
  assert.deepEqual(
    unknownRecipient.fieldProblems.map((p) => [p.field, p.code]),
    [['recipients[0].id', 'invalid']],
  );
  const heatmap = await failure(
    client.replaceTrigger(GW, DEMO.triggers.gwErrors, {
      ...trigger,
      disabled: false,
      query: { calculations: [{ op: 'HEATMAP', column: 'duration_ms' }], time_range: 900 },
    }),
  );
  assert.deepEqual(
    heatmap.fieldProblems.map((p) => p.field),
    ['query.calculations[0].op'],
  );
  assert.equal(
    (await client.listTriggers(GW)).data.find((t) => t.id === DEMO.triggers.gwErrors)?.name,
    'High error rate',
  );
});

test('listDatasets: every dataset, the one never written to without a last write or a column count', async () => {
  const res = await client.listDatasets();
  assert.deepEqual(
    res.data.map((d) => d.slug),
    sandbox.info.datasets,
  );
  const empty = res.data.find((d) => d.slug === DEMO.datasets.empty);
  assert.deepEqual([empty?.last_written_at, empty?.regular_columns_count], [undefined, undefined]);
  assert.equal(res.data.find((d) => d.slug === GW)?.settings?.delete_protected, true);
});

test("listSlos: a dataset's, and the environment's spanning two datasets; the ids are those burn alerts are listed by", async () => {
  const gw = await client.listSlos(GW);
  assert.deepEqual(
    gw.data.map((s) => [s.id, s.target_per_million, s.time_period_days]),
    [[DEMO.slos.gwAvailability, 999_000, 30]],
  );
  const env = await client.listSlos('__all__');
  assert.deepEqual(
    env.data.map((s) => s.dataset_slugs),
    [[GW, DEMO.datasets.checkout]],
  );
  for (const s of [...gw.data, ...env.data]) {
    const scope = s.dataset_slugs?.length === 1 ? GW : '__all__';
    assert.equal((await client.listBurnAlerts(scope, s.id)).data.length, 2);
  }
});

test('listRecipients: every type by what names it; none of the credentials the sandbox sends reaches the caller or its log', async () => {
  const res = await client.listRecipients();
  assert.deepEqual(res.data.map((r) => r.type).sort(), [
    'email',
    'email',
    'msteams',
    'msteams_workflow',
    'pagerduty',
    'slack',
    'webhook',
  ]);
  assert.equal(res.data.find((r) => r.type === 'webhook')?.details?.webhook_name, 'Ops automation');
  const seen = JSON.stringify(res.data) + captured.join('\n');
  for (const secret of Object.values(RECIPIENT_SECRETS)) assert.equal(seen.includes(secret), false, secret);
});

test('listQueryAnnotations: named saved queries whose query ids read back', async () => {
  const res = await client.listQueryAnnotations(GW);
  assert.deepEqual(
    res.data.filter((a) => a.query_id === DEMO.savedQueries.gw5xx).map((a) => a.source),
    ['query', 'board'],
  );
  for (const a of res.data) assert.equal((await client.getQuery(GW, a.query_id)).data.id, a.query_id);
});
