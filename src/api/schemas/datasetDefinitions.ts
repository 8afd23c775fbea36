import * as z from 'zod';
import { DatasetSlug, ENVIRONMENT_WIDE } from './common';
import { DEFINITION_TYPE_NAMES, type DefinitionType } from './definitionTypes';

// Spec 2.7 and 4.8.

export { DEFINITION_TYPES, DEFINITION_TYPE_NAMES, type DefinitionType } from './definitionTypes';

/** The `column_type` values seen (spec 2.7); the service knows them, it does not restrict a write to them. */
export const COLUMN_REF_TYPES = ['column', 'derived_column'] as const;

/** A column reference as returned; `column_type` values beyond the two seen are kept. */
export const ColumnRef = z.looseObject({ name: z.string(), column_type: z.string().optional() });
export type ColumnRef = z.infer<typeof ColumnRef>;

/**
 * A column reference in a PATCH; `name: ""` clears the definition. `column_type` is any string: the spec
 * lists values seen, not a closed set, and the service ignores the member (service facts).
 */
export const ColumnRefWrite = z.strictObject({
  name: z.string(),
  column_type: z.string().optional(),
});
export type ColumnRefWrite = z.infer<typeof ColumnRefWrite>;

const definitionShape = <T extends z.ZodType>(value: T) =>
  Object.fromEntries(DEFINITION_TYPE_NAMES.map((k) => [k, value])) as Record<DefinitionType, T>;

/** 4.8 request: only the 16 types, each optional (absent = not modified). */
export const UpdateDatasetDefinitionsRequest = z.strictObject(definitionShape(ColumnRefWrite.optional()));
export type UpdateDatasetDefinitionsRequest = z.infer<typeof UpdateDatasetDefinitionsRequest>;

/**
 * 4.8 response: the map of every type, each a column reference or null (unset). A type the service leaves
 * out reads as unset; types it adds beyond the 16 are kept.
 */
export const DatasetDefinitions = z.preprocess(
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const missing = DEFINITION_TYPE_NAMES.filter((t) => record[t] === undefined);
    return missing.length === 0 ? value : { ...Object.fromEntries(missing.map((t) => [t, null])), ...record };
  },
  z.looseObject(definitionShape(ColumnRef.nullable())),
);
export type DatasetDefinitions = z.infer<typeof DatasetDefinitions>;

/** 4.8 path parameter: a dataset slug only; the environment-wide `__all__` is refused (spec part 4). */
export const DefinitionsDatasetSlug = DatasetSlug.refine((s) => s !== ENVIRONMENT_WIDE, {
  message: 'dataset definitions need a dataset slug: "__all__" (environment-wide) is not accepted',
});
