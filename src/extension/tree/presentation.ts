// How each tree node looks: label, description, icon, tooltip, context value. Plain data (no vscode
// import) so escaping and labels are unit-tested; datasetsView.ts turns it into a vscode.TreeItem.
import type { BurnAlert, Column, Recipient, Trigger } from '../../api/schemas';
import type { ActionNode, ApiKeyNode, ErrorNode, GroupNode, TreeNode } from './nodes';
import type { IconSpec, Presentation } from './look';
import { safeLabel } from '../core/text';
import * as l10n from '@vscode/l10n';
import { knownLocale } from '../../webview/protocol/text/when';
import { minutesInWords } from '../../webview/protocol/text/duration';
import { baselineText, burnAlertKind, scheduleText, triggerNotifyLong, triggerNotifyShort } from './alertWords';
import { alertsText, datasetPresentation, sloPresentation } from './accountPresentation';
import { recipientIdText, type RecipientDirectory } from '../core/recipients';
import { whenText, type Moment } from './when';
import type { TriggerFileState } from '../sync';

export type { Presentation } from './look';

const COLUMN_ICONS: Record<string, string> = {
  string: 'symbol-string',
  integer: 'symbol-number',
  float: 'symbol-number',
  boolean: 'symbol-boolean',
  histogram: 'graph',
};

// A function, not a table: l10n.t must run after the bundle is configured, not when the module loads.
function groupLabel(group: 'columns' | 'triggers' | 'burnAlerts'): string {
  if (group === 'columns') return l10n.t('Columns');
  if (group === 'triggers') return l10n.t('Triggers');
  return l10n.t('Burn alerts');
}
const GROUP_ICONS = { columns: 'symbol-field', triggers: 'bell', burnAlerts: 'flame' } as const;

const DURATION_FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * "15m", "1h", "1d" in English, "15 Min.", "1 T" in German: seconds in the largest whole unit, written the
 * short way of the display language (an unknown language tag falls back to English).
 */
export function formatDuration(seconds: number, language = 'en'): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  const [value, unit] =
    seconds > 0 && seconds % 86_400 === 0
      ? [seconds / 86_400, 'day']
      : seconds > 0 && seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : seconds > 0 && seconds % 60 === 0
          ? [seconds / 60, 'minute']
          : [seconds, 'second'];
  const locale = knownLocale(language);
  const key = `${locale}\u0000${unit}`;
  // Made once per language and unit: building one costs ten times formatting with it, once per trigger row.
  let format = DURATION_FORMATS.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'narrow', useGrouping: false });
    DURATION_FORMATS.set(key, format);
  }
  return format.format(value);
}

/**
 * A recipient of a trigger or burn alert: by name ("On-call (PagerDuty)") when the account's recipients are
 * known and hold its id; else its id with the type and target the service lists beside it; one named by type
 * and target only (deprecated) as it is written.
 */
function formatRecipient(r: Recipient, recipients?: RecipientDirectory): string {
  const named = r.id === undefined ? undefined : recipients?.nameOf(r.id);
  if (named !== undefined) return named;
  const parts: string[] = [];
  if (r.id !== undefined) parts.push(recipientIdText(r.id, recipients));
  if (r.type !== undefined || r.target !== undefined) parts.push(`${r.type ?? '?'}: ${r.target ?? '?'}`);
  if (r.id === undefined && r.type !== undefined) parts.push(l10n.t('(deprecated: named by type and target)'));
  return parts.join(' ');
}

function formatThreshold(t: Trigger['threshold']): string | undefined {
  if (!t) return undefined;
  const exceeded =
    t.exceeded_limit !== undefined && t.exceeded_limit !== 1
      ? ` ${l10n.t('(exceeded {0} times)', t.exceeded_limit)}`
      : '';
  return `${t.op} ${t.value}${exceeded}`;
}

