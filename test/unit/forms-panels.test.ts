// The forms' panels (the vscode adapter of the forms) in plain Node with a fake `vscode`: what a closed tab
// does to edits not saved and to a created key's secret not copied, the tab's dirty mark, and a form
// re-bound to its connection when it comes back. The fake editor only reports what VS Code would (a tab
// per panel, a diff tab per `vscode.diff`, a closed panel tab disposes its panel); the rest is the code's.
import {
  asked,
  answers,
  clipboard,
  editor,
  FakeConnections,
  jobsDone,
  openDiffTab,
  panels,
  type FakeWebviewPanel,
} from './forms-panels-fake';
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceClient } from '../../src/api';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { FormPanels, type FormsDeps } from '../../src/extension/forms/panels';
import { Feedback } from '../../src/extension/core/feedback';
import type { SavedSlo } from '../../src/triggerFiles';
import { ApiKeyPanels } from '../../src/extension/forms/apiKeyPanels';
import { BurnAlertPanel } from '../../src/extension/forms/burnAlertPanel';
import { DefinitionsPanel } from '../../src/extension/forms/definitionsPanel';
import { FormFiles } from '../../src/extension/forms/formFiles';
import { ReviewDocuments } from '../../src/extension/forms/reviewDocuments';
import { KeyRegistry } from '../../src/extension/tree/keyRegistry';
import { MemoryMemento } from '../../scripts/memoryMemento';
import { Uri } from './vscode-fake';

let sandbox: SandboxHandle;
const clients: ServiceClient[] = [];
before(async () => {
  sandbox = await startSandbox({ rateLimit: 100_000 });
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sandbox.close();
});
afterEach(() => {
  panels.splice(0);
  editor.tabs = [];
  editor.closedByExtension = [];
  asked.splice(0);
  clipboard.splice(0);
  answers.answer = () => undefined;
});

function world() {
  const connections = new FakeConnections(
    {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: sandbox.info.baseUrl,
      uiUrl: sandbox.info.uiUrl,
      team: sandbox.info.team,
      environmentId: sandbox.info.environmentId,
    },
    () => {
      const c = new ServiceClient({
        baseUrl: sandbox.info.baseUrl,
        configKey: sandbox.info.configKey,
        managementKey: sandbox.info.managementKey,
      });
      clients.push(c);
      return c;
    },
  );
  const keys = new KeyRegistry(new MemoryMemento());
  const logs: string[] = [];
  const note = (m: string): void => void logs.push(m);
  const log = { debug: note, info: note, warn: note, error: note };
  /** The connections a form saved a burn alert or definitions to, as drift is told. */
  const sloSaved: { connectionId: string; saved: SavedSlo }[] = [];
  const deps: FormsDeps = {
    extensionUri: Uri.file('/ext'),
    connections,
    keys,
    feedback: new Feedback(log, () => undefined),
    refreshTree: () => undefined,
    onSloSaved: (connectionId, saved) => void sloSaved.push({ connectionId, saved }),
    reviews: new ReviewDocuments(),
    filePatterns: { burnAlert: () => ['**/*.burn-alert.json'], definitions: () => ['**/*.definitions.json'] },
  };
  const formPanels = new FormPanels(deps);
  const apiKeys = new ApiKeyPanels(formPanels).handlers();
  const burnAlerts = new BurnAlertPanel(formPanels, new FormFiles(deps.filePatterns)).handlers();
  const definitions = new DefinitionsPanel(formPanels, new FormFiles(deps.filePatterns)).handlers();
  const commands = { ...apiKeys.commands, ...burnAlerts.commands, ...definitions.commands };
  return { formPanels, keys, connections, commands, logs, sloSaved };
}

const open = () => panels.filter((p) => !p.disposed);
/** What the panel's tab shows. */
const tabLabel = (panel: FakeWebviewPanel): string | undefined => editor.tabOf(panel)?.label;

/** The host is done with what it was told: requests to the sandbox are awaited, the fakes' answers taken in. */
async function hostDone(w: ReturnType<typeof world>): Promise<void> {
  await jobsDone();
  await Promise.all([...w.formPanels.openControllers().values()].map((c) => c.whenIdle()));
  await jobsDone();
}

