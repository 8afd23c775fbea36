// The Datasets tree as plain data: which nodes exist and how their children load. No vscode import.
import type { ServiceClient } from '../../api/client';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG, type Trigger } from '../../api/schemas';
import type { ConnectionProfile } from '../connections';
import {
  GROUP_KINDS,
  nodeId,
  type ActionNode,
  type DatasetNode,
  type ErrorNode,
  type GroupNode,
  type SloNode,
  type TreeNode,
} from './nodes';
import { CachedTreeModel, type LoadFailure } from './cachedTree';
import type { KeyRegistry } from './keyRegistry';
import type { Limiter } from '../../api/limiter';
import type { RememberedItems } from './rememberedItems';
import { errorText, isCancellation, isConnectionGone, StaleConnectionError } from '../core/errors';
import * as l10n from '@vscode/l10n';

/** The calls the tree makes; the real ServiceClient satisfies it. */
export type TreeApi = Pick<ServiceClient, 'listColumns' | 'listTriggers' | 'listBurnAlerts'>;

export interface TreeConnection {
  profile: ConnectionProfile;
  api: TreeApi;
  /**
   * Whether this is still the active connection with the same keys. A load that fails once it is not
   * ends as cancelled, quietly: no log, no error node (e.g. the sandbox was stopped mid-load).
   */
  isCurrent?: () => boolean;
}

export interface DatasetTreeOptions {
  /** The active connection; may throw (e.g. keys missing), which shows as an error node. */
  connection: () => Promise<TreeConnection | undefined>;
  remembered: RememberedItems;
  keys: KeyRegistry;
  metricsDatasets: () => readonly string[];
  limiter: Limiter;
  /** Called for every load that failed (not for cancellations), e.g. to log it. */
  onFailure?: (failure: LoadFailure, err: unknown) => void;
}

/** Command ids the model puts on action nodes (the view registers them). */
export const TREE_COMMANDS = {
  retry: 'obs.tree.retry',
  showLogs: 'obs.showLogs',
  addSlo: 'obs.slo.add',
  addDataset: 'obs.dataset.add',
  unhideDatasets: 'obs.dataset.unhideAll',
  createApiKey: 'obs.apiKey.create',
} as const;

export class DatasetTreeModel extends CachedTreeModel<TreeNode> {
  /** Environment-wide triggers fetched for discovery, reused once by the Environment-wide Triggers group. */
  private discoveryTriggers: Trigger[] | undefined;
  /**
   * The last known number of items under a group or SLO, by node id. Kept across refresh, so a count
   * stays in sight while its list loads again; ids carry the connection, so connections never mix.
   */
  private readonly knownCounts = new Map<string, number>();
  private currentConnectionId: string | undefined;

  constructor(private readonly o: DatasetTreeOptions) {
    super();
  }

  idOf(node: TreeNode | undefined): string {
    return nodeId(node);
  }

  /** The connection id the root was last loaded for. */
  get connectionId(): string | undefined {
    return this.currentConnectionId;
  }

  protected async load(node: TreeNode | undefined, signal: AbortSignal): Promise<TreeNode[]> {
    let conn: TreeConnection | undefined;
    try {
      conn = await this.o.connection();
    } catch (err) {
      // Removed between the tree asking and the client being built: the removal refreshes the tree.
      if (isConnectionGone(err)) throw new StaleConnectionError(undefined);
      throw err;
    }
    this.currentConnectionId = conn?.profile.id;
    if (!conn) return [];
    try {
      return await this.loadFor(conn, node, signal);
    } catch (err) {
      throw isStale(conn) ? new StaleConnectionError(conn.profile.id) : err;
    }
  }

  private async loadFor(conn: TreeConnection, node: TreeNode | undefined, signal: AbortSignal): Promise<TreeNode[]> {
    const cid = conn.profile.id;
    if (node !== undefined && 'connectionId' in node && node.connectionId !== cid) return [];
    if (node === undefined) return this.loadRoot(conn, signal);
    switch (node.kind) {
      case 'dataset': {
        const groups = GROUP_KINDS.map((group): GroupNode => ({ kind: 'group', connectionId: cid, dataset: node.slug, group }));
        // The groups' lists load with the dataset (through the limiter), so each group is drawn with its
        // count and never redrawn for it (see cachedTree.ts). A failure shows when the group is opened.
        await Promise.all(groups.map((g) => this.loadChildren(g)));
        return groups;
      }
      case 'group':
        return this.loadGroup(conn, node, signal);
      case 'slo': {
        const res = await this.o.limiter.run((s) => conn.api.listBurnAlerts(node.dataset, node.sloId, { signal: s }), signal);
        const alerts = [...res.data].sort((a, b) => a.id.localeCompare(b.id));
        if (alerts.length === 0) return [this.hint(node, 'empty', l10n.t('No burn alerts for this SLO'))];
        return alerts.map((alert) => ({ kind: 'burnAlert', connectionId: cid, dataset: node.dataset, sloId: node.sloId, alert }));
      }
      case 'apiKeys': {
        const keys = this.o.keys.list(cid).sort((a, b) => a.name.localeCompare(b.name));
        if (keys.length === 0) {
          return [this.hint(node, 'create', l10n.t('Create API Key...'), 'add', { id: TREE_COMMANDS.createApiKey, args: [node] })];
        }
        return keys.map((key) => ({ kind: 'apiKey', connectionId: cid, key }));
      }
      case 'error':
        return [
          this.hint(node, 'retry', l10n.t('Retry'), 'refresh', { id: TREE_COMMANDS.retry, args: [node] }),
          this.hint(node, 'logs', l10n.t('Show Logs'), 'output', { id: TREE_COMMANDS.showLogs, args: [] }),
        ];
      default:
        return [];
    }
  }

