import * as z from 'zod';
import { DatasetSlug, ENVIRONMENT_WIDE } from './common';

// Spec 2.7 and 4.8.

/** The 16 definition types of spec 2.7, with their meaning (used as help text in forms and schemas). */
export const DEFINITION_TYPES = {
  span_id: 'Unique id of each span.',
  trace_id: 'Id of the trace the span belongs to.',
  parent_id: 'Id of the parent span.',
  name: 'Name of the function or method where the span was created.',
  service_name: 'Name of the instrumented service.',
  duration_ms: 'Span duration in milliseconds.',
  span_kind:
    'Kind of span, for example client or server. Using it to identify span events and links is deprecated; annotation_type is used instead.',
  annotation_type: 'Type of span annotation, for example span_event or link. Must not be used for other purposes.',
  link_trace_id: 'Trace id a link points to (used together with link_span_id).',
  link_span_id: 'Span id a link points to (used together with link_trace_id).',
  error: 'Boolean or string indicating an error.',
  status: 'Success, failure or other status of a request.',
  route: 'HTTP URL or equivalent route processed by the request.',
  user: 'The user making the request.',
  log_severity: 'Event severity (log level). Supported values: trace, debug, info, warn, error, fatal, unspecified.',
  log_message: 'Log event message; a free-form string, possibly multi-line.',
} as const;

export type DefinitionType = keyof typeof DEFINITION_TYPES;
export const DEFINITION_TYPE_NAMES = Object.keys(DEFINITION_TYPES) as DefinitionType[];

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
