// Recipients named by type and target, resolved to the team's id (docs/ENVIRONMENTS.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountRecipient } from '../../src/api/schemas/account';
import { referenceTarget, TeamRecipients } from '../../src/triggerFiles/recipientRefs';

const team: AccountRecipient[] = [
  { id: 'rcp_mail', type: 'email', details: { email_address: 'oncall@example.com' } },
  { id: 'rcp_slack', type: 'slack', details: { slack_channel: '#alerts' } },
  { id: 'rcp_slack_ops', type: 'slack', details: { slack_channel: '#ops' } },
  { id: 'rcp_pd', type: 'pagerduty', details: { pagerduty_integration_name: 'Checkout on-call' } },
  { id: 'rcp_hook', type: 'webhook', details: { webhook_name: 'Deploys' } },
  { id: 'rcp_flow', type: 'msteams_workflow', details: { webhook_name: 'Ops channel' } },
];

test('each type is named by what the list calls it, never by a credential', () => {
  assert.deepEqual(
    team.map((r) => referenceTarget(r)),
    ['oncall@example.com', '#alerts', '#ops', 'Checkout on-call', 'Deploys', 'Ops channel'],
  );
  assert.equal(referenceTarget({ id: 'rcp_x', type: 'marker' }), undefined);
  assert.equal(referenceTarget({ id: 'rcp_y', type: 'slack', details: { slack_channel: '  ' } }), undefined);
});

test('a reference resolves to the id of the one recipient of that type and target', () => {
  const recipients = new TeamRecipients(team);
  assert.deepEqual(recipients.resolve({ type: 'pagerduty', target: 'Checkout on-call' }), { ok: true, id: 'rcp_pd' });
  assert.deepEqual(recipients.resolve({ type: 'slack', target: '#ops' }), { ok: true, id: 'rcp_slack_ops' });
});

test('a reference the team does not have is refused with its recipients of that type', () => {
  assert.deepEqual(new TeamRecipients(team).resolve({ type: 'slack', target: '#alerts-staging' }), {
    ok: false,
    reason: 'the team has no slack recipient "#alerts-staging"; its slack recipients: "#alerts", "#ops"',
  });
});

test('a reference of a type the team has none of says so', () => {
  assert.deepEqual(new TeamRecipients(team).resolve({ type: 'msteams', target: 'Ops' }), {
    ok: false,
    reason: 'the team has no msteams recipient "Ops", and no msteams recipient',
  });
});

test('a reference two recipients answer is refused with both ids', () => {
  const twice = [...team, { id: 'rcp_slack_2', type: 'slack', details: { slack_channel: '#alerts' } }];
  assert.deepEqual(new TeamRecipients(twice).resolve({ type: 'slack', target: '#alerts' }), {
    ok: false,
    reason: 'the team has 2 slack recipients "#alerts" (rcp_slack, rcp_slack_2): name the one meant by its id',
  });
});

test('a refusal names ten candidates and counts the rest', () => {
  const many = Array.from({ length: 13 }, (_, i) => ({
    id: `rcp_${i}`,
    type: 'email',
    details: { email_address: `p${String(i).padStart(2, '0')}@example.com` },
  }));
  const result = new TeamRecipients(many).resolve({ type: 'email', target: 'nobody@example.com' });
  assert.equal(result.ok, false);
  assert.match(result.ok ? '' : result.reason, /"p09@example\.com" and 3 more$/);
});
