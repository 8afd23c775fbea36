// The effective trigger (docs/ENVIRONMENTS.md): a file's trigger as another environment sees it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveTrigger, mergePatch, unusedOverrides } from '../../src/triggerFiles/effective';
import { readEnvironments, type Environment } from '../../src/triggerFiles/environments';

// The examples of RFC 7386, appendix A: target, patch, result.
const RFC_7386: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

test('a merge patch gives every result of RFC 7386, appendix A', () => {
  for (const [target, patch, result] of RFC_7386) assert.deepEqual(mergePatch(target, patch), result);
});

function production(overlay: Record<string, unknown>): Environment {
  const read = readEnvironments(
    JSON.stringify({ home: 'staging', environments: { staging: {}, production: overlay } }),
  );
  assert.ok(read.ok, 'the environments file should read');
  const env = read.value.environments.get('production');
  assert.ok(env !== undefined);
  return env;
}

const trigger = {
  id: 'trg_staging_1',
  dataset_slug: 'checkout',
  name: 'High error rate',
  threshold: { op: '>', value: 5 },
  frequency: 300,
  recipients: [
    { id: 'rcp_slack_staging', type: 'slack', target: '#alerts-staging' },
    { id: 'rcp_mail', type: 'email', target: 'oncall@example.com' },
  ],
};

test('the override is merged, the dataset and recipients mapped, and the home id left out', () => {
  const env = production({
    datasets: { checkout: 'checkout-prod' },
    recipients: [{ from: { type: 'slack', target: '#alerts-staging' }, to: { type: 'slack', target: '#alerts' } }],
    triggers: { checkout: { 'High error rate': { threshold: { value: 50 }, disabled: true } } },
  });
  assert.deepEqual(effectiveTrigger(trigger, env), {
    value: {
      dataset_slug: 'checkout-prod',
      name: 'High error rate',
      threshold: { op: '>', value: 50 },
      frequency: 300,
      recipients: [
        { type: 'slack', target: '#alerts' },
        { type: 'email', target: 'oncall@example.com' },
      ],
      disabled: true,
    },
    fromOverlay: [['threshold', 'value'], ['disabled']],
    problems: [],
  });
});

test("a trigger the environment does not override keeps its members; its ids, the home's, are left out", () => {
  assert.deepEqual(effectiveTrigger(trigger, production({})), {
    value: {
      dataset_slug: 'checkout',
      name: 'High error rate',
      threshold: { op: '>', value: 5 },
      frequency: 300,
      recipients: [
        { type: 'slack', target: '#alerts-staging' },
        { type: 'email', target: 'oncall@example.com' },
      ],
    },
    fromOverlay: [],
    problems: [],
  });
});

test("an override that removes a member with null records it as the overlay's", () => {
  const env = production({ triggers: { checkout: { 'High error rate': { frequency: null } } } });
  const { value, fromOverlay } = effectiveTrigger(trigger, env);
  assert.equal('frequency' in value, false);
  assert.deepEqual(fromOverlay, [['frequency']]);
});

test('a recipient named by id alone cannot be taken to another environment: a problem, and left out', () => {
  const pagerduty = { ...trigger, recipients: [{ id: 'rcp_pd', type: 'pagerduty' }, { id: 'rcp_x' }] };
  const { value, problems } = effectiveTrigger(pagerduty, production({}));
  assert.deepEqual(value.recipients, []);
  assert.deepEqual(problems, [
    'recipient "rcp_pd" is named by id alone: give its type and target, which every environment can resolve',
    'recipient "rcp_x" is named by id alone: give its type and target, which every environment can resolve',
  ]);
});

test('an environment-wide trigger takes the override written under __all__', () => {
  const env = production({ triggers: { __all__: { Uptime: { disabled: true } } } });
  const uptime = { dataset_slug: '__all__', name: 'Uptime', recipients: [] };
  assert.deepEqual(effectiveTrigger(uptime, env).value, {
    dataset_slug: 'all',
    name: 'Uptime',
    recipients: [],
    disabled: true,
  });
});

test('an override naming no trigger of the files is said by its place', () => {
  const env = production({
    triggers: { checkout: { 'High error rate': {}, 'High eror rate': {} }, orders: { Latency: {} } },
  });
  assert.deepEqual(unusedOverrides(env, [{ dataset: 'checkout', name: 'High error rate' }]), [
    ['triggers', 'checkout', 'High eror rate'],
    ['triggers', 'orders', 'Latency'],
  ]);
});

test("a saved query named by id is the environment's of that id", () => {
  const env = production({ queries: { q_gw_5xx: 'q_gw_5xx_prod' } });
  const saved = { dataset_slug: 'api-gateway', name: 'Gateway 5xx', query_id: 'q_gw_5xx' };
  assert.equal(effectiveTrigger(saved, env).value.query_id, 'q_gw_5xx_prod');
  assert.equal(effectiveTrigger({ ...saved, query_id: 'q_other' }, env).value.query_id, 'q_other');
});