  private async loadRoot(conn: TreeConnection, signal: AbortSignal): Promise<TreeNode[]> {
    const cid = conn.profile.id;
    const added = new Set(this.o.remembered.datasets(cid));
    const hidden = new Set(this.o.remembered.hidden(cid));
    const metrics = new Set(this.o.metricsDatasets());
    const discovered = new Set<string>();
    let discoveryError: ErrorNode | undefined;
    this.discoveryTriggers = undefined;
    try {
      const res = await this.o.limiter.run((s) => conn.api.listTriggers(ENVIRONMENT_WIDE, { signal: s }), signal);
      this.discoveryTriggers = res.data;
      for (const t of res.data) {
        const slug = t.dataset_slug;
        if (slug && slug !== ENVIRONMENT_WIDE_TRIGGER_SLUG && slug !== ENVIRONMENT_WIDE) discovered.add(slug);
      }
    } catch (err) {
      if (signal.aborted) throw err;
      if (isStale(conn)) throw new StaleConnectionError(cid);
      const failure = this.describe(l10n.t('discover datasets from environment-wide triggers'), err, false);
      this.o.onFailure?.(failure, err);
      discoveryError = { kind: 'error', parentId: nodeId(undefined), ...failure };
    }
    const dataset = (slug: string): DatasetNode => ({
      kind: 'dataset',
      connectionId: cid,
      slug,
      added: added.has(slug),
      discovered: discovered.has(slug),
      metrics: metrics.has(slug),
    });
    const nodes: TreeNode[] = [];
    if (discoveryError) nodes.push(discoveryError);
    if (!hidden.has(ENVIRONMENT_WIDE)) nodes.push(dataset(ENVIRONMENT_WIDE));
    const slugs = [...new Set([...added, ...discovered])].filter((s) => s !== ENVIRONMENT_WIDE && !hidden.has(s)).sort();
    nodes.push(...slugs.map(dataset));
    if (slugs.length === 0) {
      nodes.push(this.hint(undefined, 'add', l10n.t('Add Dataset...'), 'add', { id: TREE_COMMANDS.addDataset, args: [] }));
    }
    const hiddenCount = [...hidden].filter((s) => s === ENVIRONMENT_WIDE || added.has(s) || discovered.has(s)).length;
    if (hiddenCount > 0) {
      nodes.push(
        this.hint(undefined, 'hidden', hiddenCount === 1 ? l10n.t('1 hidden dataset (show)') : l10n.t('{0} hidden datasets (show)', hiddenCount), 'eye', {
          id: TREE_COMMANDS.unhideDatasets,
          args: [],
        }),
      );
    }
    nodes.push({ kind: 'apiKeys', connectionId: cid });
    return nodes;
  }

  private async loadGroup(conn: TreeConnection, node: GroupNode, signal: AbortSignal): Promise<TreeNode[]> {
    const cid = conn.profile.id;
    const dataset = node.dataset;
    switch (node.group) {
      case 'columns': {
        const res = await this.o.limiter.run((s) => conn.api.listColumns(dataset, { signal: s }), signal);
        if (res.data.length === 0) return [this.hint(node, 'empty', l10n.t('No columns'))];
        const columns = [...res.data].sort((a, b) => (a.key_name < b.key_name ? -1 : a.key_name > b.key_name ? 1 : 0));
        return columns.map((column) => ({ kind: 'column', connectionId: cid, dataset, column }));
      }
      case 'triggers': {
        let triggers: Trigger[];
        if (dataset === ENVIRONMENT_WIDE && this.discoveryTriggers) {
          triggers = this.discoveryTriggers;
          this.discoveryTriggers = undefined;
        } else {
          triggers = (await this.o.limiter.run((s) => conn.api.listTriggers(dataset, { signal: s }), signal)).data;
        }
        if (triggers.length === 0) return [this.hint(node, 'empty', l10n.t('No triggers'))];
        const sorted = [...triggers].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
        return sorted.map((trigger) => ({ kind: 'trigger', connectionId: cid, dataset, trigger }));
      }
      case 'burnAlerts': {
        const slos = this.o.remembered.slos(cid, dataset);
        const addSlo = this.hint(node, 'addSlo', l10n.t('Add SLO...'), 'add', { id: TREE_COMMANDS.addSlo, args: [node] });
        if (slos.length === 0) return [addSlo];
        const nodes = slos.map((sloId): SloNode => ({ kind: 'slo', connectionId: cid, dataset, sloId }));
        // The group's count is the sum of its SLOs' alerts, and each SLO shows its own: they load with the group.
        await Promise.all(nodes.map((n) => this.loadChildren(n)));
        return nodes;
      }
    }
  }

