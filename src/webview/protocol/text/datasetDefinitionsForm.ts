// Every word of the dataset definitions form (4.8), in one place: each definition's label and meaning,
// the groups they are shown in, and the form's messages.
import type { DefinitionType } from '../../../api/schemas/datasetDefinitions';

export const DEFINITION_LABELS: Record<DefinitionType, string> = {
  trace_id: 'Trace ID',
  span_id: 'Span ID',
  parent_id: 'Parent span ID',
  service_name: 'Service name',
  name: 'Span name',
  duration_ms: 'Duration (ms)',
  span_kind: 'Span kind',
  annotation_type: 'Annotation type',
  link_trace_id: 'Link trace ID',
  link_span_id: 'Link span ID',
  log_severity: 'Log severity',
  log_message: 'Log message',
  route: 'Route',
  status: 'Status',
  error: 'Error',
  user: 'User',
};

export const DEFINITION_HELP: Record<DefinitionType, string> = {
  trace_id: 'ID of the trace the span belongs to.',
  span_id: 'Unique ID of each span.',
  parent_id: 'ID of the parent span.',
  service_name: 'Name of the instrumented service.',
  name: 'Name of the function or method where the span was created.',
  duration_ms: 'Span duration in milliseconds.',
  span_kind: 'Kind of span, for example client or server. Marking span events and links with it is deprecated: use Annotation type.',
  annotation_type: 'Type of span annotation, for example span_event or link. Use it for nothing else.',
  link_trace_id: 'Trace ID a link points to (used with Link span ID).',
  link_span_id: 'Span ID a link points to (used with Link trace ID).',
  log_severity: 'Event severity (log level): trace, debug, info, warn, error, fatal or unspecified.',
  log_message: 'Log event message: free-form text, possibly several lines.',
  route: 'HTTP URL or equivalent route the request processed.',
  status: 'Success, failure or other status of a request.',
  error: 'Boolean or text that marks an error.',
  user: 'The user making the request.',
};

/** The groups the form shows, in order; every definition type is in exactly one. */
export const DEFINITION_GROUPS: readonly { id: string; title: string; types: readonly DefinitionType[] }[] = [
  { id: 'trace', title: 'Traces', types: ['trace_id', 'span_id', 'parent_id', 'service_name', 'name', 'duration_ms'] },
  { id: 'span', title: 'Span kinds, events and links', types: ['span_kind', 'annotation_type', 'link_trace_id', 'link_span_id'] },
  { id: 'log', title: 'Logs', types: ['log_severity', 'log_message'] },
  { id: 'http', title: 'HTTP and users', types: ['route', 'status', 'error', 'user'] },
];

export const DEFINITIONS_TEXT = {
  title: (dataset: string) => `Dataset definitions of ${dataset}`,
  lead: (connection: string) => `Connection: ${connection}. Which columns carry a special meaning. Only the definitions you change are sent.`,
  columnPlaceholder: '(not set)',
  columnTypeLabel: (label: string) => `Column type of ${label}`,
  columnTypes: { '': 'Type not specified', column: 'Column', derived_column: 'Derived column' } as Readonly<Record<string, string>>,
  unset: 'Unset',
  unsetLabel: (label: string) => `Unset ${label}: no column will mean it`,
  changed: 'changed',
  noChanges: 'No changes.',
  willSend: (labels: readonly string[]) => `${labels.length} definition${labels.length === 1 ? '' : 's'} will be sent: ${labels.join(', ')}.`,
  nothingToSave: 'Nothing to save: no definition was changed.',
  saving: 'Saving the changed definitions…',
  reading: 'Reading the definitions…',
  saved: (labels: readonly string[]) => `Saved: ${labels.join(', ')}.`,
  reloaded: 'Reloaded the definitions from the service.',
  submit: 'Save',
  reload: 'Reload',
  noColumns: 'The columns of this dataset could not be listed: names are not completed or checked.',
  notAColumn: (name: string) => `"${name}" is not a column of this dataset. If it is a derived column, set its column type to Derived column.`,
  spanKindDeprecated: 'Marking span events and links with Span kind is deprecated: set Annotation type to the column that marks them.',
  /** A column the service refused (a 422 naming it only in its text), on the definition that named it. The reason stays the service's own words at the top. */
  refusedColumn: (name: string) => `The service refused the column "${name}".`,
} as const;
