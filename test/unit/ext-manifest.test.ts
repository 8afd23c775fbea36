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
    walkthroughs: { id: string; steps: { id: string; description: string; media: { image?: string; altText?: string }; completionEvents: string[] }[] }[];
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
  assert.deepEqual(validation.fileMatch, triggerFileDefaults.map((p) => p.replace(/^\*\*\/(\*\.)/, '$1')));
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
  const when = (menu: { command: string; when?: string }[], command: string): string | undefined => menu.find((m) => m.command === command)?.when;
  const palette = manifest.contributes.menus['commandPalette'] ?? [];
  const title = manifest.contributes.menus['view/title'] ?? [];
  assert.equal(when(palette, 'obs.sandbox.start'), 'obs.sandbox.state != running');
  assert.equal(when(palette, 'obs.sandbox.stop'), 'obs.sandbox.state == running');
  assert.equal(when(title, 'obs.sandbox.start'), 'view == obs.datasets && obs.sandbox.state != running');
  assert.equal(when(title, 'obs.sandbox.stop'), 'view == obs.datasets && obs.sandbox.state == running');
});

test('the walkthrough guides through connecting, browsing, linting and querying, with pictures from the real editor', () => {
  const [walkthrough, ...others] = manifest.contributes.walkthroughs;
  assert.equal(others.length, 0);
  assert.deepEqual(walkthrough?.steps.map((st) => st.id), ['connect', 'browse', 'lint', 'query']);
  for (const step of walkthrough?.steps ?? []) {
    assert.ok(step.media.image?.startsWith('docs/images/') && existsSync(join(root, step.media.image)), `${step.id}: picture ${step.media.image}`);
    assert.ok((step.media.altText ?? '').length > 0, `${step.id}: the picture is described`);
    assert.ok(step.completionEvents.length > 0, `${step.id}: it can be completed`);
  }
});

test('every command a walkthrough step links to or completes on is one the extension contributes', () => {
  const contributed = new Set([...manifest.contributes.commands.map((c) => c.command), 'workbench.view.extension.obs']);
  for (const step of manifest.contributes.walkthroughs[0]?.steps ?? []) {
    const linked = [...step.description.matchAll(/\(command:([\w.]+)\)/g)].map((m) => m[1] ?? '');
    const completing = step.completionEvents.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length));
    assert.ok(linked.length > 0, `${step.id} offers a button`);
    for (const command of [...linked, ...completing]) assert.ok(contributed.has(command), `${step.id}: ${command}`);
  }
});
