// Dataset definitions form (4.8): what each row holds, the PATCH body of only the changed types, the
// non-blocking warnings (unknown column, deprecated span_kind use) and where problems land.
// No vscode import: the webview script computes the same diff and warnings while the user types.
import * as z from 'zod';
import {
  COLUMN_REF_TYPES,
  DEFINITION_TYPE_NAMES,
  DatasetDefinitions,
  DefinitionsDatasetSlug,
  UpdateDatasetDefinitionsRequest,
  type ColumnRefWrite,
  type DefinitionType,
} from '../../api/schemas/datasetDefinitions';
import { COLUMN_LIMITS } from '../../api/schemas/column';
import { ENVIRONMENT_WIDE, characterCount } from '../../api/schemas/common';
import { hasProblems, noProblems, problemsFromZod, tableResolver } from './problems';
import type { FormProblems, ServiceFailure } from './problems';
import type { Checked } from './apiKeyForm';
import { COMMON_TEXT, controlWarnings } from './text/common';
import { DEFINITIONS_TEXT } from './text/datasetDefinitionsForm';
import type { FormWording } from './wording';

export const DefinitionTypeName = z.enum(DEFINITION_TYPE_NAMES as [DefinitionType, ...DefinitionType[]]);

/** One row of the form: the column name ('' = unset) and, optionally, its column_type. */
export const DefinitionRow = z.strictObject({
  name: z.string(),
  column_type: z.enum(COLUMN_REF_TYPES).optional(),
});
export type DefinitionRow = z.infer<typeof DefinitionRow>;

/** The rows the form holds, by definition type; a type left out is untouched. */
export const DefinitionRows = z.partialRecord(DefinitionTypeName, DefinitionRow);
export type DefinitionRows = z.infer<typeof DefinitionRows>;

function isColumnRefType(s: string | undefined): s is (typeof COLUMN_REF_TYPES)[number] {
  return (COLUMN_REF_TYPES as readonly (string | undefined)[]).includes(s);
}

/** The rows of a definitions map as loaded (null and absent types become empty rows). */
export function rowsFromDefinitions(loaded: DatasetDefinitions): Record<DefinitionType, DefinitionRow> {
  const rows = {} as Record<DefinitionType, DefinitionRow>;
  for (const type of DEFINITION_TYPE_NAMES) {
    const ref = loaded[type];
    const row: DefinitionRow = { name: ref?.name ?? '' };
    if (ref && isColumnRefType(ref.column_type)) row.column_type = ref.column_type;
    rows[type] = row;
  }
  return rows;
}

/**
 * The PATCH body: only the types whose row differs from the map as loaded. An emptied row that was set
 * becomes `name: ""` (spec 4.8: clears it); a row that was and stays unset is not sent.
 */
export function diffDefinitions(loaded: DatasetDefinitions, edited: DefinitionRows): UpdateDatasetDefinitionsRequest {
  const body: UpdateDatasetDefinitionsRequest = {};
  for (const type of DEFINITION_TYPE_NAMES) {
    const row = edited[type];
    if (row === undefined) continue;
    const before = loaded[type] ?? null;
    const beforeName = before?.name ?? '';
    if (row.name === '') {
      if (beforeName !== '') body[type] = { name: '' };
      continue;
    }
    const typeChanged = row.column_type !== undefined && row.column_type !== before?.column_type;
    if (row.name !== beforeName || typeChanged) {
      const ref: ColumnRefWrite = { name: row.name };
      if (row.column_type !== undefined) ref.column_type = row.column_type;
      body[type] = ref;
    }
  }
  return body;
}

/**
 * The user's unsaved changes as one sentence (`log_message = "notes"`, `route cleared`), or undefined when
 * there are none: shown when a form restored after a window reload cannot reach its connection, so the
 * edits are not lost without a word. `loaded` is undefined when the form never read the map.
 */
