// The root of the Datasets tree: the connection's datasets as the service lists them, with those the user
// added or hid, and, where the list is not to be had, those environment-wide triggers name. No vscode import.
import * as l10n from '@vscode/l10n';
import type { Trigger } from '../../api/schemas';
import { ENVIRONMENT_WIDE, ENVIRONMENT_WIDE_TRIGGER_SLUG } from '../../api/schemas/slugs';
import { isCancellation, StaleConnectionError } from '../core/errors';
import { refusalReason } from '../core/listingRefusal';
import { keyRefusedNode, listedDataset, type AccountListing, type DatasetsOutcome } from './accountListing';
import { hint, loadFailure, TREE_COMMANDS } from './nodeWords';
import { nodeId, type ActionNode, type DatasetNode, type ErrorNode, type TreeNode } from './nodes';
import { isStale, type DatasetTreeOptions, type TreeConnection } from './treeSources';

type RootSources = Pick<DatasetTreeOptions, 'remembered' | 'metricsDatasets' | 'limiter' | 'onFailure'>;

export class RootLoader {
  /** Environment-wide triggers fetched for discovery, reused once by the Environment-wide Triggers group. */
  private discoveryTriggers: Trigger[] | undefined;

  /** `listing`: the dataset lists read per connection, shared with the model (which forgets them on Refresh). */
  constructor(
    private readonly o: RootSources,
    private readonly listing: AccountListing,
  ) {}

  /** The environment-wide triggers the last root load read for discovery, handed out once. */
  takeDiscoveryTriggers(): Trigger[] | undefined {
    const triggers = this.discoveryTriggers;
    this.discoveryTriggers = undefined;
    return triggers;
  }

  async load(conn: TreeConnection, signal: AbortSignal): Promise<TreeNode[]> {
    const cid = conn.profile.id;
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
      if (listing.kind === 'refused' && !wrongKey) nodes.push(notListedHint(listing.status));
      const error = wrongKey ? keyRefusedNode(conn.profile) : listing.kind === 'failed' ? listing.error : found.error;
      if (error !== undefined) nodes.unshift(error);
    }
    const dataset = (slug: string): DatasetNode => {
      const d = listed.get(slug);
      return {
        kind: 'dataset',
        connectionId: cid,
        slug,
        added: added.has(slug),
        discovered: discovered.has(slug),
        metrics: metrics.has(slug),
        ...(d ? { listed: listedDataset(d) } : {}),
      };
    };
    if (!hidden.has(ENVIRONMENT_WIDE)) nodes.push(dataset(ENVIRONMENT_WIDE));
    const all = new Set([...listed.keys(), ...added, ...discovered]);
    const slugs = [...all].filter((s) => s !== ENVIRONMENT_WIDE && !hidden.has(s)).sort();
    nodes.push(...slugs.map(dataset));
    if (slugs.length === 0) {
      nodes.push(hint(undefined, 'add', l10n.t('Add Dataset...'), 'add', { id: TREE_COMMANDS.addDataset, args: [] }));
    }
    const hiddenCount = [...hidden].filter((s) => s === ENVIRONMENT_WIDE || all.has(s)).length;
    if (hiddenCount > 0) {
      nodes.push(
        hint(
          undefined,
          'hidden',
          hiddenCount === 1 ? l10n.t('1 hidden dataset (show)') : l10n.t('{0} hidden datasets (show)', hiddenCount),
          'eye',
          {
            id: TREE_COMMANDS.unhideDatasets,
            args: [],
          },
        ),
      );
    }
    nodes.push({ kind: 'apiKeys', connectionId: cid });
    return nodes;
  }

  /** The connection's dataset list (read once until Refresh); a failure becomes an error node, not a broken root. */
  private async listDatasets(
    conn: TreeConnection,
    signal: AbortSignal,
  ): Promise<DatasetsOutcome | { kind: 'failed'; error: ErrorNode }> {
    const read = () =>
      this.listing.datasets(
        conn.profile.id,
        conn.api,
        async () => (await this.o.limiter.run((s) => conn.api.listDatasets({ signal: s }), signal)).data,
      );
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
  private async discover(
    conn: TreeConnection,
    signal: AbortSignal,
  ): Promise<{ slugs: Set<string>; error?: ErrorNode }> {
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
      return {
        slugs,
        error: this.rootFailure(conn, signal, err, l10n.t('discover datasets from environment-wide triggers')),
      };
    }
  }

  /** A failure at the root as an error node (logged); a cancellation or a stale connection ends the load. */
  private rootFailure(conn: TreeConnection, signal: AbortSignal, err: unknown, operation: string): ErrorNode {
    if (signal.aborted) throw err;
    if (isStale(conn)) throw new StaleConnectionError(conn.profile.id);
    const failure = loadFailure(operation, err, false);
    this.o.onFailure?.(failure, err);
    return { kind: 'error', parentId: nodeId(undefined), ...failure };
  }
}

/** Said once at the top of the root: the service does not list datasets for this key, and what to do. */
function notListedHint(status: number): ActionNode {
  const label = l10n.t('Datasets are not listed: {0}. Add them by slug.', refusalReason(status));
  return hint(undefined, 'notListed', label, 'info', { id: TREE_COMMANDS.addDataset, args: [] });
}
