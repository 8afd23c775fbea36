// A saved plan is a record of what was reviewed, never a source of what is written: obs apply refuses a plan
// edited after it was saved (its seal, keyed with the configuration key, no longer holds), plans again with
// the same paths and options, and writes only when the changes are exactly the saved ones. Even a plan
// re-sealed by someone holding the key writes nothing its files and the service do not ask for. It reads only
// regular files inside the folder it runs in, never writes an id it cannot place, and runs once per folder at
// a time. Each test is an attack that once worked.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api';
import { planSeal } from '../../src/triggerFiles';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let sandbox: TestSandbox;
let client: ServiceClient;
let env: Record<string, string>;
let dir = '';
const dataset = DEMO.datasets.gateway;
const HIGH = 'High-error-rate.trigger.json';

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
  client = new ServiceClient({ baseUrl: sandbox.base, configKey: sandbox.handle.info.configKey });
});
after(async () => {
  await client.close();
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(argv: string[]) {
  return runObs(argv, { cwd: dir, env });
}

const folder = () => join(dir, 't', dataset);
type Json = Record<string, unknown>;
const high = () => JSON.parse(readFileSync(join(folder(), HIGH), 'utf8')) as Json;
type SavedPlan = { changes: Json[]; prune: boolean; files: Json[]; inputs: Json; seal?: string } & Json;
const planJson = () => JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as SavedPlan;
const savePlan = (plan: unknown) => writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
/** The plan sealed again with the environment's key: what only someone holding the key can do. */
const resealed = ({ seal: _seal, ...plan }: SavedPlan) => ({
  ...plan,
  seal: planSeal(JSON.stringify(plan), env.OBS_CONFIG_KEY ?? ''),
});
/** Every write call the sandbox received since `from` (its request log). */
const writesSince = (from: number) =>
  sandbox.handle.requests
    .slice(from)
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.path}`);
const names = async () => (await client.listTriggers(dataset)).data.map((t) => t.name);

let round = 0;
/** The name of this test's new trigger: each test its own, as the sandbox keeps what an earlier test made. */
let target = '';

/** A fresh folder with the gateway's triggers pulled into t/ and one new trigger file to create. */
beforeEach(async () => {
  target = `Tamper target ${++round}`;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-tamper-'));
  assert.equal((await run(['pull', '--dataset', dataset, '--out', 't'])).code, 0);
  const { id: _id, ...fresh } = high();
  writeFileSync(join(folder(), 'new.trigger.json'), `${JSON.stringify({ ...fresh, name: target }, null, 2)}\n`);
});

/** Plans t/ into plan.json (with `args`), changes the plan with `edit`, applies it: the outcome and the writes the sandbox received. */
async function applyEdited(edit: (plan: SavedPlan) => SavedPlan | void, args: string[] = []) {
  assert.equal((await run(['plan', ...args, '--out', 'plan.json', 't'])).code, 1);
  const plan = planJson();
  savePlan(edit(plan) ?? plan);
  const from = sandbox.handle.requests.length;
  const r = await run(['apply', 'plan.json']);
  return { ...r, writes: writesSince(from) };
}

const SEAL_BROKEN =
  'obs: the plan is not applied, nothing was written: it was changed after obs plan saved it (its seal does not match): plan again\n';
const CHANGED = 'obs: the files or the service changed since the plan: run obs plan again and review the new plan\n';
const REFUSED_WHOLE =
  /^obs: (the plan is not applied, nothing was written: (it was changed after obs plan saved it \(its seal does not match\): plan again|it was made against \S+, not \S+|it was made with another OBS_CONFIG_KEY \(another environment or team\))|plan\.json cannot be applied: it is not a plan made by this version of obs plan \(.+\))\n$/;

/** Every leaf of a JSON value, by its path. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [path];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, Array.isArray(value) ? Number(k) : k]));
}

function edited(plan: SavedPlan, path: (string | number)[]): SavedPlan {
  const copy = structuredClone(plan);
  let holder = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) holder = holder[step] as Record<string | number, unknown>;
  const last = path.at(-1) ?? '';
  const v = holder[last];
  holder[last] =
    typeof v === 'string' ? `${v}x` : typeof v === 'number' ? v + 1 : typeof v === 'boolean' ? !v : v === null ? 0 : v;
  return copy;
}

test('a plan edited in any member after it was saved writes nothing: its seal no longer holds', async () => {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  const plan = planJson();
  const paths = leaves(plan).filter((p) => p[0] !== 'seal');
  assert.ok(paths.length > 40, `${paths.length} members`);
  const from = sandbox.handle.requests.length;
  let bySeal = 0;
  for (const path of paths) {
    savePlan(edited(plan, path));
    const r = await run(['apply', 'plan.json']);
    // Refused before anything is read: by the seal, or earlier when the edit breaks the plan's shape or names another service or key.
    assert.equal(r.code, 2, path.join('.'));
    assert.match(r.stderr, REFUSED_WHOLE, path.join('.'));
    if (r.stderr === SEAL_BROKEN) bySeal++;
  }
  assert.ok(bySeal > paths.length / 2, `${bySeal} of ${paths.length} refused by the seal`);
  // Members added or removed, and the seal itself.
  for (const other of [
    { ...plan, extra: 1 },
    { ...plan, blocked: [], unchanged: 0, changes: [] },
    { ...plan, seal: 'f'.repeat(64) },
  ]) {
    savePlan(other);
    assert.deepEqual((await run(['apply', 'plan.json'])).stderr, SEAL_BROKEN);
  }
  assert.deepEqual(sandbox.handle.requests.slice(from), [], 'not even a read reached the service');
  assert.ok(!(await names()).includes(target));
});

test('a by-name update re-sealed to name another trigger writes nothing: the other trigger keeps its name', async () => {
  // The file of "High error rate" loses its id (matched by name) and both it and Office-hours latency change.
  const { id: highId, ...byName } = high();
  (byName.threshold as Json).value = 6;
  writeFileSync(join(folder(), HIGH), `${JSON.stringify(byName, null, 2)}\n`);
  const office = JSON.parse(readFileSync(join(folder(), 'Office-hours-latency.trigger.json'), 'utf8')) as Json;
  writeFileSync(
    join(folder(), 'Office-hours-latency.trigger.json'),
    `${JSON.stringify({ ...office, description: 'reviewed' }, null, 2)}\n`,
  );
  const r = await applyEdited((p) => {
    const mine = p.changes.find((c) => c.id === highId);
    const other = p.changes.find((c) => c.id === office.id);
    assert.ok(mine && other && mine.matchedBy === 'name');
    mine.id = other.id;
    mine.service = other.service;
    return resealed(p);
  });
  assert.equal(r.code, 2);
  assert.ok(
    r.stderr.includes(
      `obs: the plan is not applied, nothing was written: the update of "High error rate" (${String(highId)}) from t/api-gateway/${HIGH} would be made now, and is not in the plan\n`,
    ),
    r.stderr,
  );
  assert.ok(r.stderr.endsWith(CHANGED));
  assert.deepEqual(r.writes, []);
  assert.ok((await names()).includes('Office-hours latency'));
});

test('an update re-sealed into a delete of the trigger its file holds writes nothing', async () => {
  const t = high();
  (t.threshold as Json).value = 7;
  writeFileSync(join(folder(), HIGH), `${JSON.stringify(t, null, 2)}\n`);
  const r = await applyEdited((p) => {
    const update = p.changes.find((c) => c.id === t.id);
    assert.ok(update);
    p.prune = true;
    p.inputs.scope = { kind: 'all' };
    p.files = p.files.filter((f) => f.file !== `t/api-gateway/${HIGH}`);
    p.changes = [
      { kind: 'trigger', action: 'delete', dataset, id: update.id, name: update.name, service: update.service },
    ];
    return resealed(p);
  });
  assert.equal(r.code, 2);
  assert.ok(
    r.stderr.includes(
      `the delete of "High error rate" (${String(t.id)}) in api-gateway is in the plan, and would not be made now\n`,
    ),
    r.stderr,
  );
  assert.deepEqual(r.writes, []);
  assert.ok((await names()).includes('High error rate'));
});

test('a body re-sealed with other values (a create switched off, its threshold changed) writes nothing and names the members', async () => {
  const r = await applyEdited((p) => {
    const body = p.changes[0]?.body as Json;
    body.disabled = true;
    body.threshold = { op: '>', value: 999999 };
    return resealed(p);
  });
  assert.equal(r.code, 2);
  assert.ok(
    r.stderr.startsWith(
      `obs: the plan is not applied, nothing was written: the create of "${target}" in api-gateway (t/api-gateway/new.trigger.json): it would now send other values of threshold, disabled\n`,
    ),
    r.stderr,
  );
  assert.deepEqual(r.writes, []);
});

test('a delete re-sealed into a plan made without --prune writes nothing', async () => {
  const id = String(high().id);
  const r = await applyEdited((p) => {
    p.changes.push({
      kind: 'trigger',
      action: 'delete',
      dataset,
      id,
      name: 'High error rate',
      service: { sha256: 'a'.repeat(64) },
    });
    return resealed(p);
  });
  assert.equal(r.code, 2);
  assert.ok(
    r.stderr.includes(
      `the delete of "High error rate" (${id}) in api-gateway is in the plan, and would not be made now\n`,
    ),
    r.stderr,
  );
  assert.deepEqual(r.writes, []);
});

test('a plan re-sealed to name one change twice writes nothing', async () => {
  const r = await applyEdited((p) => {
    p.changes.push(structuredClone(p.changes[0] as Json));
    return resealed(p);
  });
  assert.equal(r.code, 2);
  assert.ok(
    r.stderr.startsWith('obs: the plan is not applied, nothing was written: the plan names one change twice\n'),
    r.stderr,
  );
  assert.deepEqual(r.writes, []);
});

test('a planned file that is now a FIFO is named, never read, and nothing is written', async () => {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  const file = join(folder(), 'new.trigger.json');
  renameSync(file, join(dir, 'moved.json'));
  execFileSync('mkfifo', [file]);
  const from = sandbox.handle.requests.length;
  const r = await run(['apply', 'plan.json']);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    'obs: cannot read t/api-gateway/new.trigger.json: it is not a regular file (a FIFO, socket or device): only files are read\n' +
      'obs: the plan is not applied, nothing was written: a file or a dataset the plan needs could not be read now (said above)\n' +
      CHANGED,
  );
  assert.deepEqual(writesSince(from), []);
});

test('a folder swapped for a link leading outside the folder after the plan refuses the apply before the service is asked: no id is written out there', async () => {
  const outside = mkdtempSync(join(tmpdir(), 'obs-outside-'));
  try {
    // Planned while the folder was a folder (obs plan refuses the link), swapped for the link before the apply.
    mkdirSync(join(dir, 't', 'linked'));
    renameSync(join(folder(), 'new.trigger.json'), join(dir, 't', 'linked', 'new.trigger.json'));
    const planned = await run(['plan', '--out', 'plan.json', 't']);
    assert.equal(planned.code, 1, planned.stdout + planned.stderr);
    renameSync(join(dir, 't', 'linked', 'new.trigger.json'), join(outside, 'new.trigger.json'));
    rmSync(join(dir, 't', 'linked'), { recursive: true });
    symlinkSync(outside, join(dir, 't', 'linked'));
    const from = sandbox.handle.requests.length;
    const r = await run(['apply', 'plan.json']);
    assert.deepEqual([r.code, r.stdout], [2, '']);
    assert.equal(
      r.stderr,
      'obs: t/linked leads outside the current folder through a link: not read\nobs: nothing planned: obs plan and obs apply read only trigger files inside the current folder\n' +
        'obs: the plan is not applied, nothing was written: its paths cannot be planned again (said above)\n',
    );
    assert.deepEqual(sandbox.handle.requests.slice(from), [], 'the service is asked nothing');
    assert.equal((JSON.parse(readFileSync(join(outside, 'new.trigger.json'), 'utf8')) as Json).id, undefined);
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});

test('a file that is not UTF-8 is not planned: never sent with replacement characters', async () => {
  const text = readFileSync(join(folder(), 'new.trigger.json'), 'utf8').replace(`"${target}"`, '"Caf\u00e9"');
  writeFileSync(join(folder(), 'new.trigger.json'), Buffer.from(text, 'latin1'));
  const r = await run(['plan', 't']);
  assert.equal(r.code, 2);
  assert.ok(
    r.stdout.includes('  ! t/api-gateway/new.trigger.json:\n      the file is not UTF-8 (obs lint names the bytes)\n'),
    r.stdout,
  );
});

test('a file with two id members gets no id written (JSON reads the last): apply says so and exits 1', async () => {
  const file = join(folder(), 'new.trigger.json');
  writeFileSync(
    file,
    readFileSync(file, 'utf8')
      .replace('{\n', '{\n  "id": "placeholder",\n')
      .replace(/\n}\n$/, ',\n  "id": null\n}\n'),
  );
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  const r = await run(['apply', 'plan.json']);
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /its id was not written into t\/api-gateway\/new\.trigger\.json: the file holds no such trigger, or one with two id members; add "id": "[^"]+" yourself/,
  );
});

test('a second apply in the same folder while one runs is refused, naming its process (both would create the trigger)', async () => {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  writeFileSync(join(dir, '.obs-apply.lock'), `${process.pid}\n`);
  const r = await run(['apply', 'plan.json']);
  assert.deepEqual(
    [r.code, r.stderr],
    [2, `obs: another obs apply is running in this folder (process ${process.pid}); nothing was written\n`],
  );
  assert.ok(!(await names()).includes(target));
});

test('a lock left by an apply that no longer runs is named as such, and not taken over', async () => {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  // A process id no process has: the highest Linux allows, plus one.
  writeFileSync(join(dir, '.obs-apply.lock'), '4194305\n');
  const r = await run(['apply', 'plan.json']);
  assert.deepEqual(
    [r.code, r.stderr],
    [
      2,
      'obs: an obs apply that no longer runs (process 4194305) left .obs-apply.lock: make sure no apply runs here, remove it and apply again; nothing was written\n',
    ],
  );
  assert.ok(!(await names()).includes(target));
});

test('a trigger nested too deep is blocked alone; the other files are planned', async () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 100; i++) deep = [deep];
  writeFileSync(
    join(folder(), 'deep.trigger.json'),
    JSON.stringify({ ...high(), id: undefined, name: 'Deep', description: deep }),
  );
  const r = await run(['plan', 't']);
  assert.equal(r.code, 2);
  assert.ok(r.stdout.includes(`\nCreate:\n  + api-gateway "${target}"  t/api-gateway/new.trigger.json\n`), r.stdout);
  assert.match(
    r.stdout,
    /! t\/api-gateway\/deep\.trigger\.json "Deep":\n {6}the file's trigger is nested more than 64 levels deep \(in description\)/,
  );
});

test("the plan file's name reaches the terminal escaped", async () => {
  const name = 'p\u001b]0;PWNED\u0007.json';
  assert.equal((await run(['plan', '--out', name, 't'])).code, 1);
  const r = await run(['apply', name]);
  assert.ok(r.stdout.startsWith('Applying p\\u{1b}]0;PWNED\\u{7}.json ('), r.stdout);
  assert.ok(
    ![...r.stdout].some((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)),
    'no raw control character',
  );
});
