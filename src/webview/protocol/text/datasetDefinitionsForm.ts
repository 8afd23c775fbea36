// Every word of the dataset definitions form (4.8), in one place: each definition's label and meaning,
// the groups they are shown in, and the form's messages. Read through l10n.t when used (see common.ts),
// so they are in the language the host handed the page.
import * as l10n from '@vscode/l10n';
import type { DefinitionType } from '../../../api/schemas/datasetDefinitions';
import { formatCount, quotedValue } from './common';

/** The groups the form shows, in order; every definition type is in exactly one. Titles: DEFINITIONS_TEXT.groupTitles. */
export const DEFINITION_GROUPS = [
  { id: 'trace', types: ['trace_id', 'span_id', 'parent_id', 'service_name', 'name', 'duration_ms'] },
  { id: 'span', types: ['span_kind', 'annotation_type', 'link_trace_id', 'link_span_id'] },
  { id: 'log', types: ['log_severity', 'log_message'] },
  { id: 'http', types: ['route', 'status', 'error', 'user'] },
] as const satisfies readonly { id: string; types: readonly DefinitionType[] }[];
export type DefinitionGroupId = (typeof DEFINITION_GROUPS)[number]['id'];

export const DEFINITIONS_TEXT = {
  get labels(): Record<DefinitionType, string> {
    return {
      trace_id: l10n.t('Trace ID'),
      span_id: l10n.t('Span ID'),
      parent_id: l10n.t('Parent span ID'),
      service_name: l10n.t('Service name'),
      name: l10n.t('Span name'),
      duration_ms: l10n.t('Duration (ms)'),
      span_kind: l10n.t('Span kind'),
      annotation_type: l10n.t('Annotation type'),
      link_trace_id: l10n.t('Link trace ID'),
      link_span_id: l10n.t('Link span ID'),
      log_severity: l10n.t('Log severity'),
      log_message: l10n.t('Log message'),
      route: l10n.t('Route'),
      status: l10n.t('Status'),
      error: l10n.t('Error'),
      user: l10n.t('User'),
    };
  },
  get help(): Record<DefinitionType, string> {
    return {
      trace_id: l10n.t('ID of the trace the span belongs to.'),
      span_id: l10n.t('Unique ID of each span.'),
      parent_id: l10n.t('ID of the parent span.'),
      service_name: l10n.t('Name of the instrumented service.'),
      name: l10n.t('Name of the function or method where the span was created.'),
      duration_ms: l10n.t('Span duration in milliseconds.'),
      span_kind: l10n.t(
        'Kind of span, for example client or server. Marking span events and links with it is deprecated: use Annotation type.',
      ),
      annotation_type: l10n.t('Type of span annotation, for example span_event or link. Use it for nothing else.'),
      link_trace_id: l10n.t('Trace ID a link points to (used with Link span ID).'),
      link_span_id: l10n.t('Span ID a link points to (used with Link trace ID).'),
      log_severity: l10n.t('Event severity (log level): trace, debug, info, warn, error, fatal or unspecified.'),
      log_message: l10n.t('Log event message: free-form text, possibly several lines.'),
      route: l10n.t('HTTP URL or equivalent route the request processed.'),
      status: l10n.t('Success, failure or other status of a request.'),
      error: l10n.t('Boolean or text that marks an error.'),
      user: l10n.t('The user making the request.'),
    };
  },
  get groupTitles(): Record<DefinitionGroupId, string> {
    return {
      trace: l10n.t('Traces'),
      span: l10n.t('Span kinds, events and links'),
      log: l10n.t('Logs'),
      http: l10n.t('HTTP and users'),
    };
  },
  title: (dataset: string) => l10n.t('Dataset definitions of {0}', dataset),
  lead: (connection: string) =>
    l10n.t(
      'Connection: {0}. Which columns carry a special meaning. Only the definitions you change are sent.',
      connection,
    ),
  get columnPlaceholder() {
    return l10n.t('(not set)');
  },
  columnTypeLabel: (label: string) => l10n.t('Column type of {0}', label),
  get columnTypes(): Readonly<Record<string, string>> {
    return { '': l10n.t('Type not specified'), column: l10n.t('Column'), derived_column: l10n.t('Derived column') };
  },
  get unset() {
    return l10n.t('Unset');
  },
  unsetLabel: (label: string) => l10n.t('Unset {0}: no column will mean it', label),
  get changed() {
    return l10n.t('changed');
  },
  get noChanges() {
    return l10n.t('No changes.');
  },
  willSend: (labels: readonly string[]) =>
    labels.length === 1
      ? l10n.t('1 definition will be sent: {0}.', labels.join(', '))
      : l10n.t('{0} definitions will be sent: {1}.', labels.length, labels.join(', ')),
  get nothingToSave() {
    return l10n.t('Nothing to save: no definition was changed.');
  },
  get saving() {
    return l10n.t('Saving the changed definitions…');
  },
  get reading() {
    return l10n.t('Reading the definitions…');
  },
  saved: (labels: readonly string[]) => l10n.t('Saved: {0}.', labels.join(', ')),
  get reloaded() {
    return l10n.t('Reloaded the definitions from the service.');
  },
  get submit() {
    return l10n.t('Save');
  },
  get reload() {
    return l10n.t('Reload');
  },
  get noColumns() {
    return l10n.t('The columns of this dataset could not be listed: names are not completed or checked.');
  },
  notAColumn: (name: string) =>
    l10n.t(
      '{0} is not a column of this dataset. If it is a derived column, set its column type to Derived column.',
      quotedValue(name),
    ),
  /** A name longer than any column's (spec: a column's key_name has 1 to 255 characters), with its length. */
  nameTooLong: (label: string, max: number, length: number) =>
    l10n.t(
      '{0} can have at most {1} characters, the most a column name has; it has {2}.',
      label,
      formatCount(max),
      formatCount(length),
    ),
  get spanKindDeprecated() {
    return l10n.t(
      'Marking span events and links with Span kind is deprecated: set Annotation type to the column that marks them.',
    );
  },
  /** A column the service refused (a 422 naming it only in its text), on the definition that named it. The reason stays the service's own words at the top. */
  refusedColumn: (name: string) => l10n.t('The service refused the column {0}.', quotedValue(name)),
  /** A refused save whose answer was cut short before naming this column, which the dataset does not have. */
  refusedColumnLikely: (name: string) =>
    l10n.t(
      '{0} is not a column of this dataset: the service most likely refused it too (its answer was cut short).',
      quotedValue(name),
    ),
  /** Why a dataset cannot have its definitions edited. */
  get slugEmpty() {
    return l10n.t('Give the name (slug) of a dataset.');
  },
  get slugEnvironmentWide() {
    return l10n.t('Dataset definitions belong to one dataset: the environment-wide "__all__" has none.');
  },
  get invalidSlug() {
    return l10n.t('A dataset name (slug) has no "/", "?", "#" or spaces and is not "." or "..".');
  },
} as const;
