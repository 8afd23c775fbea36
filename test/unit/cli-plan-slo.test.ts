// obs plan and obs apply of burn alert and definitions files against the sandbox: nothing to change right
// after a pull, exactly the edited member after an edit and only it written, a definition cleared with
// `name: ""`, a file naming an alert the service does not have blocked, and a second plan empty after apply.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpdateBurnAlertRequest } from '../../src/api/schemas/burnAlert';
import { DEMO } from '../../src/sandbox';
import type { RecordedRequest } from '../../src/sandbox/types';
import type { Plan, PlannedChange } from '../../src/triggerFiles';
import { DEFINITIONS, EXHAUSTION, GATEWAY, sloWorkspace } from './slo-workspace';

const ws = sloWorkspace('obs-plan-slo-');
const { run, readJson, writeJson } = ws;
// Each test's writes only: the log of the pull before it is let go of.
beforeEach(async () => {
  await ws.sandbox().control('DELETE', 'requests');
});

/** An update of the plan, as every burn alert and definitions change is; fails the test on another. */
const updateOf = (c: PlannedChange) => (c.kind !== 'trigger' ? c : assert.fail(`a trigger change: ${c.action}`));
const planJson = async (...argv: string[]) => {
  const r = await run(['plan', '--format', 'json', ...argv]);
  return { code: r.code, stderr: r.stderr, plan: JSON.parse(r.stdout) as Plan };
};
/** The writes the sandbox received since the last reset of its request log. */
async function writes(): Promise<RecordedRequest[]> {
  const log = (await ws.sandbox().control('GET', 'requests')).json() as RecordedRequest[];
  return log.filter((r) => r.method !== 'GET' && !(r.method === 'PATCH' && isEmpty(r.body)));
}
const isEmpty = (body: unknown) => typeof body === 'object' && body !== null && Object.keys(body).length === 0;

test('right after a pull of every kind the plan is empty: every burn alert and definitions file unchanged', async () => {
  const r = await run(['plan']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Nothing to change: the service matches the files\./);
  const { plan } = await planJson();
  assert.deepEqual([plan.changes, plan.blocked], [[], []]);
  const kinds = plan.files.map((f) => f.file.split('/')[0]);
  assert.deepEqual(
    [kinds.filter((k) => k === 'burn-alerts').length, kinds.filter((k) => k === 'definitions').length],
    [6, 2],
  );
});

test('one edited threshold plans exactly that member, apply writes the full PUT, and a second plan is empty', async () => {
  writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), exhaustion_minutes: 300 });
  const saved = await run(['plan', '--out', 'plan.json']);
  assert.equal(saved.code, 1, saved.stderr);
  const label = `${GATEWAY} "Gateway availability, exhaustion 300 min" (${DEMO.burnAlerts.gwExhaustion})`;
  assert.ok(
    saved.stdout.includes(
      `\nUpdate burn alerts (service value -> file value):\n  ~ ${label}  ${EXHAUSTION}\n      exhaustion_minutes: 240 -> 300\n`,
    ),
    saved.stdout,
  );
  const { plan } = await planJson();
  assert.deepEqual(
    plan.changes.map(updateOf).map((c) => [c.kind, c.action, c.file, c.id, c.differences]),
    [
      [
        'burn-alert',
        'update',
        EXHAUSTION,
        DEMO.burnAlerts.gwExhaustion,
        [{ path: 'exhaustion_minutes', member: 'exhaustion_minutes', service: 240, local: 300 }],
      ],
    ],
  );
  const applied = await run(['apply', 'plan.json']);
  assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
  const sent = (await writes()).map((w) => [w.method, w.path, w.body]);
  // The members of the spec's update (alert_type, exhaustion_minutes, recipients, description) and no other.
  assert.equal(UpdateBurnAlertRequest.safeParse(sent[0]?.[2]).success, true);
  assert.deepEqual(sent, [
    [
      'PUT',
      `/1/burn_alerts/${GATEWAY}/${DEMO.burnAlerts.gwExhaustion}`,
      {
        alert_type: 'exhaustion_time',
        exhaustion_minutes: 300,
        description: 'Budget gone within four hours.',
        recipients: [{ id: DEMO.recipients.emailOncall }],
      },
    ],
  ]);
  const again = await run(['plan']);
  assert.equal(again.code, 0, again.stdout);
});