function columnPresentation(c: Column, m: Moment): Presentation {
  const description = [c.type, c.hidden ? l10n.t('hidden') : undefined].filter((s) => s !== undefined).join(' · ');
  return {
    label: safeLabel(c.key_name),
    description: safeLabel(description),
    icon: { id: COLUMN_ICONS[c.type] ?? 'symbol-field', ...(c.hidden ? { color: 'disabledForeground' } : {}) },
    contextValue: c.hidden ? 'obs:column:hidden' : 'obs:column',
    collapsible: 'none',
    tooltip: {
      title: c.key_name,
      text: c.description,
      rows: [
        { label: l10n.t('Type'), value: c.type },
        {
          label: l10n.t('Hidden'),
          value: c.hidden ? l10n.t('yes (excluded from autocomplete and raw data field lists)') : l10n.t('no'),
        },
        { label: l10n.t('Last written'), value: whenText(c.last_written, m) ?? l10n.t('never') },
        { label: l10n.t('Id'), value: c.id },
        { label: l10n.t('Created'), value: whenText(c.created_at, m) },
        { label: l10n.t('Updated'), value: whenText(c.updated_at, m) },
      ],
    },
  };
}

/** What the Query row says: an inline query (listed with the query_id of the saved query the service made of it) or a saved one. */
function queryText(t: Trigger): string | undefined {
  if (t.query !== undefined && t.query !== null) return l10n.t('inline query');
  return t.query_id ? l10n.t('saved query {0}', t.query_id) : undefined;
}

/** A trigger against the workspace's trigger files, short, in the Drift view's words. */
function fileStateShort(d: TriggerFileState): string {
  if (d.kind === 'in-sync') return l10n.t('in sync');
  if (d.kind === 'differs') return l10n.t('differs: {0}', d.members.join(', '));
  return l10n.t('only on the service');
}

/** The same in the tooltip, naming the file. */
function fileStateLong(d: TriggerFileState): string {
  if (d.kind === 'in-sync') return l10n.t('{0}, in sync with the service', d.file);
  if (d.kind === 'differs') return l10n.t('{0}, differs from the service in {1}', d.file, d.members.join(', '));
  return l10n.t('none: only on the service (pull the dataset to write it)');
}

function triggerPresentation(
  t: Trigger,
  m: Moment,
  recipients: RecipientDirectory | undefined,
  drift: TriggerFileState | undefined,
): Presentation {
  const language = m.language;
  const icon: IconSpec = t.disabled
    ? { id: 'bell-slash', color: 'disabledForeground' }
    : t.triggered
      ? { id: 'bell-dot', color: 'errorForeground' }
      : { id: 'bell' };
  const state = t.disabled ? l10n.t('disabled') : t.triggered ? l10n.t('triggered') : undefined;
  const frequency = t.frequency !== undefined ? l10n.t('every {0}', formatDuration(t.frequency, language)) : undefined;
  const description = [state, triggerNotifyShort(t.alert_type), frequency, drift && fileStateShort(drift)]
    .filter((s) => s !== undefined)
    .join(' · ');
  return {
    label: safeLabel(t.name),
    description: safeLabel(description),
    icon,
    contextValue: ['obs:trigger', t.query_id ? 'query' : undefined].filter(Boolean).join(':'),
    collapsible: 'none',
    tooltip: {
      title: t.name,
      text: t.description,
      rows: [
        { label: l10n.t('State'), value: state ?? l10n.t('ok') },
        { label: l10n.t('Threshold'), value: formatThreshold(t.threshold) },
        {
          label: l10n.t('Frequency'),
          value:
            t.frequency !== undefined
              ? l10n.t('{0} s ({1})', t.frequency, formatDuration(t.frequency, language))
              : undefined,
        },
        { label: l10n.t('Notifies'), value: triggerNotifyLong(t.alert_type) },
        { label: l10n.t('Runs'), value: scheduleText(t.evaluation_schedule_type, t.evaluation_schedule, language) },
        { label: l10n.t('Compared with'), value: baselineText(t.baseline_details) },
        { label: l10n.t('Query'), value: queryText(t) },
        {
          label: l10n.t('Recipients'),
          value: (t.recipients ?? []).map((r) => formatRecipient(r, recipients)).join('; ') || l10n.t('none'),
        },
        { label: l10n.t('Tags'), value: (t.tags ?? []).map((g) => `${g.key}=${g.value}`).join(', ') },
        { label: l10n.t('Dataset'), value: t.dataset_slug },
        { label: l10n.t('Id'), value: t.id },
        { label: l10n.t('Updated'), value: whenText(t.updated_at, m) },
        { label: l10n.t('Trigger file'), value: drift && fileStateLong(drift) },
      ],
    },
  };
}

