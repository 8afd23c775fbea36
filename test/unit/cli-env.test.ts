// obs plan, apply and drift with --env against two sandboxes, staging and production (docs/ENVIRONMENTS.md):
// the demo's trigger files and its obs.environments.json, one set of files planned and applied to both, each
// trigger as its environment sees it; what the environments file gets wrong stops the command before it plans.
import { after, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api';
import { DEMO, PRODUCTION, PRODUCTION_CREDENTIALS } from '../../src/sandbox';
import { runObs } from './obs-run';
import { runTool } from '../../src/agentTools';
import { readCliEnvironment } from '../../src/cli/environment';
import { mcpHost } from '../../src/cli/mcpHost';
import { demoWorkspaceCopy, environmentSandboxes } from './env-sandboxes';
import type { TestSandbox } from './sandbox-helpers';

const HIGH = 'triggers/api-gateway/High-error-rate.trigger.json';
const ENVIRONMENTS = 'obs.environments.json';

const sandboxes = environmentSandboxes();
let dir = '';

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh copy of the demo workspace but its draft trigger (not on either service, and with lint errors). */
beforeEach(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = demoWorkspaceCopy('obs-env-');
  await Promise.all([reset(sandboxes.staging), reset(sandboxes.production)]);
});

/** The sandbox back to its demo data (its control endpoint). */
async function reset(sb: TestSandbox): Promise<void> {
  const res = await fetch(`${sb.base}/__sandbox/reset`, {
    method: 'POST',
    headers: { 'X-Sandbox-Token': sb.handle.info.controlToken },
  });
  assert.equal(res.status, 200, await res.text());
}

const run = (argv: string[], over: Record<string, string> = sandboxes.env) => runObs(argv, { cwd: dir, env: over });
const readJson = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;
const writeJson = (file: string, value: unknown) =>
  writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);

/** Edits the production overrides of the environments file. */
function editProduction(edit: (production: Record<string, unknown>) => void): void {
  const file = readJson(ENVIRONMENTS) as { environments: Record<string, Record<string, unknown>> };
  const prod = file.environments.production;
  assert.ok(prod);
  edit(prod);
  writeJson(ENVIRONMENTS, file);
}

const clientOf = (sb: TestSandbox, configKey: string) => new ServiceClient({ baseUrl: sb.base, configKey });

async function triggerOf(sb: TestSandbox, configKey: string, dataset: string, id: string) {
  const client = clientOf(sb, configKey);
  try {
    return (await client.listTriggers(dataset)).data.find((t) => t.id === id);
  } finally {
    await client.close();
  }
}

test('one edit of the files is planned and applied to staging and production, each as it sees it; then both plans are empty and both drift clean', async () => {
  const high = readJson(HIGH);
  writeJson(HIGH, { ...high, description: 'Edited once for both environments.' });
  editProduction((p) => {
    const triggers = p.triggers as Record<string, Record<string, unknown>>;
    triggers['api-gateway'] = { ...triggers['api-gateway'], 'High error rate': { threshold: { value: 24 } } };
  });
  const plannedStaging = await run(['plan', '--env', 'staging', '--out', 'staging.json', 'triggers']);
  assert.equal(plannedStaging.code, 1, plannedStaging.stderr);
  assert.match(plannedStaging.stdout, /\n {6}description: "[^"]*" -> "Edited once for both environments\."\n\n/);
  assert.match(plannedStaging.stdout, /0 to create, 1 to update, 0 to delete, 12 unchanged, 0 blocked\n$/);
  const plannedProduction = await run(['plan', '--env', 'production', '--out', 'production.json', 'triggers']);
  assert.equal(plannedProduction.code, 1, plannedProduction.stderr);
  assert.ok(
    plannedProduction.stdout.includes(
      `~ api-gateway "High error rate" (${PRODUCTION.triggers.gwErrors})  ${HIGH}\n` +
        `      (recipient email "oncall@example.com" is ${PRODUCTION.recipients.emailOncall} in this team)\n` +
        '      description: "More than 5 failed requests in 20 minutes." -> "Edited once for both environments."\n' +
        '      threshold.value: 20 -> 24\n',
    ),
    plannedProduction.stdout,
  );
  assert.match(plannedProduction.stdout, /0 to create, 1 to update, 0 to delete, 12 unchanged, 0 blocked\n$/);

  for (const name of ['staging', 'production']) {
    const applied = await run(['apply', '--env', name, `${name}.json`]);
    assert.equal(applied.code, 0, applied.stdout + applied.stderr);
    const again = await run(['plan', '--env', name, 'triggers']);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /0 to create, 0 to update, 0 to delete, 13 unchanged, 0 blocked\n$/);
    const drift = await run(['drift', '--env', name, 'triggers']);
    assert.equal(drift.code, 0, drift.stdout + drift.stderr);
  }
  const prod = await triggerOf(
    sandboxes.production,
    PRODUCTION_CREDENTIALS.configKey,
    'api-gateway',
    PRODUCTION.triggers.gwErrors,
  );
  assert.deepEqual(
    [prod?.threshold?.value, prod?.recipients?.map((r) => r.id)],
    [24, [PRODUCTION.recipients.emailOncall]],
  );
  const stag = await triggerOf(
    sandboxes.staging,
    sandboxes.staging.handle.info.configKey,
    'api-gateway',
    DEMO.triggers.gwErrors,
  );
  assert.deepEqual([stag?.threshold?.value, stag?.description], [5, 'Edited once for both environments.']);
});