  /** How many items a group or SLO holds, as far as known: loaded now, or the last count before a refresh. */
  itemCount(node: TreeNode): number | undefined {
    if (node.kind === 'group' && node.group === 'burnAlerts') return this.burnAlertCount(node);
    if (node.kind !== 'group' && node.kind !== 'slo') return undefined;
    return this.knownCounts.get(nodeId(node));
  }

  /** Burn alerts under all of a dataset's SLOs; known once every SLO's alerts were counted. */
  private burnAlertCount(group: GroupNode): number | undefined {
    const slos = this.o.remembered.slos(group.connectionId, group.dataset);
    let total = 0;
    for (const sloId of slos) {
      const n = this.knownCounts.get(nodeId({ kind: 'slo', connectionId: group.connectionId, dataset: group.dataset, sloId }));
      if (n === undefined) return undefined;
      total += n;
    }
    return total;
  }

  /** An SLO reloads with its Burn alerts group: the group's count adds up all its SLOs' alerts. */
  protected override refreshTargetOf(node: TreeNode): TreeNode {
    if (node.kind !== 'slo') return node;
    const group: GroupNode = { kind: 'group', connectionId: node.connectionId, dataset: node.dataset, group: 'burnAlerts' };
    return this.loadedNode(nodeId(group)) ?? group;
  }

  protected override loaded(node: TreeNode, children: TreeNode[]): void {
    if (node.kind !== 'group' && node.kind !== 'slo') return;
    // A failure (an error node) says nothing about how many there are: the last count stays.
    if (children.some((c) => c.kind === 'error')) return;
    this.knownCounts.set(nodeId(node), children.filter((c) => this.countsAsItem(c)).length);
  }

  /** Loads every dataset's groups (and the SLOs' burn alerts), through the limiter, so a filter can search them. */
  async loadAll(signal?: AbortSignal): Promise<void> {
    const roots = await this.loadChildren(undefined);
    if (signal?.aborted) return;
    // A dataset loads its groups' lists, and a Burn alerts group its SLOs' alerts, with it.
    await Promise.all(roots.filter((n) => n.kind === 'dataset').map((ds) => this.loadChildren(ds)));
  }

  protected failureNode(parent: TreeNode | undefined, failure: LoadFailure): TreeNode {
    return { kind: 'error', parentId: nodeId(parent), ...failure };
  }

  protected describeFailure(parent: TreeNode | undefined, err: unknown, cancelled: boolean): LoadFailure {
    const failure = this.describe(operationFor(parent), err, cancelled);
    if (!failure.cancelled) this.o.onFailure?.(failure, err);
    return failure;
  }

  private describe(operation: string, err: unknown, cancelled: boolean): LoadFailure {
    const aborted = cancelled || isCancellation(err);
    if (aborted) return { operation, message: l10n.t('Loading was cancelled'), cancelled: true };
    return { operation, message: errorText(err), cancelled: false };
  }

  protected namesOf(node: TreeNode): string[] {
    switch (node.kind) {
      case 'dataset':
        return node.slug === ENVIRONMENT_WIDE ? [node.slug, 'Environment-wide'] : [node.slug];
      case 'group':
        return [node.dataset];
      case 'column':
        return [node.column.key_name, node.dataset];
      case 'trigger':
        return [node.trigger.name, node.dataset];
      case 'slo':
        return [node.sloId, node.dataset];
      case 'burnAlert':
        return [node.alert.id, node.alert.description ?? '', node.sloId, node.dataset];
      case 'apiKey':
        return [node.key.name, node.key.id];
      default:
        return [];
    }
  }

  protected alwaysVisible(node: TreeNode): boolean {
    return node.kind === 'error' || (node.kind === 'action' && node.id.includes('/!error/'));
  }

  protected override countsAsItem(node: TreeNode): boolean {
    return node.kind !== 'action' && node.kind !== 'error';
  }

  protected hasChildren(node: TreeNode): boolean {
    return node.kind === 'dataset' || node.kind === 'group' || node.kind === 'slo' || node.kind === 'apiKeys';
  }

  private hint(parent: TreeNode | undefined, key: string, label: string, icon?: string, command?: ActionNode['command']): ActionNode {
    return { kind: 'action', id: `${nodeId(parent)}/!${key}`, label, icon, command };
  }
}

function isStale(conn: TreeConnection): boolean {
  return conn.isCurrent !== undefined && !conn.isCurrent();
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
      return l10n.t('list burn alerts of SLO {0} in {1}', node.sloId, node.dataset);
    case 'apiKeys':
      return l10n.t('list remembered API keys');
    case 'dataset':
      return l10n.t('open {0}', node.slug);
    default:
      return `load ${node.kind}`;
  }
}
