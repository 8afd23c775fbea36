// Apply with a Compare with Service diff open, in the fake editor: an Apply run with the service's side active
// (or on its uri) plans the local file on the other side of the diff, not the service's document, which is no
// file and was blocked as unreadable. (The service's side itself: sync-service-documents.test.ts.)
import { fake, fileUri, TabInputTextDiff, Uri, vscode } from './vscode-fake';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFileText } from '../../src/triggerFiles';
import { ApplyLocks } from '../../src/extension/core/applyLocks';
import { Feedback } from '../../src/extension/core/feedback';
import { Settings } from '../../src/extension/core/settings';
import { ApplyCommands, type ApplyConnection } from '../../src/extension/sync/applyCommands';
import { FakePlanView } from './plan-view-fake';
import { serviceTrigger } from './serviceTriggers';

const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const ERRORS = serviceTrigger('t1', 'Errors', 'api', 5, { updated_at: '2026-01-01T00:00:00Z' });
const FILE = fileUri('triggers/api/Errors.trigger.json');

beforeEach(() => fake.reset());

/** The editor's Apply against a service holding ERRORS (threshold 5), the file asking for 9. */
function applyCommands(view: FakePlanView): ApplyCommands {
  const profile = { id: 'c1', name: 'Sandbox', baseUrl: 'http://127.0.0.1:4321' };
  const refuse = (): Promise<never> => Promise.reject(new Error('nothing is written in these tests'));
  const client: ApplyConnection['client'] = {
    listTriggers: () => Promise.resolve({ data: [structuredClone(ERRORS)] }),
    listColumns: () => Promise.resolve({ data: [] }),
    listRecipients: () => Promise.resolve({ data: [] }),
    getQuery: refuse,
    getTrigger: refuse,
    createTrigger: refuse,
    replaceTrigger: refuse,
    deleteTrigger: refuse,
    listSlos: refuse,
    listBurnAlerts: refuse,
    getBurnAlert: refuse,
    updateBurnAlert: refuse,
    updateDatasetDefinitions: refuse,
  };
  const connection: ApplyConnection = { profile, client };
  const settings = new Settings({
    get: () => undefined,
    inspect: () => undefined,
    update: () => Promise.resolve(),
    onDidChange: () => ({ dispose: () => undefined }),
  });
  return new ApplyCommands({
    connections: {
      list: () => [profile],
      activeProfile: () => profile,
      requireActive: () => Promise.resolve(connection),
      connectionFor: () => Promise.resolve(connection),
    },
    settings,
    feedback: new Feedback(quiet, () => undefined),
    lint: () => Promise.resolve([]),
    onWritten: () => undefined,
    locks: new ApplyLocks(),
    view,
    compare: () => Promise.resolve(),
    openServiceTrigger: () => Promise.resolve(),
  });
}

/** A Compare diff open: the service's version left, the file right; the left side is the active editor. */
function compareOpen(): Uri {
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  fake.files.set(FILE.toString(), triggerFileText({ ...ERRORS, threshold: { op: '>', value: 9, exceeded_limit: 1 } }));
  const left = Uri.from({ scheme: 'obs-service-trigger', path: '/c1/t1/Errors.trigger.json' });
  const diff = { input: new TabInputTextDiff(left, FILE) };
  fake.tabGroups = [{ activeTab: diff, tabs: [diff] }];
  return left;
}

for (const [how, args] of [
  ['from the palette with the service side active', () => []],
  ["on the service side's uri (its context menu)", (left: Uri) => [left]],
] as const) {
  test(`Apply ${how} plans the local file on the other side of the diff`, async () => {
    const left = compareOpen();
    const editor = vscode.window.activeTextEditor;
    Object.assign(vscode.window, { activeTextEditor: { document: { uri: left } } });
    const view = new FakePlanView();
    view.onReview = (model, v) => v.send({ type: 'cancel', review: model.review });
    const apply = applyCommands(view);
    try {
      await apply.run('file', args(left));
      assert.deepEqual(
        view.last.groups.map((g) => [g.action, g.changes.map((c) => [c.file, c.members])]),
        [['update', [['triggers/api/Errors.trigger.json', [{ path: 'threshold.value', before: '5', after: '9' }]]]]],
      );
      assert.deepEqual(view.last.blocked, []);
    } finally {
      apply.dispose();
      Object.assign(vscode.window, { activeTextEditor: editor });
    }
  });
}
