// The id write-back after a create in the editor: one minimal edit into a file that is as the plan read it,
// never into a document open with unsaved edits, a link or a file outside its workspace folder (then the note
// says to add the id), and a second create in the same file starts from the text the first edit saved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256, type Plan, type PlannedChange, type TextEdit } from '../../src/triggerFiles';
import { idWriter, type EditorFileState, type IdDocuments } from '../../src/extension/sync/applyIdWrite';

const FILE = 'triggers/api/New.trigger.json';
const one = '{\n  "dataset_slug": "api",\n  "name": "New"\n}\n';
const two = '[\n  { "dataset_slug": "api", "name": "A" },\n  { "dataset_slug": "api", "name": "B" }\n]\n';

const planOf = (text: string): Plan => ({
  format: 'obs-trigger-plan',
  version: 3,
  createdAt: '2026-11-26T12:00:00.000Z',
  target: { baseUrl: 'http://127.0.0.1:1', connection: 'Sandbox', key: { salt: '', sha256: '' } },
  inputs: { scope: { kind: 'files' }, allowUnknownColumns: false, matchByName: false },
  prune: false,
  files: [{ file: FILE, sha256: sha256(text) }],
  changes: [],
  blocked: [],
  unchanged: 0,
});

const create = (index: number, name: string): Extract<PlannedChange, { kind: 'trigger'; action: 'create' }> => ({
  kind: 'trigger',
  action: 'create',
  file: FILE,
  index,
  dataset: 'api',
  name,
  body: {},
});

/** An editor holding one file: its state, and every edit made (applied and "saved"). */
function editor(initial: EditorFileState): IdDocuments & { edits: TextEdit[] } {
  let state = initial;
  const edits: TextEdit[] = [];
  return {
    edits,
    state: async () => state,
    editAndSave: async (_file, edit) => {
      edits.push(edit);
      if (!('text' in state)) throw new Error('edited a document that has no text');
      const text = state.text.slice(0, edit.offset) + edit.content + state.text.slice(edit.offset + edit.length);
      state = { dirty: false, text };
      return text;
    },
  };
}

test('a document open with unsaved edits is not edited: the note says to add the id', async () => {
  const docs = editor({ dirty: true });
  const note = await idWriter(planOf(one), docs)(create(-1, 'New'), 'trig_new');
  assert.deepEqual(docs.edits, []);
  assert.equal(
    note,
    'its id was not written into triggers/api/New.trigger.json: the file has unsaved changes in the editor; add "id": "trig_new" to it yourself',
  );
});

test('a saved file as planned gets one insertion of the id, and nothing else changes', async () => {
  const docs = editor({ dirty: false, text: one });
  const note = await idWriter(planOf(one), docs)(create(-1, 'New'), 'trig_new');
  assert.equal(note, 'id written into triggers/api/New.trigger.json');
  assert.deepEqual(docs.edits, [{ offset: 4, length: 0, content: '"id": "trig_new",\n  ' }]);
});

test('two creates in one file: the second edit starts from the text the first one saved', async () => {
  const docs = editor({ dirty: false, text: two });
  const write = idWriter(planOf(two), docs);
  assert.equal(await write(create(0, 'A'), 'trig_a'), 'id written into triggers/api/New.trigger.json');
  assert.equal(await write(create(1, 'B'), 'trig_b'), 'id written into triggers/api/New.trigger.json');
  const final = await docs.state(FILE);
  assert.ok('text' in final);
  assert.equal(
    final.text,
    '[\n  { "id": "trig_a", "dataset_slug": "api", "name": "A" },\n  { "id": "trig_b", "dataset_slug": "api", "name": "B" }\n]\n',
  );
});

test('a file saved with other text since the plan is not edited', async () => {
  const docs = editor({ dirty: false, text: one.replace('New', 'Renamed') });
  const note = await idWriter(planOf(one), docs)(create(-1, 'New'), 'trig_new');
  assert.deepEqual(docs.edits, []);
  assert.equal(
    note,
    'its id was not written into triggers/api/New.trigger.json: the file changed since the plan; add "id": "trig_new" to it yourself',
  );
});

test('a file that is a link, or lies outside its workspace folder, is not edited: the note says why and to add the id', async () => {
  const link = editor({ refused: 'link' });
  const outside = editor({ refused: 'outside' });
  const notes = [
    await idWriter(planOf(one), link)(create(-1, 'New'), 'trig_new'),
    await idWriter(planOf(one), outside)(create(-1, 'New'), 'trig_new'),
  ];
  assert.deepEqual([link.edits, outside.edits], [[], []]);
  assert.deepEqual(notes, [
    'its id was not written into triggers/api/New.trigger.json: the file is a link, and the edit would land where it leads; add "id": "trig_new" to it yourself',
    'its id was not written into triggers/api/New.trigger.json: the file lies outside its workspace folder once links are resolved; add "id": "trig_new" to it yourself',
  ]);
});
