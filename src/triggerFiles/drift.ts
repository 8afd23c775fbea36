// Drift: each local trigger file against the service's trigger of the same id (or, without an id, of
// the same dataset and name). Work is linear: the service's lists are indexed once, each local trigger
// is one lookup and one comparison. No vscode import.
import { compareTriggers, type Difference } from './compare';
import { nestingProblem } from './depth';
import type { LocalFile, LocalTrigger } from './localFiles';
import { canonicalDatasetSlug } from './normalize';
import { refusalsAgainst, uncomparedReason } from './recipientRefs';

/** A trigger as the service lists it (the client's Trigger satisfies it). */
export interface ServiceTrigger {
  id: string;
  name: string;
  dataset_slug?: string | undefined;
  [member: string]: unknown;
}

type DriftStatus = 'in-sync' | 'differs' | 'local-only' | 'service-only' | 'unknown';

export interface TriggerDrift {
  status: Exclude<DriftStatus, 'service-only'>;
  /** Place in a file holding an array; -1 for a file of one trigger. */
  index: number;
  name?: string;
  dataset?: string;
  /** The service's trigger it was compared with. */
  service?: ServiceTrigger;
  differences: Difference[];
  /** Why it is local-only or unknown, in words; for one that differs, which member could not be compared. */
  reason?: string;
  /**
   * Local-only, and a trigger not created yet: the file names no id and its dataset has no trigger of
   * its name. Not drift to warn of (nobody changed anything on either side), unlike a file whose id the
   * service lost or whose dataset it does not have.
   */
  draft?: true;
}

export interface FileDrift {
  file: string;
  /** The file's status: unknown, else differs, else local-only, else in-sync (the first that any trigger has). */
  status: Exclude<DriftStatus, 'service-only'>;
  triggers: TriggerDrift[];
  /** Why the file could not be compared at all (not JSON, no trigger). */
  reason?: string;
}

/** What is known of one dataset's triggers on the service. */
export type DatasetListing =
  | { state: 'listed'; triggers: readonly ServiceTrigger[] }
  /** The service does not know the dataset (404). */
  | { state: 'missing' }
  | { state: 'failed'; message: string };

const key = (dataset: string, name: string) => `${dataset}\u0000${name}`;

/** The service's triggers of the datasets listed, indexed by id and by dataset and name. */
export class ServiceIndex {
  private readonly byId = new Map<string, ServiceTrigger>();
  private readonly byName = new Map<string, ServiceTrigger[]>();
  /** Dataset, name and id of each trigger in byName: a trigger listed twice is filed once, in one lookup. */
  private readonly filed = new Set<string>();
  private readonly datasets = new Map<string, DatasetListing>();

  /** `dataset` as requested (`__all__` or a slug); triggers are filed under their own dataset_slug. */
  add(dataset: string, listing: DatasetListing): void {
    const requested = canonicalDatasetSlug(dataset);
    this.datasets.set(requested, listing);
    if (listing.state !== 'listed') return;
    for (const t of listing.triggers) {
      this.byId.set(t.id, t);
      const ds = datasetOf(t, requested);
      const k = key(ds, t.name);
      const entry = `${k}\u0000${t.id}`;
      if (this.filed.has(entry)) continue;
      this.filed.add(entry);
      const same = this.byName.get(k);
      if (same === undefined) this.byName.set(k, [t]);
      else same.push(t);
    }
  }

  listing(dataset: string): DatasetListing | undefined {
    return this.datasets.get(canonicalDatasetSlug(dataset));
  }

  /** The datasets listed (canonical slugs). */
  listedDatasets(): string[] {
    return [...this.datasets.entries()].filter(([, l]) => l.state === 'listed').map(([d]) => d);
  }

  get(id: string): ServiceTrigger | undefined {
    return this.byId.get(id);
  }

  named(dataset: string, name: string): readonly ServiceTrigger[] {
    return this.byName.get(key(canonicalDatasetSlug(dataset), name)) ?? [];
  }

