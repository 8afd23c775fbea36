// applyChanges' writes, each against a scripted service that counts what it is sent: a PUT whose answer was
// lost is sent again only after a read shows nothing changed since the plan (never over a change made
// meanwhile), the trigger read before a write must be the one the file names, and a dataset's deletes wait for
// its creates and updates. Unknown outcomes are said as unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyChanges,
  serviceVersion,
  type PlannedChange,
  type ServiceTrigger,
  type TriggerWriter,
} from '../../src/triggerFiles';
import { LISTED, UPDATE } from './apply-fixtures';

/** A ServiceError as the client makes it for a PUT whose answer was lost (a 503 after it may have been taken). */
class LostAnswer extends Error {
  override readonly name = 'ServiceError';
  readonly kind = 'http';
  readonly status = 503;
  readonly operation = 'update trigger';
  readonly fieldProblems = [];
  readonly maybeProcessed = true;
  constructor() {
    super(
      'update trigger failed: HTTP 503 the service is unavailable; the trigger may have been replaced anyway: read it before writing it again',
    );
  }
}

const before = LISTED;
const sent: ServiceTrigger = { ...before, frequency: 600, updated_at: '2026-11-20T00:05:00Z' };
const update = UPDATE;

/** A service answering reads from `reads` in turn (the last one again) and PUTs from `puts`, recording each call. */
function scripted(reads: ServiceTrigger[], puts: (() => Promise<{ data: ServiceTrigger }>)[]) {
  const calls: string[] = [];
  let r = 0;
  let p = 0;
  const writer: TriggerWriter = {
    getTrigger: async (_d, id) => {
      calls.push(`GET ${id}`);
      return { data: reads[Math.min(r++, reads.length - 1)] ?? before };
    },
    listTriggers: async () => {
      calls.push('LIST');
      return { data: [] };
    },
    createTrigger: () => Promise.reject(new Error('not expected')),
    replaceTrigger: (_d, id) => {
      calls.push(`PUT ${id}`);
      const next = puts[p++];
      return next === undefined ? Promise.reject(new Error('not expected')) : next();
    },
    deleteTrigger: async (_d, id) => {
      calls.push(`DELETE ${id}`);
      return {};
    },
    getBurnAlert: () => Promise.reject(new Error('not expected')),
    updateBurnAlert: () => Promise.reject(new Error('not expected')),
    updateDatasetDefinitions: () => Promise.reject(new Error('not expected')),
  };
  return { writer, calls };
}

const lost = () => Promise.reject(new LostAnswer());
const taken = () => Promise.resolve({ data: sent });

test('a PUT whose answer was lost and which the service holds as sent is applied, and not sent again', async () => {
  const { writer, calls } = scripted([before, sent, sent], [lost]);
  const [result] = await applyChanges([update], writer);
  assert.deepEqual(calls, ['GET t-1', 'PUT t-1', 'GET t-1', 'GET t-1']);
  assert.deepEqual(result, { change: update, outcome: 'applied', id: 't-1', storedDifferently: [] });
});

test('a PUT whose answer was lost is sent again only after a read shows the trigger still as planned', async () => {
  const { writer, calls } = scripted([before, before, sent], [lost, taken]);
  const [result] = await applyChanges([update], writer);
  assert.deepEqual(calls, ['GET t-1', 'PUT t-1', 'GET t-1', 'PUT t-1', 'GET t-1']);
  assert.equal(result?.outcome, 'applied');
});

test('a PUT whose answer was lost is never sent over a change made meanwhile: its outcome is unknown, and said', async () => {
  const someoneElse: ServiceTrigger = {
    ...before,
    description: 'changed by someone else',
    updated_at: '2026-11-20T00:06:00Z',
  };
  const { writer, calls } = scripted([before, someoneElse], [lost]);
  const [result] = await applyChanges([update], writer);
  assert.deepEqual(calls, ['GET t-1', 'PUT t-1', 'GET t-1']);
  assert.deepEqual(result, {
    change: update,
    outcome: 'unknown',
    reason: `its answer was lost (${new LostAnswer().message}), and the trigger now holds neither what was sent nor what the plan was made from: it changed on the service meanwhile, or the write was stored otherwise; nothing was sent again; plan again to see it`,
    cause: { kind: 'http', status: 503 },
  });
});

test('a PUT whose answer is lost every time is sent at most three times in all', async () => {
  const { writer, calls } = scripted([before], [lost, lost, lost, lost]);
  const [result] = await applyChanges([update], writer);
  assert.equal(calls.filter((c) => c.startsWith('PUT')).length, 3);
  assert.equal(result?.outcome, 'unknown');
});

