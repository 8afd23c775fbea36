// "Apply Trigger Files to Connection..." with an environments file in the workspace folder (docs/ENVIRONMENTS.md),
// in the fake editor (vscode-fake.ts) and the plan view (plan-view-fake.ts): the pick offers each environment on
// the connection it names, before the connections; an environment picked plans the triggers as it sees them
// (its overrides applied, each trigger matched by dataset and name), writes them to its connection alone and
// writes no id into the files (they hold the home environment's); the environment is read again at Apply, and
// one that names a connection not saved reads nothing.
import { fake, fileUri, Uri, vscode } from './vscode-fake';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFileText } from '../../src/triggerFiles';
import type { Environment } from '../../src/triggerFiles/environments';
import type { ActiveConnection } from '../../src/extension/connections';
import type { FolderEnvironments } from '../../src/extension/sync/applyDestination';
import { DEV, environmentApplyCommands, PROD, RecordingService, STAGING, trigger } from './apply-connections';
import { FakePlanView } from './plan-view-fake';

const ERRORS_FILE = fileUri('triggers/api/Errors.trigger.json');
const SLOW_FILE = fileUri('triggers/api/Slow.trigger.json');

/** Production's threshold of "Errors" (the files hold staging's, 5). */
const production = (errorsThreshold: number): Environment => ({
  connection: 'prod-eu',
  triggers: { api: { Errors: { threshold: { value: errorsThreshold } } } },
});

let services: Record<string, RecordingService>;
let environments: FolderEnvironments | undefined;
let picks: { label: string; description?: string; detail?: string }[][];
let pick: string | undefined;
let errors: string[];
/** What happens while the plan is shown, before Apply. */
let whileAsking: () => void;
let view: FakePlanView;

const envsWith = (prod: Environment): FolderEnvironments => ({
  file: 'obs.environments.json',
  read: {
    home: 'staging',
    environments: new Map<string, Environment>([
      ['staging', { connection: 'staging' }],
      ['production', prod],
      ['qa', { connection: 'qa-cluster' }],
    ]),
  },
});

beforeEach(() => {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  fake.files.set(ERRORS_FILE.toString(), triggerFileText(trigger('stg-1', 'Errors', 5)));
  fake.files.set(SLOW_FILE.toString(), triggerFileText(trigger('stg-2', 'Slow', 7)));
  services = {
    stg: new RecordingService('stg', [trigger('stg-1', 'Errors', 5), trigger('stg-2', 'Slow', 7)]),
    prd: new RecordingService('prd', [trigger('prd-7', 'Errors', 9)]),
    dev: new RecordingService('dev', []),
  };
  environments = envsWith(production(9));
  picks = [];
  pick = undefined;
  errors = [];
  whileAsking = () => undefined;
  view = new FakePlanView();
  view.onReview = (model, v) => {
    whileAsking();
    v.apply(model, 'prod-eu (production)');
  };
  Object.assign(vscode.window, {
    showQuickPick: (items: readonly { label: string; description?: string; detail?: string }[]) => {
      picks.push(items.map(({ label, description, detail }) => ({ label, description, detail })));
      return Promise.resolve(items.find((i) => i.label === pick));
    },
    showErrorMessage: (message: string) => {
      errors.push(message);
      return Promise.resolve(undefined);
    },
  });
});

async function applyPicking(label: string | undefined): Promise<void> {
  pick = label;
  await runApply('workspaceToConnection', [], STAGING.id);
}

/** Runs an apply command with `activeId` the active connection. */
async function runApply(command: 'workspaceToConnection' | 'file', args: unknown[], activeId: string): Promise<void> {
  const byId = new Map([STAGING, PROD, DEV].map((p) => [p.id, p]));
  const connectionFor = (id: string): Promise<ActiveConnection> =>
    Promise.resolve({ profile: byId.get(id), client: services[id] } as unknown as ActiveConnection);
  const apply = environmentApplyCommands({
    connections: {
      list: () => [PROD, STAGING, DEV],
      activeProfile: () => byId.get(activeId),
      connectionFor,
      requireActive: () => connectionFor(activeId),
    },
    view,
    environments: () => environments,
  });
  try {
    await apply.run(command, args);
  } finally {
    apply.dispose();
  }
}

