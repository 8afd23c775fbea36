// The editor's drift of burn alert and definitions files (src/extension/sync/driftModel.ts with sloDriftFiles.ts):
// each file compared with the service as `obs drift` compares it, the service's reads kept per connection, a
// saved file compared alone. Work is counted from outside: the reads the fake service answered, the files the
// fake workspace read, and the comparisons of one file V8 counted (compareBurnAlertFile, compareDefinitionsFile).
import { measuredAsync } from './outside-work'; // first: V8 counts calls only in code compiled after it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  burnAlertFileText,
  definitionsFileText,
  triggerFileText,
  type RecipientLister,
  type TriggerLister,
} from '../../src/triggerFiles';
import { burnAlertFileValue } from '../../src/triggerFiles/burnAlertFile';
import { definitionsFileValue } from '../../src/triggerFiles/definitionsFile';
import { DriftModel, type DriftConnection } from '../../src/extension/sync/driftModel';
import { sloServiceFake, type SloServiceFake } from './sloServiceFake';
import { serviceTrigger } from './serviceTriggers';
import type { AccountRecipient } from '../../src/api/schemas/account';

type Json = Record<string, unknown>;

/** The plan's comparison of one file with the service, in the script that holds it. */
const SLO_PLAN = '/src/triggerFiles/sloPlan.ts';

const RECIPIENT = { id: 'rcp_1', type: 'email', target: 'oncall@example.com' };
const alert = (id: string, minutes: number): Json & { id: string } => ({
  id,
  alert_type: 'exhaustion_time',
  exhaustion_minutes: minutes,
  description: '',
  slo: { id: 'slo_1' },
  recipients: [RECIPIENT],
  triggered: false,
});
const alertFile = (a: Json & { id: string }, over: Json = {}): string =>
  burnAlertFileText({
    ...burnAlertFileValue({ dataset: 'api', slo: { id: 'slo_1', name: 'Availability' }, alert: a }),
    ...over,
  });
const MAP: Json = { trace_id: { name: 'trace.trace_id', column_type: 'column' }, duration_ms: null };
const definitionsFile = (map: Json): string =>
  definitionsFileText(definitionsFileValue({ dataset: 'api', definitions: map }));

const A = 'file:///w/burn-alerts/api/Availability.exhaustion-240min.burn-alert.json';
const B = 'file:///w/burn-alerts/api/Availability.exhaustion-60min.burn-alert.json';
const GONE = 'file:///w/burn-alerts/api/Old.exhaustion-30min.burn-alert.json';
const DEFS = 'file:///w/definitions/api.definitions.json';

const TRIGGER = serviceTrigger('t1', 'Errors', 'api');
const TRIGGER_FILE = 'file:///w/triggers/api/Errors.trigger.json';

/** A model over a workspace holding `files` (uri -> text), against a service of alerts ba_a, ba_b and api's definitions. */
function setup(files: Record<string, string>, listed: AccountRecipient[] = []) {
  const slo: SloServiceFake = sloServiceFake(
    { 'api/ba_a': alert('ba_a', 240), 'api/ba_b': alert('ba_b', 60) },
    { api: MAP },
  );
  const lists: string[] = [];
  const triggers: TriggerLister = {
    listTriggers: (dataset) => {
      lists.push(dataset);
      return Promise.resolve({ data: dataset === 'api' ? [structuredClone(TRIGGER)] : [] });
    },
  };
  const teamLists: string[] = [];
  const team: RecipientLister = {
    listRecipients: () => {
      teamLists.push('recipients');
      return Promise.resolve({ data: listed });
    },
  };
  const connection: DriftConnection = { id: 'c1', name: 'prod', api: { ...slo, ...triggers, ...team } };
  const reads: string[] = [];
  const model = new DriftModel({
    workspace: {
      list: () => Promise.resolve(Object.keys(files).sort()),
      read: (uri) => {
        reads.push(uri);
        return Promise.resolve(files[uri]);
      },
      name: (uri) => uri.replace('file:///w/', ''),
    },
    connection: () => Promise.resolve(connection),
    concurrency: () => 2,
  });
  return { model, slo, reads, lists, teamLists };
}

