// A saved plan is input, not trusted: obs apply holds every change against the files it was made from, reads
// only regular files inside the folder it runs in, never writes an id it cannot place, and runs once per
// folder at a time. Each test is an attack that once worked.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api';
import { runMain } from '../../src/cli/main';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

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
  let stdout = '';
  let stderr = '';
  const code = await runMain(argv, { cwd: dir, env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const folder = () => join(dir, 't', dataset);
type Json = Record<string, unknown>;
const high = () => JSON.parse(readFileSync(join(folder(), HIGH), 'utf8')) as Json;
const planJson = () => JSON.parse(readFileSync(join(dir, 'plan.json'), 'utf8')) as { changes: Json[]; prune: boolean };
const savePlan = (plan: unknown) => writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
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

/** Plans t/ into plan.json, changes the plan with `edit`, applies it: the outcome. */
async function applyEdited(edit: (plan: ReturnType<typeof planJson>) => void) {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  const plan = planJson();
  edit(plan);
  savePlan(plan);
  return run(['apply', 'plan.json']);
}

test('a body edited into the plan (a create switched off, its threshold changed) refuses the whole plan', async () => {
  const r = await applyEdited((p) => {
    const body = p.changes[0]?.body as Json;
    body.disabled = true;
    body.threshold = { op: '>', value: 999999 };
  });
  assert.equal(r.code, 2);
  assert.ok(r.stderr.endsWith(`nothing was written: the create of "${target}" (t/api-gateway/new.trigger.json) sends a body the file does not hold\n`), r.stderr);
  assert.ok(!(await names()).includes(target));
});

test('a dataset edited into the plan refuses it: the change no longer names the file\'s trigger', async () => {
  const r = await applyEdited((p) => {
    if (p.changes[0]) p.changes[0].dataset = 'all';
  });
  assert.equal(r.code, 2);
  assert.ok(r.stderr.endsWith(`does not name the file's trigger ("${target}" of api-gateway)\n`), r.stderr);
});

test('a delete added to a plan made without --prune, of a trigger a file holds, refuses the plan', async () => {
  const id = String(high().id);
  const r = await applyEdited((p) => {
    p.changes = [{ action: 'delete', dataset, id, name: 'harmless', service: { sha256: 'a'.repeat(64) } }];
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the delete of "harmless" \([^)]+\) is in a plan made without --prune\n$/);
  const pruned = await applyEdited((p) => {
    p.prune = true;
    p.changes = [{ action: 'delete', dataset, id, name: 'High error rate', service: { sha256: 'a'.repeat(64) } }];
  });
  assert.equal(pruned.code, 2);
  assert.match(pruned.stderr, /: a file of the plan holds that trigger\n$/);
  assert.ok((await names()).includes('High error rate'));
});

test('an update whose body was edited into the plan is refused at its write, the service unchanged', async () => {
  const t = high();
  (t.threshold as Json).value = 55;
  writeFileSync(join(folder(), HIGH), `${JSON.stringify(t, null, 2)}\n`);
  const r = await applyEdited((p) => {
    const update = p.changes.find((c) => c.action === 'update');
    if (update) (update.body as Json).disabled = true;
  });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /refused {2}~ api-gateway "High error rate" \([^)]+\): the plan's body for "High error rate" is not what t\/api-gateway\/High-error-rate\.trigger\.json asks for; plan again/);
  const now = (await client.getTrigger(dataset, String(t.id))).data;
  assert.notEqual(now.disabled, true);
  assert.notEqual(now.threshold?.value, 55);
});

test('a planned file that is now a FIFO is refused at once, never read', async () => {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  const file = join(folder(), 'new.trigger.json');
  renameSync(file, join(dir, 'moved.json'));
  execFileSync('mkfifo', [file]);
  const r = await run(['apply', 'plan.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot read t\/api-gateway\/new\.trigger\.json: is not a regular file/);
});

test('a folder that is a link leading outside the folder apply runs in is refused: no id is written out there', async () => {
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
    const r = await run(['apply', 'plan.json']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /it names t\/linked\/new\.trigger\.json, which is not inside the current folder/);
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
  assert.ok(r.stdout.includes('  ! t/api-gateway/new.trigger.json:\n      the file is not UTF-8 (obs lint names the bytes)\n'), r.stdout);
});

test('a file with two id members gets no id written (JSON reads the last): apply says so and exits 1', async () => {
  const file = join(folder(), 'new.trigger.json');
  writeFileSync(file, readFileSync(file, 'utf8').replace('{\n', '{\n  "id": "placeholder",\n').replace(/\n}\n$/, ',\n  "id": null\n}\n'));
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  const r = await run(['apply', 'plan.json']);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /its id was not written into t\/api-gateway\/new\.trigger\.json: the file holds no such trigger, or one with two id members; add "id": "[^"]+" yourself/);
});

test('a second apply in the same folder while one runs is refused (both would create the trigger)', async () => {
  assert.equal((await run(['plan', '--out', 'plan.json', 't'])).code, 1);
  writeFileSync(join(dir, '.obs-apply.lock'), '1\n');
  const r = await run(['apply', 'plan.json']);
  assert.deepEqual([r.code, r.stderr], [2, 'obs: another obs apply is running in this folder (or one was killed: then remove .obs-apply.lock); nothing was written\n']);
  assert.ok(!(await names()).includes(target));
});

test('a trigger nested too deep is blocked alone; the other files are planned', async () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 100; i++) deep = [deep];
  writeFileSync(join(folder(), 'deep.trigger.json'), JSON.stringify({ ...high(), id: undefined, name: 'Deep', description: deep }));
  const r = await run(['plan', 't']);
  assert.equal(r.code, 2);
  assert.ok(r.stdout.includes(`\nCreate:\n  + api-gateway "${target}"  t/api-gateway/new.trigger.json\n`), r.stdout);
  assert.match(r.stdout, /! t\/api-gateway\/deep\.trigger\.json "Deep":\n {6}the file's trigger is nested more than 64 levels deep \(in description\)/);
});

test('the plan file\'s name reaches the terminal escaped', async () => {
  const name = 'p\u001b]0;PWNED\u0007.json';
  assert.equal((await run(['plan', '--out', name, 't'])).code, 1);
  const r = await run(['apply', name]);
  assert.ok(r.stdout.startsWith('Applying p\\u{1b}]0;PWNED\\u{7}.json ('), r.stdout);
  assert.ok(![...r.stdout].some((c) => c !== '\n' && (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)), 'no raw control character');
});
