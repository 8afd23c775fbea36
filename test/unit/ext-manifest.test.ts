// The manifest parts that decide when the extension wakes up and what an idle view offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Manifest {
  activationEvents: string[];
  contributes: {
    configuration: { properties: Record<string, { default?: unknown }> };
    jsonValidation: { fileMatch: string[]; url: string }[];
    viewsWelcome: { view: string; contents: string; when: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    commands: { command: string }[];
    walkthroughs: {
      id: string;
      steps: {
        id: string;
        description: string;
        media: { image?: string; altText?: string };
        completionEvents: string[];
      }[];
    }[];
  };
}
// The manifest's user-facing texts are `%key%` references into package.nls.json: resolve them to the English
// text the editor shows.
const root = join(import.meta.dirname, '..', '..');
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'), (_key, value: unknown) =>
  typeof value === 'string' && /^%[^%\s]+%$/.test(value) ? nls[value.slice(1, -1)] : value,
) as Manifest;
const triggerFileDefaults = manifest.contributes.configuration.properties['obs.triggerFiles']?.default as string[];

test('activation is on the view, trigger files and JSON documents, never on startup', () => {
  const events = manifest.activationEvents;
  assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), events.join(', '));
  assert.ok(events.includes('onView:obs.datasets'));
  assert.ok(events.includes('onFileSystem:obs-trigger'), 'a restored obs-trigger: editor can load');
  for (const pattern of triggerFileDefaults) assert.ok(events.includes(`workspaceContains:${pattern}`), pattern);
  // workspaceContains is evaluated once, at startup: the first trigger file created later (or opened from
  // outside the workspace) is linted only because a JSON document activates the extension.
  assert.ok(events.includes('onLanguage:json'));
});

test('the editor schema (completion and hover, no validation) is attached to the default trigger-file patterns', () => {
  const validation = manifest.contributes.jsonValidation.find((v) => v.url === './schemas/trigger.editor.schema.json');
  assert.ok(validation);
  // A trigger test file or its recording kept under triggers/ is not a trigger file: the last matching pattern, an exclusion, wins.
  assert.deepEqual(validation.fileMatch, [
    ...triggerFileDefaults.map((p) => p.replace(/^\*\*\/(\*\.)/, '$1')),
    '!**/*.trigger-test.json',
    '!**/*.trigger-test.recording.json',
  ]);
});

test('trigger test files and their recordings get their own schemas (completion and validation), and only they do', () => {
  const validation = manifest.contributes.jsonValidation.find((v) => v.url === './schemas/trigger-test.schema.json');
  assert.deepEqual(validation?.fileMatch, ['*.trigger-test.json']);
  assert.ok(existsSync(join(root, 'schemas', 'trigger-test.schema.json')));
  const recording = manifest.contributes.jsonValidation.find(
    (v) => v.url === './schemas/trigger-test-recording.schema.json',
  );
  assert.deepEqual(recording?.fileMatch, ['*.trigger-test.recording.json']);
  assert.ok(existsSync(join(root, 'schemas', 'trigger-test-recording.schema.json')));
});

test('the welcome view tells "nothing configured" from "none active in this window" and offers Switch for the latter', () => {
  const welcome = manifest.contributes.viewsWelcome.filter((w) => w.view === 'obs.datasets');
  assert.deepEqual(
    welcome.map((w) => w.when),
    [
      '!obs.hasConnection && !obs.hasConnections && obs.sandbox.state != starting',
      '!obs.hasConnection && obs.sandbox.state == starting',
      '!obs.hasConnection && obs.hasConnections && obs.sandbox.state != starting',
    ],
  );
  assert.match(welcome[2]?.contents ?? '', /\[Switch Connection\.\.\.\]\(command:obs\.connection\.switch\)/);
});

test('while the sandbox starts the welcome view says so instead of "no connection"', () => {
  const starting = manifest.contributes.viewsWelcome.find((w) => w.when.includes('obs.sandbox.state == starting'));
  assert.match(starting?.contents ?? '', /^Starting the local sandbox\.\.\./);
});

test('Start Local Sandbox shows only while it does not run, Stop only while it runs, in the palette and the view menu', () => {
  const when = (menu: { command: string; when?: string }[], command: string): string | undefined =>
    menu.find((m) => m.command === command)?.when;
  const palette = manifest.contributes.menus['commandPalette'] ?? [];
  const title = manifest.contributes.menus['view/title'] ?? [];
  assert.equal(when(palette, 'obs.sandbox.start'), 'obs.sandbox.state != running');
  assert.equal(when(palette, 'obs.sandbox.stop'), 'obs.sandbox.state == running');
  assert.equal(when(title, 'obs.sandbox.start'), 'view == obs.datasets && obs.sandbox.state != running');
  assert.equal(when(title, 'obs.sandbox.stop'), 'view == obs.datasets && obs.sandbox.state == running');
});

