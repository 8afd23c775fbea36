// Plans converge on a service that rewrites what it stores: against the sandbox with every trigger rewrite
// of the service switched on (docs/SANDBOX.md, "Trigger rewrites"), triggers created from files, then every
// trigger pulled, edited, planned and applied through obs, end with a plan that has nothing to change and an
// apply that exits 0 with nothing stored differently.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runMain } from '../../src/cli/main';
import { DEMO, TRIGGER_REWRITES } from '../../src/sandbox';
import { triggerFileText, type ServiceTrigger } from '../../src/triggerFiles';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { serviceTrigger } from './serviceTriggers';

type Json = Record<string, unknown>;

let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';

before(async () => {
  const all = Object.fromEntries(TRIGGER_REWRITES.map((n) => [n, true]));
  sandbox = await startTestSandbox({ rateLimit: 100_000, rewrites: all });
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
  dir = mkdtempSync(join(tmpdir(), 'obs-converge-'));
});
after(async () => {
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  // The sandbox's metrics dataset is named to the linter as a repository of trigger files would.
  const args =
    argv[0] === 'plan' ? [...argv.slice(0, 1), '--metrics-dataset', DEMO.datasets.metrics, ...argv.slice(1)] : argv;
  const code = await runMain(args, { cwd: dir, env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr, all: `${stdout}${stderr}` };
}

const GW = DEMO.datasets.gateway;

/** The fixture corpus's listed triggers, on the sandbox's dataset, recipient and saved query. */
function corpusTriggers(): ServiceTrigger[] {
  const corpus = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'service', 'triggers-listed.json'), 'utf8'),
  ) as { body: ServiceTrigger[] };
  const text = JSON.stringify(corpus.body)
    .replaceAll('"dataset_slug":"api"', `"dataset_slug":"${GW}"`)
    .replaceAll('"rcp_mail"', `"${DEMO.recipients.emailOncall}"`)
    .replaceAll('"q_saved"', `"${DEMO.savedQueries.envCount}"`);
  return JSON.parse(text) as ServiceTrigger[];
}

/** Triggers written the ways the service rewrites: lists in any order, recipients by address, defaults given, a saved query, floats. */
function rewrittenShapes(): ServiceTrigger[] {
  const { query: _inline, ...onSaved } = serviceTrigger('c_saved', 'On a saved query', GW, 20, { frequency: 600 });
  return [
    serviceTrigger('c_plain', 'Plain count', GW),
    serviceTrigger('c_lists', 'Lists in any order', GW, 5, {
      description: '',
      tags: [
        { key: 'team', value: 'edge' },
        { key: 'severity', value: 'high' },
        { key: 'area', value: 'checkout' },
        { key: 'owner', value: 'sre' },
      ],
      recipients: [
        // An address the team's list holds: one it does not hold is refused by the plan (no recipient made unseen).
        { type: 'email', target: 'team+alerts@example.com' },
        { type: 'slack', target: '#incidents' },
        { id: DEMO.recipients.pagerdutyPrimary },
      ],
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [
          { column: 'status_code', op: '>=', value: 500 },
          { column: 'http.route', op: 'exists' },
          { column: 'error', op: '=', value: true },
        ],
        filter_combination: 'AND',
        calculated_fields: [
          { name: 'slow', expression: 'GTE($duration_ms, 1000)' },
          { name: 'failed', expression: 'EQUALS($error, true)' },
        ],
        time_range: 600,
      },
    }),
    serviceTrigger('c_having', 'Having and breakdown', GW, 10, {
      query: {
        calculations: [{ op: 'COUNT' }, { op: 'P99', column: 'duration_ms' }],
        breakdowns: ['http.route'],
        havings: [{ calculate_op: 'P99', column: 'duration_ms', op: '>', value: 1000 }],
        time_range: 900,
      },
    }),
    serviceTrigger('c_paging', 'Paging by address and a marker', GW, 2.5, {
      recipients: [
        { type: 'pagerduty', target: 'Primary on-call' },
        { type: 'marker', target: 'deploys' },
      ],
    }),
    { ...onSaved, query_id: DEMO.savedQueries.gw5xx },
  ];
}

/** A trigger as a file that creates it: canonical, without the ids of the service it came from. */
function createFile(t: ServiceTrigger, n: number): void {
  const { id: _id, ...value } = JSON.parse(triggerFileText(t)) as Json;
  const folder = value.dataset_slug === 'all' ? '__all__' : String(value.dataset_slug);
  const path = join(dir, 'triggers', folder, `created-${n}.trigger.json`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

const triggerFiles = (): string[] =>
  readdirSync(join(dir, 'triggers'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.trigger.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();

/**
 * One member edited, as a user would: the description of every other trigger that has one, the threshold of
 * the rest. (Members added and removed are cli-saved-plan-property.test.ts's.)
 */
function edit(path: string, n: number): void {
  const t = JSON.parse(readFileSync(path, 'utf8')) as Json;
  const threshold = t.threshold as { op: string; value: number };
  if (n % 2 === 0 && typeof t.description === 'string') t.description = `Edited ${n}.`;
  else threshold.value += threshold.op.startsWith('<') ? -1 : 1;
  writeFileSync(path, `${JSON.stringify(t, null, 2)}\n`);
}

const counts = (r: { stdout: string }) =>
  /(\d+) to create, (\d+) to update, (\d+) to delete, (\d+) unchanged, (\d+) blocked\n$/
    .exec(r.stdout)
    ?.slice(1)
    .map(Number);

test('triggers created from files, then every trigger pulled, edited, planned and applied, converge: the next plan is empty and apply exits 0', async () => {
  const created = [...corpusTriggers(), ...rewrittenShapes()];
  created.forEach(createFile);
  const planned = await run('plan', '--out', 'create.json', 'triggers');
  assert.deepEqual([planned.code, counts(planned)], [1, [created.length, 0, 0, 0, 0]], planned.all);
  const made = await run('apply', 'create.json');
  assert.deepEqual([made.code, made.all.includes('stored differently')], [0, false], made.all);
  const again = await run('plan', 'triggers');
  assert.deepEqual([again.code, counts(again)], [0, [0, 0, 0, created.length, 0]], again.all);

  rmSync(join(dir, 'triggers'), { recursive: true });
  const pulled = await run('pull', '--all', '--out', 'triggers');
  assert.equal(pulled.code, 0, pulled.all);
  const total = Object.keys(DEMO.triggers).length + created.length;
  const files = triggerFiles();
  assert.equal(files.length, total);
  const afterPull = await run('plan', 'triggers');
  assert.deepEqual([afterPull.code, counts(afterPull)], [0, [0, 0, 0, total, 0]], afterPull.all);

  files.forEach(edit);
  const edited = await run('plan', '--out', 'edit.json', 'triggers');
  assert.deepEqual([edited.code, counts(edited)], [1, [0, total, 0, 0, 0]], edited.all);
  const applied = await run('apply', 'edit.json');
  assert.deepEqual([applied.code, applied.all.includes('stored differently')], [0, false], applied.all);
  assert.match(applied.stdout, new RegExp(`\\n${total} applied, 0 skipped, 0 refused, 0 failed\\n$`));
  const last = await run('plan', 'triggers');
  assert.deepEqual([last.code, counts(last)], [0, [0, 0, 0, total, 0]], last.all);
  assert.equal((await run('drift', 'triggers')).code, 0);
});
