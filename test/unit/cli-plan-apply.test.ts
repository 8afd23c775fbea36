// obs plan and obs apply against the sandbox: nothing to change right after a pull, exactly the edited
// member after an edit, apply then drift in sync, a create's id written into its file, gates that block,
// a stale trigger skipped, a plan refused whole for another service, key or a changed file.
import { after, before, beforeEach, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

let sandbox: TestSandbox;
let client: ServiceClient;
let env: Record<string, string>;
let dir = '';
const dataset = DEMO.datasets.gateway;

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

async function run(argv: string[], over: { env?: Record<string, string> } = {}) {
  return runObs(argv, { cwd: dir, env: over.env ?? env });
}

const folder = () => join(dir, 'triggers', dataset);
const fileOf = (name: string) => join(folder(), name);
const read = (name: string) => JSON.parse(readFileSync(fileOf(name), 'utf8')) as Record<string, unknown>;
const write = (name: string, value: unknown) => writeFileSync(fileOf(name), `${JSON.stringify(value, null, 2)}\n`);

/** A fresh folder holding the gateway's triggers as pulled from the sandbox right now. */
beforeEach(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-plan-'));
  const pulled = await run(['pull', '--dataset', dataset]);
  assert.equal(pulled.code, 0, pulled.stderr);
});

/** The pulled file of the demo trigger "High error rate", which the other tests edit. */
const HIGH = 'High-error-rate.trigger.json';

test('right after a pull the plan is empty: exit 0, nothing to change', async () => {
  const r = await run(['plan', 'triggers']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /Nothing to change: the service matches the files\.\n\n0 to create, 0 to update, 0 to delete, \d+ unchanged, 0 blocked\n$/,
  );
});

test('an edited threshold plans one update naming that member, old and new; apply writes it and drift is in sync', async () => {
  const t = read(HIGH);
  const threshold = t.threshold as { value: number };
  const old = threshold.value;
  threshold.value = old + 7;
  write(HIGH, t);
  const planned = await run(['plan', '--out', 'plan.json', 'triggers']);
  assert.equal(planned.code, 1, planned.stderr);
  assert.ok(
    planned.stdout.includes(
      `\nUpdate (service value -> file value):\n  ~ ${dataset} "High error rate" (${String(t.id)})  triggers/${dataset}/${HIGH}\n      threshold.value: ${old} -> ${old + 7}\n`,
    ),
    planned.stdout,
  );
  assert.match(planned.stdout, /0 to create, 1 to update, 0 to delete, \d+ unchanged, 0 blocked\n$/);
  const applied = await run(['apply', 'plan.json']);
  assert.equal(applied.code, 0, applied.stdout + applied.stderr);
  assert.match(
    applied.stdout,
    /\napplied {2}~ api-gateway "High error rate" \([^)]+\)\n\n1 applied, 0 skipped, 0 refused, 0 failed\n$/,
  );
  const onService = await client.getTrigger(dataset, String(t.id));
  assert.equal(onService.data.threshold?.value, old + 7);
  assert.equal((await run(['drift', 'triggers'])).code, 0);
});

test('a new file without an id is created, its id written in as the first member, the rest of the file as it was', async () => {
  const { id: _id, ...fresh } = read(HIGH);
  const text = `${JSON.stringify({ ...fresh, name: 'Created by apply' }, null, 4)}\n`;
  writeFileSync(fileOf('new.trigger.json'), text);
  const planned = await run(['plan', '--out', 'plan.json', 'triggers']);
  assert.equal(planned.code, 1, planned.stderr);
  assert.ok(
    planned.stdout.includes(`\nCreate:\n  + ${dataset} "Created by apply"  triggers/${dataset}/new.trigger.json\n`),
    planned.stdout,
  );
  const applied = await run(['apply', 'plan.json']);
  assert.equal(applied.code, 0, applied.stdout + applied.stderr);
  const after = readFileSync(fileOf('new.trigger.json'), 'utf8');
  const id = (JSON.parse(after) as { id: string }).id;
  assert.equal(after, text.replace('{\n', `{\n    "id": ${JSON.stringify(id)},\n`));
  assert.ok(
    applied.stdout.includes(
      `applied  + ${dataset} "Created by apply" as ${id}: id written into triggers/${dataset}/new.trigger.json`,
    ),
    applied.stdout,
  );
  assert.equal((await client.getTrigger(dataset, id)).data.name, 'Created by apply');
  assert.equal((await run(['plan', 'triggers'])).code, 0);
});

