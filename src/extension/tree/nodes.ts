// Tree node data: what the view shows and what context-menu commands receive as their argument.
// Plain data, no vscode import.
import type { BurnAlert, Column, Trigger } from '../../api/schemas';
import type { RememberedKey } from './keyRegistry';

export const GROUP_KINDS = ['columns', 'triggers', 'burnAlerts'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

/** What the service's dataset list (GET /1/datasets) says of a dataset. */
export interface ListedDataset {
  name?: string;
  description?: string;
  /** Absent until the dataset received data. */
  lastWrittenAt?: string;
  /** Absent until the dataset has columns. */
  columns?: number;
  createdAt?: string;
  deleteProtected?: boolean;
}

export interface DatasetNode {
  kind: 'dataset';
  connectionId: string;
  /** '__all__' for the Environment-wide node. */
  slug: string;
  /** Added by the user, discovered from environment-wide triggers (where datasets are not listed), or both. */
  added: boolean;
  discovered: boolean;
  metrics: boolean;
  /** Set when the service listed the dataset. */
  listed?: ListedDataset;
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
interface TriggerNode {
  kind: 'trigger';
  connectionId: string;
  dataset: string;
  trigger: Trigger;
}
/** What the service's SLO list (GET /1/slos/<dataset>) says of an SLO. */
export interface ListedSlo {
  name?: string;
  description?: string;
  /** 999000 is 99.9%. */
  targetPerMillion?: number;
  periodDays?: number;
  sli?: string;
  /** The datasets an environment-wide SLO spans. */
  datasets?: string[];
}

export interface SloNode {
  kind: 'slo';
  connectionId: string;
  dataset: string;
  sloId: string;
  /** Set when the service listed the SLO; an SLO the user added by id has none where SLOs are not listed. */
  slo?: ListedSlo;
  /** Added by id by the user (remembered). */
  added?: boolean;
}
interface BurnAlertNode {
  kind: 'burnAlert';
  connectionId: string;
  dataset: string;
  sloId: string;
  alert: BurnAlert;
}
interface ApiKeysNode {
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
  /** The HTTP status of the failure (a 401 offers Edit Connection). */
  status?: number | undefined;
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

// Hierarchical ids: a child's id starts with its parent's id and '/', so a subtree is found by prefix.
export const datasetId = (connectionId: string, slug: string): string => `root/${enc(connectionId)}/d/${enc(slug)}`;
export const groupId = (connectionId: string, dataset: string, group: GroupKind): string =>
  `${datasetId(connectionId, dataset)}/${group}`;
export const sloId = (connectionId: string, dataset: string, slo: string): string =>
  `${groupId(connectionId, dataset, 'burnAlerts')}/${enc(slo)}`;
export const apiKeysId = (connectionId: string): string => `root/${enc(connectionId)}/keys`;

/** The id of a node in the view and in the model's cache (see the id functions above). */
export function nodeId(node: TreeNode | undefined): string {
  if (node === undefined) return 'root';
  switch (node.kind) {
    case 'dataset':
      return datasetId(node.connectionId, node.slug);
    case 'group':
      return groupId(node.connectionId, node.dataset, node.group);
    case 'column':
      return `${groupId(node.connectionId, node.dataset, 'columns')}/${enc(node.column.key_name)}`;
    case 'trigger':
      return `${groupId(node.connectionId, node.dataset, 'triggers')}/${enc(node.trigger.id)}`;
    case 'slo':
      return sloId(node.connectionId, node.dataset, node.sloId);
    case 'burnAlert':
      return `${sloId(node.connectionId, node.dataset, node.sloId)}/${enc(node.alert.id)}`;
    case 'apiKeys':
      return apiKeysId(node.connectionId);
    case 'apiKey':
      return `${apiKeysId(node.connectionId)}/${enc(node.key.id)}`;
    case 'error':
      return `${node.parentId}/!error`;
    case 'action':
      return node.id;
  }
}
