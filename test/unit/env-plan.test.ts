// The trigger files as an environment sees them, before the plan's gates (src/triggerFiles/environmentPlan.ts):
// a file's text made effective in its own shape, problems by the trigger's place, and the overrides that name no
// trigger of the files walked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Diagnostic } from '../../src/lint';
import { effectiveFile, placeOfFinding, unusedOverrideEntries } from '../../src/triggerFiles/environmentPlan';
import { readEnvironments, type Environment } from '../../src/triggerFiles/environments';

function production(overlay: Record<string, unknown>): Environment {
  const read = readEnvironments(
    JSON.stringify({ home: 'staging', environments: { staging: {}, production: overlay } }),
  );
  assert.ok(read.ok, 'the environments file should read');
  const env = read.value.environments.get('production');
  assert.ok(env !== undefined);
  return env;
}

const trigger = (name: string, recipients: unknown[]) => ({
  id: `trig_${name}`,
  dataset_slug: 'checkout',
  name,
  threshold: { op: '>', value: 5 },
  recipients,
});

test('a file of an array is written back as an array of effective triggers, each problem by its place', () => {
  const env = production({ datasets: { checkout: 'checkout-prod' } });
  const text = JSON.stringify([
    trigger('A', [{ id: 'rcp_1', type: 'email', target: 'a@example.com' }]),
    trigger('B', [{ id: 'rcp_2' }]),
  ]);
  const file = effectiveFile(text, env);
  assert.ok(file !== undefined);
  const there = (name: string, recipients: unknown[]) => {
    const { id: _id, ...rest } = trigger(name, recipients);
    return { ...rest, dataset_slug: 'checkout-prod' };
  };
  assert.deepEqual(JSON.parse(file.text), [there('A', [{ type: 'email', target: 'a@example.com' }]), there('B', [])]);
  assert.deepEqual(
    [...file.problems],
    [[1, ['recipient "rcp_2" is named by id alone: give its type and target, which every environment can resolve']]],
  );
  assert.deepEqual(file.triggers, [
    { dataset: 'checkout', name: 'A' },
    { dataset: 'checkout', name: 'B' },
  ]);
});

test('a file of one trigger is written back as one object', () => {
  const file = effectiveFile(
    JSON.stringify(trigger('A', [])),
    production({ triggers: { checkout: { A: { disabled: true } } } }),
  );
  assert.ok(file !== undefined);
  assert.equal(Array.isArray(JSON.parse(file.text)), false);
  assert.equal((JSON.parse(file.text) as { disabled?: boolean }).disabled, true);
});

test('an override of a dataset the walked files hold that names none of their triggers blocks the mapped dataset', () => {
  const env = production({
    datasets: { checkout: 'checkout-prod' },
    triggers: { checkout: { Typo: { disabled: true }, A: { disabled: true } }, billing: { Other: { disabled: true } } },
  });
  const blocked = unusedOverrideEntries({ name: 'production', file: 'obs.environments.json', overlay: env }, [
    { dataset: 'checkout', name: 'A' },
  ]);
  assert.deepEqual(
    blocked.map((b) => [b.file, b.dataset, b.index]),
    [['obs.environments.json', 'checkout-prod', -1]],
  );
  assert.match(
    blocked[0]?.reasons[0] ?? '',
    /^environments\.production\."triggers"\."checkout"\."Typo" names no trigger/,
  );
});

test('the home environment has no overrides to check', () => {
  assert.deepEqual(unusedOverrideEntries({ name: 'staging', file: 'obs.environments.json' }, []), []);
});

/** A finding of the effective text at `path` (its range is the effective text's, which neither file holds). */
const finding = (path: (string | number)[]): Diagnostic => ({
  rule: 'trigger/threshold-op',
  severity: 'error',
  message: 'm',
  path,
  range: { start: { line: 40, character: 0 }, end: { line: 40, character: 1 } },
});

test("a finding on a member the override set is placed at the override; any other at the file's own line", () => {
  const env = production({ triggers: { checkout: { B: { threshold: { op: '=>' } } } } });
  const text = `[\n${JSON.stringify(trigger('A', []))},\n${JSON.stringify(trigger('B', []), null, 2)}\n]\n`;
  const file = effectiveFile(text, env);
  assert.ok(file !== undefined);
  const place = placeOfFinding(file, text, { name: 'production', file: 'obs.environments.json' });
  assert.deepEqual(place(finding([1, 'threshold', 'op'])), {
    elsewhere: 'obs.environments.json environments.production."triggers"."checkout"."B"."threshold"."op"',
  });
  // B's threshold value is the file's: line 9 of the file ("value": 5), whatever line the effective text has it on.
  assert.deepEqual(place(finding([1, 'threshold', 'value'])), { line: 9 });
  assert.deepEqual(place(finding([0, 'threshold', 'op'])), { line: 2 });
});
