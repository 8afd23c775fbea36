// The demo workspace (demo/workspace, what `npm run demo` and the UI suites open) against the sandbox's
// demo data: its trigger files are a pull of the sandbox's triggers, so a fresh demo greets the user with
// no drift badge; one draft trigger (not on the service yet) holds lint problems to fix; every file names
// a dataset the sandbox has, and none holds a hostile string (those stay in the sandbox's own dataset).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { globSync } from 'tinyglobby';
import { ServiceClient } from '../../src/api/client';
import { lint } from '../../src/lint';
import { DEMO, HOSTILE, startSandbox, type SandboxHandle } from '../../src/sandbox';
import {
  datasetsOfFiles,
  driftCounts,
  driftOfFile,
  onlyOnService,
  readTriggerFile,
  ServiceIndex,
  type FileDrift,
} from '../../src/triggerFiles';
import { draftsOf, driftBadgeCount, driftSummary } from '../../src/extension/sync/driftPresentation';

const workspace = join(import.meta.dirname, '..', '..', 'demo', 'workspace');
const files = globSync('**/*.trigger.json', { cwd: workspace }).sort();
const text = (file: string) => readFileSync(join(workspace, file), 'utf8');

let sandbox: SandboxHandle;
let client: ServiceClient;
before(async () => {
  sandbox = await startSandbox({ rateLimit: 10_000 });
  client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
});
after(async () => {
  await client.close();
  await sandbox.close();
});

test('every trigger file is in sync with the sandbox but the draft, which is no drift: no badge, nothing only on the service', async () => {
  const read = files.map((f) => [f, readTriggerFile(text(f))] as const);
  const index = new ServiceIndex();
  for (const dataset of datasetsOfFiles(read.map(([, r]) => r))) {
    index.add(dataset, {
      state: 'listed',
      triggers: (await client.listTriggers(dataset === 'all' ? '__all__' : dataset)).data,
    });
  }
  const drift: FileDrift[] = read.map(([f, r]) => driftOfFile(f, r, index));
  const only = onlyOnService(drift, index);
  const snapshot = {
    state: { kind: 'ready' as const, connection: 'Sandbox' },
    files: drift,
    onlyOnService: only,
    counts: driftCounts(drift, only),
    drafts: draftsOf(drift),
    sloFiles: [],
    sloCounts: { inSync: 0, differs: 0, missing: 0, unknown: 0 },
  };
  assert.deepEqual(
    drift.filter((d) => d.status !== 'in-sync').map((d) => [d.file, d.status, d.triggers[0]?.draft]),
    [['triggers/error-burst.trigger.json', 'local-only', true]],
  );
  assert.deepEqual(
    only.map((t) => t.id),
    [],
    "the hostile strings' triggers are of a dataset the workspace does not hold",
  );
  assert.equal(driftBadgeCount(snapshot), 0);
  assert.equal(driftSummary(snapshot), `1 new (not on the service yet), ${files.length - 1} in sync (Sandbox)`);
});

test('every file names a dataset the sandbox has, and holds no hostile string', () => {
  const slugs = new Set([...sandbox.state.datasets.map((d) => d.slug), 'all']);
  for (const f of files) {
    const dataset = (JSON.parse(text(f)) as { dataset_slug?: string }).dataset_slug;
    assert.ok(dataset !== undefined && slugs.has(dataset) && dataset !== DEMO.datasets.hostile, `${f}: ${dataset}`);
    for (const s of Object.values(HOSTILE)) assert.equal(text(f).includes(s), false, `${f} holds ${s}`);
  }
});

test("the draft has the lint problems to fix; the pulled files have none but the legacy trigger's warnings", () => {
  // The workspace declares its metrics datasets in its settings, as a repository of trigger files would.
  const settings = JSON.parse(text('.vscode/settings.json')) as { 'obs.metricsDatasets': string[] };
  const options = {
    datasets: sandbox.state.datasets.map((d) => d.slug),
    metricsDatasets: settings['obs.metricsDatasets'],
  };
  const problems = (f: string) => lint(text(f), options).map((d) => `${d.severity} ${d.rule}`);
  assert.deepEqual(problems('triggers/error-burst.trigger.json'), [
    'error query/refused-member',
    'error query/time-range-max',
    'warning trigger/recipient-deprecated',
  ]);
  const pulled = files.filter((f) => f !== 'triggers/error-burst.trigger.json' && !f.includes('Legacy-settings'));
  assert.deepEqual(
    pulled.flatMap((f) => problems(f).map((p) => `${relative('triggers', f)}: ${p}`)),
    [],
  );
});
