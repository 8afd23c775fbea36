// Triggers as code in a fake editor (vscode-fake.ts) with the built dist/sync-host.js: activation registers
// the commands and the Drift view but loads drift only when something needs it (an active connection and a
// trigger file, or the Drift view shown), and a branch switch of 4,000 trigger files redraws each view once.
// Work is counted (bundle loads, view change events), never timed.
import { fake, fileUri, jobsDone, settle, TextDocument, Uri } from './vscode-fake';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { triggerFileText, type ServiceTrigger, type TriggerLister } from '../../src/triggerFiles';
import { serviceTrigger } from './serviceTriggers';
import type { ConnectionManager } from '../../src/extension/connections';
import { Feedback } from '../../src/extension/core/feedback';
import { Emitter } from '../../src/extension/core/memento';
import { Settings } from '../../src/extension/core/settings';
import { ApplyLocks } from '../../src/extension/core/applyLocks';
import { registerSync } from '../../src/extension/sync/registerSync';

const root = join(import.meta.dirname, '..', '..');
const quietLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const trigger = (id: string, name: string, value = 5): ServiceTrigger => serviceTrigger(id, name, 'api', value);

/** registerSync as activation calls it, over the fake workspace `/w` holding `files`, with or without an active connection. */
function activate(files: Record<string, string>, options: { connected: boolean; service?: readonly ServiceTrigger[] }) {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  for (const [uri, text] of Object.entries(files)) fake.files.set(uri, text);
  const service: TriggerLister = {
    listTriggers: () => Promise.resolve({ data: structuredClone([...(options.service ?? [])]) }),
  };
  const profile = {
    id: 'c1',
    name: 'prod',
    baseUrl: 'https://api.example.invalid',
    uiUrl: '',
    team: 't',
    environmentId: 'e',
  };
  let active = options.connected;
  const changed = new Emitter<void>();
  const connections = {
    activeProfile: () => (active ? profile : undefined),
    getActive: () => Promise.resolve(active ? { profile, client: service } : undefined),
    onDidChangeActive: changed.event,
  } as unknown as ConnectionManager;
  const settings = new Settings({
    get: () => undefined,
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  });
  const sync = registerSync(
    {
      connections,
      settings,
      feedback: new Feedback(quietLog, () => undefined),
      datasets: () => [],
      lint: () => Promise.resolve([]),
      onTriggersWritten: () => undefined,
      applyLocks: new ApplyLocks(),
    },
    Uri.file(root),
  );
  const view = fake.treeViews.find((v) => v.id === 'obs.drift');
  assert.ok(view, 'the Drift view is registered at activation');
  return {
    view,
    connect: () => {
      active = true;
      changed.fire();
    },
    dispose: () => sync.disposables.forEach((d) => d.dispose()),
  };
}

/** Whether dist/sync-host.js was loaded and started (it registers the Explorer badges). */
const driftLoaded = (): boolean => fake.decorationProviders.length > 0;

/**
 * Activation's own look for a reason to load drift is done: it is deferred with a timer of 0 ms, set before
 * this one (timers of one delay fire in the order they were set), and what it asks the fake editor is
 * answered at once (jobsDone). No quiet spell is waited for.
 */
async function activationLooked(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  await jobsDone();
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await settle(10);
  assert.ok(ok(), `timed out waiting for ${what}`);
}

const FILES = { 'file:///w/triggers/errors.trigger.json': triggerFileText(trigger('t1', 'Errors')) };

test('without an active connection, activation loads no drift, trigger files or not; the Drift view shows its welcome', async () => {
  const { view, dispose } = activate(FILES, { connected: false });
  try {
    await activationLooked();
    assert.equal(driftLoaded(), false);
    assert.deepEqual(await view.provider.getChildren(), []);
    fake.documents.push(
      new TextDocument(
        Uri.parse('file:///w/triggers/errors.trigger.json'),
        FILES['file:///w/triggers/errors.trigger.json'],
      ),
    );
    fake.events.open.fire(fake.documents[0] as TextDocument);
    await jobsDone();
    assert.equal(driftLoaded(), false);
  } finally {
    dispose();
  }
});

test('with an active connection but no trigger file in the workspace, drift is not loaded until a trigger file is created', async () => {
  const { dispose } = activate({ 'file:///w/package.json': '{}' }, { connected: true });
  try {
    await activationLooked();
    assert.equal(driftLoaded(), false);
    fake.files.set('file:///w/new.trigger.json', '{}');
    fake.fileEvent('created', Uri.parse('file:///w/new.trigger.json'));
    await jobsDone();
    assert.equal(driftLoaded(), true);
  } finally {
    dispose();
  }
});

test('an active connection and a trigger file in the workspace load drift once activation is done, and only then', async () => {
  const { dispose } = activate(FILES, { connected: true });
  try {
    assert.equal(driftLoaded(), false);
    await activationLooked();
    assert.equal(driftLoaded(), true);
  } finally {
    dispose();
  }
});

test('a connection made active later, or the Drift view shown with one, loads drift', async () => {
  const first = activate({ 'file:///w/package.json': '{}' }, { connected: false });
  try {
    await activationLooked();
    first.connect();
    await jobsDone();
    assert.equal(driftLoaded(), false, 'no trigger file, Drift view hidden');
    first.view.visible = true;
    first.view.visibility.fire({ visible: true });
    await jobsDone();
    assert.equal(driftLoaded(), true);
  } finally {
    first.dispose();
  }
  const second = activate(FILES, { connected: false });
  try {
    await activationLooked();
    assert.equal(driftLoaded(), false);
    second.connect();
    await jobsDone();
    assert.equal(driftLoaded(), true);
  } finally {
    second.dispose();
  }
});

test('a branch switch changing 4,000 trigger files redraws the Drift view, the badges and the lenses once each', async () => {
  const service = Array.from({ length: 4000 }, (_, i) => trigger(`t${i}`, `T${i}`));
  const files: Record<string, string> = {};
  service.forEach((t, i) => (files[fileUri(`triggers/api/t${i}.trigger.json`).toString()] = triggerFileText(t)));
  const { view, dispose } = activate(files, { connected: true, service });
  try {
    await until('every file compared', () => /^4000 in sync/.test(view.message ?? ''));
    const counts = { tree: 0, badges: 0, badgeUris: 0, lenses: 0 };
    const events = <T>(provider: unknown, name: string) =>
      (provider as Record<string, (l: (e: T) => void) => unknown>)[name];
    events(view.provider, 'onDidChangeTreeData')?.(() => counts.tree++);
    events<unknown[] | undefined>(
      fake.decorationProviders[0],
      'onDidChangeFileDecorations',
    )?.((uris) => {
      counts.badges++;
      counts.badgeUris += uris?.length ?? 0;
    });
    events(fake.codeLensProviders[0], 'onDidChangeCodeLenses')?.(() => counts.lenses++);
    // git checkout: every file gets another threshold, and the watcher reports each.
    service.forEach((t, i) => {
      const uri = fileUri(`triggers/api/t${i}.trigger.json`);
      fake.files.set(uri.toString(), triggerFileText({ ...t, threshold: { op: '>', value: 9, exceeded_limit: 1 } }));
      fake.fileEvent('changed', uri);
    });
    await until('every file compared again', () => /^4000 differ/.test(view.message ?? ''));
    await settle(200);
    assert.deepEqual(counts, { tree: 1, badges: 1, badgeUris: 4000, lenses: 1 });
    const roots = (await view.provider.getChildren()) as unknown[];
    assert.equal(roots.length, 4000);
  } finally {
    dispose();
  }
});
