// obs lint on burn alert and dataset definitions files: each checked by its own rules (chosen by the file's
// name), in the text, JSON and SARIF reports, with the dataset's columns from the service on request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let dir = '';
let sandbox: TestSandbox;

const ALERT = {
  id: 'ba_1',
  dataset_slug: 'checkout',
  slo: { id: 'slo_1', name: 'Checkout availability' },
  alert_type: 'budget_rate',
  exhaustion_minutes: 60,
  budget_rate_window_minutes: 60,
  budget_rate_decrease_threshold_per_million: 10000,
  recipients: [{ id: 'rcp_1' }],
};
const DEFINITIONS = { dataset_slug: DEMO.datasets.gateway, definitions: { route: { name: 'http.no_such_column' } } };

before(async () => {
  sandbox = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'obs-lint-slo-'));
  writeFileSync(join(dir, 'a.burn-alert.json'), `${JSON.stringify(ALERT, null, 2)}\n`);
  writeFileSync(join(dir, 'gw.definitions.json'), `${JSON.stringify(DEFINITIONS, null, 2)}\n`);
});
after(async () => {
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) =>
  runObs(argv, { cwd: dir, env: { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey } });

test('a burn alert file is checked by the burn alert rules: exhaustion_minutes on a budget_rate alert is an error', async () => {
  const r = await run('lint', 'a.burn-alert.json');
  assert.deepEqual(
    [r.code, r.stdout],
    [
      1,
      'a.burn-alert.json:9:3 error burn-alert/exhaustion-minutes exhaustion_minutes must not be given when alert_type is budget_rate\n' +
        '1 file checked: 1 error, 0 warnings, 0 infos\n',
    ],
  );
});

test('a definitions file naming a column the dataset lacks is warned about with --columns-from-service', async () => {
  const r = await run('lint', '--format', 'json', '--columns-from-service', 'gw.definitions.json');
  const report = JSON.parse(r.stdout) as { diagnostics: { rule: string; severity: string }[] }[];
  assert.deepEqual(
    [r.code, report[0]?.diagnostics.map((d) => [d.rule, d.severity])],
    [0, [['definitions/unknown-column', 'warning']]],
  );
});

test('SARIF results of these files name their rules, and the driver describes them', async () => {
  const r = await run('lint', '--format', 'sarif', 'a.burn-alert.json', 'gw.definitions.json');
  const log = JSON.parse(r.stdout) as {
    runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string }[] }[];
  };
  const run0 = log.runs[0];
  assert.deepEqual(
    run0?.results.map((x) => x.ruleId),
    ['burn-alert/exhaustion-minutes'],
  );
  const ids = run0?.tool.driver.rules.map((x) => x.id) ?? [];
  assert.ok(ids.includes('burn-alert/exhaustion-minutes') && ids.includes('definitions/unknown-column'));
});