export function burnAlertSummary(a: BurnAlert, language = 'en'): string {
  if (a.alert_type === 'budget_rate') {
    const ppm = a.budget_rate_decrease_threshold_per_million;
    const win = a.budget_rate_window_minutes;
    return l10n.t('Budget rate: drop of {0} per million in {1} min', ppm ?? '?', win ?? '?');
  }
  const minutes = a.exhaustion_minutes;
  // Past a day the minutes are said in words ("about 4,083 years"): the service takes any number.
  if (minutes !== undefined && minutes >= 1440)
    return l10n.t('Exhaustion in {0}', minutesInWords(minutes, knownLocale(language)));
  return l10n.t('Exhaustion in {0} min', minutes ?? '?');
}

function burnAlertPresentation(a: BurnAlert, m: Moment, recipients: RecipientDirectory | undefined): Presentation {
  return {
    label: safeLabel(burnAlertSummary(a, m.language)),
    description: safeLabel([a.triggered ? l10n.t('triggered') : undefined, a.description].filter(Boolean).join(' · ')),
    icon: a.triggered ? { id: 'flame', color: 'errorForeground' } : { id: 'flame' },
    contextValue: 'obs:burnAlert',
    collapsible: 'none',
    tooltip: {
      title: burnAlertSummary(a, m.language),
      text: a.description,
      rows: [
        { label: l10n.t('Fires on'), value: burnAlertKind(a.alert_type) },
        { label: l10n.t('Exhaustion minutes'), value: a.exhaustion_minutes },
        { label: l10n.t('Budget rate window (minutes)'), value: a.budget_rate_window_minutes },
        {
          label: l10n.t('Budget decrease threshold (per million)'),
          value: a.budget_rate_decrease_threshold_per_million,
        },
        {
          label: l10n.t('Triggered'),
          value: a.triggered === undefined ? undefined : a.triggered ? l10n.t('yes') : l10n.t('no'),
        },
        {
          label: l10n.t('Recipients'),
          value: (a.recipients ?? []).map((r) => formatRecipient(r, recipients)).join('; '),
        },
        { label: l10n.t('SLO'), value: a.slo?.id },
        { label: l10n.t('Id'), value: a.id },
        { label: l10n.t('Updated'), value: whenText(a.updated_at, m) },
      ],
    },
  };
}

export interface PresentOptions {
  /** Visible and loaded children counts under a filter, for group descriptions. */
  counts?: { visible: number; total: number } | undefined;
  filtering?: boolean;
  /** VS Code's display language, for durations and times (English when not given). */
  language?: string;
  /** When the tooltip is shown, for "3 hours ago"; without it tooltips give only the exact UTC time. */
  now?: number;
  /** The account's recipients, when known: tooltips name recipient ids with them. */
  recipients?: RecipientDirectory;
  /** How many SLOs a Burn alerts group holds, once they are listed. */
  slos?: number;
  /** A trigger against the workspace's trigger files, where drift compared them. */
  drift?: TriggerFileState | undefined;
}

/**
 * A Burn alerts group counts in words, the same before and after its alerts are counted: "1 SLO" while only
 * the SLOs are listed, "1 SLO · 2 alerts" once every SLO's alerts are (a bare "2" read as two SLOs).
 */
function burnAlertsCount(slos: number | undefined, alerts: number | undefined): string | undefined {
  if (slos === undefined) return alerts === undefined ? undefined : alertsText(alerts);
  if (slos === 0) return l10n.t('no SLOs');
  const listed = slos === 1 ? l10n.t('1 SLO') : l10n.t('{0} SLOs', slos);
  return alerts === undefined ? listed : `${listed} · ${alertsText(alerts)}`;
}

function groupCount(node: GroupNode, o: PresentOptions): string | undefined {
  const counts = o.counts;
  if (node.group === 'burnAlerts') return burnAlertsCount(o.slos, counts?.total);
  if (counts === undefined) return undefined;
  if (o.filtering && counts.visible !== counts.total) return l10n.t('{0} of {1}', counts.visible, counts.total);
  return `${counts.total}`;
}

