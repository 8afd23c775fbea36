// The environments file's JSON Schema (schemas/environments.schema.json: completion, hover and validation in the
// editor), generated at build time from the schema the file is read with. No vscode import.
import * as z from 'zod';
import { EnvironmentsFile } from './environments';

/** Where the environments file's JSON Schema is (completion and hover in the editor). */
export const ENVIRONMENTS_SCHEMA_PATH = 'schemas/environments.schema.json';

/** The JSON Schema of the environments file, generated from the schema it is read with. */
export function environmentsJsonSchemaText(): string {
  const schema = z.toJSONSchema(EnvironmentsFile, { io: 'input', unrepresentable: 'any', target: 'draft-07' });
  const titled = {
    ...schema,
    title: 'Environments file',
    description:
      'The environments one set of trigger files is applied to, and what differs in each (docs/ENVIRONMENTS.md).',
  };
  return `${JSON.stringify(titled, null, 2)}\n`;
}
