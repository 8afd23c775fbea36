// obs drift --match-by-name and --applied against the sandbox: files of another environment's ids matched by
// dataset and name, and the gate a CI runs before it applies newer files (what changed on the service since
// the files last applied, other than to what the files now hold).
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';
const GW = DEMO.datasets.gateway;
const HIGH = `triggers/${GW}/High-error-rate.trigger.json`;

before(async () => {
  sandbox = await startTestSandbox({ rateLimit: 100_000 });
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  return runObs(argv, { cwd: dir, env });
}

const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
const write = (file: string, value: unknown) => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);

/** A folder holding the gateway's triggers as pulled, and a copy of them under .applied as the files last applied. */
beforeEach(async () => {
  await sandbox.control('POST', 'reset');
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-drift-applied-'));
  assert.equal((await run('pull', '--dataset', GW)).code, 0);
  cpSync(join(dir, 'triggers'), join(dir, '.applied', 'triggers'), { recursive: true });
});

/** Changes the description of the demo trigger "High error rate" on the service, as someone in the UI would. */
async function editInTheUi(description: string): Promise<void> {
  const path = `/1/triggers/${GW}/${DEMO.triggers.gwErrors}`;
  const { query_id: _saved, ...current } = (await sandbox.v1('GET', path)).json() as Record<string, unknown>;
  const put = await sandbox.v1('PUT', path, { ...current, description });
  assert.equal(put.status, 200, put.text);
}

test("--match-by-name finds each file's trigger by dataset and name: ids the service does not have name nothing", async () => {
  write(HIGH, { ...read(HIGH), id: 'trig_of_another_environment' });
  const byId = await run('drift', 'triggers');
  assert.equal(byId.code, 1);
  assert.ok(
    byId.stdout.startsWith(
      `${HIGH}: only local: the service has no trigger with id trig_of_another_environment in ${GW}\n`,
    ),
    byId.stdout,
  );
  const byName = await run('drift', '--match-by-name', 'triggers');
  assert.deepEqual(
    [byName.code, byName.stdout],
    [0, '7 files compared: 7 in sync, 0 differ, 0 only local, 0 only on the service\n'],
  );
});

test('--applied names a trigger changed on the service since the files applied, against the files applied: exit 1', async () => {
  const applied = read(HIGH);
  write(HIGH, { ...applied, threshold: { op: '>', value: 9 } });
  await editInTheUi('Edited in the UI');
  const r = await run('drift', '--match-by-name', '--applied', '.applied/triggers', 'triggers');
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stdout,
    [
      'What changed on the service since .applied/triggers was applied, other than to what triggers holds:',
      `.applied/${HIGH}: differs from the service: "High error rate" (${DEMO.triggers.gwErrors})`,
      `  description: "Edited in the UI" -> ${JSON.stringify(applied.description)}`,
      '7 files compared: 6 in sync, 1 differ, 0 only local, 0 only on the service',
      '',
    ].join('\n'),
  );
});

test('--applied takes a trigger the service holds as the files now hold for no change: exit 0', async () => {
  write(HIGH, { ...read(HIGH), description: 'Edited in the UI' });
  await editInTheUi('Edited in the UI');
  const r = await run('drift', '--match-by-name', '--applied', '.applied/triggers', 'triggers');
  assert.deepEqual(
    [r.code, r.stdout.split('\n').slice(1)],
    [0, ['7 files compared: 7 in sync, 0 differ, 0 only local, 0 only on the service', '']],
  );
});

test('--applied naming no trigger file is trouble, exit 2', async () => {
  const r = await run('drift', '--applied', 'nowhere', 'triggers');
  assert.deepEqual([r.code, r.stderr], [2, 'obs: nowhere: no such file or folder\n']);
});

test('obs drift --help says what --applied and --match-by-name do', async () => {
  const r = await run('drift', '--help');
  assert.equal(r.code, 0);
  assert.match(
    r.stdout,
    /\n {2}--match-by-name +match each trigger by dataset and name and each burn alert by its SLO's\s+name\s+and\s+type,\s+not by/,
  );
  assert.match(r.stdout, /\n {2}--applied <PATH> +the files last applied to the service/);
  assert.match(r.stdout, /\nWith --applied, drift is the gate a CI runs before it applies newer files: /);
});
