// obs pull --kinds against the sandbox: burn alerts and dataset definitions written as canonical files, a
// second pull writing nothing, a file edited locally left alone unless --force.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-slo-'));
});

const run = (argv: string[]) => runObs(argv, { cwd: dir, env });
const GATEWAY = DEMO.datasets.gateway;
const EXHAUSTION = `burn-alerts/${GATEWAY}/Gateway-availability.exhaustion-240min.burn-alert.json`;

test('--kinds burn-alerts,definitions writes every burn alert of the SLOs and the definitions; a second pull writes nothing', async () => {
  const r = await run(['pull', '--all', '--dataset', GATEWAY, '--kinds', 'burn-alerts,definitions']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      'wrote burn-alerts/__all__/Environment-uptime.budget-rate-1440min-20000ppm.burn-alert.json (new)',
      'wrote burn-alerts/__all__/Environment-uptime.exhaustion-1440min.burn-alert.json (new)',
      `wrote burn-alerts/${GATEWAY}/Gateway-availability.budget-rate-60min-10000ppm.burn-alert.json (new)`,
      `wrote ${EXHAUSTION} (new)`,
      '4 written, 0 unchanged, 0 skipped',
      `wrote definitions/${GATEWAY}.definitions.json (new)`,
      '1 written, 0 unchanged, 0 skipped',
      '',
    ].join('\n'),
  );
  assert.deepEqual(JSON.parse(readFileSync(join(dir, EXHAUSTION), 'utf8')), {
    id: DEMO.burnAlerts.gwExhaustion,
    dataset_slug: GATEWAY,
    slo: { id: DEMO.slos.gwAvailability, name: 'Gateway availability' },
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 240,
    description: 'Budget gone within four hours.',
    recipients: [{ id: DEMO.recipients.emailOncall, type: 'email', target: 'oncall@example.com' }],
  });
  assert.equal(existsSync(join(dir, 'triggers')), false);
  const again = await run(['pull', '--all', '--dataset', GATEWAY, '--kinds', 'burn-alerts,definitions']);
  assert.deepEqual(
    [again.code, again.stdout],
    [0, '0 written, 4 unchanged, 0 skipped\n0 written, 1 unchanged, 0 skipped\n'],
  );
});

test('a burn alert file edited locally is left alone and named (exit 1), and overwritten with --force', async () => {
  await run(['pull', '--dataset', GATEWAY, '--kinds', 'burn-alerts']);
  const file = join(dir, EXHAUSTION);
  const edited = readFileSync(file, 'utf8').replace('"exhaustion_minutes": 240', '"exhaustion_minutes": 60');
  writeFileSync(file, edited);
  const kept = await run(['pull', '--dataset', GATEWAY, '--kinds', 'burn-alerts']);
  assert.equal(kept.code, 1);
  assert.ok(kept.stdout.includes(`skipped ${EXHAUSTION}: it differs from the service (--force overwrites it)`));
  assert.equal(readFileSync(file, 'utf8'), edited);
  const forced = await run(['pull', '--dataset', GATEWAY, '--kinds', 'burn-alerts', '--force']);
  assert.equal(forced.code, 0);
  assert.ok(readFileSync(file, 'utf8').includes('"exhaustion_minutes": 240'));
});

test('--burn-alerts-out and --definitions-out choose the folders', async () => {
  const r = await run([
    'pull',
    '--dataset',
    GATEWAY,
    '--kinds',
    'definitions,burn-alerts',
    '--burn-alerts-out',
    'slo/alerts',
    '--definitions-out',
    'slo/defs',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(join(dir, 'slo')).sort(), ['alerts', 'defs']);
  assert.deepEqual(readdirSync(join(dir, 'slo/defs')), [`${GATEWAY}.definitions.json`]);
});

test('an unknown kind is a usage problem: nothing is asked or written', async () => {
  const r = await run(['pull', '--dataset', GATEWAY, '--kinds', 'triggers,slos']);
  assert.deepEqual([r.code, readdirSync(dir)], [2, []]);
  assert.match(r.stderr, /--kinds takes triggers, burn-alerts, definitions \(got triggers,slos\)/);
});

test('definitions of a dataset the service does not have are reported (exit 2)', async () => {
  const r = await run(['pull', '--dataset', 'no-such-dataset', '--kinds', 'definitions']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /could not read the definitions of no-such-dataset: the service does not have it/);
});
