// Drift (src/triggerFiles/drift.ts, compare.ts): how a local trigger is matched with the service's, what
// differs, and the triggers only one side has.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareTriggers,
  differenceText,
  differingMembers,
  driftCounts,
  driftOfFile,
  onlyOnService,
  readTriggerFile,
  ServiceIndex,
  type ServiceTrigger,
} from '../../src/triggerFiles';

const service = (over: Partial<ServiceTrigger> & { id: string; name: string }): ServiceTrigger => ({
  dataset_slug: 'api',
  threshold: { op: '>', value: 5, exceeded_limit: 1 },
  frequency: 300,
  alert_type: 'on_change',
  disabled: false,
  triggered: false,
  recipients: [{ id: 'rcp_a', type: 'email', target: 'a@example.com' }],
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
  query_id: 'q_inline',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  ...over,
});

function index(...lists: [string, ServiceTrigger[] | 'missing' | { failed: string }][]): ServiceIndex {
  const i = new ServiceIndex();
  for (const [dataset, l] of lists) {
    i.add(
      dataset,
      l === 'missing'
        ? { state: 'missing' }
        : Array.isArray(l)
          ? { state: 'listed', triggers: l }
          : { state: 'failed', message: l.failed },
    );
  }
  return i;
}

const file = (value: unknown) => readTriggerFile(JSON.stringify(value));
const local = {
  id: 't1',
  dataset_slug: 'api',
  name: 'Errors',
  threshold: { op: '>', value: 5 },
  frequency: 300,
  recipients: [{ id: 'rcp_a' }],
  query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
};

test('a file with the id of a service trigger that matches it semantically is in sync', () => {
  const d = driftOfFile('a.trigger.json', file(local), index(['api', [service({ id: 't1', name: 'Errors' })]]));
  assert.equal(d.status, 'in-sync');
  assert.deepEqual(
    d.triggers.map((t) => [t.status, t.service?.id, t.differences.length]),
    [['in-sync', 't1', 0]],
  );
});

test('what differs is named member by member, the service value first', () => {
  const edited = { ...local, threshold: { op: '>', value: 10 }, recipients: [{ id: 'rcp_a' }, { id: 'rcp_b' }] };
  const d = driftOfFile('a.trigger.json', file(edited), index(['api', [service({ id: 't1', name: 'Errors' })]]));
  assert.equal(d.status, 'differs');
  const differences = d.triggers[0]?.differences ?? [];
  assert.deepEqual(
    differences.map((x) => differenceText(x)),
    ['threshold.value: 5 -> 10', 'recipients: [{"id":"rcp_a"}] -> [{"id":"rcp_a"},{"id":"rcp_b"}]'],
  );
  assert.deepEqual(differingMembers(differences), ['threshold', 'recipients']);
});

test('a member only one side has is a difference shown as (none)', () => {
  const d = compareTriggers(
    { ...local, description: 'new' },
    service({ id: 't1', name: 'Errors', alert_type: 'on_true' }),
  );
  assert.deepEqual(
    d.map((x) => differenceText(x)),
    ['description: (none) -> "new"', 'alert_type: "on_true" -> (none)'],
  );
});

test('a granularity the service filled in is not a difference when the file leaves it out, but is when the file gives another', () => {
  const withGranularity = service({
    id: 't1',
    name: 'Errors',
    query: { calculations: [{ op: 'COUNT' }], time_range: 600, granularity: 60 },
  });
  assert.deepEqual(compareTriggers(local, withGranularity), []);
  const other = { ...local, query: { ...local.query, granularity: 120 } };
  assert.deepEqual(
    compareTriggers(other, withGranularity).map((x) => differenceText(x)),
    ['query.granularity: 60 -> 120'],
  );
});

test('without an id the file is matched by dataset and name', () => {
  const { id: _id, ...noId } = local;
  const d = driftOfFile(
    'a.trigger.json',
    file(noId),
    index(['api', [service({ id: 't1', name: 'Errors' }), service({ id: 't2', name: 'Other' })]]),
  );
  assert.deepEqual(
    d.triggers.map((t) => [t.status, t.service?.id]),
    [['in-sync', 't1']],
  );
});