  /** Every trigger of the given datasets (canonical slugs), each once. */
  triggersOf(datasets: ReadonlySet<string>): ServiceTrigger[] {
    const out = new Map<string, ServiceTrigger>();
    for (const [requested, listing] of this.datasets) {
      if (listing.state !== 'listed') continue;
      for (const t of listing.triggers) if (datasets.has(datasetOf(t, requested))) out.set(t.id, t);
    }
    return [...out.values()];
  }
}

/** The dataset a listed trigger belongs to: its dataset_slug, else the dataset it was listed for. */
export function datasetOf(t: { dataset_slug?: string | undefined }, requested: string): string {
  return canonicalDatasetSlug(typeof t.dataset_slug === 'string' && t.dataset_slug !== '' ? t.dataset_slug : requested);
}

const quoted = (s: string) => JSON.stringify(s);

/**
 * Why a trigger's recipients cannot be compared: it names one by type and target that the team's list does not
 * resolve, or the list was not read. Undefined when they can be (resolved, or named by id).
 */
/** Why a file's trigger's recipients cannot be compared with the service's: references that stand refused. */
export const recipientsUncompared = (t: LocalTrigger, service: ServiceTrigger | undefined): string | undefined =>
  uncomparedReason(refusalsAgainst(t.resolution?.refusals ?? [], service?.recipients, true));

/** The differences of a file's trigger and the service's, those of recipients it cannot compare left out. */
function compared(
  local: LocalTrigger,
  service: ServiceTrigger,
): Pick<TriggerDrift, 'status' | 'differences' | 'reason'> {
  const all = compareTriggers(local.value, service);
  const uncompared = recipientsUncompared(local, service);
  const differences = uncompared === undefined ? all : all.filter((d) => d.member !== 'recipients');
  if (differences.length < all.length)
    return differences.length === 0
      ? { status: 'unknown', differences, reason: uncompared }
      : { status: 'differs', differences, reason: uncompared };
  return { status: differences.length === 0 ? 'in-sync' : 'differs', differences };
}

function triggerDrift(local: LocalTrigger, index: ServiceIndex): TriggerDrift {
  const base = { index: local.index, name: local.name, dataset: local.dataset, differences: [] as Difference[] };
  // A file's trigger nested too deep is not compared, nor taken for only local: named with the reason.
  const localTooDeep = nestingProblem(local.value, "the file's trigger");
  const compareWith = (service: ServiceTrigger): TriggerDrift => {
    // Matched but not comparable: named with the reason, so the rest of the files are still compared.
    const tooDeep = localTooDeep ?? nestingProblem(service, "the service's trigger");
    if (tooDeep !== undefined) return { ...base, status: 'unknown', service, reason: tooDeep };
    return { ...base, service, ...compared(local, service) };
  };
  if (local.id !== undefined) {
    const found = index.get(local.id);
    if (found !== undefined) return compareWith(found);
  }
  if (localTooDeep !== undefined) return { ...base, status: 'unknown', reason: localTooDeep };
  if (local.dataset === undefined) {
    return {
      ...base,
      status: 'unknown',
      reason: 'the file names no dataset_slug, so its trigger cannot be looked up on the service',
    };
  }
  const listing = index.listing(local.dataset);
  if (listing === undefined)
    return { ...base, status: 'unknown', reason: `the triggers of ${local.dataset} were not read from the service` };
  if (listing.state === 'failed')
    return {
      ...base,
      status: 'unknown',
      reason: `the triggers of ${local.dataset} could not be read: ${listing.message}`,
    };
  if (listing.state === 'missing')
    return { ...base, status: 'local-only', reason: `the service has no dataset ${local.dataset}` };
  if (local.id !== undefined)
    return {
      ...base,
      status: 'local-only',
      reason: `the service has no trigger with id ${local.id} in ${local.dataset}`,
    };
  if (local.name === undefined)
    return { ...base, status: 'unknown', reason: 'the trigger has neither an id nor a name to find it by' };
  const named = index.named(local.dataset, local.name);
  if (named.length === 1 && named[0] !== undefined) return compareWith(named[0]);
  if (named.length > 1) {
    // At most 10 ids: a dataset may hold thousands of triggers of one name, and every such file says this.
    const ids =
      named
        .slice(0, 10)
        .map((t) => t.id)
        .join(', ') + (named.length > 10 ? ` and ${named.length - 10} more` : '');
    return {
      ...base,
      status: 'unknown',
      reason: `${named.length} triggers of ${local.dataset} are named ${quoted(local.name)}; give the file the id of one (${ids})`,
    };
  }
  return {
    ...base,
    status: 'local-only',
    draft: true,
    reason: `the service has no trigger named ${quoted(local.name)} in ${local.dataset}`,
  };
}

