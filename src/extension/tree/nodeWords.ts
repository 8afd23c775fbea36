// What the Datasets tree says of its nodes, apart from loading them: the hint rows and the commands on them,
// a failed load in words, the names a filter finds a node by, and the order of SLOs. No vscode import.
import * as l10n from '@vscode/l10n';
import { ENVIRONMENT_WIDE } from '../../api/schemas/slugs';
import { asServiceError, errorText, isCancellation } from '../core/errors';
import type { LoadFailure } from './cachedTree';
import { nodeId, type ActionNode, type SloNode, type TreeNode } from './nodes';

/** Command ids the model puts on action nodes (the view registers them). */
export const TREE_COMMANDS = {
  retry: 'obs.tree.retry',
  showLogs: 'obs.showLogs',
  addSlo: 'obs.slo.add',
  addDataset: 'obs.dataset.add',
  unhideDatasets: 'obs.dataset.unhideAll',
  createApiKey: 'obs.apiKey.create',
  editConnection: 'obs.connection.edit',
} as const;

/** A row under a node (or at the root) that says something or offers a command, not an item of the service. */
export function hint(
  parent: TreeNode | undefined,
  key: string,
  label: string,
  icon?: string,
  command?: ActionNode['command'],
): ActionNode {
  return { kind: 'action', id: `${nodeId(parent)}/!${key}`, label, icon, command };
}

/** A failed load in words: what was being done, and what went wrong (or that it was cancelled). */
export function loadFailure(operation: string, err: unknown, cancelled: boolean): LoadFailure {
  const aborted = cancelled || isCancellation(err);
  if (aborted) return { operation, message: l10n.t('Loading was cancelled'), cancelled: true };
  return { operation, message: errorText(err), cancelled: false, status: asServiceError(err)?.status };
}

/** What loading the children of a node does, in words, for error nodes and logs. */
export function operationFor(node: TreeNode | undefined): string {
  if (node === undefined) return l10n.t('load the datasets');
  switch (node.kind) {
    case 'group':
      if (node.group === 'columns') return l10n.t('list columns of {0}', node.dataset);
      if (node.group === 'triggers') return l10n.t('list triggers of {0}', node.dataset);
      return l10n.t('list SLOs of {0}', node.dataset);
    case 'slo':
      return l10n.t('list burn alerts of SLO {0} in {1}', node.slo?.name ?? node.sloId, node.dataset);
    case 'apiKeys':
      return l10n.t('list remembered API keys');
    case 'dataset':
      return l10n.t('open {0}', node.slug);
    default:
      return `load ${node.kind}`;
  }
}

/** The names the filter finds a node by: its own and those of what holds it (so a match's contents stay in sight). */
export function namesOf(node: TreeNode): string[] {
  switch (node.kind) {
    case 'dataset':
      return node.slug === ENVIRONMENT_WIDE ? [node.slug, 'Environment-wide'] : [node.slug, node.listed?.name ?? ''];
    case 'group':
      return [node.dataset];
    case 'column':
      return [node.column.key_name, node.dataset];
    case 'trigger':
      return [node.trigger.name, node.dataset];
    case 'slo':
      return [node.slo?.name ?? '', node.sloId, node.dataset];
    case 'burnAlert':
      return [node.alert.id, node.alert.description ?? '', node.sloId, node.dataset];
    case 'apiKey':
      return [node.key.name, node.key.id];
    default:
      return [];
  }
}

/** SLOs sort by name; one the service did not name (or that is known only by id) by its id. */
export function sloSortKey(n: SloNode): string {
  return n.slo?.name ?? n.sloId;
}