test('a trigger created in production keeps the file as it was: its id is the home environment’s to write', async () => {
  const file = 'triggers/api-gateway/New.trigger.json';
  const { id: _id, ...high } = readJson(HIGH);
  writeJson(file, { ...high, name: 'New in both' });
  const before = readFileSync(join(dir, file), 'utf8');
  const planned = await run(['plan', '--env', 'production', '--out', 'p.json', 'triggers']);
  assert.equal(planned.code, 1, planned.stderr);
  const applied = await run(['apply', '--env', 'production', 'p.json']);
  assert.equal(applied.code, 0, applied.stdout + applied.stderr);
  assert.match(
    applied.stdout,
    /was not written into triggers\/api-gateway\/New\.trigger\.json: the file's ids are the home environment's, and production is matched by dataset and name/,
  );
  assert.equal(readFileSync(join(dir, file), 'utf8'), before);
});

test('an override that names no trigger of the files blocks its dataset, said by its place in the environments file', async () => {
  editProduction((p) => {
    const triggers = p.triggers as Record<string, Record<string, unknown>>;
    triggers['api-gateway'] = { ...triggers['api-gateway'], 'High eror rate': { threshold: { value: 30 } } };
  });
  writeJson(HIGH, { ...readJson(HIGH), description: 'Edited.' });
  const r = await run(['plan', '--env', 'production', 'triggers']);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(
    r.stdout.includes(
      'environments.production."triggers"."api-gateway"."High eror rate" names no trigger of the files: a misspelt name would leave the trigger it means with the values of "api-gateway" as the files hold them; nothing of the dataset is written',
    ),
    r.stdout,
  );
  assert.ok(
    r.stdout.includes('an override of its dataset in obs.environments.json names no trigger of the files (said there)'),
    r.stdout,
  );
  assert.match(r.stdout, /0 to create, 0 to update, 0 to delete, 12 unchanged, 2 blocked\n$/);
});

test('a recipient named by id alone cannot be taken to production: its trigger is blocked, the recipient named', async () => {
  const high = readJson(HIGH);
  writeJson(HIGH, { ...high, recipients: [{ id: DEMO.recipients.emailOncall }] });
  const r = await run(['plan', '--env', 'production', 'triggers']);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(
    r.stdout.includes(
      `recipient "${DEMO.recipients.emailOncall}" is named by id alone: give its type and target, which every environment can resolve`,
    ),
    r.stdout,
  );
});

test('an environment the file does not name: exit 2 naming those it has, nothing planned or saved', async () => {
  const r = await run(['plan', '--env', 'prod', '--out', 'p.json', 'triggers']);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    'obs: obs.environments.json has no environment "prod" (its environments: staging, production); nothing was planned\n',
  );
  assert.equal(existsSync(join(dir, 'p.json')), false);
});

test('no environments file at the root of the files or in the current folder: exit 2 saying so', async () => {
  rmSync(join(dir, ENVIRONMENTS));
  const r = await run(['drift', '--env', 'production', 'triggers']);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "obs: --env needs an environments file: no obs.environments.json at the root of the files' folder or in the current folder (name one with --environments); nothing was compared\n",
  );
});

test('an environments file with a mistake: exit 2 naming its place', async () => {
  writeJson(ENVIRONMENTS, { ...readJson(ENVIRONMENTS), home: 'qa' });
  const r = await run(['plan', '--env', 'staging', 'triggers']);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    'obs: the environments file obs.environments.json is not valid (obs lint obs.environments.json says where): home: home must name one of the environments (staging, production); nothing was planned\n',
  );
});

