// The Datasets tree as plain data: which nodes exist and how their children load. No vscode import.
import type { ServiceClient } from '../../api/client';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG, type Trigger } from '../../api/schemas';
import { AccountListing, keyRefusedNode, listedDataset, listedSlo, type DatasetsOutcome } from './accountListing';
import { refusalReason } from '../core/listingRefusal';
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
import { asServiceError, errorText, isCancellation, isConnectionGone, StaleConnectionError } from '../core/errors';
import * as l10n from '@vscode/l10n';

/** The calls the tree makes; the real ServiceClient satisfies it. */
export type TreeApi = Pick<ServiceClient, 'listColumns' | 'listTriggers' | 'listBurnAlerts' | 'listDatasets' | 'listSlos'>;

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
  /** Called when the root loads for a connection (e.g. to read its recipients, which the tooltips name). */
  onRootLoad?: (connectionId: string) => void;
}

/** Command ids the model puts on action nodes (the view registers them). */
const TREE_COMMANDS = {
  retry: 'obs.tree.retry',
  showLogs: 'obs.showLogs',
  addSlo: 'obs.slo.add',
  addDataset: 'obs.dataset.add',
  unhideDatasets: 'obs.dataset.unhideAll',
  createApiKey: 'obs.apiKey.create',
  editConnection: 'obs.connection.edit',
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
  /** The dataset lists and SLO refusals read, per connection, until Refresh (reloadAccount). */
  private readonly listing = new AccountListing();

  constructor(private readonly o: DatasetTreeOptions) {
    super();
  }

  /** Refresh: forgets what was read of the accounts (dataset lists, refusals) and loads the whole tree again. */
  reloadAccount(): void {
    this.listing.forget();
    this.refresh();
  }

  /** The datasets the service listed for a connection, as far as read (none where datasets are not listed). */
  listedDatasets(connectionId: string): string[] {
    return this.listing.listedSlugs(connectionId);
  }

  /**
   * The slugs of a connection's datasets from the tree's own read of the list (made now if the tree has not
   * made it yet), so the linter's dataset check costs no second call; 'refused' where the key may not list them.
   */
  async datasetSlugs(connectionId: string, api: Pick<TreeApi, 'listDatasets'>): Promise<string[] | 'refused'> {
    const outcome = await this.listing.datasets(connectionId, api, async () => (await this.o.limiter.run((s) => api.listDatasets({ signal: s }))).data);
    return outcome.kind === 'listed' ? outcome.datasets.map((d) => d.slug) : 'refused';
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
          // The service does not know the key (401): the connection's key is to be put right, not the item.
          ...(node.status === 401 ? [this.hint(node, 'edit', l10n.t('Edit Connection...'), 'edit', { id: TREE_COMMANDS.editConnection, args: [cid] })] : []),
          this.hint(node, 'retry', l10n.t('Retry'), 'refresh', { id: TREE_COMMANDS.retry, args: [node] }),
          this.hint(node, 'logs', l10n.t('Show Logs'), 'output', { id: TREE_COMMANDS.showLogs, args: [] }),
        ];
      default:
        return [];
    }
  }

  private async loadRoot(conn: TreeConnection, signal: AbortSignal): Promise<TreeNode[]> {
    const cid = conn.profile.id;
    this.o.onRootLoad?.(cid);
    const added = new Set(this.o.remembered.datasets(cid));
    const hidden = new Set(this.o.remembered.hidden(cid));
    const metrics = new Set(this.o.metricsDatasets());
    const nodes: TreeNode[] = [];
    this.discoveryTriggers = undefined;
    const listing = await this.listDatasets(conn, signal);
    const listed = new Map(listing.kind === 'listed' ? listing.datasets.map((d) => [d.slug, d]) : []);
    let discovered = new Set<string>();
    if (listing.kind !== 'listed') {
      // Today's way where the list is not to be had: the datasets environment-wide triggers name.
      const found = await this.discover(conn, signal);
      discovered = found.slugs;
      // The list and the spec's call both refused the key: it is wrong, and adding datasets by slug would not help.
      const wrongKey = listing.kind === 'refused' && listing.status === 401 && found.error?.status === 401;
      if (listing.kind === 'refused' && !wrongKey) nodes.push(this.notListedHint(listing.status));
      const error = wrongKey ? keyRefusedNode(conn.profile) : listing.kind === 'failed' ? listing.error : found.error;
      if (error !== undefined) nodes.unshift(error);
    }
    const dataset = (slug: string): DatasetNode => {
      const d = listed.get(slug);
      return { kind: 'dataset', connectionId: cid, slug, added: added.has(slug), discovered: discovered.has(slug), metrics: metrics.has(slug), ...(d ? { listed: listedDataset(d) } : {}) };
    };
    if (!hidden.has(ENVIRONMENT_WIDE)) nodes.push(dataset(ENVIRONMENT_WIDE));
    const all = new Set([...listed.keys(), ...added, ...discovered]);
    const slugs = [...all].filter((s) => s !== ENVIRONMENT_WIDE && !hidden.has(s)).sort();
    nodes.push(...slugs.map(dataset));
    if (slugs.length === 0) {
      nodes.push(this.hint(undefined, 'add', l10n.t('Add Dataset...'), 'add', { id: TREE_COMMANDS.addDataset, args: [] }));
    }
    const hiddenCount = [...hidden].filter((s) => s === ENVIRONMENT_WIDE || all.has(s)).length;
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

  /** The connection's dataset list (read once until Refresh); a failure becomes an error node, not a broken root. */
  private async listDatasets(conn: TreeConnection, signal: AbortSignal): Promise<DatasetsOutcome | { kind: 'failed'; error: ErrorNode }> {
    const read = () => this.listing.datasets(conn.profile.id, conn.api, async () => (await this.o.limiter.run((s) => conn.api.listDatasets({ signal: s }), signal)).data);
    try {
      try {
        return await read();
      } catch (err) {
        // The list being read was the call of an earlier load, cancelled by a refresh: read it again.
        if (isCancellation(err) && !signal.aborted) return await read();
        throw err;
      }
    } catch (err) {
      return { kind: 'failed', error: this.rootFailure(conn, signal, err, l10n.t('list the datasets')) };
    }
  }

  /** The datasets named by environment-wide triggers (kept for the Environment-wide Triggers group). */
  private async discover(conn: TreeConnection, signal: AbortSignal): Promise<{ slugs: Set<string>; error?: ErrorNode }> {
    const slugs = new Set<string>();
    try {
      const res = await this.o.limiter.run((s) => conn.api.listTriggers(ENVIRONMENT_WIDE, { signal: s }), signal);
      this.discoveryTriggers = res.data;
      for (const t of res.data) {
        const slug = t.dataset_slug;
        if (slug && slug !== ENVIRONMENT_WIDE_TRIGGER_SLUG && slug !== ENVIRONMENT_WIDE) slugs.add(slug);
      }
      return { slugs };
    } catch (err) {
      return { slugs, error: this.rootFailure(conn, signal, err, l10n.t('discover datasets from environment-wide triggers')) };
    }
  }

  /** A failure at the root as an error node (logged); a cancellation or a stale connection ends the load. */
  private rootFailure(conn: TreeConnection, signal: AbortSignal, err: unknown, operation: string): ErrorNode {
    if (signal.aborted) throw err;
    if (isStale(conn)) throw new StaleConnectionError(conn.profile.id);
    const failure = this.describe(operation, err, false);
    this.o.onFailure?.(failure, err);
    return { kind: 'error', parentId: nodeId(undefined), ...failure };
  }

  /** Said once at the top of the root: the service does not list datasets for this key, and what to do. */
  private notListedHint(status: number): ActionNode {
    const label = l10n.t('Datasets are not listed: {0}. Add them by slug.', refusalReason(status));
    return this.hint(undefined, 'notListed', label, 'info', { id: TREE_COMMANDS.addDataset, args: [] });
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
      case 'burnAlerts':
        return this.loadSlos(conn, node, signal);
    }
  }

  /**
   * The SLOs of a dataset: those the service lists (one GET /1/slos/<dataset>), by name, with those the user
   * added by id. Where SLOs are not listed, it says so once and falls back to the ids the user added. An SLO
   * the user added loads its alerts with the group (its count adds to the group's); a listed SLO loads them
   * when it is opened, so a dataset of hundreds of SLOs costs one call until then.
   */
  private async loadSlos(conn: TreeConnection, node: GroupNode, signal: AbortSignal): Promise<TreeNode[]> {
    const { connectionId: cid, dataset } = node;
    const added = this.o.remembered.slos(cid, dataset);
    const addSlo = (label: string): ActionNode => this.hint(node, 'addSlo', label, 'add', { id: TREE_COMMANDS.addSlo, args: [node] });
    const head: TreeNode[] = [];
    let listed: SloNode[] = [];
    try {
      const outcome = await this.listing.slos(cid, conn.api, dataset, nodeId(node), async () => (await this.o.limiter.run((s) => conn.api.listSlos(dataset, { signal: s }), signal)).data);
      if (outcome.kind === 'listed') {
        listed = outcome.slos.map((slo) => ({ kind: 'slo', connectionId: cid, dataset, sloId: slo.id, slo: listedSlo(slo), added: added.includes(slo.id) }));
      } else if (outcome.say) {
        const label = outcome.wide
          ? l10n.t('SLOs are not listed: {0}. Add them by id.', refusalReason(outcome.status))
          : l10n.t('The service lists no SLOs of {0}: it may not know the dataset. Add them by id.', dataset);
        head.push({ ...addSlo(label), icon: 'info' });
      }
    } catch (err) {
      if (signal.aborted || isStale(conn)) throw err;
      head.push(this.failureNode(node, this.describeFailure(node, err, false)));
    }
    const ids = new Set(listed.map((n) => n.sloId));
    const byHand = added.filter((id) => !ids.has(id)).map((sloId): SloNode => ({ kind: 'slo', connectionId: cid, dataset, sloId, added: true }));
    const slos = [...listed, ...byHand].sort((a, b) => sloSortKey(a).localeCompare(sloSortKey(b)) || a.sloId.localeCompare(b.sloId));
    if (slos.length === 0 && head.length === 0) return [addSlo(l10n.t('Add SLO...'))];
    // The SLOs added by id count their alerts with the group, as before SLOs were listed.
    await Promise.all(byHand.map((n) => this.loadChildren(n)));
    return [...head, ...slos];
  }

  /** How many items a group or SLO holds, as far as known: loaded now, or the last count before a refresh. */
  itemCount(node: TreeNode): number | undefined {
    if (node.kind === 'group' && node.group === 'burnAlerts') return this.burnAlertCount(node);
    if (node.kind !== 'group' && node.kind !== 'slo') return undefined;
    return this.knownCounts.get(nodeId(node));
  }

  /** Burn alerts under all of a dataset's SLOs; known once every SLO's alerts were counted. */
  private burnAlertCount(group: GroupNode): number | undefined {
    const children = this.cachedChildren(group);
    if (children === undefined) return undefined;
    let total = 0;
    for (const slo of children) {
      if (slo.kind !== 'slo') continue;
      const n = this.knownCounts.get(nodeId(slo));
      if (n === undefined) return undefined;
      total += n;
    }
    return total;
  }

  /** How many SLOs a Burn alerts group holds, once loaded (its description while its alerts are not all counted). */
  sloCount(node: TreeNode): number | undefined {
    if (node.kind !== 'group' || node.group !== 'burnAlerts') return undefined;
    return this.cachedChildren(node)?.filter((n) => n.kind === 'slo').length;
  }

  /** An SLO added by id reloads with its Burn alerts group: the group's count adds up those SLOs' alerts. */
  protected override refreshTargetOf(node: TreeNode): TreeNode {
    if (node.kind !== 'slo' || node.slo !== undefined) return node;
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
    // A dataset loads its groups' lists with it; the listed SLOs' alerts are loaded here, for the filter.
    const groups = await Promise.all(roots.filter((n) => n.kind === 'dataset').map((ds) => this.loadChildren(ds)));
    const slos = await Promise.all(groups.flat().filter((g) => g.kind === 'group' && g.group === 'burnAlerts').map((g) => this.loadChildren(g)));
    await Promise.all(slos.flat().filter((n) => n.kind === 'slo').map((n) => this.loadChildren(n)));
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
    return { operation, message: errorText(err), cancelled: false, status: asServiceError(err)?.status };
  }

  protected namesOf(node: TreeNode): string[] {
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

/** SLOs sort by name; one the service did not name (or that is known only by id) by its id. */
function sloSortKey(n: SloNode): string {
  return n.slo?.name ?? n.sloId;
}

function isStale(conn: TreeConnection): boolean {
  return conn.isCurrent !== undefined && !conn.isCurrent();
}

/** What loading the children of a node does, in words, for error nodes and logs. */
function operationFor(node: TreeNode | undefined): string {
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
