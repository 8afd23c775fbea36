// How each tree node looks: label, description, icon, tooltip, context value. Plain data (no vscode
// import) so escaping and labels are unit-tested; datasetsView.ts turns it into a vscode.TreeItem.
import type { BurnAlert, Column, Recipient, Trigger } from '../../api/schemas';
import { ENVIRONMENT_WIDE } from '../../api/schemas';
import type { TreeNode } from './nodes';
import { safeLabel, type Tooltip } from '../core/text';

export interface IconSpec {
  /** A codicon id. */
  id: string;
  /** A theme color id. */
  color?: string;
}

export interface Presentation {
  label: string;
  description?: string;
  icon?: IconSpec;
  tooltip?: Tooltip;
  contextValue: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  command?: { id: string; title: string; args: unknown[] };
}

const COLUMN_ICONS: Record<string, string> = {
  string: 'symbol-string',
  integer: 'symbol-number',
  float: 'symbol-number',
  boolean: 'symbol-boolean',
  histogram: 'graph',
};

const GROUP_LABELS = { columns: 'Columns', triggers: 'Triggers', burnAlerts: 'Burn alerts' } as const;
const GROUP_ICONS = { columns: 'symbol-field', triggers: 'bell', burnAlerts: 'flame' } as const;

/** "15m", "1h", "1d 2h": seconds as people read them. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  if (seconds % 86_400 === 0 && seconds > 0) return `${seconds / 86_400}d`;
  if (seconds % 3600 === 0 && seconds > 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0 && seconds > 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

export function formatRecipient(r: Recipient): string {
  const parts: string[] = [];
  if (r.id !== undefined) parts.push(r.id);
  if (r.type !== undefined || r.target !== undefined) parts.push(`${r.type ?? '?'}: ${r.target ?? '?'}`);
  if (r.id === undefined && r.type !== undefined) parts.push('(deprecated: named by type and target)');
  return parts.join(' ');
}

function formatThreshold(t: Trigger['threshold']): string | undefined {
  if (!t) return undefined;
  const exceeded = t.exceeded_limit !== undefined && t.exceeded_limit !== 1 ? ` (exceeded ${t.exceeded_limit} times)` : '';
  return `${t.op} ${t.value}${exceeded}`;
}

function columnPresentation(c: Column): Presentation {
  const description = [c.type, c.hidden ? 'hidden' : undefined].filter((s) => s !== undefined).join(' · ');
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
        { label: 'Type', value: c.type },
        { label: 'Hidden', value: c.hidden ? 'yes (excluded from autocomplete and raw data field lists)' : 'no' },
        { label: 'Last written', value: c.last_written ?? 'never' },
        { label: 'Id', value: c.id },
        { label: 'Created', value: c.created_at },
        { label: 'Updated', value: c.updated_at },
      ],
    },
  };
}

function triggerPresentation(t: Trigger): Presentation {
  const icon: IconSpec = t.disabled
    ? { id: 'bell-slash', color: 'disabledForeground' }
    : t.triggered
      ? { id: 'bell-dot', color: 'errorForeground' }
      : { id: 'bell' };
  const state = t.disabled ? 'disabled' : t.triggered ? 'triggered' : undefined;
  const description = [state, t.alert_type ?? 'on_change', t.frequency !== undefined ? `every ${formatDuration(t.frequency)}` : undefined]
    .filter((s) => s !== undefined)
    .join(' · ');
  const schedule =
    t.evaluation_schedule_type === 'window' && t.evaluation_schedule
      ? `window ${JSON.stringify(t.evaluation_schedule)}`
      : (t.evaluation_schedule_type ?? undefined);
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
        { label: 'State', value: state ?? 'ok' },
        { label: 'Threshold', value: formatThreshold(t.threshold) },
        { label: 'Frequency', value: t.frequency !== undefined ? `${t.frequency} s (${formatDuration(t.frequency)})` : undefined },
        { label: 'Alert type', value: t.alert_type },
        { label: 'Schedule', value: schedule },
        { label: 'Baseline', value: t.baseline_details ? JSON.stringify(t.baseline_details) : undefined },
        { label: 'Query', value: t.query_id ? `saved query ${t.query_id}` : t.query ? 'inline query' : undefined },
        { label: 'Recipients', value: (t.recipients ?? []).map(formatRecipient).join('; ') || 'none' },
        { label: 'Tags', value: (t.tags ?? []).map((g) => `${g.key}=${g.value}`).join(', ') },
        { label: 'Dataset', value: t.dataset_slug },
        { label: 'Id', value: t.id },
        { label: 'Updated', value: t.updated_at },
      ],
    },
  };
}

export function burnAlertSummary(a: BurnAlert): string {
  if (a.alert_type === 'budget_rate') {
    const ppm = a.budget_rate_decrease_threshold_per_million;
    const win = a.budget_rate_window_minutes;
    return `Budget rate: drop of ${ppm ?? '?'} per million in ${win ?? '?'} min`;
  }
  return `Exhaustion in ${a.exhaustion_minutes ?? '?'} min`;
}

function burnAlertPresentation(a: BurnAlert): Presentation {
  return {
    label: safeLabel(burnAlertSummary(a)),
    description: safeLabel([a.triggered ? 'triggered' : undefined, a.description].filter(Boolean).join(' · ')),
    icon: a.triggered ? { id: 'flame', color: 'errorForeground' } : { id: 'flame' },
    contextValue: 'obs:burnAlert',
    collapsible: 'none',
    tooltip: {
      title: burnAlertSummary(a),
      text: a.description,
      rows: [
        { label: 'Alert type', value: a.alert_type },
        { label: 'Exhaustion minutes', value: a.exhaustion_minutes },
        { label: 'Budget rate window (minutes)', value: a.budget_rate_window_minutes },
        { label: 'Budget decrease threshold (per million)', value: a.budget_rate_decrease_threshold_per_million },
        { label: 'Triggered', value: a.triggered === undefined ? undefined : a.triggered ? 'yes' : 'no' },
        { label: 'Recipients', value: (a.recipients ?? []).map(formatRecipient).join('; ') },
        { label: 'SLO', value: a.slo?.id },
        { label: 'Id', value: a.id },
        { label: 'Updated', value: a.updated_at },
      ],
    },
  };
}

export interface PresentOptions {
  /** Visible and loaded children counts under a filter, for group descriptions. */
  counts?: { visible: number; total: number } | undefined;
  filtering?: boolean;
}