const RANK: Record<TriggerDrift['status'], number> = { unknown: 3, differs: 2, 'local-only': 1, 'in-sync': 0 };

/** A file's status: the first of unknown, differs, local-only and in-sync that any of its triggers has. */
export function fileStatus(triggers: readonly TriggerDrift[]): FileDrift['status'] {
  let status: FileDrift['status'] = 'in-sync';
  for (const t of triggers) if (RANK[t.status] > RANK[status]) status = t.status;
  return status;
}

/** The drift of one read file against the index. */
export function driftOfFile(file: string, read: LocalFile, index: ServiceIndex): FileDrift {
  if (!read.ok) return { file, status: 'unknown', triggers: [], reason: read.reason };
  const triggers = read.triggers.map((t) => triggerDrift(t, index));
  if (triggers.length === 0) return { file, status: 'unknown', triggers, reason: 'the file holds no trigger' };
  return { file, status: fileStatus(triggers), triggers };
}

/**
 * The service's triggers no file matched, in the datasets the files are about (a dataset with no local
 * file is not kept as code there), sorted by dataset and name.
 */
export function onlyOnService(
  files: readonly FileDrift[],
  index: ServiceIndex,
  datasets?: ReadonlySet<string>,
): ServiceTrigger[] {
  const matched = new Set<string>();
  const scope = new Set<string>(datasets ?? []);
  for (const f of files) {
    for (const t of f.triggers) {
      if (t.service !== undefined) matched.add(t.service.id);
      if (datasets === undefined && t.dataset !== undefined) scope.add(t.dataset);
    }
  }
  const listed = new Set(index.listedDatasets());
  const inScope = new Set([...scope].filter((d) => listed.has(d)));
  return index
    .triggersOf(inScope)
    .filter((t) => !matched.has(t.id))
    .sort(
      (a, b) =>
        datasetOf(a, '').localeCompare(datasetOf(b, '')) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    );
}

/** The datasets (canonical slugs) the read files name: the lists a drift check needs. */
export function datasetsOfFiles(files: Iterable<LocalFile>): Set<string> {
  const out = new Set<string>();
  for (const f of files) if (f.ok) for (const t of f.triggers) if (t.dataset !== undefined) out.add(t.dataset);
  return out;
}

export interface DriftCounts {
  inSync: number;
  differs: number;
  localOnly: number;
  serviceOnly: number;
  unknown: number;
}

/** Counts of triggers by status (a file of several triggers counts each). */
export function driftCounts(files: readonly FileDrift[], serviceOnly: readonly ServiceTrigger[]): DriftCounts {
  const c: DriftCounts = { inSync: 0, differs: 0, localOnly: 0, serviceOnly: serviceOnly.length, unknown: 0 };
  for (const f of files) {
    if (f.triggers.length === 0) c.unknown++;
    for (const t of f.triggers) {
      if (t.status === 'in-sync') c.inSync++;
      else if (t.status === 'differs') c.differs++;
      else if (t.status === 'local-only') c.localOnly++;
      else c.unknown++;
    }
  }
  return c;
}
