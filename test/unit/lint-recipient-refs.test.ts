// The linter on recipients named by type and target without an id (docs/ENVIRONMENTS.md): accepted in trigger
// and burn alert files, where the plan resolves them to the team's id; one with a type and no target is an
// error that names the target it lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../src/lint';
import { lintSloText } from '../../src/lint/sloLint';

const NO_TARGET =
  'recipient "email" has no target: give its target (what the team calls it: an address, a channel, a name) or its id';

const trigger = (recipients: unknown[]) =>
  JSON.stringify({
    dataset_slug: 'api',
    name: 'Errors',
    threshold: { op: '>', value: 5 },
    query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
    recipients,
  });

const alert = (recipients: unknown[]) =>
  JSON.stringify({
    id: 'ba_1',
    dataset_slug: 'api',
    slo: { id: 'slo1', name: 'Availability' },
    alert_type: 'exhaustion_time',
    exhaustion_minutes: 60,
    recipients,
  });

test('a trigger file: a reference is no error, a type without its target is one naming the target', () => {
  const errors = lint(trigger([{ type: 'slack', target: '#alerts' }, { type: 'email' }])).filter(
    (d) => d.severity === 'error',
  );
  assert.deepEqual(
    errors.map((d) => [d.rule, d.message]),
    [['trigger/recipient', NO_TARGET]],
  );
});

test('a burn alert file: a reference is accepted, a type without its target is an error naming the target', () => {
  const { diagnostics } = lintSloText('burn-alert', alert([{ type: 'slack', target: '#alerts' }, { type: 'email' }]));
  assert.deepEqual(
    diagnostics.map((d) => [d.rule, d.severity, d.message]),
    [['burn-alert/recipient', 'error', NO_TARGET]],
  );
});

test('a recipient with a target and no type is an error naming the type', () => {
  const { diagnostics } = lintSloText('burn-alert', alert([{ target: '#alerts' }]));
  assert.deepEqual(
    diagnostics.map((d) => d.message),
    ['recipient "#alerts" has no type: give its type (email, slack, pagerduty...) or its id'],
  );
});
