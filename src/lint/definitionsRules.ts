// The rules of a dataset definitions file (docs/rules.md, definitions/*): spec 2.7 and 4.8, and what the
// service does with a column reference (service facts: `name: ""` clears, `column_type` is ignored).
import * as l10n from '@vscode/l10n';
import { DEFINITION_TYPE_NAMES } from '../api/schemas/definitionTypes';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../api/schemas/slugs';
import { nearestName } from './nearest';
import type { SloFinding } from './sloKinds';
import type { LintOptions } from './types';

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const TYPES: ReadonlySet<string> = new Set(DEFINITION_TYPE_NAMES);

function fileFindings(value: Json, out: SloFinding[]): void {
  for (const key of Object.keys(value))
    if (key !== 'dataset_slug' && key !== 'definitions')
      out.push({
        rule: 'definitions/file',
        path: [key],
        message: l10n.t('{0} is not a member of a definitions file: it holds dataset_slug and definitions', key),
      });
  const slug = value.dataset_slug;
  if (
    typeof slug !== 'string' ||
    slug.trim() === '' ||
    slug === ENVIRONMENT_WIDE ||
    slug === ENVIRONMENT_WIDE_TRIGGER_SLUG
  )
    out.push({
      rule: 'definitions/dataset-slug',
      path: ['dataset_slug'],
      message: l10n.t('dataset_slug is required, the slug of one dataset: definitions are not environment-wide'),
    });
  if (!isRecord(value.definitions))
    out.push({
      rule: 'definitions/file',
      path: ['definitions'],
      message: l10n.t('definitions is required: an object from definition type to column, or null'),
    });
}

function columnFindings(type: string, ref: unknown, columns: ReadonlySet<string> | undefined, out: SloFinding[]): void {
  const path = ['definitions', type];
  if (ref === null) return;
  if (
    !isRecord(ref) ||
    typeof ref.name !== 'string' ||
    Object.keys(ref).some((k) => k !== 'name' && k !== 'column_type')
  )
    return void out.push({
      rule: 'definitions/column',
      path,
      message: l10n.t('{0} is null (unset) or a column: {1}', type, '{"name": "..."}'),
    });
  if (ref.name === '')
    out.push({
      rule: 'definitions/clear-with-null',
      path,
      message: l10n.t('{0} with an empty name clears the definition: the file writes that as null', type),
      fix: { title: l10n.t('Set {0} to null', type), value: null },
    });
  else if (columns !== undefined && !columns.has(ref.name))
    out.push({
      rule: 'definitions/unknown-column',
      path: [...path, 'name'],
      message: l10n.t(
        'the dataset has no column {0} (the service refuses a definition naming an unknown column; derived columns are not listed, so one of those may be meant)',
        JSON.stringify(ref.name),
      ),
    });
  if (ref.column_type !== undefined)
    out.push({
      rule: 'definitions/column-type',
      path: [...path, 'column_type'],
      message: l10n.t('column_type is decided by the service from the column, which ignores it in a write'),
      fix: { title: l10n.t('Remove {0}', 'column_type'), value: undefined },
    });
}

/** What the rules find in a definitions file's value; the columns only where the dataset's are known. */
export function definitionsFindings(value: unknown, options: LintOptions): SloFinding[] {
  if (!isRecord(value))
    return [{ rule: 'definitions/file', path: [], message: l10n.t('a definitions file holds one object') }];
  const out: SloFinding[] = [];
  fileFindings(value, out);
  const map = value.definitions;
  if (!isRecord(map)) return out;
  const known = typeof value.dataset_slug === 'string' ? options.columns?.[value.dataset_slug] : undefined;
  const columns = known === undefined ? undefined : new Set(known.names);
  for (const [type, ref] of Object.entries(map)) {
    if (TYPES.has(type)) columnFindings(type, ref, columns, out);
    else {
      const near = nearestName(type, DEFINITION_TYPE_NAMES);
      out.push({
        rule: 'definitions/unknown-type',
        path: ['definitions', type],
        message:
          near === undefined
            ? l10n.t('{0} is not a definition type', type)
            : l10n.t('{0} is not a definition type; did you mean {1}?', type, near),
      });
    }
  }
  return out;
}
