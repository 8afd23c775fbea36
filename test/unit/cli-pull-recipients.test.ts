// obs pull --recipients-by target against the sandbox: trigger and burn alert files name recipients by type and
// target as the team's list names them (a recipient without a target there keeps its id, said once), a plan of
// them right after finds nothing to change, and drift finds them in sync: each reference resolves to the id the
// service holds.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

const GATEWAY = DEMO.datasets.gateway;
let sandbox: TestSandbox;
let dir = '';

const run = (argv: string[]) =>
  runObs(argv, { cwd: dir, env: { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey } });

before(async () => {
  sandbox = await startTestSandbox();
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await sandbox.control('POST', 'reset');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-pull-recipients-'));
});

const pullByTarget = () =>
  run(['pull', '--dataset', GATEWAY, '--kinds', 'triggers,burn-alerts', '--recipients-by', 'target']);

/** Every recipient of every file pulled into `folder`. */
function recipientsIn(folder: string): Record<string, unknown>[] {
  const root = join(dir, folder, GATEWAY);
  return readdirSync(root).flatMap((name) => {
    const value = JSON.parse(readFileSync(join(root, name), 'utf8')) as { recipients?: Record<string, unknown>[] };
    return value.recipients ?? [];
  });
}

test('pulled by target, every recipient the team names is written by type and target, never by id', async () => {
  const r = await pullByTarget();
  assert.equal(r.code, 0, r.stderr);
  const all = [...recipientsIn('triggers'), ...recipientsIn('burn-alerts')];
  assert.ok(all.length > 0);
  assert.deepEqual(
    all.filter((x) => x.id !== undefined || typeof x.type !== 'string' || typeof x.target !== 'string'),
    [],
  );
  assert.ok(all.some((x) => x.type === 'email' && x.target === 'oncall@example.com'));
});

test('pulled by target, a plan right after finds nothing to change, and drift finds every file in sync', async () => {
  assert.equal((await pullByTarget()).code, 0);
  const plan = await run(['plan', 'triggers', 'burn-alerts']);
  assert.equal(plan.code, 0, `${plan.stdout}${plan.stderr}`);
  assert.match(plan.stdout, /^0 to create, 0 to update, 0 to delete/m);
  const drift = await run(['drift', 'triggers', 'burn-alerts']);
  assert.equal(drift.code, 0, `${drift.stdout}${drift.stderr}`);
});

test('drift of a file naming a recipient the team does not have says why its recipients are not compared', async () => {
  assert.equal((await run(['pull', '--dataset', GATEWAY])).code, 0);
  const folder = join(dir, 'triggers', GATEWAY);
  const [name] = readdirSync(folder).sort();
  assert.ok(name !== undefined);
  const value = JSON.parse(readFileSync(join(folder, name), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(folder, name),
    JSON.stringify({ ...value, recipients: [{ type: 'email', target: 'nobody@example.com' }] }),
  );
  const drift = await run(['drift', '--format', 'json', 'triggers']);
  assert.equal(drift.code, 2, drift.stderr);
  const files = (
    JSON.parse(drift.stdout) as { files: { file: string; triggers: { status: string; reason?: string }[] }[] }
  ).files;
  assert.deepEqual(
    files.filter((f) => f.file.endsWith(name)).flatMap((f) => f.triggers.map((t) => [t.status, t.reason])),
    [
      [
        'unknown',
        'its recipients could not be compared: the team has no email recipient "nobody@example.com"; ' +
          'its email recipients: "oncall@example.com", "team+alerts@example.com"',
      ],
    ],
  );
});
