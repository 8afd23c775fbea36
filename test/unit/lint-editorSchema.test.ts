// schemas/trigger.editor.schema.json: what VS Code's JSON support gets for trigger files. It must not
// validate (obs-lint reports every problem, once) and must still offer completion and hover.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { TRIGGER_EDITOR_SCHEMA_PATH, triggerEditorSchemaText } from '../../src/lint/editorSchema';
import { triggerJsonSchemaText } from '../../src/lint/jsonSchema';

const root = join(import.meta.dirname, '..', '..');
const editor = JSON.parse(triggerEditorSchemaText()) as Record<string, unknown>;
const full = JSON.parse(triggerJsonSchemaText()) as Record<string, unknown>;

type Json = Record<string, unknown>;
const triggerProps = (schema: Json): Json => ((schema['definitions'] as Json)['trigger'] as Json)['properties'] as Json;

test('the committed editor schema equals a fresh generation', () => {
  assert.equal(readFileSync(join(root, TRIGGER_EDITOR_SCHEMA_PATH), 'utf8'), triggerEditorSchemaText());
});

test('the editor schema accepts anything a trigger file may hold, broken or not, so it reports nothing', () => {
  const validate = new Ajv({ strict: false }).compile(editor);
  for (const doc of [
    { name: '', frequency: 90, alert_type: 'sometimes', surprise: true, query: { limit: 5 } },
    [{ tags: 'not a list' }, 7, null],
    'a string',
    { recipients: [{ type: 'email', target: 42 }], threshold: { op: '!=', value: 'x' } },
  ]) {
    assert.equal(validate(doc), true, JSON.stringify(validate.errors));
  }
});

test('every member and description of the full schema is kept, so hover shows the same text', () => {
  const names = Object.keys(triggerProps(full));
  assert.deepEqual(Object.keys(triggerProps(editor)), names);
  for (const name of names) {
    assert.equal(
      (triggerProps(editor)[name] as Json)['description'],
      (triggerProps(full)[name] as Json)['description'],
      name,
    );
  }
});

test('allowed values become examples, which the editor offers as completion, and booleans offer true and false', () => {
  assert.deepEqual((triggerProps(editor)['alert_type'] as Json)['examples'], ['on_change', 'on_true']);
  assert.deepEqual((triggerProps(editor)['disabled'] as Json)['examples'], [true, false]);
});

/** The schema of a trigger's recipient in the editor schema. */
const recipientProps = (): Json =>
  ((triggerProps(editor)['recipients'] as Json)['items'] as Json)['properties'] as Json;

test("a recipient's type offers the types the service has, marker included", () => {
  assert.deepEqual((recipientProps()['type'] as Json)['examples'], [
    'email',
    'slack',
    'pagerduty',
    'webhook',
    'msteams',
    'msteams_workflow',
    'marker',
  ]);
});

test("a recipient's pagerduty_severity offers the severities the service has", () => {
  const details = recipientProps()['details'] as Json;
  assert.deepEqual(((details['properties'] as Json)['pagerduty_severity'] as Json)['examples'], [
    'critical',
    'error',
    'warning',
    'info',
  ]);
});

test('a member named like a keyword (type) is kept as a member', () => {
  const baseline = ((triggerProps(editor)['baseline_details'] as Json)['anyOf'] as Json[])[0] as Json;
  assert.deepEqual(((baseline['properties'] as Json)['type'] as Json)['examples'], ['percentage', 'value']);
});

test('no keyword that validates is left anywhere in the editor schema', () => {
  const validating = [
    'required',
    'additionalProperties',
    'minimum',
    'maximum',
    'minLength',
    'maxLength',
    'pattern',
    'minItems',
    'maxItems',
    'not',
    'enum',
    'const',
    'type',
    'dependencies',
  ];
  const found: string[] = [];
  const walk = (node: unknown, path: string, named: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`, false));
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (!named && validating.includes(key)) found.push(`${path}/${key}`);
      walk(value, `${path}/${key}`, !named && ['properties', 'definitions'].includes(key));
    }
  };
  walk(editor, '', false);
  assert.deepEqual(found, []);
});