test("the environment's variables unset: exit 2 naming them", async () => {
  const { OBS_PRODUCTION_CONFIG_KEY: _key, ...rest } = sandboxes.env;
  const r = await run(['plan', '--env', 'production', 'triggers'], rest);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    "obs: set OBS_PRODUCTION_CONFIG_KEY in the environment: obs.environments.json names them for production's service address and key; nothing was planned\n",
  );
});

test('apply refuses a plan of another environment, one made without --env, and one whose environments file changed since', async () => {
  writeJson(HIGH, { ...readJson(HIGH), description: 'Edited.' });
  const planned = await run(['plan', '--env', 'production', '--out', 'p.json', 'triggers']);
  assert.equal(planned.code, 1, planned.stderr);
  const refused = (r: { code: number; stderr: string }) => [r.code, r.stderr];
  assert.deepEqual(refused(await run(['apply', '--env', 'staging', 'p.json'])), [
    2,
    'obs: the plan is not applied, nothing was written: it was made for production, not staging\n',
  ]);
  assert.deepEqual(refused(await run(['apply', 'p.json'])), [
    2,
    'obs: the plan is not applied, nothing was written: it was made for production: apply it with --env production\n',
  ]);
  editProduction((p) => {
    p.datasets = { 'checkout-service': 'checkout-prod', 'metrics-hosts': 'metrics-hosts' };
  });
  assert.deepEqual(refused(await run(['apply', '--env', 'production', 'p.json'])), [
    2,
    'obs: the plan is not applied, nothing was written: the environments file obs.environments.json changed since the plan was made: plan again and review the new plan\n',
  ]);
  const prod = await triggerOf(
    sandboxes.production,
    PRODUCTION_CREDENTIALS.configKey,
    'api-gateway',
    PRODUCTION.triggers.gwErrors,
  );
  assert.notEqual(prod?.description, 'Edited.');
});

test("drift --env compares each trigger as the environment sees it: production's override differs from its service", async () => {
  editProduction((p) => {
    const triggers = p.triggers as Record<string, Record<string, unknown>>;
    triggers['api-gateway'] = { ...triggers['api-gateway'], 'High error rate': { threshold: { value: 24 } } };
  });
  const r = await run(['drift', '--env', 'production', 'triggers']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stdout,
    `${HIGH}: differs from the service: "High error rate" (${PRODUCTION.triggers.gwErrors})\n` +
      '  threshold.value: 20 -> 24\n' +
      '13 files compared: 12 in sync, 1 differ, 0 only local, 0 only on the service\n',
  );
});

test('drift --applied reads the files last applied with the environments file beside them: an override changed since is no change on the service', async () => {
  mkdirSync(join(dir, '.obs-applied', 'production'), { recursive: true });
  cpSync(join(dir, 'triggers'), join(dir, '.obs-applied', 'production', 'triggers'), { recursive: true });
  cpSync(join(dir, ENVIRONMENTS), join(dir, '.obs-applied', 'production', ENVIRONMENTS));
  editProduction((p) => {
    const triggers = p.triggers as Record<string, Record<string, unknown>>;
    triggers['api-gateway'] = { ...triggers['api-gateway'], 'High error rate': { threshold: { value: 30 } } };
  });
  const r = await run(['drift', '--env', 'production', '--applied', '.obs-applied/production/triggers', 'triggers']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /\n13 files compared: 13 in sync, 0 differ, 0 only local, 0 only on the service\n$/);
});

test("lint --env --columns-from-service reads the environment's service, by the environment's dataset slugs", async () => {
  // Production holds checkout-service's triggers in checkout-prod; its variables alone name its service.
  const r = await run(['lint', '--env', 'production', '--columns-from-service', 'triggers/checkout-service']);
  assert.deepEqual([r.code, r.stderr, r.stdout], [0, '', '2 files checked: 0 errors, 0 warnings, 0 infos\n']);
});

test("noise --env counts each trigger as production sees it: production's threshold, on production's data", async () => {
  // Beside the demo's "High error rate" (5 in the file, 20 in production's override), the same trigger written
  // with 20 and with 5: one run, one window, so the counts compare exactly.
  const trigger = readJson(HIGH);
  delete trigger.id;
  mkdirSync(join(dir, 'noise'));
  cpSync(join(dir, HIGH), join(dir, 'noise', 'High-error-rate.trigger.json'));
  for (const value of [20, 5])
    writeJson(`noise/At-${value}.trigger.json`, { ...trigger, name: `At ${value}`, threshold: { op: '>', value } });
  const r = await run(['noise', '--env', 'production', '--budget', '1000', '--format', 'json', 'noise']);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as { triggers: { name: string; notifications: number }[] };
  const count = (name: string) => report.triggers.find((t) => t.name === name)?.notifications;
  assert.equal(count('High error rate'), count('At 20'));
  assert.notEqual(count('At 20'), count('At 5'));
});