export function present(node: TreeNode, o: PresentOptions = {}): Presentation {
  switch (node.kind) {
    case 'dataset': {
      const all = node.slug === ENVIRONMENT_WIDE;
      const flags = [node.metrics ? 'metrics' : undefined, !all && !node.added ? 'discovered' : undefined].filter(Boolean);
      return {
        label: all ? 'Environment-wide' : safeLabel(node.slug),
        description: all ? ENVIRONMENT_WIDE : flags.join(' · '),
        icon: { id: all ? 'globe' : 'database' },
        contextValue: all ? 'obs:environment' : ['obs:dataset', node.added ? 'added' : undefined, node.metrics ? 'metrics' : undefined].filter(Boolean).join(':'),
        collapsible: 'collapsed',
        tooltip: {
          title: all ? 'Environment-wide (__all__)' : node.slug,
          rows: [
            { label: 'Source', value: all ? 'every dataset of the environment' : [node.added ? 'added by you' : undefined, node.discovered ? 'discovered from environment-wide triggers' : undefined].filter(Boolean).join(', ') },
            { label: 'Metrics dataset', value: node.metrics ? 'yes' : undefined },
          ],
        },
      };
    }
    case 'group': {
      const counts = o.counts;
      return {
        label: GROUP_LABELS[node.group],
        description: counts ? (o.filtering && counts.visible !== counts.total ? `${counts.visible} of ${counts.total}` : `${counts.total}`) : undefined,
        icon: { id: GROUP_ICONS[node.group] },
        contextValue: `obs:group:${node.group}`,
        collapsible: o.filtering && counts !== undefined && counts.visible > 0 ? 'expanded' : 'collapsed',
      };
    }
    case 'column':
      return columnPresentation(node.column);
    case 'trigger':
      return triggerPresentation(node.trigger);
    case 'slo':
      return {
        label: safeLabel(node.sloId),
        description: o.counts === undefined ? 'SLO' : `SLO · ${o.counts.total} ${o.counts.total === 1 ? 'alert' : 'alerts'}`,
        icon: { id: 'target' },
        contextValue: 'obs:slo',
        collapsible: 'collapsed',
        tooltip: { title: `SLO ${node.sloId}`, rows: [{ label: 'Dataset', value: node.dataset }] },
      };
    case 'burnAlert':
      return burnAlertPresentation(node.alert);
    case 'apiKeys':
      return {
        label: 'API keys',
        description: 'created or updated here',
        icon: { id: 'key' },
        contextValue: 'obs:apiKeys',
        collapsible: 'collapsed',
        tooltip: {
          title: 'API keys',
          text: 'The service has no endpoint that lists API keys: this group shows the keys created or updated from VS Code on this connection. Secrets are never stored.',
          rows: [],
        },
      };
    case 'apiKey':
      return {
        label: safeLabel(node.key.name),
        description: safeLabel([node.key.keyType, node.key.disabled ? 'disabled' : undefined].filter(Boolean).join(' · ')),
        icon: node.key.disabled ? { id: 'key', color: 'disabledForeground' } : { id: 'key' },
        contextValue: 'obs:apiKey',
        collapsible: 'none',
        tooltip: {
          title: node.key.name,
          rows: [
            { label: 'Id', value: node.key.id },
            { label: 'Type', value: node.key.keyType },
            { label: 'Disabled', value: node.key.disabled ? 'yes' : 'no' },
            { label: 'Created', value: node.key.createdAt },
          ],
        },
      };
    case 'error':
      return {
        // The operation names a dataset or SLO id from the service: one line, no bidi controls.
        label: safeLabel(node.cancelled ? `Cancelled: ${node.operation}` : `Could not ${node.operation}`),
        description: safeLabel(node.message),
        icon: node.cancelled ? { id: 'circle-slash' } : { id: 'error', color: 'errorForeground' },
        contextValue: 'obs:error',
        collapsible: 'expanded',
        tooltip: { title: `Could not ${node.operation}`, text: node.message, rows: [] },
      };
    case 'action':
      return {
        label: node.label,
        icon: node.icon ? { id: node.icon } : undefined,
        contextValue: 'obs:action',
        collapsible: 'none',
        command: node.command ? { id: node.command.id, title: node.label, args: node.command.args } : undefined,
      };
  }
}
