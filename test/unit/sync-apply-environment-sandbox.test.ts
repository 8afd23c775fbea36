// The editor's "Apply Trigger Files to Connection..." for environments, end to end against two sandboxes, staging
// and production (docs/ENVIRONMENTS.md): the demo's trigger files and its obs.environments.json, in the fake
// editor (vscode-fake.ts) with the plan view's fake, applied to each environment as it sees it through the real
// client. Afterwards the editor finds nothing to change in either, and neither does `obs plan --env`: the two
// paths are one plan pipeline.
import { fake, fileUri, Uri } from './vscode-fake';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ServiceClient } from '../../src/api';
import { DEMO, PRODUCTION, PRODUCTION_CREDENTIALS } from '../../src/sandbox';
import { readEnvironments } from '../../src/triggerFiles/environments';
import type { ActiveConnection, ConnectionProfile } from '../../src/extension/connections';
import { applyPicking } from './apply-connections';
import { DriftModel } from '../../src/extension/sync/driftModel';
import { sloServiceFake } from './sloServiceFake';
import { runObs } from './obs-run';
import { demoWorkspaceCopy } from './env-sandboxes';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const HIGH = 'triggers/api-gateway/High-error-rate.trigger.json';
const ENVIRONMENTS = 'obs.environments.json';

let staging: TestSandbox;
let production: TestSandbox;
let clients: { staging: ServiceClient; production: ServiceClient };
/** The demo workspace with the test's edits: what the fake editor holds, and what `obs` reads. */
let dir = '';

before(async () => {
  [staging, production] = await Promise.all([
    startTestSandbox({ rateLimit: 100_000 }),
    startTestSandbox({ rateLimit: 100_000, demoEnvironment: 'production' }),
  ]);
  clients = {
    staging: new ServiceClient({ baseUrl: staging.base, configKey: staging.handle.info.configKey }),
    production: new ServiceClient({ baseUrl: production.base, configKey: PRODUCTION_CREDENTIALS.configKey }),
  };
  dir = demoWorkspaceCopy('obs-editor-env-');
  const high = JSON.parse(readFileSync(join(dir, HIGH), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, HIGH), `${JSON.stringify({ ...high, description: 'Edited once for both.' }, null, 2)}\n`);
  const envs = JSON.parse(readFileSync(join(dir, ENVIRONMENTS), 'utf8')) as {
    environments: { production: { triggers: Record<string, Record<string, unknown>> } };
  };
  envs.environments.production.triggers['api-gateway'] = {
    ...envs.environments.production.triggers['api-gateway'],
    'High error rate': { threshold: { value: 24 } },
  };
  writeFileSync(join(dir, ENVIRONMENTS), `${JSON.stringify(envs, null, 2)}\n`);
});

after(async () => {
  await Promise.all([clients.staging.close(), clients.production.close()]);
  await Promise.all([staging.handle.close(), production.handle.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Every trigger file of the copy, by its uri in the fake editor's one folder. */
function loadTriggerFiles(): void {
  const walk = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(folder, e.name)) : e.name.endsWith('.trigger.json') ? [join(folder, e.name)] : [],
    );
  for (const file of walk(join(dir, 'triggers')))
    fake.files.set(fileUri(relative(dir, file)).toString(), readFileSync(file, 'utf8'));
}

const profile = (id: string, name: string, baseUrl: string) => ({ id, name, baseUrl }) as ConnectionProfile;

/** The editor's drift of the trigger files on an environment's connection, as each file's triggers are counted. */
async function driftCounts(environment: 'staging' | 'production') {
  const read = readEnvironments(readFileSync(join(dir, ENVIRONMENTS), 'utf8'));
  assert.ok(read.ok);
  const overlay = read.value.environments.get(environment);
  const client = clients[environment];
  const model = new DriftModel({
    workspace: {
      list: () => Promise.resolve([...fake.files.keys()]),
      read: (uri) => Promise.resolve(fake.files.get(uri)),
    },
    connection: () =>
      Promise.resolve({
        id: environment,
        name: environment,
        api: {
          ...sloServiceFake(),
          listTriggers: (d: string) => client.listTriggers(d),
          listRecipients: () => client.listRecipients(),
        },
        ...(environment === 'production' && overlay !== undefined
          ? { environmentOf: () => ({ name: environment, overlay }) }
          : {}),
      }),
    concurrency: () => 2,
  });
  await model.refresh(false);
  const triggers = model.snapshot().files.flatMap((f) => model.fileDrift(f.file)?.triggers ?? []);
  model.dispose();
  const count = (s: string) => triggers.filter((t) => t.status === s).length;
  return {
    differs: count('differs'),
    inSync: count('in-sync'),
    notCompared: triggers.length - count('differs') - count('in-sync'),
  };
}

/** Applies the workspace's trigger files, picking `label`; returns what the editor said when there was nothing to do. */
async function applyTo(label: string): Promise<string[]> {
  const read = readEnvironments(readFileSync(join(dir, ENVIRONMENTS), 'utf8'));
  assert.ok(read.ok, 'the edited environments file reads without a mistake');
  const connections = [
    { profile: profile('stg', 'Sandbox', staging.base), client: clients.staging },
    { profile: profile('prd', 'Sandbox (production)', production.base), client: clients.production },
  ] as ActiveConnection[];
  return applyPicking(label, connections, { file: ENVIRONMENTS, read: read.value });
}

test('applied from the editor to staging and to production, each as it sees it, then neither the editor nor obs plan --env finds a change', async () => {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  loadTriggerFiles();
  await applyTo('$(layers) production');
  await applyTo('$(layers) staging');

  const prod = (await clients.production.listTriggers('api-gateway')).data.find(
    (t) => t.id === PRODUCTION.triggers.gwErrors,
  );
  const stag = (await clients.staging.listTriggers('api-gateway')).data.find((t) => t.id === DEMO.triggers.gwErrors);
  const again = [await applyTo('$(layers) production'), await applyTo('$(layers) staging')];
  const drift = [await driftCounts('production'), await driftCounts('staging')];
  const env = {
    OBS_STAGING_BASE_URL: staging.base,
    OBS_STAGING_CONFIG_KEY: staging.handle.info.configKey,
    OBS_PRODUCTION_BASE_URL: production.base,
    OBS_PRODUCTION_CONFIG_KEY: PRODUCTION_CREDENTIALS.configKey,
  };
  const plans = await Promise.all(
    ['staging', 'production'].map((name) => runObs(['plan', '--env', name, 'triggers'], { cwd: dir, env })),
  );
  assert.deepEqual(
    {
      production: [prod?.threshold?.value, prod?.description, prod?.recipients?.map((r) => r.id)],
      staging: [stag?.threshold?.value, stag?.description],
      editorAgain: again,
      drift,
      cli: plans.map((p) => [p.code, p.stdout.split('\n').at(-2)]),
    },
    {
      production: [24, 'Edited once for both.', [PRODUCTION.recipients.emailOncall]],
      staging: [5, 'Edited once for both.'],
      editorAgain: [
        ['Nothing to change on Sandbox (production) (production): the service matches the files.'],
        ['Nothing to change on Sandbox (staging): the service matches the files.'],
      ],
      drift: [
        { differs: 0, inSync: 13, notCompared: 0 },
        { differs: 0, inSync: 13, notCompared: 0 },
      ],
      cli: [
        [0, '0 to create, 0 to update, 0 to delete, 13 unchanged, 0 blocked'],
        [0, '0 to create, 0 to update, 0 to delete, 13 unchanged, 0 blocked'],
      ],
    },
  );
});
