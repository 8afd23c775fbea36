// What the drift model (driftModel.ts) keeps of one connection's service: the trigger lists read, by dataset,
// and their index, and the burn alert and definitions reads (KeptSloReads). Each list is read once and kept
// until a refresh or a write drops them; a failed list is not kept, so the next check asks again. No vscode
// import.
import * as l10n from '@vscode/l10n';
import {
  listDatasets,
  PacedPool,
  ServiceIndex,
  KeptSloReads,
  readTriggerFile,
  type DatasetListing,
  type LocalFile,
  type RecipientLister,
  type SloReads,
  type TriggerLister,
} from '../../triggerFiles';
import type { AwayEnvironment } from '../core/workspaceEnvironments';
import { fileAsSeenBy } from '../../triggerFiles/environmentPlan';
import { DriftTeam } from './driftTeam';

export interface DriftConnection {
  id: string;
  name: string;
  /**
   * The service's reads drift makes: trigger lists, the reads a plan makes of burn alerts and definitions, and
   * the team's recipients (for files naming one by type and target).
   */
  api: TriggerLister & SloReads & RecipientLister;
  /**
   * Where the team's recipients are listed when not by `api`: the account's one listing per connection, which
   * the tree, the linter and the hover share, so drift does not list them a second time.
   */
  team?: RecipientLister;
  /**
   * The environment other than the home one that this connection is for a file (docs/ENVIRONMENTS.md): the file
   * is compared as that environment sees it, matched by name (its ids are the home's). Undefined: as it is.
   */
  environmentOf?: (uri: string) => AwayEnvironment | undefined;
}

/** A trigger file's text as drift compares it on a connection: as the connection's environment sees it, if any. */
export function triggerFileOn(connection: DriftConnection, uri: string, text: string): LocalFile {
  const env = connection.environmentOf?.(uri);
  return env === undefined ? readTriggerFile(text) : fileAsSeenBy(text, env).file;
}

const canonical = (d: string): string => (d === '__all__' ? 'all' : d);

export class ConnectionCache {
  /** Lists read, by canonical dataset slug. A failed list is not kept: the next check asks again. */
  private readonly listings = new Map<string, DatasetListing>();
  /** Lists being read. */
  private readonly pending = new Map<string, Promise<void>>();
  private index: ServiceIndex | undefined;
  /** Counts forget(): a list read that began before a forget may hold what a write since changed, so is not kept. */
  private epoch = 0;
  /** The burn alert and definitions reads made for this connection. */
  slo: KeptSloReads;
  /** The team's recipients, for files naming one by type and target. */
  readonly team: DriftTeam;

  constructor(
    public connection: DriftConnection,
    log?: (message: string) => void,
  ) {
    this.slo = new KeptSloReads(connection.api);
    this.team = new DriftTeam(connection.team ?? connection.api, log);
  }

  /** Everything read is dropped: the next comparison reads the service again. */
  forget(): void {
    this.epoch++;
    this.pending.clear();
    this.listings.clear();
    this.index = undefined;
    this.team.forget();
    this.forgetSlo();
  }

  /** The burn alert and definitions reads are dropped; the trigger lists are kept. */
  forgetSlo(): void {
    this.slo = new KeptSloReads(this.connection.api);
  }

  /** A list read elsewhere (by a pull), used instead of reading it again. */
  accept(dataset: string, listing: DatasetListing): void {
    this.listings.set(canonical(dataset), listing);
    this.index = undefined;
  }

  /**
   * Reads the lists of the datasets not read yet (or being read), at most `concurrency` at once. Lists forgotten
   * while they were read are read again before this returns.
   */
  async ensureListings(datasets: readonly string[], concurrency: number, log?: (m: string) => void): Promise<void> {
    const wanted = [...new Set(datasets.map(canonical))];
    for (;;) {
      const epoch = this.epoch;
      this.startListings(wanted, epoch, concurrency, log);
      await Promise.all(wanted.map((d) => this.pending.get(d)).filter((p) => p !== undefined));
      if (epoch === this.epoch) return;
    }
  }

  private startListings(
    wanted: readonly string[],
    epoch: number,
    concurrency: number,
    log?: (m: string) => void,
  ): void {
    const missing = wanted.filter((d) => !this.listings.has(d) && !this.pending.has(d));
    if (missing.length > 0) {
      const pool = new PacedPool({ concurrency: Math.max(1, concurrency) });
      const all = listDatasets(this.connection.api, missing, pool).then(
        (got) => {
          if (epoch !== this.epoch) return;
          for (const d of missing) {
            const listing = got.get(d) ?? { state: 'failed' as const, message: l10n.t('not listed') };
            if (listing.state === 'failed') log?.(`drift: could not list the triggers of ${d}: ${listing.message}`);
            this.listings.set(d, listing);
            this.pending.delete(d);
          }
          this.index = undefined;
        },
        (err: unknown) => {
          if (epoch === this.epoch) for (const d of missing) this.pending.delete(d);
          throw err;
        },
      );
      for (const d of missing) this.pending.set(d, all);
    }
  }

  /** The index of the lists; a failed list is dropped once indexed, so the next check asks again. */
  indexOf(): ServiceIndex {
    if (this.index !== undefined) return this.index;
    const index = new ServiceIndex();
    for (const [dataset, listing] of this.listings) index.add(dataset, listing);
    for (const [dataset, listing] of [...this.listings]) if (listing.state === 'failed') this.listings.delete(dataset);
    this.index = index;
    return index;
  }
}
