// schemas/trigger.schema.json, generated from the zod write schema (the one source of the rules).
// JSON Schema cannot say the relational rules of spec 2.6.1; the linter checks those.
import * as z from 'zod';
import { TriggerWrite } from '../api/schemas/trigger';

export const TRIGGER_SCHEMA_PATH = 'schemas/trigger.schema.json';

let cached: string | undefined;

/** The JSON Schema text, formatted as committed (2-space indent, final newline). */
export function triggerJsonSchemaText(): string {
  if (cached !== undefined) return cached;
  // Named, the trigger is one shared definition instead of a copy in each branch of the union.
  const trigger = TriggerWrite.meta({ id: 'trigger' });
  const file = z
    .union([trigger, z.array(trigger)])
    .meta({
      title: 'Trigger file',
      description:
        'One trigger, or an array of triggers as GET /1/triggers/<dataset> returns them (spec 2.6, 2.6.1, part 8). ' +
        'Generated from src/api/schemas/trigger.ts; relational rules (time_range against frequency, aggregates, havings) are checked by obs-lint.',
    });
  const schema = z.toJSONSchema(file, { io: 'input', unrepresentable: 'any', target: 'draft-07' });
  cached = `${JSON.stringify(schema, null, 2)}\n`;
  return cached;
}