export function present(node: TreeNode, o: PresentOptions = {}): Presentation {
  const m: Moment = { language: o.language ?? 'en', now: o.now };
  switch (node.kind) {
    case 'dataset':
      return datasetPresentation(node, m);
    case 'group':
      return groupPresentation(node, o);
    case 'column':
      return columnPresentation(node.column, m);
    // A click opens a row's natural view: a trigger as read-only JSON, a burn alert in its edit form.
    case 'trigger':
      return {
        ...triggerPresentation(node.trigger, m, o.recipients, o.drift),
        command: { id: 'obs.trigger.open', title: l10n.t('Open Trigger as JSON'), args: [node] },
      };
    case 'slo':
      return sloPresentation(node, o.counts?.total, m);
    case 'burnAlert':
      return {
        ...burnAlertPresentation(node.alert, m, o.recipients),
        command: { id: 'obs.burnAlert.edit', title: l10n.t('Edit Burn Alert'), args: [node] },
      };
    case 'apiKeys':
      return apiKeysPresentation();
    case 'apiKey':
      return apiKeyPresentation(node.key, m);
    case 'error':
      return errorPresentation(node);
    case 'action':
      return actionPresentation(node);
  }
}

/** Columns, Triggers or Burn alerts: the count of its rows (visible of loaded under a filter), open while a filter matches some. */
function groupPresentation(node: GroupNode, o: PresentOptions): Presentation {
  const counts = o.counts;
  return {
    label: groupLabel(node.group),
    description: groupCount(node, o),
    icon: { id: GROUP_ICONS[node.group] },
    contextValue: `obs:group:${node.group}`,
    collapsible: o.filtering && counts !== undefined && counts.visible > 0 ? 'expanded' : 'collapsed',
  };
}

function apiKeysPresentation(): Presentation {
  return {
    label: l10n.t('API keys'),
    description: l10n.t('created or updated here'),
    icon: { id: 'key' },
    contextValue: 'obs:apiKeys',
    collapsible: 'collapsed',
    tooltip: {
      title: l10n.t('API keys'),
      text: l10n.t(
        'The service has no endpoint that lists API keys: this group shows the keys created or updated from VS Code on this connection. Secrets are never stored.',
      ),
      rows: [],
    },
  };
}

function apiKeyPresentation(key: ApiKeyNode['key'], m: Moment): Presentation {
  return {
    label: safeLabel(key.name),
    description: safeLabel([key.keyType, key.disabled ? l10n.t('disabled') : undefined].filter(Boolean).join(' · ')),
    icon: key.disabled ? { id: 'key', color: 'disabledForeground' } : { id: 'key' },
    contextValue: 'obs:apiKey',
    collapsible: 'none',
    tooltip: {
      title: key.name,
      rows: [
        { label: l10n.t('Id'), value: key.id },
        { label: l10n.t('Type'), value: key.keyType },
        { label: l10n.t('Disabled'), value: key.disabled ? l10n.t('yes') : l10n.t('no') },
        { label: l10n.t('Created'), value: whenText(key.createdAt, m) },
      ],
    },
  };
}

function errorPresentation(node: ErrorNode): Presentation {
  return {
    // The operation names a dataset or SLO id from the service: one line, no bidi controls.
    label: safeLabel(
      node.cancelled ? l10n.t('Cancelled: {0}', node.operation) : l10n.t('Could not {0}', node.operation),
    ),
    description: safeLabel(node.message),
    icon: node.cancelled ? { id: 'circle-slash' } : { id: 'error', color: 'errorForeground' },
    contextValue: 'obs:error',
    collapsible: 'expanded',
    tooltip: { title: l10n.t('Could not {0}', node.operation), text: node.message, rows: [] },
  };
}

function actionPresentation(node: ActionNode): Presentation {
  return {
    label: node.label,
    icon: node.icon ? { id: node.icon } : undefined,
    contextValue: 'obs:action',
    collapsible: 'none',
    command: node.command ? { id: node.command.id, title: node.label, args: node.command.args } : undefined,
  };
}
