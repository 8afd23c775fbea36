// The apply of burn alert and definitions changes against a fake service counting its writes: an alert or a map
// changed since the plan is skipped and never written over; an unchanged one is written once and compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyChanges, type PlannedChange, type TriggerWriter } from '../../src/triggerFiles';
import { burnAlertBody, burnAlertVersion, definitionsVersion } from '../../src/triggerFiles/sloChange';

type Json = Record<string, unknown>;

const ALERT: Json = {
  id: 'ba1',
  slo: { id: 'slo1' },
  alert_type: 'exhaustion_time',
  exhaustion_minutes: 240,
  description: 'Budget gone within four hours.',
  recipients: [{ id: 'r1', type: 'email', target: 'oncall@example.com' }],
  updated_at: '2026-12-01T00:00:00Z',
};
const MAP: Json = { route: { name: 'http.route', column_type: 'column' }, user: null };

const alertChange: PlannedChange = {
  kind: 'burn-alert',
  action: 'update',
  file: 'burn-alerts/api/A.exhaustion-240min.burn-alert.json',
  index: -1,
  dataset: 'api',
  name: 'A, exhaustion 300 min',
  id: 'ba1',
  matchedBy: 'id',
  differences: [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 240, local: 300 }],
  body: burnAlertBody({ ...ALERT, exhaustion_minutes: 300 }),
  service: burnAlertVersion(ALERT),
};
const definitionsChange: PlannedChange = {
  kind: 'definitions',
  action: 'update',
  file: 'definitions/api.definitions.json',
  index: -1,
  dataset: 'api',
  name: 'definitions of api',
  id: 'api',
  matchedBy: 'id',
  differences: [{ path: 'definitions.route', member: 'route', service: { name: 'http.route' }, local: null }],
  body: { route: { name: '' } },
  service: definitionsVersion(MAP),
};

/** A service holding `alert` and `map`, recording every write (an empty PATCH is the read of definitions). */
function service(alert: Json, map: Json) {
  const writes: string[] = [];
  const refuse = () => Promise.reject(new Error('no trigger in these tests'));
  const writer: TriggerWriter = {
    getTrigger: refuse,
    listTriggers: refuse,
    createTrigger: refuse,
    replaceTrigger: refuse,
    deleteTrigger: refuse,
    getBurnAlert: async () => ({ data: structuredClone(alert) }),
    updateBurnAlert: async (_d, id, body) => {
      writes.push(`PUT ${id}`);
      Object.assign(alert, body, { updated_at: '2026-12-02T00:00:00Z' });
      return { data: structuredClone(alert) };
    },
    updateDatasetDefinitions: async (dataset, body) => {
      if (Object.keys(body).length > 0) writes.push(`PATCH ${dataset}`);
      for (const [type, v] of Object.entries(body))
        map[type] = (v as { name: string }).name === '' ? null : { ...(v as Json), column_type: 'column' };
      return { data: structuredClone(map) };
    },
  };
  return { writer, writes };
}

test('a burn alert changed on the service since the plan is skipped, and nothing is written', async () => {
  const { writer, writes } = service({ ...ALERT, exhaustion_minutes: 60, updated_at: '2026-12-01T09:00:00Z' }, MAP);
  const [result] = await applyChanges([alertChange], writer);
  assert.deepEqual(result, {
    change: alertChange,
    outcome: 'skipped',
    reason:
      'the burn alert "A, exhaustion 300 min" (ba1) changed on the service since the plan (updated 2026-12-01T09:00:00Z); plan again to see the change',
  });
  assert.deepEqual(writes, []);
});

test('an unchanged burn alert is written once and read back as sent', async () => {
  const { writer, writes } = service({ ...ALERT }, MAP);
  const [result] = await applyChanges([alertChange], writer);
  assert.deepEqual(result, { change: alertChange, outcome: 'applied', id: 'ba1', storedDifferently: [] });
  assert.deepEqual(writes, ['PUT ba1']);
});

test("a dataset's definitions changed on the service since the plan are skipped, and nothing is patched", async () => {
  const { writer, writes } = service({ ...ALERT }, { ...MAP, user: { name: 'user.id', column_type: 'column' } });
  const [result] = await applyChanges([definitionsChange], writer);
  assert.deepEqual(result, {
    change: definitionsChange,
    outcome: 'skipped',
    reason: 'the definitions of api changed on the service since the plan; plan again to see the change',
  });
  assert.deepEqual(writes, []);
});

test('unchanged definitions are patched once, and the answered map is compared with the one expected', async () => {
  const { writer, writes } = service({ ...ALERT }, { ...MAP });
  const [result] = await applyChanges([definitionsChange], writer);
  assert.deepEqual(result, { change: definitionsChange, outcome: 'applied', id: 'api', storedDifferently: [] });
  assert.deepEqual(writes, ['PATCH api']);
});