test('an update matched by name whose trigger is now named otherwise is not written: the trigger is not the one the file names', async () => {
  const byName: PlannedChange = { ...update, matchedBy: 'name' } as PlannedChange;
  const renamed: ServiceTrigger = { ...before, name: 'Office-hours latency' };
  const { writer, calls } = scripted([renamed], []);
  const [result] = await applyChanges([{ ...byName, service: serviceVersion(renamed) } as PlannedChange], writer);
  assert.deepEqual(calls, ['GET t-1']);
  assert.deepEqual(
    result?.outcome === 'skipped' && result.reason,
    '"High latency" (t-1) is now "Office-hours latency" of api, not the trigger the file names: nothing was written',
  );
});

test("a dataset's deletes wait for its creates and updates: one not made keeps every delete of that dataset", async () => {
  const refusedCreate: PlannedChange = {
    kind: 'trigger',
    action: 'create',
    file: 'api/new.trigger.json',
    index: -1,
    dataset: 'api',
    name: 'Renamed',
    body: { name: 'Renamed', disabled: false },
  };
  const removeOld: PlannedChange = {
    kind: 'trigger',
    action: 'delete',
    dataset: 'api',
    id: 't-1',
    name: 'High latency',
    service: serviceVersion(before),
  };
  const removeOther: PlannedChange = {
    kind: 'trigger',
    action: 'delete',
    dataset: 'web',
    id: 't-7',
    name: 'Web',
    service: serviceVersion({ ...before, id: 't-7', name: 'Web', dataset_slug: 'web' }),
  };
  const { writer, calls } = scripted([{ ...before, id: 't-7', name: 'Web', dataset_slug: 'web' }], []);
  const results = await applyChanges([removeOld, removeOther, refusedCreate], {
    ...writer,
    createTrigger: () =>
      Promise.reject(
        Object.assign(new Error('create trigger: 422 invalid'), {
          name: 'ServiceError',
          kind: 'http',
          status: 422,
          operation: 'create trigger',
          fieldProblems: [],
        }),
      ),
  });
  assert.deepEqual(
    results.map((r) => [r.change.action, r.change.dataset, r.outcome]),
    [
      ['create', 'api', 'refused'],
      ['delete', 'api', 'skipped'],
      ['delete', 'web', 'applied'],
    ],
  );
  assert.deepEqual(
    results[1]?.outcome === 'skipped' && results[1].reason,
    'not deleted: a create or update of api was not applied, and this trigger may be that one, renamed',
  );
  assert.deepEqual(calls, ['LIST', 'GET t-7', 'DELETE t-7']);
});

test('stopped between changes: the change in flight finishes, the rest are skipped as stopped', async () => {
  const stop = new AbortController();
  const { writer } = scripted([before, sent], [taken]);
  const second: PlannedChange = { ...update, id: 't-2', name: 'Second' } as PlannedChange;
  const results = await applyChanges(
    [update, second],
    {
      ...writer,
      replaceTrigger: async () => {
        stop.abort();
        return { data: sent };
      },
    },
    { stop: stop.signal },
  );
  assert.deepEqual(
    results.map((r) => r.outcome),
    ['applied', 'skipped'],
  );
  assert.deepEqual(results[1]?.outcome === 'skipped' && results[1].reason, 'the apply was stopped before it');
});

test('a create whose name a trigger of the dataset took since the plan is skipped, never made twice', async () => {
  const create: PlannedChange = {
    kind: 'trigger',
    action: 'create',
    file: 'api/new.trigger.json',
    index: -1,
    dataset: 'api',
    name: 'High latency',
    body: { name: 'High latency', disabled: false },
  };
  const { writer, calls } = scripted([before], []);
  const [result] = await applyChanges([create], {
    ...writer,
    listTriggers: async () => (calls.push('LIST'), { data: [before] }),
  });
  assert.deepEqual(calls, ['LIST']);
  assert.deepEqual(result, {
    change: create,
    outcome: 'skipped',
    reason: 'a trigger named "High latency" (t-1) was created on the service since the plan',
  });
});

test('a trigger whose content changed since the plan with the same updated_at is skipped, not written over', async () => {
  const sameTime: ServiceTrigger = { ...before, description: 'changed by someone else' };
  const { writer, calls } = scripted([sameTime], [taken]);
  const [result] = await applyChanges([update], writer);
  assert.deepEqual(calls, ['GET t-1']);
  assert.deepEqual(result, {
    change: update,
    outcome: 'skipped',
    reason:
      '"High latency" (t-1) changed on the service since the plan (updated 2026-11-20T00:00:00Z); plan again to see the change',
  });
});
