// "Remove Dataset": what it takes away, and when it must ask first (it never forgets SLO ids silently).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planDatasetRemoval, removeAction } from '../../src/extension/tree/datasetRemoval';

test('an added dataset that is also discovered only loses its "added" mark and keeps its SLOs in the tree', () => {
  const plan = planDatasetRemoval({ slug: 'orders', added: true, discovered: true, sloIds: ['slo1', 'slo2'] });
  assert.deepEqual(plan, {
    kind: 'unmark',
    message:
      'orders is also discovered from environment-wide triggers, so it stays in the tree. Its 2 remembered SLO ids stay remembered. Hide it instead?',
  });
});

test('an added, discovered dataset without SLOs says only that it stays', () => {
  const plan = planDatasetRemoval({ slug: 'orders', added: true, discovered: true, sloIds: [] });
  assert.deepEqual(plan, {
    kind: 'unmark',
    message: 'orders is also discovered from environment-wide triggers, so it stays in the tree. Hide it instead?',
  });
});

test('an added dataset that is not discovered leaves the tree at once when it has no SLOs', () => {
  assert.deepEqual(planDatasetRemoval({ slug: 'orders', added: true, discovered: false, sloIds: [] }), {
    kind: 'forget',
    sloIds: [],
  });
});

test('an added dataset that is not discovered asks before forgetting its SLO ids, and names them', () => {
  const plan = planDatasetRemoval({ slug: 'orders', added: true, discovered: false, sloIds: ['slo1', 'slo2'] });
  assert.deepEqual(plan, {
    kind: 'forget',
    sloIds: ['slo1', 'slo2'],
    confirm: {
      message:
        'Remove orders? Neither listed by the service nor discovered from environment-wide triggers, it leaves the tree and its 2 remembered SLO ids (slo1, slo2) will be forgotten. The SLOs themselves stay on the service.',
      action: removeAction(),
    },
  });
});

test('the confirmation names at most five SLO ids and counts the rest', () => {
  const plan = planDatasetRemoval({
    slug: 'orders',
    added: true,
    discovered: false,
    sloIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
  });
  assert.equal(plan.kind, 'forget');
  assert.match(
    plan.kind === 'forget' ? (plan.confirm?.message ?? '') : '',
    /its 7 remembered SLO ids \(a, b, c, d, e and 2 more\)/,
  );
});

test('a dataset not added by hand has nothing to remove; a discovered one is offered Hide', () => {
  assert.deepEqual(planDatasetRemoval({ slug: 'orders', added: false, discovered: true, sloIds: ['slo1'] }), {
    kind: 'not-added',
    message: 'orders was not added by hand: it is discovered from environment-wide triggers. Hide it instead?',
  });
  assert.deepEqual(planDatasetRemoval({ slug: 'orders', added: false, discovered: false, sloIds: ['slo1'] }), {
    kind: 'not-added',
    message: 'orders was not added by hand; nothing to remove.',
  });
});

test('an added dataset the service lists only loses its "added" mark: it stays in the tree, and Hide is offered', () => {
  assert.deepEqual(
    planDatasetRemoval({ slug: 'orders', added: true, discovered: false, listed: true, sloIds: ['slo1'] }),
    {
      kind: 'unmark',
      message:
        'orders is also listed by the service, so it stays in the tree. Its 1 remembered SLO id stay remembered. Hide it instead?',
    },
  );
  assert.deepEqual(planDatasetRemoval({ slug: 'orders', added: false, discovered: false, listed: true, sloIds: [] }), {
    kind: 'not-added',
    message: 'orders was not added by hand: the service lists it. Hide it instead?',
  });
});

test('bidi controls in a slug or SLO id are neutralised in the confirmation', () => {
  const plan = planDatasetRemoval({ slug: 'ord\u202Eers', added: true, discovered: false, sloIds: ['s\u202Elo'] });
  const message = plan.kind === 'forget' ? (plan.confirm?.message ?? '') : '';
  assert.doesNotMatch(message, /\u202E/);
});