/** The page of `panel` says something, and the host is done with it. */
async function say(w: ReturnType<typeof world>, panel: FakeWebviewPanel, message: unknown): Promise<void> {
  panel.fromPage(message);
  await hostDone(w);
}

/** The user closes the panel's tab, and the host is done with what that started. */
async function closeTab(w: ReturnType<typeof world>, panel: FakeWebviewPanel): Promise<void> {
  editor.userCloses(editor.tabOf(panel));
  await hostDone(w);
}

const createValues = (name: string) => ({
  name,
  keyType: 'ingest',
  disabled: false,
  createDatasets: false,
  environmentId: sandbox.info.environmentId,
});

describe('a created key whose secret was not copied', () => {
  test('closing its tab opens the panel again with the secret, named as the key is named now; nothing is asked after the fact', async () => {
    const w = world();
    await w.commands['obs.apiKey.create']?.(undefined);
    const first = open()[0];
    assert.ok(first);
    await say(w, first, { type: 'ready' });
    await say(w, first, { type: 'submitCreate', values: createValues('before rename') });
    const created = first.ofType('created')[0]?.key as { id: string; secret: string };
    assert.match(created.secret, /\S{8,}/);
    assert.equal(tabLabel(first), '\u25CF Create API Key - Sandbox', 'the tab shows there is something to lose');
    await w.keys.update('sandbox', created.id, { name: 'renamed since' });

    await closeTab(w, first);
    assert.deepEqual(asked, [], 'no question once the panel is gone');
    const again = open();
    assert.equal(again.length, 1, 'the panel is open again');
    const second = again[0] as FakeWebviewPanel;
    assert.equal(tabLabel(second), '\u25CF Create API Key - Sandbox');
    await say(w, second, { type: 'ready' });
    const shown = second.ofType('created')[0] as {
      key: { id: string; name: string; secret: string };
      notes?: string[];
    };
    assert.deepEqual(shown.key, { id: created.id, name: 'renamed since', secret: created.secret });
    assert.match(shown.notes?.[0] ?? '', /closed before the secret was copied/);

    await say(w, second, { type: 'copy', what: 'secret' });
    assert.deepEqual(clipboard, [created.secret]);
    assert.equal(tabLabel(second), 'Create API Key - Sandbox', 'copied: nothing to lose any more');
    await closeTab(w, second);
    assert.equal(open().length, 0, 'a copied secret does not bring the panel back');
    assert.deepEqual(editor.tabs, []);
  });

  test('the Close button asks while the panel is still open (Cancel keeps it), naming the key as renamed', async () => {
    const w = world();
    await w.commands['obs.apiKey.create']?.(undefined);
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    await say(w, panel, { type: 'submitCreate', values: createValues('old name') });
    const id = (panel.ofType('created')[0]?.key as { id: string }).id;
    await w.keys.update('sandbox', id, { name: 'new name' });
    await say(w, panel, { type: 'close' });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.message, 'The secret of the new API key "new name" was not copied.');
    assert.equal(panel.disposed, false, 'Cancel keeps the panel and its secret');
    assert.equal(tabLabel(panel), '\u25CF Create API Key - Sandbox');
  });

  test('"Close Without Copying" is the one way to drop it: the panel does not come back', async () => {
    const w = world();
    await w.commands['obs.apiKey.create']?.(undefined);
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    await say(w, panel, { type: 'submitCreate', values: createValues('dropped') });
    answers.answer = (_m, choices) => choices.find((c) => c === 'Close Without Copying');
    await say(w, panel, { type: 'close' });
    assert.equal(asked.length, 1);
    assert.equal(panel.disposed, true);
    assert.equal(open().length, 0);
    assert.deepEqual(editor.tabs, []);
  });
});