test('the walkthrough guides through connecting, browsing, linting, querying, applying, burn alert and definitions files, testing and the noise report, with pictures from the real editor', () => {
  const [walkthrough, ...others] = manifest.contributes.walkthroughs;
  assert.equal(others.length, 0);
  assert.deepEqual(
    walkthrough?.steps.map((st) => st.id),
    ['connect', 'browse', 'lint', 'query', 'apply', 'sloFiles', 'test', 'noise'],
  );
  for (const step of walkthrough?.steps ?? []) {
    // Pictures load from the repository (as the README's do, docs/E2E.md's vsix test): the .vsix ships none.
    const picture = step.media.image?.replace(/^https:\/\/example\.invalid\/obs-vscode\/raw\/HEAD\//, '');
    assert.ok(
      picture !== step.media.image && picture?.startsWith('docs/images/') && existsSync(join(root, picture)),
      `${step.id}: picture ${step.media.image}`,
    );
    assert.ok((step.media.altText ?? '').length > 0, `${step.id}: the picture is described`);
    assert.ok(step.completionEvents.length > 0, `${step.id}: it can be completed`);
  }
});

/** VS Code's own commands a step may use: its views and the Test Explorer's Run All (the extension's tests run there). */
const WORKBENCH_COMMANDS = ['workbench.view.extension.obs', 'workbench.view.testing.focus', 'testing.runAll'];

test('the apply, test and noise steps link the commands that do what they say, and are done when one runs', () => {
  const steps = new Map((manifest.contributes.walkthroughs[0]?.steps ?? []).map((st) => [st.id, st]));
  const links = (id: string) =>
    [...(steps.get(id)?.description ?? '').matchAll(/\[([^\]]+)\]\(command:([\w.]+)\)/g)].map(
      (m) => `${m[1]} -> ${m[2]}`,
    );
  assert.deepEqual(links('apply'), [
    'Pull All Triggers to Files -> obs.pull.all',
    'Apply Trigger Files to the Service -> obs.apply.workspace',
  ]);
  assert.deepEqual(links('sloFiles'), [
    'Pull Burn Alerts to Files -> obs.pull.burnAlerts',
    'Pull Dataset Definitions to Files -> obs.pull.definitions',
  ]);
  assert.deepEqual(links('test'), [
    'Open the Test Explorer -> workbench.view.testing.focus',
    'Run All Tests -> testing.runAll',
  ]);
  assert.deepEqual(links('noise'), ['Show Noise Report -> obs.noise.show']);
  assert.deepEqual(
    ['apply', 'test', 'noise'].map((id) => steps.get(id)?.completionEvents),
    [
      ['onCommand:obs.apply.workspace', 'onCommand:obs.apply.file'],
      ['onCommand:testing.runAll'],
      ['onCommand:obs.noise.show'],
    ],
  );
});

test('every command a walkthrough step links to or completes on is one the extension contributes', () => {
  const contributed = new Set([...manifest.contributes.commands.map((c) => c.command), ...WORKBENCH_COMMANDS]);
  for (const step of manifest.contributes.walkthroughs[0]?.steps ?? []) {
    const linked = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1] ?? '');
    const completing = step.completionEvents
      .filter((e) => e.startsWith('onCommand:'))
      .map((e) => e.slice('onCommand:'.length));
    assert.ok(linked.length > 0, `${step.id} offers a button`);
    for (const command of [...linked, ...completing]) assert.ok(contributed.has(command), `${step.id}: ${command}`);
  }
});

test('the Drift view wakes the extension, and offers Refresh, Pull All and Apply in its title and a welcome per connection state', () => {
  const full = manifest as Manifest & { contributes: { views: Record<string, { id: string; visibility?: string }[]> } };
  // Collapsed at first, so that the Datasets view keeps the side bar's height until the user opens it.
  assert.deepEqual(
    full.contributes.views['obs']?.find((v) => v.id === 'obs.drift'),
    { id: 'obs.drift', name: 'Drift', visibility: 'collapsed' },
  );
  assert.ok(manifest.activationEvents.includes('onView:obs.drift'));
  assert.ok(
    manifest.activationEvents.includes('onFileSystem:obs-service-trigger'),
    "a restored diff with the service's side can load",
  );
  const title = (manifest.contributes.menus['view/title'] ?? []).filter((m) => m.when?.startsWith('view == obs.drift'));
  assert.deepEqual(
    title.map((m) => [m.command, m.when]),
    [
      ['obs.drift.refresh', 'view == obs.drift && obs.hasConnection'],
      ['obs.pull.all', 'view == obs.drift && obs.hasConnection'],
      ['obs.apply.workspace', 'view == obs.drift && obs.hasConnection'],
      ['obs.apply.toConnection', 'view == obs.drift && obs.hasConnections'],
    ],
  );
  assert.deepEqual(
    manifest.contributes.viewsWelcome.filter((w) => w.view === 'obs.drift').map((w) => w.when),
    ['!obs.hasConnection', 'obs.hasConnection'],
  );
});

