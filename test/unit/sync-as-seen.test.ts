// A trigger file as an environment other than the home one sees it (sync/asSeenDocuments.ts), in the fake editor
// (vscode-fake.ts): the read-only document holds the effective trigger, from the text the editor holds; it
// follows the file and the environments file; a trigger that cannot be taken there says why; "Show as an
// Environment Sees It..." opens it beside the file; Apply from it applies the file it shows.
import { fake, fileUri, TextDocument, Uri } from './vscode-fake';
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFileText } from '../../src/triggerFiles';
import type { Environment } from '../../src/triggerFiles/environments';
import {
  AsSeenDocuments,
  showAsEnvironmentSees,
  type EnvironmentsOfFile,
} from '../../src/extension/sync/asSeenDocuments';
import { localTriggerFile } from '../../src/extension/sync/applyTargets';
import { serviceTrigger } from './serviceTriggers';

const FILE = fileUri('triggers/checkout/Errors.trigger.json');
const HOME = serviceTrigger('stg-1', 'Errors', 'checkout', 5);
const PRODUCTION: Environment = {
  datasets: { checkout: 'checkout-prod' },
  triggers: { checkout: { Errors: { threshold: { value: 20 } } } },
};

let environments: Map<string, Environment>;
const environmentsOf: EnvironmentsOfFile = () => environments;
let envChanged: () => void;

beforeEach(() => {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  fake.files.set(FILE.toString(), triggerFileText(HOME));
  environments = new Map([['production', PRODUCTION]]);
  envChanged = () => undefined;
});

const documents = () =>
  new AsSeenDocuments(environmentsOf, (listener) => {
    envChanged = listener;
    return { dispose: () => (envChanged = () => undefined) };
  });

const parsed = async (docs: AsSeenDocuments, uri: Uri) =>
  JSON.parse(await docs.provideTextDocumentContent(uri)) as Record<string, unknown>;

test('the document holds the trigger as production sees it: its dataset mapped, its override applied, no home id', async () => {
  const docs = documents();
  const seen = await parsed(docs, docs.uriOf(FILE, 'production'));
  assert.deepEqual(
    { dataset: seen.dataset_slug, threshold: seen.threshold, id: seen.id, name: seen.name },
    { dataset: 'checkout-prod', threshold: { op: '>', value: 20 }, id: undefined, name: 'Errors' },
  );
  docs.dispose();
});

test('it is made from the text the editor holds, unsaved edits included, and is told to change with it', async () => {
  const docs = documents();
  const uri = docs.uriOf(FILE, 'production');
  const changed: string[] = [];
  docs.onDidChange((u) => changed.push(u.toString()));
  const open = new TextDocument(FILE, triggerFileText({ ...HOME, description: 'Unsaved.' }));
  fake.documents.push(open);
  fake.events.change.fire({ document: open, contentChanges: [] });
  envChanged();
  assert.deepEqual(
    { description: (await parsed(docs, uri)).description, changed },
    { description: 'Unsaved.', changed: [uri.toString(), uri.toString()] },
  );
  docs.dispose();
});

test('a trigger that cannot be taken to the environment: the document says why, as a JSON string', async () => {
  environments = new Map([['production', { recipients: [] }]]);
  fake.files.set(FILE.toString(), triggerFileText({ ...HOME, recipients: [{ id: 'rcp_home' }] }));
  const docs = documents();
  const said = JSON.parse(await docs.provideTextDocumentContent(docs.uriOf(FILE, 'production'))) as unknown;
  assert.equal(typeof said, 'string');
  assert.match(String(said), /^triggers\/checkout\/Errors\.trigger\.json cannot be taken to production: .*rcp_home/);
  docs.dispose();
});

test('"Show as an Environment Sees It..." opens the file beside itself as the one such environment sees it', async () => {
  const docs = documents();
  await showAsEnvironmentSees(FILE, docs, environmentsOf);
  const diff = fake.executed.find((e) => e.command === 'vscode.diff');
  const [left, right, title] = diff?.args ?? [];
  assert.deepEqual(
    { left: String(left), right: String(right), title },
    {
      left: FILE.toString(),
      right: docs.uriOf(FILE, 'production').toString(),
      title: 'Errors.trigger.json ↔ as production sees it',
    },
  );
  docs.dispose();
});

test('the file shown as an environment sees it stands for the file: Apply on it plans the file', () => {
  const docs = documents();
  assert.equal(localTriggerFile(docs.uriOf(FILE, 'production'))?.toString(), FILE.toString());
  docs.dispose();
});