const WORKSPACE = {
  [A]: alertFile(alert('ba_a', 240)),
  [B]: alertFile(alert('ba_b', 60), { exhaustion_minutes: 90 }),
  [GONE]: alertFile(alert('ba_gone', 30)),
  [DEFS]: definitionsFile(MAP),
};

test('each burn alert and definitions file is said in sync, differing member by member, or not on the service', async () => {
  const { model, slo } = setup(WORKSPACE);
  await model.refresh(false);
  const s = model.snapshot();
  assert.deepEqual(
    s.sloFiles.map((f) => [f.file, f.kind, f.status, f.reason, f.missing]),
    [
      [A, 'burn-alert', 'in-sync', undefined, undefined],
      [B, 'burn-alert', 'differs', undefined, undefined],
      [
        GONE,
        'burn-alert',
        'unknown',
        'the service has no burn alert ba_gone: burn alerts cannot be created from files',
        true,
      ],
      [DEFS, 'definitions', 'in-sync', undefined, undefined],
    ],
  );
  assert.deepEqual(
    model.sloFileDrift(B)?.differences.map((d) => [d.path, d.service, d.local]),
    [['exhaustion_minutes', 60, 90]],
  );
  assert.deepEqual(s.sloCounts, { inSync: 2, differs: 1, missing: 1, unknown: 0 });
  assert.deepEqual(slo.calls.sort(), ['alert api/ba_a', 'alert api/ba_b', 'alert api/ba_gone', 'definitions api']);
});

test('an edit that puts the threshold back is compared alone: in sync, with no read of the service or the disk', async () => {
  const { model, slo, reads } = setup(WORKSPACE);
  await model.refresh(false);
  const seen: (readonly string[] | 'all')[] = [];
  model.onDidChange((w) => seen.push(w));
  slo.calls.length = 0;
  reads.length = 0;
  const save = await measuredAsync(() => model.fileChanged(B, alertFile(alert('ba_b', 60))));
  assert.equal(model.sloFileDrift(B)?.status, 'in-sync');
  assert.deepEqual(model.sloFileDrift(B)?.differences, []);
  assert.deepEqual(seen, [[B]]);
  assert.deepEqual([slo.calls, reads], [[], []]);
  assert.equal(save.calls(SLO_PLAN, 'compareBurnAlertFile'), 1);
  assert.equal(save.calls(SLO_PLAN, 'compareDefinitionsFile'), 0);
  assert.deepEqual(model.snapshot().sloCounts, { inSync: 3, differs: 0, missing: 1, unknown: 0 });
});

test('a second file of one alert makes both not compared, each naming the other as a person does, and deleting it settles the first', async () => {
  const { model } = setup(WORKSPACE);
  await model.refresh(false);
  const copy = 'file:///w/burn-alerts/api/copy.burn-alert.json';
  const seen: (readonly string[] | 'all')[] = [];
  model.onDidChange((w) => seen.push(w));
  await model.fileChanged(copy, alertFile(alert('ba_a', 240)));
  assert.deepEqual(
    [A, copy].map((f) => [model.sloFileDrift(f)?.status, model.sloFileDrift(f)?.reason]),
    [
      ['unknown', 'burn-alerts/api/copy.burn-alert.json also holds the burn alert ba_a: keep it in one file'],
      ['unknown', `${A.replace('file:///w/', '')} also holds the burn alert ba_a: keep it in one file`],
    ],
  );
  assert.deepEqual(model.snapshot().sloCounts, { inSync: 1, differs: 1, missing: 1, unknown: 2 });
  await model.fileDeleted(copy);
  assert.equal(model.sloFileDrift(A)?.status, 'in-sync');
  assert.equal(model.sloFileDrift(copy), undefined);
  assert.deepEqual(
    seen.map((w) => (w === 'all' ? w : [...w].sort())),
    [[copy, A].sort(), [copy, A].sort()],
  );
  assert.deepEqual(model.snapshot().sloCounts, { inSync: 2, differs: 1, missing: 1, unknown: 0 });
});

