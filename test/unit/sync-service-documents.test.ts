// The service's side of a Compare with Service diff (ServiceTriggerDocuments), in the fake editor: it keeps its
// text while an apply's writes make drift read the lists again, and is asked for the new text only once they
// are read. Before, it was asked while the lists were empty and threw "The trigger ... is not among the
// triggers read" (VS Code logged an unknown error) whenever Apply ran with a Compare diff open.
import { fake, fileUri, jobsDone } from './vscode-fake';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFileText, type ServiceTrigger } from '../../src/triggerFiles';
import { DriftModel } from '../../src/extension/sync/driftModel';
import { ServiceTriggerDocuments } from '../../src/extension/sync/driftViews';
import { serviceTrigger } from './serviceTriggers';
import { sloServiceFake } from './sloServiceFake';

const ERRORS = serviceTrigger('t1', 'Errors', 'api', 5, { updated_at: '2026-01-01T00:00:00Z' });
const FILE = fileUri('triggers/api/Errors.trigger.json');

/** A service whose trigger list answers at once, or (held) when the test releases it. */
function service(triggers: ServiceTrigger[]) {
  let hold: Promise<void> | undefined;
  let release: () => void = () => undefined;
  return {
    ...sloServiceFake(),
    triggers,
    holdNextList(): void {
      hold = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    listRecipients: () => Promise.resolve({ data: [] }),
    async listTriggers(dataset: string) {
      const held = hold;
      hold = undefined;
      if (held !== undefined) await held;
      return { data: structuredClone(this.triggers.filter((t) => t.dataset_slug === dataset)) };
    },
  };
}

function driftOf(api: ReturnType<typeof service>): DriftModel {
  return new DriftModel({
    workspace: {
      list: () => Promise.resolve([FILE.toString()]),
      read: () => Promise.resolve(triggerFileText({ ...ERRORS, threshold: { op: '>', value: 9, exceeded_limit: 1 } })),
    },
    connection: () => Promise.resolve({ id: 'c1', name: 'Sandbox', api }),
    concurrency: () => 2,
  });
}

beforeEach(() => fake.reset());

test("the service's side of a Compare diff keeps its text while the lists are read again after an apply, and gets the new one once they are read", async () => {
  const api = service([ERRORS]);
  const model = driftOf(api);
  const documents = new ServiceTriggerDocuments(model);
  await model.refresh(false);
  const left = documents.uriOf('c1', ERRORS);
  const before = documents.provideTextDocumentContent(left);
  const asked: string[] = [];
  documents.onDidChange((uri) => asked.push(uri.toString()));

  // The apply wrote the threshold 9; drift forgets its lists and reads them again (triggersWrittenHandler).
  api.triggers = [
    { ...ERRORS, threshold: { op: '>', value: 9, exceeded_limit: 1 }, updated_at: '2026-01-02T00:00:00Z' },
  ];
  api.holdNextList();
  model.forgetLists('c1');
  const refreshing = model.refresh(true);
  await jobsDone();
  assert.equal(model.getState().kind, 'loading');
  assert.deepEqual(asked, [], 'not asked for its text while the lists are being read');
  assert.equal(documents.provideTextDocumentContent(left), before, 'asked all the same, it keeps the text it had');

  api.release();
  await refreshing;
  assert.deepEqual(asked, [left.toString()]);
  assert.match(documents.provideTextDocumentContent(left), /"value": 9/);
  documents.dispose();
  model.dispose();
});

test("a trigger deleted on the service says so on the service's side, as JSON, once the lists are read again", async () => {
  const api = service([ERRORS]);
  const model = driftOf(api);
  const documents = new ServiceTriggerDocuments(model);
  await model.refresh(false);
  const left = documents.uriOf('c1', ERRORS);
  api.triggers = [];
  model.forgetLists('c1');
  await model.refresh(true);
  const text = documents.provideTextDocumentContent(left);
  assert.equal(
    JSON.parse(text),
    'The trigger t1 is not among the triggers read from the service now: it was deleted, or its dataset could not be listed (refresh the Drift view to read it again).',
  );
  documents.dispose();
  model.dispose();
});