test('Pull shows on dataset and environment items; from the palette only Pull All, which needs no item', () => {
  const when = (menu: string, command: string) =>
    (manifest.contributes.menus[menu] ?? []).filter((m) => m.command === command).map((m) => m.when);
  assert.deepEqual(when('view/item/context', 'obs.pull.dataset'), [
    'view == obs.datasets && viewItem =~ /^obs:(dataset|environment)(:|$)/',
  ]);
  assert.deepEqual(when('commandPalette', 'obs.pull.dataset'), ['false']);
  assert.deepEqual(when('commandPalette', 'obs.pull.environment'), ['false']);
  assert.deepEqual(when('commandPalette', 'obs.pull.all'), ['obs.hasConnection']);
});

test('Compare with Service shows for *.trigger.json files in the editor title, the Explorer and the palette', () => {
  const when = (menu: string) =>
    (manifest.contributes.menus[menu] ?? []).filter((m) => m.command === 'obs.drift.compare').map((m) => m.when);
  assert.deepEqual(when('editor/title'), [
    'resourceFilename =~ /\\.trigger\\.json$/ && resourceScheme == file && !isInDiffEditor',
  ]);
  assert.deepEqual(when('explorer/context'), ['resourceFilename =~ /\\.trigger\\.json$/']);
  assert.deepEqual(when('commandPalette'), ['resourceFilename =~ /\\.trigger\\.json$/']);
});

test('Apply shows only with a connection: on files and triggers that differ or are only local, on trigger, burn alert and definitions files, Delete only on a trigger only on the service', () => {
  const when = (menu: string, command: string) =>
    (manifest.contributes.menus[menu] ?? []).filter((m) => m.command === command).map((m) => m.when);
  assert.deepEqual(when('view/item/context', 'obs.apply.file'), [
    'view == obs.drift && obs.hasConnection && viewItem =~ /^obs:drift:(differs|local-only)$/',
    'view == obs.drift && obs.hasConnection && viewItem =~ /^obs:drift:(differs|local-only|difference)$/',
    // A burn alert or definitions file the service does not have (slo:local-only) cannot be applied: nothing is created.
    'view == obs.drift && obs.hasConnection && viewItem == obs:drift:slo:differs',
    'view == obs.drift && obs.hasConnection && viewItem =~ /^obs:drift:slo:(differs|difference)$/',
  ]);
  assert.deepEqual(when('view/item/context', 'obs.apply.delete'), [
    'view == obs.drift && obs.hasConnection && viewItem == obs:drift:serviceOnly',
  ]);
  assert.deepEqual(when('commandPalette', 'obs.apply.delete'), ['false']);
  assert.deepEqual(when('commandPalette', 'obs.apply.workspace'), ['obs.hasConnection']);
  assert.deepEqual(when('commandPalette', 'obs.apply.toConnection'), ['obs.hasConnections']);
  const files = 'resourceFilename =~ /\\.(trigger|burn-alert|definitions)\\.json$/';
  assert.deepEqual(when('commandPalette', 'obs.apply.file'), [`obs.hasConnection && ${files}`]);
  // Trigger files have the Apply lens; burn alert and definitions files have it only when they differ: their title bar offers it always.
  assert.deepEqual(when('editor/title', 'obs.apply.file'), [
    'obs.hasConnection && resourceFilename =~ /\\.(burn-alert|definitions)\\.json$/ && resourceScheme == file && !isInDiffEditor',
  ]);
  assert.deepEqual(when('explorer/context', 'obs.apply.workspace'), [
    `obs.hasConnection && (explorerResourceIsFolder || ${files})`,
  ]);
  assert.deepEqual(when('explorer/context', 'obs.apply.toConnection'), [
    `obs.hasConnections && (explorerResourceIsFolder || ${files})`,
  ]);
});

test('the pull folder setting defaults to "triggers"', () => {
  assert.equal(manifest.contributes.configuration.properties['obs.pullFolder']?.default, 'triggers');
});

test('the Drift welcome has no button of the Datasets welcome (one "Try the Local Sandbox" in the side bar)', () => {
  const drift = manifest.contributes.viewsWelcome
    .filter((w) => w.view === 'obs.drift')
    .map((w) => w.contents)
    .join('\n');
  const datasets = manifest.contributes.viewsWelcome
    .filter((w) => w.view === 'obs.datasets')
    .map((w) => w.contents)
    .join('\n');
  const buttons = (text: string) => [...text.matchAll(/\[([^\]]+)\]\(command:/g)].map((m) => m[1]);
  assert.deepEqual(
    buttons(drift).filter((b) => buttons(datasets).includes(b)),
    [],
  );
});

test('a trigger opened read-only from the service offers Export to a File in its editor title and the palette, and only there', () => {
  const when = (menu: string) =>
    (manifest.contributes.menus[menu] ?? []).filter((m) => m.command === 'obs.trigger.exportOpen').map((m) => m.when);
  assert.deepEqual(when('editor/title'), ['resourceScheme == obs-trigger']);
  assert.deepEqual(when('commandPalette'), ['resourceScheme == obs-trigger']);
});