describe('a created key is never offered to be created again', () => {
  /** The page's state as it tells the host while the name is typed, and after the key was created. */
  const typed = (name: string) => ({ mode: 'create', connectionId: 'sandbox', createValues: createValues(name) });
  const keysNamed = (name: string): number => sandbox.state.apiKeys.filter((k) => k.name === name).length;

  test('Close Without Copying after a create: no "unsaved edits" notice, and the form opens again empty', async () => {
    const w = world();
    await w.commands['obs.apiKey.create']?.(undefined);
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    await say(w, panel, { type: 'draft', state: typed('only once') });
    await say(w, panel, { type: 'submitCreate', values: createValues('only once') });
    const id = (panel.ofType('created')[0]?.key as { id: string }).id;
    // What the page says once it shows the created key (an older page sent its state with the key in it).
    await say(w, panel, { type: 'draft', state: { ...typed('only once'), created: { id, name: 'only once' } } });
    answers.answer = (_m, choices) => choices.find((c) => c === 'Close Without Copying');
    await say(w, panel, { type: 'close' });
    const notCopied = 'The secret of the new API key "only once" was not copied.';
    assert.deepEqual(
      asked.map((a) => a.message),
      [notCopied],
      'no notice of unsaved edits',
    );

    await w.commands['obs.apiKey.create']?.(undefined);
    const next = open()[0] as FakeWebviewPanel;
    await say(w, next, { type: 'ready' });
    const init = next.ofType('init')[0];
    assert.equal(init?.unsaved, undefined, 'nothing to put back');
    assert.deepEqual(init?.values, { ...createValues(''), keyType: 'ingest' });
    assert.equal(keysNamed('only once'), 1);
  });

  test('the tab closed while the create runs: the key comes back as created, and no edits are kept to create it again', async () => {
    const w = world();
    await w.commands['obs.apiKey.create']?.(undefined);
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    await say(w, panel, { type: 'draft', state: typed('closed mid-create') });
    const form = w.formPanels.openControllers().get('create:sandbox');
    panel.fromPage({ type: 'submitCreate', values: createValues('closed mid-create') });
    await closeTab(w, panel);
    await form?.whenIdle();
    await jobsDone();
    assert.deepEqual(asked, [], 'no notice of unsaved edits');
    const shown = open()[0] as FakeWebviewPanel;
    await say(w, shown, { type: 'ready' });
    assert.equal((shown.ofType('created')[0]?.key as { name: string } | undefined)?.name, 'closed mid-create');
    assert.equal(shown.ofType('init')[0]?.unsaved, undefined);
    assert.equal(keysNamed('closed mid-create'), 1);
  });
});

