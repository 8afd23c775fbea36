// The canonical dataset definitions file (docs/SLO-FILES.md): one file per dataset,
// `<folder>/<dataset>.definitions.json`, holding the whole map of spec 2.7: every definition type, in the
// spec's order, a column `{ "name": ... }` or null where it is unset. No vscode import.
import { DEFINITION_TYPE_NAMES } from '../api/schemas/definitionTypes';
import { differencesOf, type Difference } from './compare';
import { DEFINITIONS_FILE_SUFFIX, sanitizeFileSegment } from './paths';

export { DEFINITIONS_FILE_SUFFIX };

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A dataset's definitions to pull: the map the service answers, and the dataset. */
export interface DefinitionsItem {
  dataset: string;
  definitions: Json;
}

/**
 * One definition as a file holds it: `{ "name": ... }`, or null where it is unset. `name: ""` (how the
 * service is told to clear one, spec 4.8) is unset; `column_type` is the service's to decide from the
 * column (it ignores the member in a write, service facts) and is left out.
 */
function definition(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (!isRecord(v)) return v;
  if (v.name === '') return null;
  return v.name === undefined ? {} : { name: v.name };
}

/**
 * The canonical form of a definitions file: `dataset_slug`, then `definitions` with every type of spec 2.7
 * in its order (unset ones null). Types the file or the service names beyond those are left out.
 * Idempotent; a value that is not an object is returned as is.
 */
export function normalizeDefinitions(file: unknown): unknown {
  if (!isRecord(file)) return file;
  const map = isRecord(file.definitions) ? file.definitions : {};
  const out: Json = {};
  if (file.dataset_slug !== undefined && file.dataset_slug !== null) out.dataset_slug = file.dataset_slug;
  out.definitions = Object.fromEntries(DEFINITION_TYPE_NAMES.map((t) => [t, definition(map[t])]));
  return out;
}

/** What the file of a pulled dataset holds. */
export function definitionsFileValue(item: DefinitionsItem): Json {
  return { dataset_slug: item.dataset, definitions: item.definitions };
}

/** The text of a canonical definitions file: two-space JSON and a final newline. */
export function definitionsFileText(file: unknown): string {
  return `${JSON.stringify(normalizeDefinitions(file), null, 2)}\n`;
}

/** The definitions where a local file and the service's map differ (`definitions.route`), both canonical. */
export function compareDefinitions(local: unknown, service: unknown): Difference[] {
  const l = normalizeDefinitions(local);
  const s = normalizeDefinitions(service);
  const map = (v: unknown): unknown => (isRecord(v) ? { definitions: v.definitions } : v);
  return differencesOf(map(s), map(l));
}

/** `<dataset>.definitions.json`; with `suffix`, `<dataset>-<suffix>.definitions.json` (when the name is taken). */
export function definitionsFileName(dataset: string, suffix?: string): string {
  const base = sanitizeFileSegment(dataset, 'dataset');
  return `${base}${suffix === undefined ? '' : `-${suffix}`}${DEFINITIONS_FILE_SUFFIX}`;
}
