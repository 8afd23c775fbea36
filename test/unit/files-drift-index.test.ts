// The service index of drift (src/triggerFiles/drift.ts) with many triggers of one name in a dataset:
// indexing them is linear (counted as reads of the triggers' ids, never timed), and a file named like
// them is told a bounded list of their ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driftOfFile, readTriggerFile, ServiceIndex, type ServiceTrigger } from '../../src/triggerFiles';

/** n service triggers of dataset api all named "Errors", whose id reads are counted. */
function sameNamed(n: number, reads: { id: number }): ServiceTrigger[] {
  return Array.from(
    { length: n },
    (_, i) =>
      new Proxy<ServiceTrigger>(
        { id: `t${i}`, name: 'Errors', dataset_slug: 'api' },
        {
          get(target, key, receiver) {
            if (key === 'id') reads.id++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        },
      ),
  );
}

function indexed(n: number): { reads: number; named: number } {
  const reads = { id: 0 };
  const index = new ServiceIndex();
  index.add('api', { state: 'listed', triggers: sameNamed(n, reads) });
  return { reads: reads.id, named: index.named('api', 'Errors').length };
}

test('N triggers of one name in one dataset are indexed with work linear in N (id reads of 1,000 then 2,000)', () => {
  const small = indexed(1_000);
  const large = indexed(2_000);
  assert.equal(small.named, 1_000);
  assert.equal(large.named, 2_000);
  // A few reads per trigger, not one per pair of same-named triggers (2,000,000 for 2,000).
  assert.ok(large.reads <= 4 * 2_000, `id reads for 2,000: ${large.reads}`);
  assert.ok(large.reads <= 2 * small.reads + 10, `id reads ${small.reads} then ${large.reads}`);
});

test('a trigger listed twice (environment-wide and for its dataset) is indexed once under its name', () => {
  const index = new ServiceIndex();
  const trigger = { id: 't1', name: 'Errors', dataset_slug: 'api' };
  index.add('__all__', { state: 'listed', triggers: [trigger] });
  index.add('api', { state: 'listed', triggers: [{ ...trigger }] });
  assert.deepEqual(
    index.named('api', 'Errors').map((t) => t.id),
    ['t1'],
  );
});

test('a file named like 12 service triggers is told 10 of their ids and how many more there are', () => {
  const index = new ServiceIndex();
  index.add('api', { state: 'listed', triggers: sameNamed(12, { id: 0 }) });
  const d = driftOfFile(
    'a.trigger.json',
    readTriggerFile(JSON.stringify({ dataset_slug: 'api', name: 'Errors' })),
    index,
  );
  assert.deepEqual(
    d.triggers.map((t) => [t.status, t.reason]),
    [
      [
        'unknown',
        '12 triggers of api are named "Errors"; give the file the id of one (t0, t1, t2, t3, t4, t5, t6, t7, t8, t9 and 2 more)',
      ],
    ],
  );
});
