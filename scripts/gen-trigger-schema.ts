// Writes schemas/trigger.schema.json from the zod write schema. Run by esbuild.mjs on every build;
// by hand: `node --import tsx scripts/gen-trigger-schema.ts` (add `--check` to fail when stale).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRIGGER_SCHEMA_PATH, triggerJsonSchemaText } from '../src/lint/jsonSchema';

/** Writes the schema under `root` unless it is current; returns whether the file changed. */
export function writeTriggerSchema(root: string): boolean {
  const file = join(root, TRIGGER_SCHEMA_PATH);
  const text = triggerJsonSchemaText();
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return false;
  writeFileSync(file, text);
  return true;
}

const invokedDirectly = process.argv[1] !== undefined && /gen-trigger-schema\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  const root = join(import.meta.dirname, '..');
  if (process.argv.includes('--check')) {
    const current = readFileSync(join(root, TRIGGER_SCHEMA_PATH), 'utf8');
    if (current !== triggerJsonSchemaText()) {
      process.stderr.write(`${TRIGGER_SCHEMA_PATH} is stale: run node --import tsx scripts/gen-trigger-schema.ts\n`);
      process.exitCode = 1;
    }
  } else {
    process.stdout.write(writeTriggerSchema(root) ? `wrote ${TRIGGER_SCHEMA_PATH}\n` : `${TRIGGER_SCHEMA_PATH} is current\n`);
  }
}
