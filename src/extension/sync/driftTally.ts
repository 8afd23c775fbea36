// What the drift views read of all files together (the counts, the drafts, the service's triggers no file
// holds, which files hold a service trigger), kept up to date file by file: a file compared again takes its
// old entries out and puts its new ones in, so a batch of file events costs what its files hold, however many
// other files the workspace has. No vscode import.
import {
  datasetOf,
  differingMembers,
  type DriftCounts,
  type FileDrift,
  type ServiceIndex,
  type ServiceTrigger,
} from '../../triggerFiles';
import { byUri } from './driftSnapshot';
import type { TriggerFileState } from './treeDrift';

type Tally = Omit<DriftCounts, 'serviceOnly'>;

const add = <K>(map: Map<K, number>, key: K, by: number): number => {
  const n = (map.get(key) ?? 0) + by;
  if (n === 0) map.delete(key);
  else map.set(key, n);
  return n;
};

/** The order of the Drift view's service-only rows: dataset, name, id. */
const byDatasetAndName = (a: ServiceTrigger, b: ServiceTrigger): number =>
  datasetOf(a, '').localeCompare(datasetOf(b, '')) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

export class DriftTally {
  private readonly counts: Tally = { inSync: 0, differs: 0, localOnly: 0, unknown: 0 };
  private drafts = 0;
  /** File triggers naming each dataset: a dataset named by none has no service-only triggers. */
  private readonly named = new Map<string, number>();
  /** The files holding each service trigger (by id), with how many of their triggers match it. */
  private readonly holders = new Map<string, Map<string, number>>();
  /** The service's triggers by their dataset, and each one's dataset: from the index, once per index. */
  private readonly byDataset = new Map<string, ServiceTrigger[]>();
  private readonly datasetOfId = new Map<string, string>();
  private listed = new Set<string>();
  /** The service's triggers of a named, listed dataset that no file holds. */
  private readonly only = new Map<string, ServiceTrigger>();
  private sortedOnly: ServiceTrigger[] | undefined;

  /** Starts over with another index of the service's triggers (the files are added again by the caller). */
  reset(index: ServiceIndex | undefined): void {
    Object.assign(this.counts, { inSync: 0, differs: 0, localOnly: 0, unknown: 0 });
    this.drafts = 0;
    this.named.clear();
    this.holders.clear();
    this.byDataset.clear();
    this.datasetOfId.clear();
    this.only.clear();
    this.sortedOnly = undefined;
    this.listed = new Set(index?.listedDatasets() ?? []);
    for (const requested of this.listed) {
      const listing = index?.listing(requested);
      if (listing?.state !== 'listed') continue;
      for (const t of listing.triggers) {
        if (this.datasetOfId.has(t.id)) continue;
        const dataset = datasetOf(t, requested);
        this.datasetOfId.set(t.id, dataset);
        const same = this.byDataset.get(dataset);
        if (same === undefined) this.byDataset.set(dataset, [t]);
        else same.push(t);
      }
    }
  }

  /** A file's drift enters the tally (`by` 1) or leaves it (`by` -1). */
  update(file: FileDrift, by: 1 | -1): void {
    if (file.triggers.length === 0) this.counts.unknown += by;
    for (const t of file.triggers) {
      if (t.status === 'in-sync') this.counts.inSync += by;
      else if (t.status === 'differs') this.counts.differs += by;
      else if (t.status === 'local-only') this.counts.localOnly += by;
      else this.counts.unknown += by;
      if (t.status === 'local-only' && t.draft === true) this.drafts += by;
      if (t.dataset !== undefined) this.name(t.dataset, by);
      if (t.service !== undefined) this.hold(t.service, file.file, by);
    }
  }

  countsNow(): DriftCounts {
    return { ...this.counts, serviceOnly: this.only.size };
  }

  draftsNow(): number {
    return this.drafts;
  }

  /** The service's triggers no file holds, in the Drift view's order (sorted when asked after a change). */
  onlyOnService(): ServiceTrigger[] {
    this.sortedOnly ??= [...this.only.values()].sort(byDatasetAndName);
    return this.sortedOnly;
  }

  /**
   * What the Datasets tree shows of a service trigger: the first file in order that differs from it, else the
   * last in sync with it, else only on the service (or nothing: its dataset was not compared).
   */
  stateOf(
    id: string,
    driftOf: (uri: string) => FileDrift | undefined,
    relativePath: (uri: string) => string,
  ): TriggerFileState | undefined {
    let inSync: string | undefined;
    let differs: { file: string; members: readonly string[] } | undefined;
    for (const uri of this.holders.get(id)?.keys() ?? []) {
      for (const t of driftOf(uri)?.triggers ?? []) {
        if (t.service?.id !== id) continue;
        if (t.status === 'differs' && (differs === undefined || byUri(uri, differs.file) < 0))
          differs = { file: uri, members: differingMembers(t.differences) };
        if (t.status === 'in-sync' && (inSync === undefined || byUri(uri, inSync) > 0)) inSync = uri;
      }
    }
    if (differs !== undefined) return { kind: 'differs', file: relativePath(differs.file), members: differs.members };
    if (inSync !== undefined) return { kind: 'in-sync', file: relativePath(inSync) };
    return this.only.has(id) ? { kind: 'service-only' } : undefined;
  }

  private name(dataset: string, by: 1 | -1): void {
    const n = add(this.named, dataset, by);
    const entered = by === 1 && n === 1;
    if (!(entered || n === 0) || !this.listed.has(dataset)) return;
    for (const t of this.byDataset.get(dataset) ?? []) {
      if (entered && !this.holders.has(t.id)) this.only.set(t.id, t);
      else if (!entered) this.only.delete(t.id);
    }
    this.sortedOnly = undefined;
  }

  private hold(service: ServiceTrigger, file: string, by: 1 | -1): void {
    let files = this.holders.get(service.id);
    if (files === undefined) this.holders.set(service.id, (files = new Map()));
    add(files, file, by);
    if (files.size > 0) {
      if (this.only.delete(service.id)) this.sortedOnly = undefined;
      return;
    }
    this.holders.delete(service.id);
    const dataset = this.datasetOfId.get(service.id);
    if (dataset !== undefined && this.named.has(dataset) && this.listed.has(dataset)) {
      this.only.set(service.id, service);
      this.sortedOnly = undefined;
    }
  }
}
