// schemas/trigger.editor.schema.json: the trigger JSON Schema as the editor uses it, for completion and
// hover only. The linter reports every problem the schema could find, with a rule id and a link; if VS
// Code's JSON support validated with the full schema too, each of those problems would show twice in
// Problems. So every keyword that validates is dropped here, and what served completion is kept in a
// form that does not validate (allowed values become examples). The full schema stays in
// schemas/trigger.schema.json for other editors and tools.
import { triggerJsonSchemaText } from './jsonSchema';
import { isRecord } from './util';

export const TRIGGER_EDITOR_SCHEMA_PATH = 'schemas/trigger.editor.schema.json';

/** Keywords that only validate: dropped. */
const VALIDATING = new Set([
  'required',
  'additionalProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'not',
  'errorMessage',
  'format',
  'type',
  'enum',
  'const',
  'dependencies',
]);

/** What the editor offers instead of what validated: allowed values, true/false, and an empty {} or []. */
function hintsOf(node: Record<string, unknown>): Record<string, unknown> {
  const hints: Record<string, unknown> = {};
  const values = Array.isArray(node['enum']) ? node['enum'] : 'const' in node ? [node['const']] : undefined;
  if (values !== undefined) hints['examples'] = values;
  else if (node['type'] === 'boolean') hints['examples'] = [true, false];
  else if (node['type'] === 'object') hints['defaultSnippets'] = [{ body: {} }];
  else if (node['type'] === 'array') hints['defaultSnippets'] = [{ body: [] }];
  return hints;
}

/** Keywords whose value maps names to schemas: the names (a member may be called `type`) are kept. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);

function withoutValidation(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutValidation);
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (VALIDATING.has(key)) continue;
    out[key] =
      NAMED_SCHEMAS.has(key) && isRecord(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, withoutValidation(schema)]))
        : withoutValidation(value);
  }
  return { ...out, ...hintsOf(node) };
}

/**
 * An editor schema made from a full schema's text: its validating keywords dropped (the linter reports those
 * problems, once), its allowed values kept as examples, comments and trailing commas left to the linter.
 */
export function editorSchemaFrom(fullText: string, description: string): string {
  const editor = withoutValidation(JSON.parse(fullText)) as Record<string, unknown>;
  editor['description'] = description;
  // VS Code's JSON support reads these two: it leaves comments and trailing commas in these files to
  // obs-lint, which reports them as the errors they are for the service, with its rule and link.
  editor['allowComments'] = true;
  editor['allowTrailingCommas'] = true;
  return `${JSON.stringify(editor, null, 2)}\n`;
}

let cached: string | undefined;

/** The editor schema text, formatted as committed (2-space indent, final newline). */
export function triggerEditorSchemaText(): string {
  cached ??= editorSchemaFrom(
    triggerJsonSchemaText(),
    'Completion and hover for trigger files (generated from schemas/trigger.schema.json without its validating keywords: obs-lint reports every problem, once).',
  );
  return cached;
}
