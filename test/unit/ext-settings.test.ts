// core/settings.ts: every obs.* setting typed with its default, one change event (also for the sandbox's
// metrics datasets), and where "Mark as Metrics Dataset" writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import {
  DEFAULT_TRIGGER_FILES,
  Settings,
  type ConfigurationSource,
  type ConfigurationTarget,
  type SettingName,
} from '../../src/extension/core/settings';

/** Settings over plain maps: the workspace's values win over the user's, as in VS Code. */
function source(user: Record<string, unknown> = {}, workspace: Record<string, unknown> = {}) {
  const listeners: ((affects: (key: string) => boolean) => void)[] = [];
  const updates: { key: string; value: unknown; target: ConfigurationTarget }[] = [];
  const src: ConfigurationSource = {
    get: (key) => (key in workspace ? workspace[key] : user[key]),
    inspect: (key) => ({ workspaceValue: workspace[key], globalValue: user[key] }),
    update: async (key, value, target) => {
      updates.push({ key, value, target });
      (target === 'workspace' ? workspace : user)[key] = value;
    },
    onDidChange: (listener) => {
      listeners.push(listener);
      return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
    },
  };
  const change = (...keys: string[]): void => listeners.forEach((l) => l((k) => keys.includes(k)));
  return { src, updates, change, listeners };
}

function record(settings: Settings): SettingName[][] {
  const seen: SettingName[][] = [];
  settings.onDidChange((names) => seen.push([...names].sort()));
  return seen;
}

test('unset settings read as their defaults', () => {
  const s = new Settings(source().src);
  assert.equal(s.concurrency(), 4);
  assert.deepEqual(s.metricsDatasets(), []);
  assert.deepEqual(s.triggerFiles(), [...DEFAULT_TRIGGER_FILES]);
  assert.equal(s.rulesDocsUrl(), undefined);
  assert.deepEqual(s.caCertificates(), []);
  assert.equal(s.httpProxy(), undefined);
});

test('values of the wrong type read as the default, and entries that are not strings are dropped', () => {
  const s = new Settings(
    source({
      'obs.concurrency': '8',
      'obs.triggerFiles': ['a/*.json', 7, '  ', 'b/**/*.json'],
      'obs.caCertificates': [1, '/ca.pem'],
      'http.proxy': '',
    }).src,
  );
  assert.equal(s.concurrency(), 4);
  assert.deepEqual(s.triggerFiles(), ['a/*.json', 'b/**/*.json']);
  assert.deepEqual(s.caCertificates(), ['/ca.pem']);
  assert.equal(s.httpProxy(), undefined);
});

test('a trigger-files setting that is not a list falls back to the default patterns', () => {
  assert.deepEqual(new Settings(source({ 'obs.triggerFiles': '**/*.json' }).src).triggerFiles(), [
    ...DEFAULT_TRIGGER_FILES,
  ]);
});

test("metrics datasets are the setting's and the sandbox's, each once, sorted", () => {
  const s = new Settings(source({ 'obs.metricsDatasets': ['zeta', 'alpha', 3] }).src);
  s.setSessionMetricsDatasets(['metrics-hosts', 'alpha']);
  assert.deepEqual(s.metricsDatasets(), ['alpha', 'metrics-hosts', 'zeta']);
  s.setSessionMetricsDatasets([]);
  assert.deepEqual(s.metricsDatasets(), ['alpha', 'zeta']);
});

test('the sandbox changing the metrics datasets fires one change, and none when the list is the same', () => {
  const s = new Settings(source().src);
  const seen = record(s);
  s.setSessionMetricsDatasets(['metrics-hosts']);
  s.setSessionMetricsDatasets(['metrics-hosts']);
  s.setSessionMetricsDatasets([]);
  assert.deepEqual(seen, [['metricsDatasets'], ['metricsDatasets']]);
});

test('a configuration change names exactly the settings it affects', () => {
  const { src, change } = source();
  const s = new Settings(src);
  const seen = record(s);
  change('obs.concurrency', 'http.proxy', 'editor.fontSize');
  change('editor.tabSize');
  assert.deepEqual(seen, [['concurrency', 'httpProxy']]);
});

