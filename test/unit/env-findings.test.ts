// The findings of a trigger as an environment sees it, placed where each is fixed (src/triggerFiles/environmentLint.ts,
// jsonPlaces.ts): a path ranged in a file as the linter ranges it, a finding about an override at that override in
// the environments file, any other in the trigger file, and what an environment never says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from '../../src/lint';
import { targetSpan } from '../../src/lint/locate';
import { skimTree } from '../../src/lint/skim';
import { LineIndex } from '../../src/lint/text';
import { EnvironmentFindings } from '../../src/triggerFiles/environmentLint';
import { effectiveFile } from '../../src/triggerFiles/environmentPlan';
import { readEnvironments } from '../../src/triggerFiles/environments';
import { jsonRangeLocator } from '../../src/triggerFiles/jsonPlaces';

/** The linter's own placing of a path (what its diagnostics' ranges are). */
function linterRange(text: string, path: (string | number)[]): Diagnostic['range'] {
  const root = skimTree(text);
  const lines = new LineIndex(text);
  if (root === undefined) return lines.range(0, 0);
  const span = targetSpan(root, path);
  return lines.range(span.offset, span.length);
}

const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.string({ maxLength: 4 }),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'op', 'query'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

test("a path is ranged as the linter ranges it: a member key through value, an element, a missing one at its parent's value", () => {
  const path = fc.array(fc.oneof(fc.constantFrom('a', 'b', 'op', 'query', 'x'), fc.nat({ max: 3 })), {
    maxLength: 4,
  });
  fc.assert(
    fc.property(json, path, fc.integer({ min: 0, max: 2 }), (value, p, indent) => {
      const text = `${JSON.stringify(value, null, indent === 0 ? undefined : indent)}\n`;
      assert.deepEqual(jsonRangeLocator(text)(p), linterRange(text, p));
    }),
    { numRuns: 500 },
  );
});

const ENVIRONMENTS = `{
  "home": "staging",
  "environments": {
    "staging": {},
    "production": {
      "triggers": {
        "checkout": { "Errors": { "threshold": { "op": "=>" } } }
      }
    }
  }
}
`;

const TRIGGER = `{
  "id": "trig_1",
  "dataset_slug": "checkout",
  "name": "Errors",
  "threshold": { "op": ">", "value": 5 },
  "recipients": [{ "id": "rcp_1" }, { "type": "email", "target": "a@example.com" }]
}
`;

/** Where the override's `"op"` starts on its line (line 6) of the environments file. */
const OP = (ENVIRONMENTS.split('\n')[6] ?? '').indexOf('"op"');

function production() {
  const read = readEnvironments(ENVIRONMENTS);
  assert.ok(read.ok);
  const overlay = read.value.environments.get('production');
  assert.ok(overlay !== undefined);
  const effective = effectiveFile(TRIGGER, overlay);
  assert.ok(effective !== undefined);
  return { effective, findings: new EnvironmentFindings({ name: 'production', text: ENVIRONMENTS }) };
}

const finding = (rule: Diagnostic['rule'], path: (string | number)[]): Diagnostic => ({
  rule,
  severity: 'error',
  message: rule,
  path,
  // A range of the effective text, which neither file holds.
  range: { start: { line: 30, character: 0 }, end: { line: 30, character: 4 } },
  fix: { title: 'f', edits: [] },
});

test('a finding about a member the override sets is placed at that member of the override in the environments file', () => {
  const { effective, findings } = production();
  const { here, there } = findings.place([finding('trigger/threshold-op', ['threshold', 'op'])], effective, TRIGGER);
  assert.deepEqual(
    here.map((d) => d.rule),
    ['trigger/recipient'],
  );
  assert.deepEqual(there, [
    {
      rule: 'trigger/threshold-op',
      severity: 'error',
      message: 'trigger/threshold-op',
      path: ['environments', 'production', 'triggers', 'checkout', 'Errors', 'threshold', 'op'],
      range: { start: { line: 6, character: OP }, end: { line: 6, character: OP + '"op": "=>"'.length } },
    },
  ]);
});

test("any other finding is placed at the member in the trigger file, without the effective text's fix", () => {
  const { effective, findings } = production();
  const { here, there } = findings.place(
    [finding('trigger/threshold-value', ['threshold', 'value'])],
    effective,
    TRIGGER,
  );
  assert.deepEqual(there, []);
  assert.deepEqual(here[0], {
    rule: 'trigger/threshold-value',
    severity: 'error',
    message: 'trigger/threshold-value',
    path: ['threshold', 'value'],
    range: { start: { line: 4, character: 28 }, end: { line: 4, character: 38 } },
  });
});

test('a recipient named by id alone is an error at the recipients; naming by type and target is never said deprecated', () => {
  const { effective, findings } = production();
  const { here, there } = findings.place(
    [finding('trigger/recipient-deprecated', ['recipients', 1])],
    effective,
    TRIGGER,
  );
  assert.deepEqual(there, []);
  assert.deepEqual(
    here.map((d) => [d.rule, d.severity, d.range.start.line, d.message]),
    [
      [
        'trigger/recipient',
        'error',
        5,
        'recipient "rcp_1" is named by id alone: give its type and target, which every environment can resolve',
      ],
    ],
  );
});