test("a write to the service drops the reads kept: the next comparison sees the service's new value", async () => {
  const { model, slo } = setup(WORKSPACE);
  await model.refresh(false);
  slo.alerts.set('api/ba_b', alert('ba_b', 90));
  await model.refresh(false);
  assert.equal(model.sloFileDrift(B)?.status, 'differs', 'the kept read is used until the service is written');
  model.forgetLists('c1');
  await model.refresh(false);
  assert.equal(model.sloFileDrift(B)?.status, 'in-sync');
  assert.equal(slo.calls.filter((c) => c === 'alert api/ba_b').length, 2);
});

test('a read that failed is not kept: the file is compared again when it changes', async () => {
  const { model, slo } = setup({ [GONE]: WORKSPACE[GONE] });
  await model.refresh(false);
  assert.equal(model.sloFileDrift(GONE)?.missing, true);
  slo.alerts.set('api/ba_gone', alert('ba_gone', 30));
  await model.fileChanged(GONE);
  assert.equal(model.sloFileDrift(GONE)?.status, 'in-sync');
  assert.deepEqual(slo.calls, ['alert api/ba_gone', 'alert api/ba_gone']);
});

test("a save in a form is drift's read of what it saved: the file compares with it and nothing is read", async () => {
  const { model, slo, lists } = setup({
    [B]: WORKSPACE[B],
    [DEFS]: WORKSPACE[DEFS],
    [TRIGGER_FILE]: triggerFileText(TRIGGER),
  });
  await model.refresh(false);
  assert.equal(model.sloFileDrift(B)?.status, 'differs');
  const before = { slo: slo.calls.length, lists: lists.length };
  model.sloSaved('c1', { kind: 'burn-alert', dataset: 'api', alert: alert('ba_b', 90) });
  model.sloSaved('c1', { kind: 'definitions', dataset: 'api', map: { ...MAP, duration_ms: { name: 'dur' } } });
  await model.refresh(false);
  assert.deepEqual(
    {
      b: model.sloFileDrift(B)?.status,
      defs: model.sloFileDrift(DEFS)?.status,
      trigger: model.fileDrift(TRIGGER_FILE)?.status,
      reads: { slo: slo.calls.length, lists: lists.length },
    },
    { b: 'in-sync', defs: 'differs', trigger: 'in-sync', reads: before },
  );
});

/** The team of the alerts' recipient rcp_1, as GET /1/recipients lists it. */
const TEAM: AccountRecipient[] = [{ id: 'rcp_1', type: 'email', details: { email_address: 'oncall@example.com' } }];
const BY_TARGET = { recipients: [{ type: 'email', target: 'oncall@example.com' }] };

test('a burn alert file naming its recipient by type and target is in sync with the alert holding its id', async () => {
  const { model, teamLists } = setup({ [A]: alertFile(alert('ba_a', 240), BY_TARGET) }, TEAM);
  await model.refresh(false);
  assert.deepEqual(
    { status: model.sloFileDrift(A)?.status, differences: model.sloFileDrift(A)?.differences, teamLists },
    { status: 'in-sync', differences: [], teamLists: ['recipients'] },
  );
});

test('a burn alert file saved with a recipient by type and target is compared by the id it resolves to', async () => {
  const files: Record<string, string> = { [A]: alertFile(alert('ba_a', 240)) };
  const { model, teamLists } = setup(files, TEAM);
  await model.refresh(false);
  assert.deepEqual(teamLists, [], 'no file names a recipient by type and target yet: the team is not listed');
  await model.fileChanged(A, alertFile(alert('ba_a', 240), BY_TARGET));
  assert.deepEqual(
    { status: model.sloFileDrift(A)?.status, teamLists },
    { status: 'in-sync', teamLists: ['recipients'] },
  );
});