describe('a form closed with unsaved edits', () => {
  const alertNode = async () => {
    const c = clients[0] ?? new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
    const alert = (await c.listBurnAlerts(DEMO.datasets.gateway, DEMO.slos.gwAvailability)).data.find(
      (a) => a.id === DEMO.burnAlerts.gwExhaustion,
    );
    return {
      kind: 'burnAlert',
      connectionId: 'sandbox',
      dataset: DEMO.datasets.gateway,
      sloId: DEMO.slos.gwAvailability,
      alert,
    };
  };
  const context = {
    connectionId: 'sandbox',
    dataset: DEMO.datasets.gateway,
    sloId: DEMO.slos.gwAvailability,
    alertId: DEMO.burnAlerts.gwExhaustion,
  };

  test('the tab title carries a dirty mark while the page has unsaved edits', async () => {
    const w = world();
    await w.commands['obs.burnAlert.edit']?.(await alertNode());
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    const title = `Edit Burn Alert ${DEMO.burnAlerts.gwExhaustion} - Sandbox`;
    assert.equal(tabLabel(panel), title);
    await say(w, panel, { type: 'draft', state: { context, edits: { description: 'typed' } } });
    assert.equal(tabLabel(panel), `\u25CF ${title}`);
    await say(w, panel, { type: 'draft', state: null });
    assert.equal(tabLabel(panel), title);
  });

  test('closing keeps the edits and says so; the same form opened again offers them back', async () => {
    const w = world();
    const node = await alertNode();
    await w.commands['obs.burnAlert.edit']?.(node);
    const first = open()[0] as FakeWebviewPanel;
    await say(w, first, { type: 'ready' });
    const loaded = first.ofType('init')[0]?.loaded;
    const state = { context, loaded, edits: { description: 'not lost' }, drafts: { exhaustion_minutes: '1e' } };
    await say(w, first, { type: 'draft', state });
    await closeTab(w, first);
    assert.deepEqual(asked, [
      {
        kind: 'info',
        message: `"Edit Burn Alert ${DEMO.burnAlerts.gwExhaustion} - Sandbox" was closed with unsaved edits. They are kept until VS Code closes: open the same form again to get them back.`,
        choices: ['Reopen', 'Discard Edits'],
      },
    ]);

    await w.commands['obs.burnAlert.edit']?.(node);
    const second = open()[0] as FakeWebviewPanel;
    await say(w, second, { type: 'ready' });
    const init = second.ofType('init')[0] as { unsaved?: { state: unknown; savedAt: number } };
    assert.deepEqual(init.unsaved?.state, state);
    assert.equal(typeof init.unsaved?.savedAt, 'number');
    await closeTab(w, second);
    assert.equal(asked.length, 1, 'closed clean: nothing to say');
    await w.commands['obs.burnAlert.edit']?.(node);
    const third = open()[0] as FakeWebviewPanel;
    await say(w, third, { type: 'ready' });
    assert.equal(third.ofType('init')[0]?.unsaved, undefined, 'offered once: closed clean, nothing is kept');
  });

  test('"Reopen" on the notification opens the form with the edits; "Discard Edits" drops them', async () => {
    const w = world();
    const node = await alertNode();
    answers.answer = (_m, choices) => choices[0];
    await w.commands['obs.burnAlert.edit']?.(node);
    const first = open()[0] as FakeWebviewPanel;
    await say(w, first, { type: 'ready' });
    await say(w, first, { type: 'draft', state: { context, edits: { description: 'reopened' } } });
    await closeTab(w, first);
    const reopened = open()[0] as FakeWebviewPanel;
    assert.ok(reopened, 'Reopen opened the form');
    await say(w, reopened, { type: 'ready' });
    assert.deepEqual((reopened.ofType('init')[0] as { unsaved?: { state: unknown } }).unsaved?.state, {
      context,
      edits: { description: 'reopened' },
    });

    answers.answer = (_m, choices) => choices.find((c) => c === 'Discard Edits');
    await say(w, reopened, { type: 'draft', state: { context, edits: { description: 'dropped' } } });
    await closeTab(w, reopened);
    assert.equal(open().length, 0, 'Discard Edits reopens nothing');
    await w.commands['obs.burnAlert.edit']?.(node);
    const fresh = open()[0] as FakeWebviewPanel;
    await say(w, fresh, { type: 'ready' });
    assert.equal(fresh.ofType('init')[0]?.unsaved, undefined);
  });
});

describe('a form whose connection goes and comes back', () => {
  test('the sandbox stopped: the page is told plainly and Save refused with the edits kept; started again: the same Save is sent', async () => {
    const w = world();
    const c = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
    clients.push(c);
    const alert = (await c.listBurnAlerts(DEMO.datasets.gateway, DEMO.slos.gwAvailability)).data.find(
      (a) => a.id === DEMO.burnAlerts.gwExhaustion,
    );
    await w.commands['obs.burnAlert.edit']?.({
      kind: 'burnAlert',
      connectionId: 'sandbox',
      dataset: DEMO.datasets.gateway,
      sloId: DEMO.slos.gwAvailability,
      alert,
    });
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    const gone =
      'The connection Sandbox is not available: start the sandbox or switch connections; your edits are kept.';

    await w.connections.remove();
    assert.deepEqual(panel.ofType('connection'), [{ type: 'connection', available: false, message: gone }]);
    await say(w, panel, { type: 'submit', edits: { description: 'after the restart' } });
    assert.deepEqual(
      panel.ofType('problems').map((m) => m.problems),
      [{ fields: {}, form: [gone] }],
    );

    w.connections.addAgain();
    assert.deepEqual(panel.ofType('connection')[1], { type: 'connection', available: true });
    await say(w, panel, { type: 'submit', edits: { description: 'after the restart' } });
    assert.equal(
      (panel.ofType('saved')[0]?.loaded as { description?: string } | undefined)?.description,
      'after the restart',
    );
  });
});