test('a trigger with a lint error is blocked with the rule and line: exit 2, and not in the changes', async () => {
  const t = read(HIGH);
  t.frequency = 61;
  write(HIGH, t);
  const r = await run(['plan', 'triggers']);
  assert.equal(r.code, 2);
  assert.match(
    r.stdout,
    /\nBlocked \(never written\):\n {2}! triggers\/api-gateway\/High-error-rate\.trigger\.json "High error rate":\n {6}trigger\/frequency \(line \d+\): /,
  );
  assert.match(r.stdout, /0 to create, 0 to update, 0 to delete, \d+ unchanged, 1 blocked\n$/);
});

test('a recipient id the team does not have blocks the trigger, named', async () => {
  const t = read(HIGH);
  t.recipients = [{ id: 'rcp_nobody' }];
  write(HIGH, t);
  const r = await run(['plan', 'triggers']);
  assert.equal(r.code, 2);
  assert.ok(r.stdout.includes('      recipient "rcp_nobody" is not one of the team\'s recipients\n'), r.stdout);
});

test('a trigger changed on the service after the plan refuses the whole plan at apply: planning again shows it, nothing is written over (exit 2)', async () => {
  const t = read(HIGH);
  (t.threshold as { value: number }).value = 4242;
  write(HIGH, t);
  assert.equal((await run(['plan', '--out', 'plan.json', 'triggers'])).code, 1);
  const id = String(t.id);
  const current = (await client.getTrigger(dataset, id)).data;
  const { query_id: _saved, query, ...rest } = current;
  await client.replaceTrigger(dataset, id, {
    ...rest,
    ...(query ? { query } : { query_id: String(_saved) }),
    description: 'changed by someone else',
    disabled: current.disabled === true,
  });
  const applied = await run(['apply', 'plan.json']);
  assert.deepEqual([applied.code, applied.stdout], [2, '']);
  assert.equal(
    applied.stderr,
    `obs: the plan is not applied, nothing was written: the update of "High error rate" (${id}) from triggers/${dataset}/${HIGH}: description: "changed by someone else" -> ${JSON.stringify(t.description)} was not in the plan\n` +
      'obs: the files or the service changed since the plan: run obs plan again and review the new plan\n',
  );
  const after = (await client.getTrigger(dataset, id)).data;
  assert.equal(after.description, 'changed by someone else');
  assert.notEqual(after.threshold?.value, 4242);
});

test('apply refuses the whole plan, writing nothing, for another key or another address, and when a file was changed since in what it asks for', async () => {
  const t = read(HIGH);
  (t.threshold as { value: number }).value = 31337;
  write(HIGH, t);
  assert.equal((await run(['plan', '--out', 'plan.json', 'triggers'])).code, 1);
  const otherKey = await run(['apply', 'plan.json'], { env: { ...env, OBS_CONFIG_KEY: 'another-key' } });
  assert.deepEqual(
    [otherKey.code, otherKey.stderr],
    [
      2,
      'obs: the plan is not applied, nothing was written: it was made with another OBS_CONFIG_KEY (another environment or team)\n',
    ],
  );
  const otherUrl = await run(['apply', 'plan.json'], { env: { ...env, OBS_BASE_URL: 'http://127.0.0.1:9' } });
  assert.equal(otherUrl.code, 2);
  assert.match(
    otherUrl.stderr,
    /^obs: the plan is not applied, nothing was written: it was made against http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9\n$/,
  );
  write(HIGH, { ...t, description: 'edited after the plan' });
  const changed = await run(['apply', 'plan.json']);
  assert.equal(changed.code, 2);
  assert.ok(
    changed.stderr.startsWith(
      `obs: the plan is not applied, nothing was written: the update of "High error rate" (${String(t.id)}) from triggers/${dataset}/${HIGH}: description: ${JSON.stringify(t.description)} -> "edited after the plan" was not in the plan\n`,
    ),
    changed.stderr,
  );
  assert.notEqual((await client.getTrigger(dataset, String(t.id))).data.threshold?.value, 31337);
});

test('a file whose layout changed since the plan, but not what it asks for, is applied as planned', async () => {
  const t = read(HIGH);
  (t.threshold as { value: number }).value = 8080;
  write(HIGH, t);
  assert.equal((await run(['plan', '--out', 'plan.json', 'triggers'])).code, 1);
  writeFileSync(fileOf(HIGH), `${JSON.stringify(t)}\n`);
  const applied = await run(['apply', 'plan.json']);
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal((await client.getTrigger(dataset, String(t.id))).data.threshold?.value, 8080);
});

