// Reading the service's triggers for a pull or a drift check: one list call per dataset, through a
// paced pool (pool.ts). A dataset the service does not know (404) and a failed list are recorded,
// not thrown: the other datasets go on. No vscode import.
import { isServiceNotFound } from '../api/errors';
import { ENVIRONMENT_WIDE } from '../api/schemas/slugs';
import { canonicalDatasetSlug } from './normalize';
import { PullCancelled, type PacedPool } from './pool';
import type { DatasetListing, ServiceTrigger } from './drift';
import { datasetOf } from './drift';

/** The one call this needs (the client's ServiceClient satisfies it). */
export interface TriggerLister {
  listTriggers(
    dataset: string,
    o?: { signal?: AbortSignal },
  ): Promise<{ data: ServiceTrigger[]; rateLimit?: { remaining: number; resetSeconds: number } }>;
}

const isAborted = (err: unknown, signal?: AbortSignal) =>
  signal?.aborted === true ||
  err instanceof PullCancelled ||
  (typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'aborted');

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The path segment that lists a dataset's triggers: `__all__` for the environment-wide `all`. */
export function listingSegment(dataset: string): string {
  return canonicalDatasetSlug(dataset) === canonicalDatasetSlug(ENVIRONMENT_WIDE) ? ENVIRONMENT_WIDE : dataset;
}

/**
 * What a failed listing means: a 404 of the service is a dataset it does not have; a 404 whose body is none of
 * the service's (a web page, nothing) says the address is not the service's, which is trouble, never a finding.
 */
function listingFailure(err: unknown): DatasetListing {
  if (isServiceNotFound(err)) return { state: 'missing' };
  if ((err as { status?: unknown }).status !== 404) return { state: 'failed', message: describe(err) };
  const message =
    'the address does not answer like the service ' +
    "(it has no such page, and says so in words that are not the service's): " +
    "check that it is the address of the service's API";
  return { state: 'failed', message };
}

/**
 * Lists the triggers of each dataset (slugs as given; `all` and `__all__` list environment-wide). Resolves
 * with every dataset's listing, keyed by the dataset as given; rejects only when `signal` aborts.
 */
export async function listDatasets(
  api: TriggerLister,
  datasets: readonly string[],
  pool: PacedPool,
  signal?: AbortSignal,
  onListed?: (dataset: string, listing: DatasetListing) => void,
): Promise<Map<string, DatasetListing>> {
  const out = new Map<string, DatasetListing>();
  await Promise.all(
    [...new Set(datasets)].map(async (dataset) => {
      let listing: DatasetListing;
      try {
        const res = await pool.run((s) => api.listTriggers(listingSegment(dataset), { signal: s }), signal);
        listing = { state: 'listed', triggers: res.data };
      } catch (err) {
        if (isAborted(err, signal)) throw new PullCancelled();
        listing = listingFailure(err);
      }
      out.set(dataset, listing);
      onListed?.(dataset, listing);
    }),
  );
  if (signal?.aborted === true) throw new PullCancelled();
  return out;
}

/** A trigger to pull, filed under its dataset (canonical slug). */
export interface PullItem {
  dataset: string;
  trigger: ServiceTrigger;
}

export interface Collected {
  items: PullItem[];
  /** Datasets whose triggers could not be read, and why. */
  failures: { dataset: string; message: string }[];
}

/**
 * The triggers a pull writes: those of `datasets`, and with `everything` those listed environment-wide
 * (`__all__`) and of every dataset that list names. Each trigger once (by id), sorted by dataset and name.
 */
export async function collectTriggers(
  api: TriggerLister,
  scope: { datasets: readonly string[]; everything?: boolean },
  pool: PacedPool,
  signal?: AbortSignal,
  onListed?: (dataset: string, listing: DatasetListing) => void,
): Promise<Collected> {
  const byId = new Map<string, PullItem>();
  const failures: Collected['failures'] = [];
  const take = (requested: string, listing: DatasetListing) => {
    if (listing.state === 'listed') {
      for (const t of listing.triggers) byId.set(t.id, { dataset: datasetOf(t, requested), trigger: t });
    } else {
      const shown = requested === ENVIRONMENT_WIDE ? 'environment-wide' : requested;
      failures.push({
        dataset: shown,
        message: listing.state === 'missing' ? `the service has no dataset ${shown}` : listing.message,
      });
    }
  };
  const wanted = new Set(scope.datasets.map((d) => listingSegment(d)));
  if (scope.everything === true) {
    const all = await listDatasets(api, [ENVIRONMENT_WIDE], pool, signal, onListed);
    const listing = all.get(ENVIRONMENT_WIDE);
    if (listing !== undefined) take(ENVIRONMENT_WIDE, listing);
    wanted.delete(ENVIRONMENT_WIDE);
  }
  const rest = await listDatasets(api, [...wanted], pool, signal, onListed);
  for (const [dataset, listing] of rest) take(dataset, listing);
  const items = [...byId.values()].sort(
    (a, b) =>
      a.dataset.localeCompare(b.dataset) ||
      a.trigger.name.localeCompare(b.trigger.name) ||
      a.trigger.id.localeCompare(b.trigger.id),
  );
  failures.sort((a, b) => a.dataset.localeCompare(b.dataset));
  return { items, failures };
}