test('one edited definition and one cleared: the PATCH holds only those types, the cleared one as name ""', async () => {
  const file = readJson(DEFINITIONS);
  const edited = { ...(file.definitions as Record<string, unknown>), user: { name: 'http.route' }, route: null };
  writeJson(DEFINITIONS, { ...file, definitions: edited });
  const body = { route: { name: '' }, user: { name: 'http.route' } };
  const { plan } = await planJson();
  assert.deepEqual(
    plan.changes.map(updateOf).map((c) => [c.kind, c.file, c.differences.map((d) => d.path), c.body]),
    [['definitions', DEFINITIONS, ['definitions.route', 'definitions.user.name'], body]],
  );
  const out = await run(['plan', '--out', 'plan.json']);
  assert.equal(out.code, 1, out.stderr);
  const applied = await run(['apply', 'plan.json']);
  assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
  assert.deepEqual(
    (await writes()).map((w) => [w.method, w.path, w.body]),
    [['PATCH', `/1/dataset_definitions/${GATEWAY}`, body]],
  );
  assert.equal((await run(['plan'])).code, 0);
});

test('a burn alert file whose id the service does not have is blocked: burn alerts cannot be created from files', async () => {
  writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), id: 'ba_nowhere' });
  const { code, plan } = await planJson();
  assert.equal(code, 2);
  assert.deepEqual(plan.blocked, [
    {
      kind: 'burn-alert',
      file: EXHAUSTION,
      index: -1,
      dataset: GATEWAY,
      reasons: ['the service has no burn alert ba_nowhere: burn alerts cannot be created from files'],
    },
  ]);
  assert.deepEqual(plan.changes, []);
});

test('promotion: burn alert and definitions files pulled from one environment, planned with --match-by-name against another whose ids differ, apply there; a second plan is empty', async () => {
  await ws.withOtherIds(async (prod, onProd) => {
    writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), exhaustion_minutes: 300 });
    const defs = readJson(DEFINITIONS);
    writeJson(DEFINITIONS, { ...defs, definitions: { ...(defs.definitions as Record<string, unknown>), route: null } });
    const planned = await onProd(['plan', '--match-by-name', '--format', 'json', '--out', 'prod-plan.json']);
    assert.equal(planned.code, 1, planned.stderr);
    const plan = JSON.parse(planned.stdout) as Plan;
    assert.deepEqual(
      plan.changes.map(updateOf).map((c) => [c.kind, c.id, c.matchedBy, c.differences.map((d) => d.path)]),
      [
        ['burn-alert', 'prod_ba_gw_exhaustion', 'name', ['exhaustion_minutes']],
        ['definitions', GATEWAY, 'id', ['definitions.route']],
      ],
    );
    await prod.control('DELETE', 'requests');
    const applied = await onProd(['apply', 'prod-plan.json']);
    assert.equal(applied.code, 0, `${applied.stdout}${applied.stderr}`);
    const log = (await prod.control('GET', 'requests')).json() as RecordedRequest[];
    assert.deepEqual(
      log.filter((r) => r.method === 'PUT' || (r.method === 'PATCH' && !isEmpty(r.body))).map((r) => r.path),
      [`/1/burn_alerts/${GATEWAY}/prod_ba_gw_exhaustion`, `/1/dataset_definitions/${GATEWAY}`],
    );
    const again = await onProd(['plan', '--match-by-name']);
    assert.equal(again.code, 0, again.stdout);
  });
});
