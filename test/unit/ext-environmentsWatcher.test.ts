// core/environmentsWatcher.ts: each workspace folder's environments file read on start and on its file events
// (a burst read once), its mistakes shown in it at their place, and a broken file naming no environment.
import { fake, fileUri, Uri } from './vscode-fake';
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readEnvironmentsFile } from '../../src/extension/core/environmentsReader';
import { EnvironmentsWatcher } from '../../src/extension/core/environmentsWatcher';
import { Settings, type ConfigurationSource } from '../../src/extension/core/settings';
import { WorkspaceEnvironments } from '../../src/extension/core/workspaceEnvironments';

const GOOD = JSON.stringify({ home: 'staging', environments: { staging: {}, production: { connection: 'Prod' } } });
const BROKEN = '{\n  "home": "prod",\n  "environments": { "staging": { "connection": "Prod" } }\n}';

function settings(values: Record<string, unknown> = {}): Settings {
  const source: ConfigurationSource = {
    get: (key) => values[key],
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  };
  return new Settings(source);
}

/** The watcher over one folder, file:///w, and the next change of what it read. */
function start(values: Record<string, unknown> = {}) {
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  const environments = new WorkspaceEnvironments();
  const read = (): Promise<void> => new Promise((resolve) => environments.onDidChange(() => resolve()));
  const first = read();
  const watcher = new EnvironmentsWatcher(settings(values), environments, () => readEnvironmentsFile);
  const problems = (uri: Uri) => fake.collections.find((c) => c.name === 'obs-environments')?.get(uri);
  return { environments, watcher, first, read, problems };
}

afterEach(() => fake.reset());

test("a folder's environments file is read at start and names its connections' environments", async () => {
  fake.files.set(fileUri('obs.environments.json').toString(), GOOD);
  const { environments, watcher, first, problems } = start();
  await first;
  assert.deepEqual(environments.environmentsOfConnection('Prod'), [
    { folder: 'file:///w', environment: 'production', home: false },
  ]);
  assert.deepEqual(problems(fileUri('obs.environments.json')), []);
  watcher.dispose();
});

test('a mistake is shown at its place in the file, and the broken file names no environment', async () => {
  fake.files.set(fileUri('obs.environments.json').toString(), BROKEN);
  const { environments, watcher, first, problems } = start();
  await first;
  const shown = (problems(fileUri('obs.environments.json')) ?? []).map((d) => [
    d.message,
    d.range.start.line,
    d.range.start.character,
  ]);
  assert.deepEqual(shown, [['home must name one of the environments (staging)', 1, 2]]);
  assert.deepEqual(environments.environmentsOfConnection('Prod'), []);
  watcher.dispose();
});

test('the file of the setting obs.environmentsFile is read, and read again on its change', async () => {
  const uri = fileUri('deploy/envs.json');
  fake.files.set(uri.toString(), BROKEN);
  const { environments, watcher, first, read } = start({ 'obs.environmentsFile': 'deploy/envs.json' });
  await first;
  assert.deepEqual(environments.environmentsOfConnection('Prod'), []);
  fake.files.set(uri.toString(), GOOD);
  const again = read();
  const fileWatcher = fake.watchers.find(
    (w) => typeof w.pattern !== 'string' && w.pattern.pattern === 'deploy/envs.json',
  );
  assert.ok(fileWatcher !== undefined, 'the file is watched');
  fileWatcher.changed.fire(uri);
  fileWatcher.changed.fire(uri);
  await again;
  assert.deepEqual(
    environments.environmentsOfConnection('Prod').map((e) => e.environment),
    ['production'],
  );
  assert.equal(fake.reads, 2);
  watcher.dispose();
});
