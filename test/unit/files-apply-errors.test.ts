// applyChanges reads the client's errors by their shape: in the editor the client comes from its own bundle,
// so its ServiceError is another class than the one triggerFiles would import. A refusal must still be a
// refusal with the service's members, a trigger deleted since the plan a skip, a pacing pool given up a skip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyChanges, PullCancelled, type PlannedChange, type TriggerWriter } from '../../src/triggerFiles';
import { LISTED, UPDATE } from './apply-fixtures';

/** A ServiceError as another bundle's copy of the class makes it: same shape, another class. */
class ForeignServiceError extends Error {
  override readonly name = 'ServiceError';
  readonly operation = 'update trigger';
  constructor(
    message: string,
    readonly kind: string,
    readonly status?: number,
    readonly fieldProblems: { field: string; message: string }[] = [],
    readonly detail?: string,
  ) {
    super(message);
  }
}

const listed = LISTED;
const update = UPDATE;

function writer(over: Partial<TriggerWriter>): TriggerWriter {
  const refuse = () => Promise.reject(new Error('not expected'));
  return {
    getTrigger: async () => ({ data: listed }),
    listTriggers: async () => ({ data: [listed] }),
    createTrigger: refuse,
    replaceTrigger: refuse,
    deleteTrigger: refuse,
    getBurnAlert: refuse,
    updateBurnAlert: refuse,
    updateDatasetDefinitions: refuse,
    ...over,
  };
}

test("a refusal by another bundle's ServiceError is reported as refused, with the service's message on the member and its own words as the cause", async () => {
  const refused = new ForeignServiceError(
    'replace trigger: 422 frequency must be a multiple of 60',
    'http',
    422,
    [{ field: 'frequency', message: 'must be a multiple of 60' }],
    'frequency must be a multiple of 60',
  );
  const [result] = await applyChanges([update], writer({ replaceTrigger: () => Promise.reject(refused) }));
  assert.deepEqual(result, {
    change: update,
    outcome: 'refused',
    reason: 'replace trigger: 422 frequency must be a multiple of 60',
    members: [{ field: 'frequency', message: 'must be a multiple of 60' }],
    cause: { kind: 'http', status: 422, said: 'frequency must be a multiple of 60' },
  });
});

test("a failure that is not the client's (a bug, a closed file) is failed with its message and a cause of its own kind", async () => {
  const [result] = await applyChanges(
    [update],
    writer({ replaceTrigger: () => Promise.reject(new TypeError('boom')) }),
  );
  assert.deepEqual(result, { change: update, outcome: 'failed', reason: 'boom', cause: { kind: 'other' } });
});

test("a trigger another bundle's client answers 404 for is skipped as deleted since the plan, not failed", async () => {
  const [result] = await applyChanges(
    [update],
    writer({ getTrigger: () => Promise.reject(new ForeignServiceError('get trigger: 404', 'http', 404)) }),
  );
  assert.deepEqual(result, {
    change: update,
    outcome: 'skipped',
    reason: '"High latency" (t-1) was deleted on the service since the plan',
  });
});

test('a write given up while a pacing pool waited (cancelled) is skipped: it was never sent', async () => {
  const [result] = await applyChanges([update], writer({ replaceTrigger: () => Promise.reject(new PullCancelled()) }));
  assert.deepEqual(result, { change: update, outcome: 'skipped', reason: 'the apply was cancelled during it' });
});

test('an update made but not readable back (404) is reported as written and unverified, never as refused', async () => {
  let reads = 0;
  const [result] = await applyChanges(
    [update],
    writer({
      // The first read is the check before the write; the second, the read back after it.
      getTrigger: async () =>
        ++reads === 1
          ? { data: listed }
          : Promise.reject(new ForeignServiceError('read trigger: 404 not found', 'http', 404)),
      replaceTrigger: async () => ({ data: { ...listed, frequency: 600 } }),
    }),
  );
  assert.deepEqual(result, {
    change: update,
    outcome: 'unverified',
    id: 't-1',
    reason:
      'reading it back failed (read trigger: 404 not found), so what the service stored is not known; plan again to compare',
    cause: { kind: 'http', status: 404 },
  });
});

test('a create made but not readable back (503) names its new id and the id written into the file', async () => {
  const create: PlannedChange = {
    kind: 'trigger',
    action: 'create',
    file: 'api/new.trigger.json',
    index: -1,
    dataset: 'api',
    name: 'New one',
    body: { name: 'New one', disabled: false },
  };
  const [result] = await applyChanges(
    [create],
    writer({
      createTrigger: async () => ({ data: { id: 't-9', name: 'New one', dataset_slug: 'api' } }),
      getTrigger: () => Promise.reject(new ForeignServiceError('read trigger: 503 unavailable', 'http', 503)),
    }),
    { onCreated: async () => 'id written into api/new.trigger.json' },
  );
  assert.deepEqual(result, {
    change: create,
    outcome: 'unverified',
    id: 't-9',
    reason:
      'reading it back failed (read trigger: 503 unavailable), so what the service stored is not known; plan again to compare; id written into api/new.trigger.json',
    cause: { kind: 'http', status: 503 },
  });
});