export function describeUnsavedDefinitions(
  loaded: DatasetDefinitions | undefined,
  edited: DefinitionRows,
): string | undefined {
  const base = loaded ?? DatasetDefinitions.parse(Object.fromEntries(DEFINITION_TYPE_NAMES.map((t) => [t, null])));
  const changes = Object.entries(diffDefinitions(base, edited)).map(([type, ref]) =>
    ref === undefined || ref.name === ''
      ? COMMON_TEXT.memberCleared(type)
      : `${type} = ${JSON.stringify(ref.name)}${ref.column_type ? ` (${ref.column_type})` : ''}`,
  );
  return changes.length === 0 ? undefined : COMMON_TEXT.unsavedChanges(changes);
}

export const resolveDefinitionField = tableResolver(Object.fromEntries(DEFINITION_TYPE_NAMES.map((t) => [t, t])));

const DEFINITIONS_WORDING: FormWording = {
  get labels() {
    return DEFINITIONS_TEXT.labels;
  },
};

export function checkDefinitionsUpdate(
  loaded: DatasetDefinitions,
  edited: DefinitionRows,
): Checked<UpdateDatasetDefinitionsRequest> {
  const parsed = UpdateDatasetDefinitionsRequest.safeParse(diffDefinitions(loaded, edited));
  if (!parsed.success) {
    return { ok: false, reason: problemsFromZod(parsed.error, resolveDefinitionField, DEFINITIONS_WORDING) };
  }
  const tooLong = namesTooLong(parsed.data);
  return hasProblems(tooLong) ? { ok: false, reason: tooLong } : { ok: true, body: parsed.data };
}

/**
 * The form's own rule, not the request schema's: a definition names a column, and no column's name is
 * longer than 255 characters (spec 2.5 and part 8), so a longer one could only be refused by the service.
 */
function namesTooLong(body: UpdateDatasetDefinitionsRequest): FormProblems {
  const problems = noProblems();
  for (const type of DEFINITION_TYPE_NAMES) {
    const length = characterCount(body[type]?.name ?? '');
    if (length <= COLUMN_LIMITS.keyNameMax) continue;
    problems.fields[type] = [
      DEFINITIONS_TEXT.nameTooLong(DEFINITIONS_TEXT.labels[type], COLUMN_LIMITS.keyNameMax, length),
    ];
  }
  return problems;
}

const NAME_CHAR = /[\p{L}\p{N}_.-]/u;

/** True when `text` holds `name` as a whole word (not inside a longer name). */
function mentionsWord(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !NAME_CHAR.test(before)) && (after === undefined || !NAME_CHAR.test(after)))
      return true;
  }
  return false;
}

const QUOTES = ['"', "'", '`', '\u201c', '\u2018'];
const CLOSING: Record<string, string> = { '\u201c': '\u201d', '\u2018': '\u2019' };

/** True when `text` holds `name` in quotes. */
function mentionsQuoted(text: string, name: string): boolean {
  return QUOTES.some((q) => text.includes(`${q}${name}${CLOSING[q] ?? q}`));
}

/** True when `text`, cut short with "…", stops inside `name` after an opening quote. */
function endsInside(text: string, name: string): boolean {
  if (!text.endsWith('\u2026')) return false;
  const body = text.slice(0, -1);
  return QUOTES.some((q) => {
    const at = body.lastIndexOf(q);
    const begun = at === -1 ? '' : body.slice(at + q.length);
    return begun.length > 0 && begun.length < name.length && name.startsWith(begun);
  });
}

/**
 * A refused save whose answer names no field (the service's legacy 422 body names the unknown columns in
 * its text): each definition of the request whose column the text names gets the problem on its field.
 * Names in quotes count first; only when the text quotes none of them, a name standing as a whole word
 * does. The client cuts a long text short ("…"): then a sent name the text does not reach that is not
 * among the dataset's columns (`knownColumns`, null when they could not be listed) is placed too, saying
 * why. Once every refused column has its own field problem the service's raw text leaves the top, so the
 * summary counts one problem per column (the text is in the log).
 */
