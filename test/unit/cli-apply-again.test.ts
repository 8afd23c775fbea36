// obs apply of a plan the service already holds (a CI job run again, the rest of an apply that stopped halfway):
// each change the service holds as the plan would write it is "already applied", nothing is written for it, and
// exit 0 when nothing is left; the rest is applied. A trigger the service holds otherwise still refuses the whole
// plan: apply never writes what is not in the reviewed plan.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';
const dataset = DEMO.datasets.gateway;

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[]) => runObs(argv, { cwd: dir, env });
const fileOf = (name: string) => join(dir, 'triggers', dataset, name);
type Json = Record<string, unknown>;
const read = (name: string) => JSON.parse(readFileSync(fileOf(name), 'utf8')) as Json;
const write = (name: string, value: unknown) => writeFileSync(fileOf(name), `${JSON.stringify(value, null, 2)}\n`);

/** The writes the sandbox received from `from` on (every request but a read), as `METHOD path`. */
const writesSince = (from: number) =>
  sandbox.handle.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);

const HIGH = 'High-error-rate.trigger.json';
const SLOW = 'Slow-routes-disabled.trigger.json';

/** A fresh folder holding the gateway's triggers as pulled from the sandbox right now. */
beforeEach(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-again-'));
  const pulled = await run(['pull', '--dataset', dataset]);
  assert.equal(pulled.code, 0, pulled.stderr);
});

test('a plan applied, applied again: each change already applied, nothing written, exit 0; changed on the service since, refused whole', async () => {
  const high = read(HIGH);
  write(HIGH, { ...high, description: 'Applied twice' });
  const { id: _id, ...fresh } = read(SLOW);
  write('new.trigger.json', { ...fresh, name: 'Created once' });
  assert.equal((await run(['plan', '--out', 'plan.json', 'triggers'])).code, 1);
  assert.equal((await run(['apply', 'plan.json'])).code, 0);

  const from = sandbox.handle.requests.length;
  const again = await run(['apply', 'plan.json']);
  assert.deepEqual(
    [again.code, again.stderr, again.stdout.split('\n')],
    [
      0,
      '',
      [
        `already applied  ~ ${dataset} "High error rate" (${String(high.id)}): the service holds what it would write`,
        `already applied  + ${dataset} "Created once": the service holds what it would write`,
        'plan.json is already applied: the service holds all 2 changes it shows; nothing was written',
        '',
      ],
    ],
  );
  assert.deepEqual(writesSince(from), []);

  // Held otherwise than the plan would write it: a change since the plan, as before.
  const path = `/1/triggers/${dataset}/${String(high.id)}`;
  const { query_id: _saved, ...current } = (await sandbox.v1('GET', path)).json() as Json;
  assert.equal((await sandbox.v1('PUT', path, { ...current, description: 'Edited in the UI' })).status, 200);
  const changed = sandbox.handle.requests.length;
  const refused = await run(['apply', 'plan.json']);
  assert.deepEqual([refused.code, refused.stdout], [2, '']);
  assert.match(
    refused.stderr,
    /^obs: the plan is not applied, nothing was written: the update of "High error rate" .* description: "Edited in the UI" -> "Applied twice"/,
  );
  assert.deepEqual(writesSince(changed), []);
});

test('a plan half applied (one change made meanwhile by another apply): that one already applied, only the rest written', async () => {
  const high = read(HIGH);
  const slow = read(SLOW);
  write(HIGH, { ...high, description: 'First half' });
  write(SLOW, { ...slow, description: 'Second half' });
  assert.equal((await run(['plan', '--out', 'plan.json', 'triggers'])).code, 1);
  assert.equal((await run(['plan', '--out', 'half.json', `triggers/${dataset}/${HIGH}`])).code, 1);
  assert.equal((await run(['apply', 'half.json'])).code, 0);

  const from = sandbox.handle.requests.length;
  const rest = await run(['apply', 'plan.json']);
  assert.deepEqual([rest.code, rest.stderr], [0, '']);
  assert.deepEqual(rest.stdout.split('\n').slice(0, 4), [
    `already applied  ~ ${dataset} "High error rate" (${String(high.id)}): the service holds what it would write`,
    '1 change of plan.json already applied; the rest is applied now',
    '',
    `Applying plan.json (0 to create, 1 to update, 0 to delete, ${rest.stdout.match(/(\d+) unchanged/)?.[1] ?? '?'} unchanged, 0 blocked) to ${sandbox.base}`,
  ]);
  assert.deepEqual(writesSince(from), [`PUT /1/triggers/${dataset}/${String(slow.id)}`]);
  assert.equal((await run(['drift', 'triggers'])).code, 0);
});

test('a delete already made: already applied, exit 0', async () => {
  const high = read(HIGH);
  rmSync(fileOf(HIGH));
  assert.equal((await run(['plan', '--prune', '--out', 'plan.json', 'triggers'])).code, 1);
  assert.equal((await run(['apply', 'plan.json'])).code, 0);
  const again = await run(['apply', 'plan.json']);
  assert.deepEqual(
    [again.code, again.stdout],
    [
      0,
      `already applied  - ${dataset} "High error rate" (${String(high.id)}): the service holds what it would write\nplan.json is already applied: the service holds the change it shows; nothing was written\n`,
    ],
  );
});
