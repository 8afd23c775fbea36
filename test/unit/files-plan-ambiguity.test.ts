// A plan that could mean two things is an error before anything is written: two files holding one trigger, two
// files creating one name, a file in another dataset's folder. A prune deletes only in the datasets of files it
// walked, never on account of a file named on its own. A create and a delete that differ only by name are
// reported as a probable rename.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  keyFingerprint,
  makePlan,
  planCounts,
  readTriggerFile,
  ServiceIndex,
  triggerFileText,
  type PlanFile,
  type PlanScope,
  type ServiceTrigger,
} from '../../src/triggerFiles';

const target = { baseUrl: 'https://api.example.com', key: keyFingerprint('cfg-key', 'salt-1') };
const now = new Date('2026-11-26T12:00:00Z');
type Json = Record<string, unknown>;

const trigger = (id: string, name: string, dataset = 'api', value = 5): ServiceTrigger => ({
  id,
  dataset_slug: dataset,
  name,
  threshold: { op: '>', value },
  frequency: 300,
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  updated_at: '2026-11-20T00:00:00Z',
});

const file = (name: string, value: Json, named = false): PlanFile => {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  return { file: name, text, read: readTriggerFile(text), ...(named ? { named: true } : {}) };
};
const pulled = (t: ServiceTrigger): Json => JSON.parse(triggerFileText(t)) as Json;
const withoutId = (t: ServiceTrigger): Json => {
  const { id: _id, ...rest } = pulled(t);
  return rest;
};

function plan(files: PlanFile[], triggers: ServiceTrigger[], scope: PlanScope = { kind: 'files' }) {
  const index = new ServiceIndex();
  // Every dataset of the files and the triggers is listed, empty where the service holds none.
  const datasets = new Set([
    ...triggers.map((t) => String(t.dataset_slug)),
    ...files.flatMap((f) => (f.read.ok ? f.read.triggers.map((t) => t.dataset ?? '') : [])),
  ]);
  for (const dataset of datasets)
    index.add(dataset, { state: 'listed', triggers: triggers.filter((t) => t.dataset_slug === dataset) });
  return makePlan({ files, index, target, inputs: { scope, allowUnknownColumns: false, matchByName: false }, now });
}

const reasonsOf = (p: ReturnType<typeof plan>) => p.blocked.map((b) => [b.file, b.reasons]);

test('two files with one id are an error: both named, neither written, even when one is in sync', () => {
  const high = trigger('t-1', 'High');
  const copy = { ...pulled(high), threshold: { op: '>', value: 9 } };
  const p = plan([file('api/High.trigger.json', pulled(high)), file('backup/High-copy.trigger.json', copy)], [high]);
  assert.deepEqual(p.changes, []);
  assert.deepEqual(reasonsOf(p), [
    [
      'api/High.trigger.json',
      ['backup/High-copy.trigger.json also holds this trigger of the service: keep one file per trigger'],
    ],
    [
      'backup/High-copy.trigger.json',
      ['api/High.trigger.json also holds this trigger of the service: keep one file per trigger'],
    ],
  ]);
});

test('a file with an id and a file without one matched by name to the same trigger are an error', () => {
  const high = trigger('t-1', 'High');
  const p = plan(
    [
      file('api/a.trigger.json', pulled(high)),
      file('api/b.trigger.json', { ...withoutId(high), description: 'variant' }),
    ],
    [high],
  );
  assert.deepEqual(planCounts(p), { create: 0, update: 0, delete: 0, blocked: 2, unchanged: 0 });
});

test('two files without id creating the same name in one dataset are an error: no create at all', () => {
  const fresh = withoutId(trigger('x', 'New one'));
  const p = plan(
    [file('api/one.trigger.json', fresh), file('api/two.trigger.json', { ...fresh, description: 'other' })],
    [],
  );
  assert.deepEqual(p.changes, []);
  assert.deepEqual(reasonsOf(p), [
    [
      'api/one.trigger.json',
      ['api/two.trigger.json also creates a trigger of this name in this dataset: give each its own name'],
    ],
    [
      'api/two.trigger.json',
      ['api/one.trigger.json also creates a trigger of this name in this dataset: give each its own name'],
    ],
  ]);
});

test("a file in another dataset's folder than its dataset_slug names is an error; a folder of no dataset is anyone's", () => {
  const web = trigger('w-1', 'Web errors', 'web');
  const checkout = trigger('c-1', 'Checkout', 'web');
  const api = trigger('t-1', 'High');
  const misplaced = { ...pulled(web), threshold: { op: '>', value: 7 } };
  const anywhere = { ...pulled(checkout), threshold: { op: '>', value: 8 } };
  const p = plan(
    [
      file('triggers/api/High.trigger.json', pulled(api)),
      file('triggers/api/Web-errors.trigger.json', misplaced),
      file('team-a/Checkout.trigger.json', anywhere),
    ],
    [api, web, checkout],
  );
  assert.deepEqual(reasonsOf(p), [
    [
      'triggers/api/Web-errors.trigger.json',
      ['it lies in the folder of dataset api but names dataset web: move the file or correct its dataset_slug'],
    ],
  ]);
  assert.deepEqual(
    p.changes.map((c) => c.name),
    ['Checkout'],
  );
});

test('a prune deletes only in the datasets of files found by a walk: a file named on its own deletes nothing', () => {
  const kept = trigger('t-1', 'Kept');
  const other = trigger('t-2', 'Other');
  const named = plan([file('api/Kept.trigger.json', pulled(kept), true)], [kept, other], { kind: 'all' });
  assert.deepEqual(named.changes, []);
  const walked = plan([file('api/Kept.trigger.json', pulled(kept))], [kept, other], { kind: 'all' });
  assert.deepEqual(
    walked.changes.map((c) => [c.action, c.name]),
    [['delete', 'Other']],
  );
});

test('a trigger held by a file named on its own is not deleted by the walk of its dataset beside it', () => {
  const a = trigger('t-1', 'A');
  const b = trigger('t-2', 'B');
  const p = plan([file('api/A.trigger.json', pulled(a)), file('elsewhere/B.trigger.json', pulled(b), true)], [a, b], {
    kind: 'all',
  });
  assert.deepEqual(p.changes, []);
});

test('a create and a delete of one dataset that differ only by name are reported as a probable rename', () => {
  const old = trigger('t-1', 'Old name');
  const renamed = { ...withoutId(old), name: 'New name' };
  const p = plan([file('api/New-name.trigger.json', renamed)], [old], { kind: 'all' });
  assert.deepEqual(
    p.changes.map((c) => [c.action, c.name, c.action === 'create' ? c.renameOf : undefined]),
    [
      ['create', 'New name', { id: 't-1', name: 'Old name' }],
      ['delete', 'Old name', undefined],
    ],
  );
  const changed = plan([file('api/New-name.trigger.json', { ...renamed, threshold: { op: '>', value: 6 } })], [old], {
    kind: 'all',
  });
  assert.equal(
    changed.changes.find((c) => c.action === 'create' && c.renameOf !== undefined),
    undefined,
    'another threshold: not a rename',
  );
});
