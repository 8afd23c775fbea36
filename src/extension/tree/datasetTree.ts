// The Datasets tree as plain data: which nodes exist and how their children load. No vscode import.
import type { Trigger } from '../../api/schemas';
import { ENVIRONMENT_WIDE } from '../../api/schemas/slugs';
import { AccountListing, listedSlo } from './accountListing';
import { refusalReason } from '../core/listingRefusal';
import { GROUP_KINDS, nodeId, type ActionNode, type GroupNode, type SloNode, type TreeNode } from './nodes';
import { CachedTreeModel, type LoadFailure } from './cachedTree';
import { isConnectionGone, StaleConnectionError } from '../core/errors';
import { hint, loadFailure, namesOf, operationFor, sloSortKey, TREE_COMMANDS } from './nodeWords';
import { RootLoader } from './rootLoading';
import { isStale, type DatasetTreeOptions, type TreeApi, type TreeConnection } from './treeSources';
import * as l10n from '@vscode/l10n';

export class DatasetTreeModel extends CachedTreeModel<TreeNode> {
  /**
   * The last known number of items under a group or SLO, by node id. Kept across refresh, so a count
   * stays in sight while its list loads again; ids carry the connection, so connections never mix.
   */
  private readonly knownCounts = new Map<string, number>();
  private currentConnectionId: string | undefined;
  /** The dataset lists and SLO refusals read, per connection, until Refresh (reloadAccount). */
  private readonly listing = new AccountListing();
  /** The root's datasets, and the environment-wide triggers read to discover them. */
  private readonly root: RootLoader;

  constructor(private readonly o: DatasetTreeOptions) {
    super();
    this.root = new RootLoader(o, this.listing);
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
    const outcome = await this.listing.datasets(
      connectionId,
      api,
      async () => (await this.o.limiter.run((s) => api.listDatasets({ signal: s }))).data,
    );
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
    if (node === undefined) {
      this.o.onRootLoad?.(cid);
      return this.root.load(conn, signal);
    }
    switch (node.kind) {
      case 'dataset': {
        const groups = GROUP_KINDS.map(
          (group): GroupNode => ({ kind: 'group', connectionId: cid, dataset: node.slug, group }),
        );
        // The groups' lists load with the dataset (through the limiter), so each group is drawn with its
        // count and never redrawn for it (see cachedTree.ts). A failure shows when the group is opened.
        await Promise.all(groups.map((g) => this.loadChildren(g)));
        return groups;
      }
      case 'group':
        return this.loadGroup(conn, node, signal);
      case 'slo': {
        const res = await this.o.limiter.run(
          (s) => conn.api.listBurnAlerts(node.dataset, node.sloId, { signal: s }),
          signal,
        );
        const alerts = [...res.data].sort((a, b) => a.id.localeCompare(b.id));
        if (alerts.length === 0) return [hint(node, 'empty', l10n.t('No burn alerts for this SLO'))];
        return alerts.map((alert) => ({
          kind: 'burnAlert',
          connectionId: cid,
          dataset: node.dataset,
          sloId: node.sloId,
          alert,
        }));
      }
      case 'apiKeys': {
        const keys = this.o.keys.list(cid).sort((a, b) => a.name.localeCompare(b.name));
        if (keys.length === 0) {
          return [
            hint(node, 'create', l10n.t('Create API Key...'), 'add', { id: TREE_COMMANDS.createApiKey, args: [node] }),
          ];
        }
        return keys.map((key) => ({ kind: 'apiKey', connectionId: cid, key }));
      }
      case 'error':
        return [
          // The service does not know the key (401): the connection's key is to be put right, not the item.
          ...(node.status === 401
            ? [
                hint(node, 'edit', l10n.t('Edit Connection...'), 'edit', {
                  id: TREE_COMMANDS.editConnection,
                  args: [cid],
                }),
              ]
            : []),
          hint(node, 'retry', l10n.t('Retry'), 'refresh', { id: TREE_COMMANDS.retry, args: [node] }),
          hint(node, 'logs', l10n.t('Show Logs'), 'output', { id: TREE_COMMANDS.showLogs, args: [] }),
        ];
      default:
        return [];
    }
  }

  private async loadGroup(conn: TreeConnection, node: GroupNode, signal: AbortSignal): Promise<TreeNode[]> {
    const cid = conn.profile.id;
    const dataset = node.dataset;
    switch (node.group) {
      case 'columns': {
        const res = await this.o.limiter.run((s) => conn.api.listColumns(dataset, { signal: s }), signal);
        if (res.data.length === 0) return [hint(node, 'empty', l10n.t('No columns'))];
        const columns = [...res.data].sort((a, b) => (a.key_name < b.key_name ? -1 : a.key_name > b.key_name ? 1 : 0));
        return columns.map((column) => ({ kind: 'column', connectionId: cid, dataset, column }));
      }
      case 'triggers': {
        const discovered = dataset === ENVIRONMENT_WIDE ? this.root.takeDiscoveryTriggers() : undefined;
        const triggers: Trigger[] =
          discovered ?? (await this.o.limiter.run((s) => conn.api.listTriggers(dataset, { signal: s }), signal)).data;
        if (triggers.length === 0) return [hint(node, 'empty', l10n.t('No triggers'))];
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
    const addSlo = (label: string): ActionNode =>
      hint(node, 'addSlo', label, 'add', { id: TREE_COMMANDS.addSlo, args: [node] });
    const head: TreeNode[] = [];
    let listed: SloNode[] = [];
    try {
      const outcome = await this.listing.slos(
        cid,
        conn.api,
        dataset,
        nodeId(node),
        async () => (await this.o.limiter.run((s) => conn.api.listSlos(dataset, { signal: s }), signal)).data,
      );
      if (outcome.kind === 'listed') {
        listed = outcome.slos.map((slo) => ({
          kind: 'slo',
          connectionId: cid,
          dataset,
          sloId: slo.id,
          slo: listedSlo(slo),
          added: added.includes(slo.id),
        }));
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
    const byHand = added
      .filter((id) => !ids.has(id))
      .map((sloId): SloNode => ({ kind: 'slo', connectionId: cid, dataset, sloId, added: true }));
    const slos = [...listed, ...byHand].sort(
      (a, b) => sloSortKey(a).localeCompare(sloSortKey(b)) || a.sloId.localeCompare(b.sloId),
    );
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
    const group: GroupNode = {
      kind: 'group',
      connectionId: node.connectionId,
      dataset: node.dataset,
      group: 'burnAlerts',
    };
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
    const slos = await Promise.all(
      groups
        .flat()
        .filter((g) => g.kind === 'group' && g.group === 'burnAlerts')
        .map((g) => this.loadChildren(g)),
    );
    await Promise.all(
      slos
        .flat()
        .filter((n) => n.kind === 'slo')
        .map((n) => this.loadChildren(n)),
    );
  }

  protected failureNode(parent: TreeNode | undefined, failure: LoadFailure): TreeNode {
    return { kind: 'error', parentId: nodeId(parent), ...failure };
  }

  protected describeFailure(parent: TreeNode | undefined, err: unknown, cancelled: boolean): LoadFailure {
    const failure = loadFailure(operationFor(parent), err, cancelled);
    if (!failure.cancelled) this.o.onFailure?.(failure, err);
    return failure;
  }

  protected namesOf(node: TreeNode): string[] {
    return namesOf(node);
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
}
