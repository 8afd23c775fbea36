// schemas/trigger.schema.json, generated from the zod write schema (the one source of the rules).
// JSON Schema cannot say the relational rules of spec 2.6.1; the linter checks those.
import * as z from 'zod';
import { TriggerWrite } from './schema';
import { isRecord } from './util';

export const TRIGGER_SCHEMA_PATH = 'schemas/trigger.schema.json';

let cached: string | undefined;

/** The JSON Schema text, formatted as committed (2-space indent, final newline). */
export function triggerJsonSchemaText(): string {
  if (cached !== undefined) return cached;
  // Named, the trigger is one shared definition instead of a copy in each branch of the union.
  const trigger = TriggerWrite.meta({ id: 'trigger' });
  const file = z.union([trigger, z.array(trigger)]).meta({
    title: 'Trigger file',
    description:
      'One trigger, or an array of triggers as GET /1/triggers/<dataset> returns them. ' +
      'Generated from src/lint/schema/; relational rules (time_range against frequency, aggregates, havings) are checked by obs-lint.',
  });
  const schema = z.toJSONSchema(file, { io: 'input', unrepresentable: 'any', target: 'draft-07' });
  explainRefusedMembers(schema);
  cached = `${JSON.stringify(schema, null, 2)}\n`;
  return cached;
}

/**
 * A refused member is `{ "not": {} }`, which VS Code reports as the vague "Matches a schema that is not
 * allowed". VS Code's JSON support shows a schema's `errorMessage` instead: use the member's description.
 */
function explainRefusedMembers(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) explainRefusedMembers(item);
    return;
  }
  if (!isRecord(node)) return;
  const not = node['not'];
  const isRefusal = typeof not === 'object' && not !== null && Object.keys(not).length === 0;
  if (isRefusal && typeof node['description'] === 'string' && node['errorMessage'] === undefined) {
    node['errorMessage'] = node['description'];
  }
  for (const value of Object.values(node)) explainRefusedMembers(value);
}
