// The definition types of spec 2.7, apart from the schemas: modules that need only these (the definitions
// file format, loaded in the editor from a bundle without zod) do not load zod with them.

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