describe("the review of a burn alert's changes", () => {
  test('Save closes the "Review changes" diff it opened: it would compare what no longer holds; other diffs stay', async () => {
    const w = world();
    const c = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
    clients.push(c);
    const alert = (await c.listBurnAlerts(DEMO.datasets.gateway, DEMO.slos.gwAvailability)).data.find(
      (a) => a.id === DEMO.burnAlerts.gwBudgetRate,
    );
    await w.commands['obs.burnAlert.edit']?.({
      kind: 'burnAlert',
      connectionId: 'sandbox',
      dataset: DEMO.datasets.gateway,
      sloId: DEMO.slos.gwAvailability,
      alert,
    });
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    const edits = { description: 'reviewed, then saved' };
    await say(w, panel, { type: 'review', edits });
    const [review, ...more] = editor.diffs();
    assert.ok(review, 'the review opened a diff');
    assert.deepEqual(more, []);
    openDiffTab(Uri.parse('file:///a.json'), Uri.parse('file:///b.json'), 'another diff');
    await say(w, panel, { type: 'submit', edits });
    assert.equal(panel.ofType('saved').length, 1);
    assert.deepEqual(
      editor.diffs(),
      [['file:///a.json', 'file:///b.json']],
      "the review's diff is closed, the other stays",
    );
    assert.deepEqual(
      editor.closedByExtension.map((t) => t.label),
      [`Burn alert ${DEMO.burnAlerts.gwBudgetRate}: current ↔ with your changes`],
    );
    assert.ok(editor.tabOf(panel), 'the form stays open');
  });
});

describe('a save that changes the service', () => {
  test('a burn alert saved in its form gives drift the alert as the service answered it, recipients included', async () => {
    const w = world();
    const c = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
    clients.push(c);
    const alert = (await c.listBurnAlerts(DEMO.datasets.gateway, DEMO.slos.gwAvailability)).data.find(
      (a) => a.id === DEMO.burnAlerts.gwBudgetRate,
    );
    await w.commands['obs.burnAlert.edit']?.({
      kind: 'burnAlert',
      connectionId: 'sandbox',
      dataset: DEMO.datasets.gateway,
      sloId: DEMO.slos.gwAvailability,
      alert,
    });
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    assert.equal(w.sloSaved.length, 0, 'opening the form changes nothing');
    await say(w, panel, { type: 'submit', edits: { description: 'saved from the form' } });
    assert.equal(panel.ofType('saved').length, 1);
    const [told] = w.sloSaved;
    const alertSaved = told?.saved.kind === 'burn-alert' ? told.saved.alert : undefined;
    assert.deepEqual(
      {
        told: w.sloSaved.map((s) => [s.connectionId, s.saved.kind, s.saved.dataset]),
        id: alertSaved?.id,
        description: alertSaved?.description,
        recipients: Array.isArray(alertSaved?.recipients) && alertSaved.recipients.length > 0,
      },
      {
        told: [['sandbox', 'burn-alert', DEMO.datasets.gateway]],
        id: DEMO.burnAlerts.gwBudgetRate,
        description: 'saved from the form',
        recipients: true,
      },
    );
  });

  test("a dataset's definitions saved in their form give drift the whole map the service answered", async () => {
    const w = world();
    await w.commands['obs.datasetDefinitions.edit']?.({
      kind: 'dataset',
      connectionId: 'sandbox',
      slug: DEMO.datasets.gateway,
    });
    const panel = open()[0] as FakeWebviewPanel;
    await say(w, panel, { type: 'ready' });
    await say(w, panel, { type: 'submit', rows: { error: { name: 'status_code' } } });
    assert.equal(panel.ofType('saved').length, 1);
    const [told] = w.sloSaved;
    assert.deepEqual(
      {
        told: w.sloSaved.map((s) => [s.connectionId, s.saved.kind, s.saved.dataset]),
        error: told?.saved.kind === 'definitions' ? told.saved.map.error : undefined,
      },
      {
        told: [['sandbox', 'definitions', DEMO.datasets.gateway]],
        error: { name: 'status_code', column_type: 'column' },
      },
    );
  });
});
