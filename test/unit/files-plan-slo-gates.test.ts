// The gates of the one plan pipeline on burn alert files, against a fake service: two files of one alert are
// both blocked, an alert matched by name among several of its type that share no threshold with the file is
// blocked with the candidates, and a recipient the team does not have blocks the alert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planWithGates, type PlanService, type PlanSource } from '../../src/triggerFiles';

type Json = Record<string, unknown>;

const ALERTS: (Json & { id: string })[] = [
  { id: 'ba_a', alert_type: 'exhaustion_time', exhaustion_minutes: 60, recipients: [{ id: 'r1' }] },
  { id: 'ba_b', alert_type: 'exhaustion_time', exhaustion_minutes: 240, recipients: [{ id: 'r1' }] },
];

const service: PlanService = {
  listTriggers: async () => ({ data: [] }),
  listColumns: async () => ({ data: [] }),
  listRecipients: async () => ({ data: [{ id: 'r1' }] }),
  getQuery: () => Promise.reject(new Error('no saved query in these tests')),
  listSlos: async () => ({ data: [{ id: 'slo1', name: 'Availability' }] }),
  listBurnAlerts: async () => ({ data: ALERTS }),
  getBurnAlert: async (_d, id) => {
    const found = ALERTS.find((a) => a.id === id);
    return found === undefined ? Promise.reject(new Error(`no ${id}`)) : { data: { ...found, slo: { id: 'slo1' } } };
  },
  updateDatasetDefinitions: () => Promise.reject(new Error('no definitions in these tests')),
};

const file = (name: string, value: Json): PlanSource => ({
  file: `burn-alerts/api/${name}.burn-alert.json`,
  text: JSON.stringify({
    dataset_slug: 'api',
    slo: { id: 'slo1', name: 'Availability' },
    alert_type: 'exhaustion_time',
    recipients: [{ id: 'r1' }],
    ...value,
  }),
});

const plan = (sources: PlanSource[], matchByName = false) =>
  planWithGates({
    sources,
    service,
    lint: async () => [],
    target: { baseUrl: 'http://127.0.0.1:1', key: { salt: '', sha256: '' } },
    inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName },
    concurrency: 2,
    now: new Date('2026-12-07T00:00:00Z'),
  });

test('two files of one burn alert are both blocked, each naming the other', async () => {
  const { plan: p } = await plan([file('A', { id: 'ba_a', exhaustion_minutes: 30 }), file('B', { id: 'ba_a' })]);
  assert.deepEqual(p.changes, []);
  assert.deepEqual(
    p.blocked.map((b) => [b.kind, b.file, b.reasons]),
    [
      ['burn-alert', file('A', {}).file, [`${file('B', {}).file} also holds the burn alert ba_a: keep it in one file`]],
      ['burn-alert', file('B', {}).file, [`${file('A', {}).file} also holds the burn alert ba_a: keep it in one file`]],
    ],
  );
});

test('matched by name among several alerts of its type, a threshold none has is blocked with the candidates', async () => {
  const { plan: p } = await plan([file('A', { id: 'other_env', exhaustion_minutes: 30 })], true);
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, [
    'the SLO "Availability" has 2 exhaustion_time burn alerts and none of this threshold: ' +
      'ba_a (exhaustion_minutes 60); ba_b (exhaustion_minutes 240)',
  ]);
});

test('matched by name, the threshold tells the alert among several of its type', async () => {
  const { plan: p } = await plan([file('A', { id: 'other_env', exhaustion_minutes: 240, description: 'x' })], true);
  assert.deepEqual(
    p.changes.map((c) => [c.kind, c.kind === 'trigger' ? '' : c.id, c.kind === 'trigger' ? '' : c.matchedBy]),
    [['burn-alert', 'ba_b', 'name']],
  );
});

test("a recipient id the team's list does not hold blocks the burn alert", async () => {
  const { plan: p } = await plan([file('A', { id: 'ba_a', recipients: [{ id: 'r_unknown' }] })]);
  assert.deepEqual(p.changes, []);
  assert.deepEqual(p.blocked[0]?.reasons, ['recipient "r_unknown" is not one of the team\'s recipients']);
});