test("test --env tests the trigger as production sees it: its threshold, against production's service", async () => {
  // On production's data (four times staging's requests) the file's threshold of 5 pages more than 10 times a
  // day; production's override of 20 pages in its error bursts alone.
  const tests = 'triggers/api-gateway/High-error-rate.trigger-test.json';
  const atMost = { name: 'pages at most 10 times a day', expect: 'at-most', notifications: 10 };
  writeJson(tests, { expectations: [{ ...atMost, from: 'now-24h', to: 'now' }] });
  const r = await run(['test', '--env', 'production', tests]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0, r.stdout);
  assert.match(r.stdout, /^ {2}passed {8}pages at most 10 times a day: sent [23] notifications \(on_change\)/m);
  assert.equal(r.stdout.split('\n').at(-2), '1 expectation in 1 file: 1 passed, 0 failed, 0 not testable, 0 errors');
});

test('test --env of an environment other than the home one refuses --record: the recordings are the home’s', async () => {
  const r = await run(['test', '--env', 'production', '--record', 'triggers/api-gateway']);
  assert.deepEqual(
    [r.code, r.stdout, r.stderr],
    [2, '', "obs: --record records the home environment's service: leave out --env production\n"],
  );
});

test("a mapped dataset's burn alerts and definitions, pulled from staging, are planned and compared in production under its slug", async () => {
  const staging = {
    OBS_BASE_URL: sandboxes.staging.base,
    OBS_CONFIG_KEY: sandboxes.staging.handle.info.configKey,
  };
  const pulled = await run(
    ['pull', '--dataset', 'checkout-service', '--kinds', 'burn-alerts,definitions', '--recipients-by', 'target'],
    staging,
  );
  assert.equal(pulled.code, 0, pulled.stdout + pulled.stderr);
  const paths = ['burn-alerts/checkout-service', 'definitions/checkout-service.definitions.json'];
  const planned = await run(['plan', '--env', 'production', ...paths]);
  assert.equal(planned.code, 0, planned.stdout + planned.stderr);
  assert.match(planned.stdout, /0 to create, 0 to update, 0 to delete, 3 unchanged, 0 blocked\n$/);
  const drift = await run(['drift', '--env', 'production', ...paths]);
  assert.equal(drift.code, 0, drift.stdout + drift.stderr);
  assert.match(drift.stdout, /\n3 files compared: 3 in sync, 0 differ, 0 only local, 0 only on the service\n$/);
});

test('obs mcp --env production: obs_drift and obs_plan compare and plan each file as production sees it', async () => {
  const env = await readCliEnvironment('production', ENVIRONMENTS, { cwd: dir, env: sandboxes.env });
  assert.ok(env.ok, env.ok ? '' : env.reason);
  const host = mcpHost({ cwd: dir, env: env.value.serviceEnv }, env.value);
  const call = async (name: string, input: unknown) => {
    const answer = await runTool(name, input, host, new AbortController().signal);
    return JSON.parse(answer.text) as Record<string, unknown>;
  };
  try {
    const drift = await call('obs_drift', { paths: ['triggers'] });
    assert.deepEqual(
      [drift.target, drift.counts],
      [
        `${sandboxes.production.base} (production)`,
        { inSync: 13, differs: 0, localOnly: 0, serviceOnly: 0, unknown: 0 },
      ],
    );
    editProduction((p) => {
      const triggers = p.triggers as Record<string, Record<string, unknown>>;
      triggers['api-gateway'] = { ...triggers['api-gateway'], 'High error rate': { threshold: { value: 24 } } };
    });
    const edited = await readCliEnvironment('production', ENVIRONMENTS, { cwd: dir, env: sandboxes.env });
    assert.ok(edited.ok);
    const again = await runTool(
      'obs_plan',
      { paths: ['triggers'] },
      mcpHost({ cwd: dir, env: edited.value.serviceEnv }, edited.value),
      new AbortController().signal,
    );
    const plan = JSON.parse(again.text) as {
      counts: Record<string, number>;
      changes: { id?: string; name?: string }[];
    };
    assert.deepEqual(
      [plan.counts, plan.changes.map((c) => [c.name, c.id])],
      [
        { create: 0, update: 1, delete: 0, unchanged: 12, blocked: 0 },
        [['High error rate', PRODUCTION.triggers.gwErrors]],
      ],
    );
  } finally {
    await host.close();
  }
});
