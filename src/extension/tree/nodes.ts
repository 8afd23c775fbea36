// Tree node data: what the view shows and what context-menu commands receive as their argument.
// Plain data (no vscode import) so the model and the forms can share it.
import type { BurnAlert, Column, Trigger } from '../../api/schemas';
import type { RememberedKey } from './keyRegistry';

export type GroupKind = 'columns' | 'triggers' | 'burnAlerts';

export interface DatasetNode {
  kind: 'dataset';
  connectionId: string;
  /** '__all__' for the Environment-wide node. */
  slug: string;
  /** Added by the user, discovered from environment-wide triggers, or both. */
  added: boolean;
  discovered: boolean;
  metrics: boolean;
}
export interface GroupNode {
  kind: 'group';
  connectionId: string;
  dataset: string;
  group: GroupKind;
}
export interface ColumnNode {
  kind: 'column';
  connectionId: string;
  dataset: string;
  column: Column;
}
export interface TriggerNode {
  kind: 'trigger';
  connectionId: string;
  dataset: string;
  trigger: Trigger;
}
export interface SloNode {
  kind: 'slo';
  connectionId: string;
  dataset: string;
  sloId: string;
}
export interface BurnAlertNode {
  kind: 'burnAlert';
  connectionId: string;
  dataset: string;
  sloId: string;
  alert: BurnAlert;
}
export interface ApiKeysNode {
  kind: 'apiKeys';
  connectionId: string;
}
export interface ApiKeyNode {
  kind: 'apiKey';
  connectionId: string;
  key: RememberedKey;
}
/** Shown in place of children that failed to load: never an empty tree. */
export interface ErrorNode {
  kind: 'error';
  /** Id of the node whose children failed (for Retry). */
  parentId: string;
  operation: string;
  message: string;
  cancelled: boolean;
}
/** A leaf that carries a command: "Retry", "Show Logs", "Add SLO...", or a plain hint such as "No columns". */
export interface ActionNode {
  kind: 'action';
  /** Unique in the tree: the parent's id plus a suffix. */
  id: string;
  label: string;
  icon?: string;
  command?: { id: string; args: unknown[] };
}

export type TreeNode =
  | DatasetNode
  | GroupNode
  | ColumnNode
  | TriggerNode
  | SloNode
  | BurnAlertNode
  | ApiKeysNode
  | ApiKeyNode
  | ErrorNode
  | ActionNode;

const enc = encodeURIComponent;

/** Hierarchical ids: a child's id starts with its parent's id and '/', so a subtree is found by prefix. */
export function nodeId(node: TreeNode | undefined): string {
  if (node === undefined) return 'root';
  switch (node.kind) {
    case 'dataset':
      return `root/${enc(node.connectionId)}/d/${enc(node.slug)}`;
    case 'group':
      return `root/${enc(node.connectionId)}/d/${enc(node.dataset)}/${node.group}`;
    case 'column':
      return `root/${enc(node.connectionId)}/d/${enc(node.dataset)}/columns/${enc(node.column.key_name)}`;
    case 'trigger':
      return `root/${enc(node.connectionId)}/d/${enc(node.dataset)}/triggers/${enc(node.trigger.id)}`;
    case 'slo':
      return `root/${enc(node.connectionId)}/d/${enc(node.dataset)}/burnAlerts/${enc(node.sloId)}`;
    case 'burnAlert':
      return `root/${enc(node.connectionId)}/d/${enc(node.dataset)}/burnAlerts/${enc(node.sloId)}/${enc(node.alert.id)}`;
    case 'apiKeys':
      return `root/${enc(node.connectionId)}/keys`;
    case 'apiKey':
      return `root/${enc(node.connectionId)}/keys/${enc(node.key.id)}`;
    case 'error':
      return `${node.parentId}/!error`;
    case 'action':
      return node.id;
  }
}
