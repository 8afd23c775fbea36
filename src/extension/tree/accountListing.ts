// What the tree read of the account, per connection: the dataset list (one GET /1/datasets per connection,
// kept until Refresh), whether the SLO list is refused, and the row for a key the service does not know. Kept
// with the client it was read with, so a connection whose keys or settings changed (a new client) is read again.
// No vscode import.
import * as l10n from '@vscode/l10n';
import type { Dataset, Slo } from '../../api/schemas';
import { ENVIRONMENT_WIDE } from '../../api/schemas/slugs';
import { connectionLabel, type ConnectionProfile } from '../connections';
import { listingRefusal } from '../core/listingRefusal';
import { nodeId, type ErrorNode, type ListedDataset, type ListedSlo } from './nodes';

export type DatasetsOutcome = { kind: 'listed'; datasets: Dataset[] } | { kind: 'refused'; status: number };

export type SlosOutcome =
  | { kind: 'listed'; slos: Slo[] }
  /**
   * `wide`: refused for the whole connection (else: for this dataset, which the service does not know);
   * `say`: this group is the one that tells the user (a wide refusal is said once per connection).
   */
  | { kind: 'refused'; status: number; wide: boolean; say: boolean };

interface ConnectionListing {
  api: object;
  datasets?: Promise<DatasetsOutcome>;
  /** The datasets listed, once the list is in. */
  listed?: ReadonlyMap<string, Dataset>;
  /** The SLO list's refusal for the whole connection, and the group that says so. */
  slosRefused?: { status: number; saidIn: string };
}

export class AccountListing {
  private readonly byConnection = new Map<string, ConnectionListing>();

  /** The connection's dataset list: read once (a refusal is kept too); a failure is thrown and not kept. */
  datasets(connectionId: string, api: object, list: () => Promise<Dataset[]>): Promise<DatasetsOutcome> {
    const entry = this.entry(connectionId, api);
    if (entry.datasets === undefined) {
      const pending = list().then(
        (datasets): DatasetsOutcome => {
          entry.listed = new Map(datasets.map((d) => [d.slug, d]));
          return { kind: 'listed', datasets };
        },
        (err: unknown): DatasetsOutcome => {
          const status = listingRefusal(err);
          if (status === undefined) throw err;
          return { kind: 'refused', status };
        },
      );
      entry.datasets = pending;
      // A failure (not a refusal) is asked again on the next load.
      pending.catch(() => {
        if (entry.datasets === pending) entry.datasets = undefined;
      });
    }
    return entry.datasets;
  }

  /** The slugs of the datasets the connection's list holds, once it is in. */
  listedSlugs(connectionId: string): string[] {
    return [...(this.byConnection.get(connectionId)?.listed?.keys() ?? [])];
  }

  /**
   * A dataset's SLOs (`__all__`: the environment's). A refusal for the whole connection is kept, and the
   * SLOs of the other datasets are not asked for again; a 404 for a dataset the service did not list means
   * that dataset is unknown, not that SLOs are never listed.
   */
  async slos(
    connectionId: string,
    api: object,
    dataset: string,
    groupId: string,
    list: () => Promise<Slo[]>,
  ): Promise<SlosOutcome> {
    const entry = this.entry(connectionId, api);
    const known = entry.slosRefused;
    if (known !== undefined)
      return { kind: 'refused', status: known.status, wide: true, say: known.saidIn === groupId };
    try {
      return { kind: 'listed', slos: await list() };
    } catch (err) {
      const status = listingRefusal(err);
      if (status === undefined) throw err;
      const wide = status !== 404 || dataset === ENVIRONMENT_WIDE || entry.listed?.has(dataset) === true;
      if (wide && entry.slosRefused === undefined) entry.slosRefused = { status, saidIn: groupId };
      return { kind: 'refused', status, wide, say: !wide || entry.slosRefused?.saidIn === groupId };
    }
  }

  /** Forgets everything read (Refresh): the next load reads the lists again. */
  forget(): void {
    this.byConnection.clear();
  }

  private entry(connectionId: string, api: object): ConnectionListing {
    let entry = this.byConnection.get(connectionId);
    if (entry === undefined || entry.api !== api) {
      entry = { api };
      this.byConnection.set(connectionId, entry);
    }
    return entry;
  }
}

/** A listed dataset as its node keeps it (nothing the tree does not show). */
export function listedDataset(d: Dataset): ListedDataset {
  const out: ListedDataset = {};
  if (d.name !== undefined) out.name = d.name;
  if (d.description !== undefined) out.description = d.description;
  if (d.last_written_at !== undefined) out.lastWrittenAt = d.last_written_at;
  if (d.regular_columns_count !== undefined) out.columns = d.regular_columns_count;
  if (d.created_at !== undefined) out.createdAt = d.created_at;
  if (d.settings?.delete_protected !== undefined) out.deleteProtected = d.settings.delete_protected;
  return out;
}

/** A listed SLO as its node keeps it. */
export function listedSlo(s: Slo): ListedSlo {
  const out: ListedSlo = {};
  if (s.name !== undefined) out.name = s.name;
  if (s.description !== undefined) out.description = s.description;
  if (s.target_per_million !== undefined) out.targetPerMillion = s.target_per_million;
  if (s.time_period_days !== undefined) out.periodDays = s.time_period_days;
  if (s.sli?.alias !== undefined) out.sli = s.sli.alias;
  if (s.dataset_slugs !== undefined) out.datasets = [...s.dataset_slugs];
  return out;
}

/**
 * The root's one row where the dataset list and the spec's call (the environment-wide triggers) both answer 401:
 * the service does not know the connection's configuration key, and adding datasets by slug would not help.
 */
export function keyRefusedNode(profile: ConnectionProfile): ErrorNode {
  const operation = l10n.t('use the configuration key of "{0}"', connectionLabel(profile.name));
  const message = l10n.t('the service does not know it: it is mistyped, revoked, or a key of another account');
  return { kind: 'error', parentId: nodeId(undefined), operation, message, cancelled: false, status: 401 };
}
