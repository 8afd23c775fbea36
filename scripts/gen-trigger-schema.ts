// Writes schemas/trigger.schema.json (the full schema) and schemas/trigger.editor.schema.json (completion
// and hover only) from the zod write schema, schemas/trigger-test.schema.json from the trigger test file's
// zod schema (src/backtest/testFile.ts) and schemas/trigger-test-recording.schema.json from its recording's
// (src/backtest/recordingFile.ts), and the burn alert and definitions file schemas (src/lint/sloFileSchemas.ts),
// full and for the editor, and schemas/environments.schema.json (src/triggerFiles/environments.ts). Run by
// esbuild.mjs on every build; by hand:
// `node --import tsx scripts/gen-trigger-schema.ts` (add `--check` to fail when stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRIGGER_EDITOR_SCHEMA_PATH, triggerEditorSchemaText } from '../src/lint/editorSchema';
import { TRIGGER_SCHEMA_PATH, triggerJsonSchemaText } from '../src/lint/jsonSchema';
import { TRIGGER_TEST_SCHEMA_PATH, triggerTestJsonSchemaText } from '../src/backtest/testFile';
import { recordingJsonSchemaText, TRIGGER_RECORDING_SCHEMA_PATH } from '../src/backtest/recordingFile';
import {
  BURN_ALERT_EDITOR_SCHEMA_PATH,
  BURN_ALERT_SCHEMA_PATH,
  burnAlertEditorSchemaText,
  burnAlertJsonSchemaText,
  DEFINITIONS_EDITOR_SCHEMA_PATH,
  DEFINITIONS_SCHEMA_PATH,
  definitionsEditorSchemaText,
  definitionsJsonSchemaText,
} from '../src/lint/sloFileSchemas';
import { ENVIRONMENTS_SCHEMA_PATH, environmentsJsonSchemaText } from '../src/triggerFiles/environmentsSchema';

const SCHEMAS: readonly [string, () => string][] = [
  [TRIGGER_SCHEMA_PATH, triggerJsonSchemaText],
  [TRIGGER_EDITOR_SCHEMA_PATH, triggerEditorSchemaText],
  [TRIGGER_TEST_SCHEMA_PATH, triggerTestJsonSchemaText],
  [TRIGGER_RECORDING_SCHEMA_PATH, recordingJsonSchemaText],
  [BURN_ALERT_SCHEMA_PATH, burnAlertJsonSchemaText],
  [BURN_ALERT_EDITOR_SCHEMA_PATH, burnAlertEditorSchemaText],
  [DEFINITIONS_SCHEMA_PATH, definitionsJsonSchemaText],
  [DEFINITIONS_EDITOR_SCHEMA_PATH, definitionsEditorSchemaText],
  [ENVIRONMENTS_SCHEMA_PATH, environmentsJsonSchemaText],
];

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Writes each schema under `root` unless it is current; returns whether a file changed. */
export function writeTriggerSchema(root: string): boolean {
  let changed = false;
  for (const [path, text] of SCHEMAS) {
    const file = join(root, path);
    if (readOrUndefined(file) === text()) continue;
    writeFileSync(file, text());
    changed = true;
  }
  return changed;
}

const invokedDirectly = process.argv[1] !== undefined && /gen-trigger-schema\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  const root = join(import.meta.dirname, '..');
  if (process.argv.includes('--check')) {
    for (const [path, text] of SCHEMAS) {
      if (readOrUndefined(join(root, path)) === text()) continue;
      process.stderr.write(`${path} is stale: run node --import tsx scripts/gen-trigger-schema.ts\n`);
      process.exitCode = 1;
    }
  } else {
    process.stdout.write(
      writeTriggerSchema(root) ? 'wrote the trigger schemas\n' : 'the trigger schemas are current\n',
    );
  }
}
