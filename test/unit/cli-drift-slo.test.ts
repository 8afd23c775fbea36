// obs drift of burn alert and definitions files against the sandbox: in sync right after a pull of every kind,
// exactly the edited member after an edit, a cleared definition by its type, a burn alert file naming an alert
// the service does not have not compared (with why), --match-by-name against another environment's ids, and
// --applied (what changed on the service since the files last applied, other than to what the files now hold).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { DEFINITIONS, EXHAUSTION, GATEWAY, sloWorkspace } from './slo-workspace';

const ws = sloWorkspace('obs-drift-slo-');
const { run, readJson, writeJson } = ws;

interface SloEntry {
  file: string;
  kind: string;
  status: string;
  reason?: string;
  id?: string;
  differences: { path: string; service: unknown; local: unknown }[];
}
/** The drift's JSON entries of burn alert and definitions files. */
async function sloJson(argv: string[] = [], on = run): Promise<{ code: number; entries: SloEntry[] }> {
  const r = await on(['drift', '--format', 'json', ...argv]);
  const files = (JSON.parse(r.stdout) as { files: SloEntry[] }).files;
  return { code: r.code, entries: files.filter((f) => f.kind !== 'trigger') };
}
const notInSync = (entries: SloEntry[]) => entries.filter((e) => e.status !== 'in-sync');

test('right after a pull of every kind, every burn alert and definitions file is in sync: exit 0', async () => {
  const r = await run(['drift']);
  assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
  const sections = [
    'Burn alerts (service value -> file value):',
    '  burn-alerts/__all__/Environment-uptime.budget-rate-1440min-20000ppm.burn-alert.json: in sync',
    '  burn-alerts/__all__/Environment-uptime.exhaustion-1440min.burn-alert.json: in sync',
    `  burn-alerts/${GATEWAY}/Gateway-availability.budget-rate-60min-10000ppm.burn-alert.json: in sync`,
    `  ${EXHAUSTION}: in sync`,
    '  burn-alerts/checkout-service/Checkout-under-300-ms.budget-rate-120min-50000ppm.burn-alert.json: in sync',
    '  burn-alerts/checkout-service/Checkout-under-300-ms.exhaustion-0min.burn-alert.json: in sync',
    'Definitions (service value -> file value):',
    `  ${DEFINITIONS}: in sync`,
    '  definitions/checkout-service.definitions.json: in sync',
    '23 files compared: 23 in sync, 0 differ, 0 only local, 0 only on the service',
  ];
  assert.equal(r.stdout, `${sections.join('\n')}\n`);
  const { entries } = await sloJson();
  assert.deepEqual(
    [entries.filter((e) => e.kind === 'burn-alert').length, entries.filter((e) => e.kind === 'definitions').length],
    [6, 2],
  );
  assert.deepEqual(notInSync(entries), []);
});

test('an edited threshold: exactly that member of that file differs, service value -> file value, exit 1', async () => {
  writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), exhaustion_minutes: 300 });
  const r = await run(['drift']);
  assert.equal(r.code, 1, `${r.stdout}${r.stderr}`);
  const head = `${EXHAUSTION}: differs from the service: "Gateway availability, exhaustion 300 min" (${DEMO.burnAlerts.gwExhaustion})`;
  assert.ok(r.stdout.includes(`\n  ${head}\n    exhaustion_minutes: 240 -> 300\n`), r.stdout);
  const { code, entries } = await sloJson();
  assert.equal(code, 1);
  assert.deepEqual(notInSync(entries), [
    {
      file: EXHAUSTION,
      kind: 'burn-alert',
      status: 'differs',
      dataset: GATEWAY,
      name: 'Gateway availability, exhaustion 300 min',
      id: DEMO.burnAlerts.gwExhaustion,
      differences: [{ path: 'exhaustion_minutes', service: 240, local: 300 }],
    },
  ]);
});

test('a cleared definition: the definitions file differs in that type only, exit 1', async () => {
  const file = readJson(DEFINITIONS);
  writeJson(DEFINITIONS, { ...file, definitions: { ...(file.definitions as Record<string, unknown>), route: null } });
  const { code, entries } = await sloJson();
  assert.equal(code, 1);
  assert.deepEqual(
    notInSync(entries).map((e) => [e.file, e.kind, e.status, e.differences.map((d) => [d.path, d.service, d.local])]),
    [[DEFINITIONS, 'definitions', 'differs', [['definitions.route', { name: 'http.route' }, null]]]],
  );
});

