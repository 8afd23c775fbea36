// obs drift and obs plan read only inside the folder they run in, links resolved. A cloned repository holds
// the gateway's triggers as pulled, a link to a folder outside holding trigger files of its own, and a link
// to a file outside holding a secret: none of their names or text reaches any output, each link is named,
// and obs plan refuses before it asks the service anything (obs apply would refuse such a plan).
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runMain } from '../../src/cli/main';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';
let outside = '';
const dataset = DEMO.datasets.gateway;
/** In every name and text outside the folder: any of it in an output is a file outside that was read. */
const MARKER = 'OUTSIDE-MARKER';
const OUTSIDE_FILES = 12;

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
  outside = mkdtempSync(join(tmpdir(), 'obs-elsewhere-'));
  mkdirSync(join(outside, 'deep'));
  for (let i = 0; i < OUTSIDE_FILES; i++) {
    writeFileSync(
      join(outside, 'deep', `${MARKER}-${i}.trigger.json`),
      JSON.stringify({
        name: `${MARKER} ${i}`,
        dataset_slug: dataset,
        threshold: { op: '>', value: 1 },
        query: { time_range: 900 },
      }),
    );
  }
  writeFileSync(join(outside, 'secret.trigger.json'), `${MARKER} KEY=hunter2 not JSON`);
});
after(async () => {
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runMain(argv, { cwd: dir, env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr, all: stdout + stderr };
}

/** A fresh folder: the gateway's triggers pulled into triggers/, and two links out of it. */
beforeEach(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-contained-'));
  assert.equal((await run(['pull', '--dataset', dataset])).code, 0);
  symlinkSync(outside, join(dir, 'triggers', 'shared'));
  symlinkSync(join(outside, 'secret.trigger.json'), join(dir, 'triggers', dataset, 'leak.trigger.json'));
  sandbox.handle.requests.length = 0;
});

const REFUSED = `obs: triggers/${dataset}/leak.trigger.json leads outside the current folder through a link: not read\nobs: triggers/shared leads outside the current folder through a link: not read\n`;

test('drift walks none of a folder outside, reads no file outside, and names each link (exit 2)', async () => {
  for (const paths of [[], ['triggers'], ['triggers/**/*.json']]) {
    const r = await run(['drift', ...paths]);
    assert.equal(r.code, 2, r.all);
    assert.equal(r.stderr, REFUSED);
    assert.equal(r.stdout, '7 files compared: 7 in sync, 0 differ, 0 only local, 0 only on the service\n');
    assert.doesNotMatch(r.all, new RegExp(MARKER));
  }
});

test('drift in JSON and SARIF holds nothing of a file outside either', async () => {
  for (const format of ['json', 'sarif']) {
    const r = await run(['drift', '--format', format]);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.all, new RegExp(MARKER));
  }
});

test('drift refuses a file named through a link out of the folder, or outside it: never read (exit 2)', async () => {
  const up = `../${basename(outside)}/secret.trigger.json`;
  const r = await run(['drift', `triggers/${dataset}/leak.trigger.json`, 'triggers/shared/secret.trigger.json', up]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `obs: triggers/${dataset}/leak.trigger.json leads outside the current folder through a link: not read\nobs: triggers/shared/secret.trigger.json leads outside the current folder through a link: not read\nobs: ${up} is outside the current folder: not read\n`,
  );
  assert.doesNotMatch(r.all, new RegExp(MARKER));
});

test('plan with a link out of the folder plans nothing and asks the service nothing (exit 2)', async () => {
  const r = await run(['plan', '--prune', '--out', 'plan.json']);
  assert.deepEqual(
    [r.code, r.stdout, r.stderr],
    [
      2,
      '',
      `${REFUSED}obs: nothing planned: obs plan and obs apply read only trigger files inside the current folder\n`,
    ],
  );
  assert.deepEqual(sandbox.handle.requests, []);
});

test('plan of a file outside the current folder, named by its path, is refused naming it; the service is asked nothing (exit 2)', async () => {
  rmSync(join(dir, 'triggers', 'shared'));
  rmSync(join(dir, 'triggers', dataset, 'leak.trigger.json'));
  const named = join(outside, 'deep', `${MARKER}-1.trigger.json`);
  const r = await run(['plan', `triggers/${dataset}`, named]);
  assert.deepEqual(
    [r.code, r.stdout, r.stderr],
    [
      2,
      '',
      `obs: ${named} is outside the current folder: not read\nobs: nothing planned: obs plan and obs apply read only trigger files inside the current folder\n`,
    ],
  );
  assert.deepEqual(sandbox.handle.requests, []);
});
