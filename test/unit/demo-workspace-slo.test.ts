// The demo workspace's burn alert and definitions files are a pull of the sandbox's api-gateway: pulled again
// (into a copy) nothing is written, and they lint clean.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

const workspace = join(import.meta.dirname, '..', '..', 'demo', 'workspace');
let sandbox: TestSandbox;
let dir = '';

before(async () => {
  sandbox = await startTestSandbox();
  dir = mkdtempSync(join(tmpdir(), 'obs-demo-slo-'));
  for (const folder of ['burn-alerts', 'definitions'])
    cpSync(join(workspace, folder), join(dir, folder), { recursive: true });
});
after(async () => {
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) =>
  runObs(argv, { cwd: dir, env: { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey } });

test('a pull of the demo dataset finds every burn alert and definitions file of the demo unchanged', async () => {
  const r = await run('pull', '--dataset', DEMO.datasets.gateway, '--kinds', 'burn-alerts,definitions');
  assert.deepEqual([r.code, r.stdout], [0, '0 written, 2 unchanged, 0 skipped\n0 written, 1 unchanged, 0 skipped\n']);
});

test('the demo burn alert and definitions files have no lint problem, against the live columns too', async () => {
  const r = await run('lint', '--columns-from-service', 'burn-alerts/**/*.json', 'definitions/*.json');
  assert.deepEqual([r.code, r.stdout], [0, '3 files checked: 0 errors, 0 warnings, 0 infos\n']);
});