test('a burn alert file whose id the service does not have cannot be compared, with why: exit 2', async () => {
  writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), id: 'ba_nowhere' });
  const r = await run(['drift']);
  assert.equal(r.code, 2, `${r.stdout}${r.stderr}`);
  const why = 'the service has no burn alert ba_nowhere: burn alerts cannot be created from files';
  assert.ok(r.stdout.includes(`\n  ${EXHAUSTION}: cannot be compared: ${why}\n`), r.stdout);
  const { entries } = await sloJson();
  assert.deepEqual(
    notInSync(entries).map((e) => [e.file, e.status, e.reason]),
    [[EXHAUSTION, 'unknown', why]],
  );
});

test('--match-by-name: the files against another environment whose ids differ, each alert found by its SLO', async () => {
  await ws.withOtherIds(async (_prod, onProd) => {
    const byId = await sloJson([], onProd);
    assert.equal(byId.code, 2);
    assert.equal(byId.entries.filter((e) => e.kind === 'burn-alert' && e.status === 'unknown').length, 6);
    writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), exhaustion_minutes: 300 });
    const { code, entries } = await sloJson(['--match-by-name'], onProd);
    assert.equal(code, 1);
    assert.deepEqual(
      notInSync(entries).map((e) => [e.file, e.status, e.id, e.differences.map((d) => d.path)]),
      [[EXHAUSTION, 'differs', `prod_${DEMO.burnAlerts.gwExhaustion}`, ['exhaustion_minutes']]],
    );
  });
});

test('SARIF: an edited threshold is one result, located at that member of the burn alert file', async () => {
  writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), exhaustion_minutes: 300 });
  const r = await run(['drift', '--format', 'sarif']);
  assert.equal(r.code, 1, r.stderr);
  const line = ws.text(EXHAUSTION).split('\n').indexOf('  "exhaustion_minutes": 300,') + 1;
  assert.ok(line > 0);
  const sarif = JSON.parse(r.stdout) as { runs: { results: Record<string, unknown>[] }[] };
  const results = sarif.runs[0]?.results ?? [];
  assert.deepEqual(
    results.map((x) => [x.ruleId, x.message, x.locations]),
    [
      [
        'drift/differs',
        { text: 'Differs from the service: exhaustion_minutes: 240 -> 300' },
        [
          {
            physicalLocation: {
              artifactLocation: { uri: EXHAUSTION, uriBaseId: '%SRCROOT%' },
              region: { startLine: line, startColumn: 3, endLine: line, endColumn: 28 },
            },
          },
        ],
      ],
    ],
  );
});

/** The gateway's exhaustion_time alert changed on the service, as someone in the UI would change it. */
async function exhaustionInTheUi(minutes: number): Promise<void> {
  const path = `/1/burn_alerts/${GATEWAY}/${DEMO.burnAlerts.gwExhaustion}`;
  const current = ws.sandbox();
  const alert = (await current.v1('GET', path)).json() as Record<string, unknown>;
  const body = { alert_type: alert.alert_type, exhaustion_minutes: minutes, recipients: alert.recipients };
  const put = await current.v1('PUT', path, { ...body, description: alert.description });
  assert.equal(put.status, 200, put.text);
}

test('--applied names a burn alert changed on the service since its file was applied: exit 1', async () => {
  cpSync(join(ws.dir(), 'burn-alerts'), join(ws.dir(), '.applied', 'burn-alerts'), { recursive: true });
  await exhaustionInTheUi(120);
  const { code, entries } = await sloJson(['--applied', '.applied/burn-alerts', 'burn-alerts']);
  assert.deepEqual(
    { code, changed: notInSync(entries).map((e) => [e.file, e.differences]) },
    {
      code: 1,
      changed: [[`.applied/${EXHAUSTION}`, [{ path: 'exhaustion_minutes', service: 120, local: 240 }]]],
    },
  );
});

test('--applied takes a burn alert the service holds as its file now wants for no change: exit 0', async () => {
  cpSync(join(ws.dir(), 'burn-alerts'), join(ws.dir(), '.applied', 'burn-alerts'), { recursive: true });
  writeJson(EXHAUSTION, { ...readJson(EXHAUSTION), exhaustion_minutes: 120 });
  await exhaustionInTheUi(120);
  const { code, entries } = await sloJson(['--applied', '.applied/burn-alerts', 'burn-alerts']);
  assert.deepEqual({ code, changed: notInSync(entries) }, { code: 0, changed: [] });
});