const writesTo = (id: string) => (services[id]?.calls ?? []).filter((c) => /^(create|replace|delete) /.test(c));

test("the pick offers each environment of the folder's file on the connection it names, before the connections", async () => {
  await applyPicking(undefined);
  assert.deepEqual(
    picks[0]?.map((i) => [i.label, i.description]),
    [
      ['$(layers) staging', 'home environment, on staging'],
      ['$(layers) production', 'environment, on prod-eu: its overrides applied'],
      ['$(layers) qa', 'no connection'],
      ['staging', 'https://stg.example.invalid (active)'],
      ['dev', 'https://dev.example.invalid'],
      ['prod-eu', 'https://prd.example.invalid'],
    ],
  );
});

test('planned for an environment, each trigger is the one it sees: its override is in sync, the others created there, no id written', async () => {
  const before = new Map([...fake.files]);
  await applyPicking('$(layers) production');
  const first = view.models[0];
  assert.deepEqual(
    {
      title: first?.title,
      notes: first?.notes,
      prd: writesTo('prd'),
      stg: services.stg?.calls,
      files: [...fake.files],
    },
    {
      title: 'Plan: apply the trigger files to prod-eu (production) (https://prd.example.invalid)',
      notes: [
        "Planned for the environment production of obs.environments.json: each trigger as that environment sees it (its datasets, recipients and overrides), matched by dataset and name; a created trigger's id is not written into its file, which holds the home environment's ids.",
      ],
      prd: ['create Slow as prd-new-1'],
      stg: [],
      files: [...before],
    },
  );
});

test('the environment is read again at Apply: an override changed since the review stops the apply, and nothing is written', async () => {
  whileAsking = () => (environments = envsWith(production(11)));
  await applyPicking('$(layers) production');
  assert.deepEqual(
    { phase: view.last.phase, status: view.last.status.text, prd: writesTo('prd') },
    {
      phase: 'not-applied',
      status:
        'Nothing was written to prod-eu (production): the files or the service changed since the plan was shown. Plan again to see the new plan.',
      prd: [],
    },
  );
});

test('the environment gone from its file before Apply: nothing is written, and the view says why', async () => {
  whileAsking = () => (environments = undefined);
  await applyPicking('$(layers) production');
  assert.deepEqual(
    { phase: view.last.phase, status: view.last.status.text, prd: writesTo('prd') },
    {
      phase: 'not-applied',
      status:
        'Nothing was written: the environment production is no longer in obs.environments.json, or the file has mistakes (see the Problems view). Pick it again when the file is right.',
      prd: [],
    },
  );
});

test('an environment naming a connection that is not saved is refused with its name, and nothing is read', async () => {
  await applyPicking('$(layers) qa');
  assert.deepEqual(
    { errors, calls: [services.stg?.calls, services.prd?.calls, services.dev?.calls], reads: fake.reads },
    {
      errors: [
        'The environment qa names the connection "qa-cluster", which is not among your connections: add it, or correct obs.environments.json.',
      ],
      calls: [[], [], []],
      reads: 0,
    },
  );
});

test("Apply on a file while the active connection is an environment's plans the file as that environment sees it", async () => {
  services.prd?.triggers.splice(0, 1, trigger('prd-7', 'Errors', 5));
  await runApply('file', [ERRORS_FILE], PROD.id);
  assert.deepEqual(
    {
      title: view.models[0]?.title,
      changes: view.models[0]?.groups.flatMap((g) => g.changes.map((c) => c.label)),
      prd: writesTo('prd'),
      picks,
    },
    {
      title: 'Plan: apply the trigger files to prod-eu (production) (https://prd.example.invalid)',
      changes: ['api "Errors" (prd-7)'],
      prd: ['replace prd-7'],
      picks: [],
    },
  );
  const errors = services.prd?.triggers.find((t) => t.id === 'prd-7');
  assert.equal((errors?.threshold as { value?: number } | undefined)?.value, 9, "production's override is written");
});