export function placeRefusedColumns(
  problems: FormProblems,
  failure: ServiceFailure,
  sent: UpdateDatasetDefinitionsRequest,
  knownColumns: ReadonlySet<string> | null = null,
): FormProblems {
  if (failure.status !== 422 || failure.fieldProblems.length > 0) return problems;
  const texts = [failure.detail, failure.message].filter((t): t is string => t !== undefined);
  const text = texts.join(' ');
  const named = Object.entries(sent).filter(
    (e): e is [DefinitionType, ColumnRefWrite] => e[1] !== undefined && e[1].name !== '',
  );
  const cut = texts.some((t) => t.endsWith('\u2026'));
  // A name the cut text stops inside ("route -> "abc…") counts as quoted.
  const quoted = named.filter(
    ([, ref]) => mentionsQuoted(text, ref.name) || (cut && texts.some((t) => endsInside(t, ref.name))),
  );
  const found = quoted.length > 0 ? quoted : named.filter(([, ref]) => mentionsWord(text, ref.name));
  if (found.length === 0) return problems;
  const unreached = cut ? named.filter((entry) => !found.includes(entry)) : [];
  const likely = knownColumns === null ? [] : unreached.filter(([, ref]) => !knownColumns.has(ref.name));
  const fields = { ...problems.fields };
  for (const [type, ref] of found) fields[type] = [...(fields[type] ?? []), DEFINITIONS_TEXT.refusedColumn(ref.name)];
  for (const [type, ref] of likely)
    fields[type] = [...(fields[type] ?? []), DEFINITIONS_TEXT.refusedColumnLikely(ref.name)];
  // A name the cut text does not reach is judged by the dataset's columns; without them, the text stays.
  const accounted = unreached.length === 0 || knownColumns !== null;
  return { fields, form: accounted ? problems.form.filter((t) => t !== failure.message) : problems.form };
}

export function definitionsProblems(loaded: DatasetDefinitions, edited: DefinitionRows): FormProblems {
  const checked = checkDefinitionsUpdate(loaded, edited);
  return checked.ok ? noProblems() : checked.reason;
}

/**
 * Advice that never blocks a save: a name that is not a known column (derived columns do not appear in
 * the column list; with no column list, null, names are not checked), and span_kind set without annotation_type (its use for span events and links is
 * deprecated, spec 9).
 */
export function definitionWarnings(
  edited: DefinitionRows,
  knownColumns: ReadonlySet<string> | null,
): Record<string, string[]> {
  const warnings: Record<string, string[]> = {};
  for (const type of DEFINITION_TYPE_NAMES) {
    const row = edited[type];
    if (row && controlWarnings(row.name).length > 0) (warnings[type] ??= []).push(...controlWarnings(row.name));
    if (
      !row ||
      row.name === '' ||
      row.column_type === 'derived_column' ||
      knownColumns === null ||
      knownColumns.has(row.name)
    )
      continue;
    // A name no column can have is refused on its field (namesTooLong): saying it is no column repeats that.
    if (characterCount(row.name) > COLUMN_LIMITS.keyNameMax) continue;
    (warnings[type] ??= []).push(DEFINITIONS_TEXT.notAColumn(row.name));
  }
  const spanKind = edited.span_kind?.name ?? '';
  const annotationType = edited.annotation_type?.name ?? '';
  if (spanKind !== '' && annotationType === '') {
    (warnings.span_kind ??= []).push(DEFINITIONS_TEXT.spanKindDeprecated);
  }
  return warnings;
}

/**
 * Why a dataset cannot have its definitions edited, in the user's words, or undefined when it can (4.8
 * takes a slug only). The schema decides; the words are the form's (the schema's own are the client's).
 */
export function definitionsDatasetProblem(slug: string): string | undefined {
  if (DefinitionsDatasetSlug.safeParse(slug).success) return undefined;
  if (slug === '') return DEFINITIONS_TEXT.slugEmpty;
  if (slug === ENVIRONMENT_WIDE) return DEFINITIONS_TEXT.slugEnvironmentWide;
  return DEFINITIONS_TEXT.invalidSlug;
}
