// Burn alert and dataset definitions files get their JSON Schemas in the editor (completion and hover), generated
// from src/lint/sloFileSchemas.ts and current; the settings that find them are restricted like obs.triggerFiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  burnAlertEditorSchemaText,
  burnAlertJsonSchemaText,
  definitionsEditorSchemaText,
  definitionsJsonSchemaText,
} from '../../src/lint/sloFileSchemas';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: {
    jsonValidation: { fileMatch: string[]; url: string }[];
    configuration: { properties: Record<string, { default?: unknown }> };
  };
};
const read = (path: string) => readFileSync(join(root, path), 'utf8');

test('burn alert files and definitions files each get their editor schema, by their file name', () => {
  const byUrl = (url: string) => manifest.contributes.jsonValidation.find((v) => v.url === url)?.fileMatch;
  assert.deepEqual(
    [byUrl('./schemas/burn-alert.editor.schema.json'), byUrl('./schemas/definitions.editor.schema.json')],
    [['*.burn-alert.json'], ['*.definitions.json']],
  );
});

test('the four schema files are the ones generated from the file formats', () => {
  assert.deepEqual(
    [
      read('schemas/burn-alert.schema.json'),
      read('schemas/burn-alert.editor.schema.json'),
      read('schemas/definitions.schema.json'),
      read('schemas/definitions.editor.schema.json'),
    ],
    [
      burnAlertJsonSchemaText(),
      burnAlertEditorSchemaText(),
      definitionsJsonSchemaText(),
      definitionsEditorSchemaText(),
    ],
  );
});

test('the editor schemas offer the alert types and every definition type, and validate nothing', () => {
  const alert = JSON.parse(burnAlertEditorSchemaText()) as { properties: Record<string, { examples?: unknown }> };
  const definitions = JSON.parse(definitionsEditorSchemaText()) as {
    properties: { definitions: { properties: Record<string, unknown> } };
  };
  assert.deepEqual(alert.properties.alert_type?.examples, ['exhaustion_time', 'budget_rate']);
  assert.equal(Object.keys(definitions.properties.definitions.properties).length, 16);
  assert.doesNotMatch(burnAlertEditorSchemaText() + definitionsEditorSchemaText(), /"(required|minimum|enum)"/);
});

test('obs.burnAlertFiles and obs.definitionsFiles find the files by name, and are restricted in untrusted workspaces', () => {
  const props = manifest.contributes.configuration.properties;
  assert.deepEqual(
    [props['obs.burnAlertFiles']?.default, props['obs.definitionsFiles']?.default],
    [['**/*.burn-alert.json'], ['**/*.definitions.json']],
  );
  const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
  assert.ok(restricted.includes('obs.burnAlertFiles') && restricted.includes('obs.definitionsFiles'));
});