test('the saved plan holds no key, and a file that is not a plan is refused', async () => {
  const t = read(HIGH);
  (t.threshold as { value: number }).value = 77;
  write(HIGH, t);
  await run(['plan', '--out', 'plan.json', 'triggers']);
  assert.ok(!readFileSync(join(dir, 'plan.json'), 'utf8').includes(sandbox.handle.info.configKey));
  writeFileSync(join(dir, 'bogus.json'), '{"format": "obs-trigger-plan", "version": 3}');
  const r = await run(['apply', 'bogus.json']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^obs: bogus\.json cannot be applied: it is not a plan made by this version of obs plan \(/);
});

test('deletes only with --prune, listed apart; apply deletes the trigger no file holds', async () => {
  rmSync(fileOf(HIGH));
  const id = (await client.listTriggers(dataset)).data.find((t) => t.name === 'High error rate')?.id ?? '';
  assert.equal((await run(['plan', 'triggers'])).code, 0);
  const pruned = await run(['plan', '--prune', '--out', 'plan.json', 'triggers']);
  assert.equal(pruned.code, 1);
  assert.ok(
    pruned.stdout.includes(
      `\nDelete (asked for with --prune; 1 service triggers no file holds):\n  - ${dataset} "High error rate" (${id})\n`,
    ),
    pruned.stdout,
  );
  const applied = await run(['apply', 'plan.json']);
  assert.equal(applied.code, 0, applied.stdout);
  assert.ok(!(await client.listTriggers(dataset)).data.some((t) => t.id === id));
  assert.deepEqual(readdirSync(folder()).includes(HIGH), false);
});

test('without a PATH the plan reads the trigger files under the current folder; --format json prints the plan itself', async () => {
  // An earlier test deleted "High error rate" on the sandbox: edit the first pulled trigger without a baseline.
  const name =
    readdirSync(folder())
      .sort()
      .find((f) => read(f).baseline_details === undefined) ?? '';
  const t = read(name);
  (t.threshold as { value: number }).value = 77;
  write(name, t);
  const r = await run(['plan', '--format', 'json']);
  assert.equal(r.code, 1, r.stderr);
  const plan = JSON.parse(r.stdout) as {
    format: string;
    files: { file: string }[];
    changes: { action: string; file: string; differences: { path: string; service: unknown; local: unknown }[] }[];
    blocked: unknown[];
  };
  assert.equal(plan.format, 'obs-trigger-plan');
  assert.deepEqual(
    plan.files.map((f) => f.file),
    readdirSync(folder())
      .sort()
      .map((name) => join('triggers', dataset, name)),
  );
  assert.deepEqual(
    plan.changes.map((c) => [c.action, c.file, c.differences.map((d) => [d.path, d.local])]),
    [['update', join('triggers', dataset, name), [['threshold.value', 77]]]],
  );
  assert.deepEqual(plan.blocked, []);
});

test('a trigger file that cannot be read withholds every delete of --prune: it may hold the trigger', async () => {
  // An earlier test deleted "High error rate" on the sandbox: the first pulled file stands in.
  const name = readdirSync(folder()).sort()[0] ?? '';
  const t = read(name);
  writeFileSync(fileOf(name), `${JSON.stringify({ ...t, description: 'x'.repeat(20_000) }, null, 2)}\n`);
  const r = await run(['plan', '--prune', '--max-bytes', '10000', '--format', 'json', 'triggers']);
  assert.equal(r.code, 2);
  const plan = JSON.parse(r.stdout) as {
    changes: { action: string }[];
    blocked: { file?: string; dataset?: string; reasons: string[] }[];
  };
  assert.deepEqual(
    plan.changes.filter((c) => c.action === 'delete'),
    [],
  );
  const file = `triggers/${dataset}/${name}`;
  assert.deepEqual(plan.blocked.find((b) => b.file === file)?.reasons, [
    'it could not be read (is larger than 9.8 KiB, the most obs reads of a file; --max-bytes N raises it)',
  ]);
  assert.equal(
    plan.blocked.find((b) => b.dataset === dataset)?.reasons[0],
    `not deleted: ${JSON.stringify(t.name)} (${file} could not be planned and may hold them)`,
  );
});

test('--prune with a file named on its own deletes nothing on its account; with its folder it deletes what no file holds', async () => {
  const [first, second] = readdirSync(folder()).sort();
  assert.ok(first !== undefined && second !== undefined);
  const gone = read(second);
  rmSync(fileOf(second));
  const named = await run(['plan', '--prune', '--format', 'json', `triggers/${dataset}/${first}`]);
  assert.equal(named.code, 0, named.stdout + named.stderr);
  assert.deepEqual((JSON.parse(named.stdout) as { changes: unknown[] }).changes, []);
  const walked = await run(['plan', '--prune', '--format', 'json', `triggers/${dataset}`]);
  assert.equal(walked.code, 1);
  assert.deepEqual(
    (JSON.parse(walked.stdout) as { changes: { action: string; id: string }[] }).changes.map((c) => [c.action, c.id]),
    [['delete', gone.id]],
  );
});

test('a reviewed delete of a trigger changed on the service since (re-enabled, a new description) deletes nothing (exit 2)', async () => {
  const name = readdirSync(folder()).sort()[0] ?? '';
  const gone = read(name);
  rmSync(fileOf(name));
  assert.equal((await run(['plan', '--prune', '--out', 'plan.json', `triggers/${dataset}`])).code, 1);
  const id = String(gone.id);
  const current = (await client.getTrigger(dataset, id)).data;
  const { query_id: saved, query, ...rest } = current;
  await client.replaceTrigger(dataset, id, {
    ...rest,
    ...(query ? { query } : { query_id: String(saved) }),
    description: 'now the only page for checkout outages',
    disabled: false,
  });
  const r = await run(['apply', 'plan.json']);
  assert.equal(r.code, 2);
  assert.ok(
    r.stderr.startsWith(
      `obs: the plan is not applied, nothing was written: the delete of ${JSON.stringify(gone.name)} (${id}) in ${dataset}: the service's trigger changed since the plan (updated `,
    ),
    r.stderr,
  );
  assert.equal((await client.getTrigger(dataset, id)).data.description, 'now the only page for checkout outages');
});

test('a FIFO among the trigger files a walk finds is not read, and withholds every delete of --prune (exit 2)', async () => {
  const name = readdirSync(folder()).sort()[0] ?? '';
  const t = read(name);
  rmSync(fileOf(name));
  execFileSync('mkfifo', [fileOf(name)]);
  const r = await run(['plan', '--prune', '--format', 'json', 'triggers']);
  assert.equal(r.code, 2);
  const file = `triggers/${dataset}/${name}`;
  assert.ok(
    r.stderr.includes(
      `obs: cannot read ${file}: it is not a regular file (a FIFO, socket or device): only files are read\n`,
    ),
    r.stderr,
  );
  const plan = JSON.parse(r.stdout) as {
    changes: { action: string }[];
    blocked: { dataset?: string; reasons: string[] }[];
  };
  assert.deepEqual(plan.changes, []);
  assert.equal(
    plan.blocked.find((b) => b.dataset === dataset)?.reasons[0],
    `not deleted: ${JSON.stringify(t.name)} (${file} could not be planned and may hold them)`,
  );
});

test('--prune with a glob deletes nothing on account of the files it matched: the triggers of the files it left out are still held', async () => {
  const files = readdirSync(folder()).sort();
  const first = files[0] ?? '';
  const r = await run(['plan', '--prune', '--format', 'json', `triggers/${dataset}/${first}*`]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.deepEqual((JSON.parse(r.stdout) as { changes: unknown[] }).changes, []);
});

test("--match-by-name plans a file holding another environment's id as an update of its trigger by name, said once above the changes", async () => {
  // An earlier test deleted "High error rate" on the sandbox: the first pulled trigger without a baseline stands in.
  const name =
    readdirSync(folder())
      .sort()
      .find((f) => read(f).baseline_details === undefined) ?? '';
  const t = read(name);
  const old = (t.threshold as { value: number }).value;
  write(name, { ...t, id: 'trig_of_another_environment', threshold: { ...(t.threshold as object), value: old + 1 } });
  const r = await run(['plan', '--match-by-name', 'triggers']);
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual(r.stdout.split('\n').slice(1, 6), [
    "Each trigger matched by dataset and name (--match-by-name): the files' ids are not used, and no created trigger's id is written into its file.",
    '',
    'Update (service value -> file value):',
    `  ~ ${dataset} ${JSON.stringify(t.name)} (${String(t.id)})  triggers/${dataset}/${name}`,
    `      threshold.value: ${old} -> ${old + 1}`,
  ]);
});