test('marking a metrics dataset adds it to the user settings, sorted and once', async () => {
  const { src, updates } = source({ 'obs.metricsDatasets': ['zeta'] });
  const s = new Settings(src);
  await s.markMetricsDataset('alpha', true);
  await s.markMetricsDataset('alpha', true);
  assert.deepEqual(
    updates.map((u) => [u.target, u.value]),
    [
      ['global', ['alpha', 'zeta']],
      ['global', ['alpha', 'zeta']],
    ],
  );
});

test('marking goes to the workspace settings when the workspace sets the list, and unmarking removes it there', async () => {
  const { src, updates } = source(
    { 'obs.metricsDatasets': ['user-one'] },
    { 'obs.metricsDatasets': ['ws-one', 'ws-two'] },
  );
  const s = new Settings(src);
  await s.markMetricsDataset('ws-one', false);
  assert.deepEqual(updates, [{ key: 'obs.metricsDatasets', value: ['ws-two'], target: 'workspace' }]);
});

test('dispose stops listening to the configuration', () => {
  const { src, listeners } = source();
  const s = new Settings(src);
  assert.equal(listeners.length, 1);
  s.dispose();
  assert.equal(listeners.length, 0);
});

test('the pull folder is "triggers" when unset, blank or not a string, else the value trimmed', () => {
  assert.equal(new Settings(source().src).pullFolder(), 'triggers');
  assert.equal(new Settings(source({ 'obs.pullFolder': '   ' }).src).pullFolder(), 'triggers');
  assert.equal(new Settings(source({ 'obs.pullFolder': 3 }).src).pullFolder(), 'triggers');
  assert.equal(new Settings(source({ 'obs.pullFolder': ' alerting/triggers ' }).src).pullFolder(), 'alerting/triggers');
});

test("the noise report's budget: a whole number of at least 0, else the default 7", () => {
  const read = (value: unknown) =>
    new Settings(source({ 'obs.noise.maxNotificationsPerWeek': value }).src).noiseMaxPerWeek();
  assert.deepEqual([read(3), read(0), read(undefined), read(-1), read(2.5), read('9')], [3, 0, 7, 7, 7, 7]);
});

test("the proxy is VS Code's http.proxy: the manifest contributes no proxy setting, and no text names an obs.* one", () => {
  const root = new URL('../../', import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, unknown> } };
  };
  assert.deepEqual(
    Object.keys(manifest.contributes.configuration.properties).filter((k) => /proxy/i.test(k)),
    [],
  );
  const texts = ['package.json', 'package.nls.json', 'README.md'];
  for (const dir of ['src', 'docs', 'l10n']) {
    for (const f of readdirSync(new URL(dir, root), { recursive: true, encoding: 'utf8' })) {
      if (/\.(ts|md|json)$/.test(f)) texts.push(`${dir}/${f}`);
    }
  }
  const naming = texts.filter((f) => /\bobs\.[\w.]*proxy/i.test(readFileSync(new URL(f, root), 'utf8')));
  assert.deepEqual(naming, []);
});

test('the burn alert and definitions pull folders are those obs pull writes by default, else the value trimmed', () => {
  assert.equal(new Settings(source().src).burnAlertPullFolder(), 'burn-alerts');
  assert.equal(new Settings(source().src).definitionsPullFolder(), 'definitions');
  const set = { 'obs.burnAlertPullFolder': ' slo/alerts ', 'obs.definitionsPullFolder': ' ' };
  assert.equal(new Settings(source(set).src).burnAlertPullFolder(), 'slo/alerts');
  assert.equal(new Settings(source(set).src).definitionsPullFolder(), 'definitions');
});

test("the environments file is obs.environments.json at a folder's root unless set, else the value trimmed", () => {
  assert.equal(new Settings(source().src).environmentsFile(), 'obs.environments.json');
  assert.equal(new Settings(source({ 'obs.environmentsFile': ' ' }).src).environmentsFile(), 'obs.environments.json');
  const set = { 'obs.environmentsFile': ' deploy/envs.json ' };
  assert.equal(new Settings(source(set).src).environmentsFile(), 'deploy/envs.json');
});