test('two service triggers of the same name cannot be told apart without an id', () => {
  const { id: _id, ...noId } = local;
  const d = driftOfFile(
    'a.trigger.json',
    file(noId),
    index(['api', [service({ id: 't1', name: 'Errors' }), service({ id: 't9', name: 'Errors' })]]),
  );
  assert.equal(d.status, 'unknown');
  assert.equal(d.triggers[0]?.reason, '2 triggers of api are named "Errors"; give the file the id of one (t1, t9)');
});

test('a trigger the service does not have is local-only, with the reason', () => {
  // Only a file without an id whose trigger the dataset does not have is a draft (not created yet).
  const cases: [unknown, ServiceIndex, string, boolean][] = [
    [local, index(['api', []]), 'the service has no trigger with id t1 in api', false],
    [{ ...local, id: undefined }, index(['api', []]), 'the service has no trigger named "Errors" in api', true],
    [local, index(['api', 'missing']), 'the service has no dataset api', false],
  ];
  for (const [value, i, reason, draft] of cases) {
    const d = driftOfFile('a.trigger.json', file(value), i);
    assert.deepEqual([d.status, d.triggers[0]?.reason, d.triggers[0]?.draft === true], ['local-only', reason, draft]);
  }
});

test('a file that cannot be compared is unknown, never in sync: not JSON, no dataset, a list that failed', () => {
  assert.deepEqual([driftOfFile('a', readTriggerFile('{ "name": '), index()).status], ['unknown']);
  assert.match(driftOfFile('a', readTriggerFile('{ "name": '), index()).reason ?? '', /^the file is not valid JSON/);
  const noDataset = driftOfFile('a', file({ name: 'x' }), index(['api', []]));
  assert.deepEqual(
    [noDataset.status, noDataset.triggers[0]?.reason],
    ['unknown', 'the file names no dataset_slug, so its trigger cannot be looked up on the service'],
  );
  const failed = driftOfFile('a', file(local), index(['api', { failed: 'the service answered 500' }]));
  assert.deepEqual(
    [failed.status, failed.triggers[0]?.reason],
    ['unknown', 'the triggers of api could not be read: the service answered 500'],
  );
});

test('environment-wide files (dataset_slug __all__ or all) are matched with the environment-wide list', () => {
  const env = service({ id: 'te', name: 'Quiet', dataset_slug: 'all' });
  const d = driftOfFile(
    'e',
    file({ ...local, id: undefined, name: 'Quiet', dataset_slug: '__all__' }),
    index(['__all__', [env]]),
  );
  assert.deepEqual(
    d.triggers.map((t) => [t.status, t.service?.id]),
    [['in-sync', 'te']],
  );
});

test('a file holding an array has the drift of each trigger, and the worst status', () => {
  const d = driftOfFile(
    'a',
    readTriggerFile(JSON.stringify([local, { ...local, id: 'gone' }])),
    index(['api', [service({ id: 't1', name: 'Errors' })]]),
  );
  assert.equal(d.status, 'local-only');
  assert.deepEqual(
    d.triggers.map((t) => [t.index, t.status]),
    [
      [0, 'in-sync'],
      [1, 'local-only'],
    ],
  );
});

test('the service triggers no file matched are listed, only for the datasets the files are about', () => {
  const i = index(
    ['api', [service({ id: 't1', name: 'Errors' }), service({ id: 't2', name: 'B' })]],
    ['web', [service({ id: 'w1', name: 'W', dataset_slug: 'web' })]],
  );
  const files = [driftOfFile('a', file(local), i)];
  assert.deepEqual(
    onlyOnService(files, i).map((t) => t.id),
    ['t2'],
  );
  assert.deepEqual(
    onlyOnService(files, i, new Set(['api', 'web'])).map((t) => t.id),
    ['t2', 'w1'],
  );
  assert.deepEqual(driftCounts(files, onlyOnService(files, i)), {
    inSync: 1,
    differs: 0,
    localOnly: 0,
    serviceOnly: 1,
    unknown: 0,
  });
});
