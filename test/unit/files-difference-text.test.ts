// A difference as people read it in a plan, drift or an agent's answer: short values whole; a value cut at
// the text's length still says what changed, so two cut sides that look the same never hide an edit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differenceText } from '../../src/triggerFiles';

const routes = [
  '/api/v1/accounts',
  '/api/v1/billing',
  '/api/v1/cart',
  '/api/v1/catalog',
  '/api/v1/checkout',
  '/api/v1/orders',
  '/api/v1/search',
  '/api/v1/users',
];

test('short values are shown whole, service value then file value', () => {
  assert.equal(
    differenceText({ path: 'threshold.value', member: 'threshold', service: 5, local: 10 }),
    'threshold.value: 5 -> 10',
  );
});

test('a list too long to show names the items the file removes and adds', () => {
  const d = {
    path: 'query.filters[1].value',
    member: 'query',
    service: routes,
    local: routes.filter((r) => r !== '/api/v1/checkout'),
  };
  assert.equal(
    differenceText(d, 120),
    `query.filters[1].value: ${JSON.stringify(routes).slice(0, 119)}… -> ${JSON.stringify(d.local).slice(0, 119)}… (8 -> 7 items: removed "/api/v1/checkout")`,
  );
});

test('a recipient added to a long list is named, whatever the cut shows', () => {
  const recipients = ['rcp_a', 'rcp_b', 'rcp_c', 'rcp_d', 'rcp_e', 'rcp_f'].map((id) => ({ id }));
  const d = {
    path: 'recipients',
    member: 'recipients',
    service: recipients,
    local: [...recipients, { type: 'email', target: 'exfil@attacker.example' }],
  };
  assert.match(differenceText(d, 60), /\(6 -> 7 items: added \{"type":"email","target":"exfil@attacker\.example"\}\)$/);
});

test('a long text edited past the cut, its length kept, says where it first differs', () => {
  const before = 'x'.repeat(3000);
  const after = `${'x'.repeat(2500)}y${'x'.repeat(499)}`;
  const text = differenceText({ path: 'description', member: 'description', service: before, local: after }, 100);
  assert.match(text, /\(3002 -> 3002 characters, first differing at character 2502: …x{100}… -> …x{50}yx{49}…\)$/);
});
