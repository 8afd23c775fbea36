// Query results kept for a session: a preview, a trigger test or a noise report run again after an edit
// elsewhere reuses the series of the same query over the same window at the same step instead of creating a
// new result (the service creates 10 a minute). The key is the dataset and the saved query's canonical JSON,
// which holds the query, the window (start_time, end_time) and the step (granularity): a result is reused
// only where it answers the same question. No vscode import.
import type { QueryResultData } from '../api/schemas';

/** JSON with every object's members in sorted order, so equal specs give equal keys whatever their order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

export type CachedData = QueryResultData | null | undefined;

/** Where a fetch finds the results of the session: the cache itself, or a run over it. */
export interface ResultStore {
  has(key: string): boolean;
  getOrFetch(key: string, fetch: () => Promise<CachedData>): Promise<CachedData>;
}

/** Results kept at least, whatever the runs: a preview's, a few test files'. */
export const MIN_ENTRIES = 256;

/**
 * Results by key, the least recently used dropped when there are more than the room. The room is sized to
 * the runs (a test run, a noise report, a preview, each in `inRun`): no result a run still open has used is
 * dropped, and once it ends the room holds as many results as it used and the least kept besides, so the same
 * run again (a second noise report over 200 triggers: 600 results), after a preview or two, creates none. A
 * fixed cap made a run larger than it drop its own first results before it came round to them again. A fetch in flight is shared by whoever asks for the
 * same key meanwhile; one that fails is forgotten, so the next run asks again.
 */
export class ResultCache implements ResultStore {
  private readonly entries = new Map<string, Promise<CachedData>>();
  /** The keys each open run has used. */
  private readonly open = new Set<Set<string>>();
  private room: number;

  constructor(private readonly minEntries = MIN_ENTRIES) {
    this.room = minEntries;
  }

  static keyOf(dataset: string, query: unknown): string {
    return `${dataset}\u0000${canonicalJson(query)}`;
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  getOrFetch(key: string, fetch: () => Promise<CachedData>): Promise<CachedData> {
    const known = this.entries.get(key);
    if (known) {
      // Used again: it moves to the newest end.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const pending = fetch();
    this.entries.set(key, pending);
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    this.trim();
    return pending;
  }

  /** Runs `work` as one run over the cache: what it uses stays until it ends, and the room grows to hold it. */
  async inRun<T>(work: (store: ResultStore) => Promise<T>): Promise<T> {
    const used = new Set<string>();
    this.open.add(used);
    const store: ResultStore = {
      has: (key) => this.has(key),
      getOrFetch: (key, fetch) => {
        used.add(key);
        return this.getOrFetch(key, fetch);
      },
    };
    try {
      return await work(store);
    } finally {
      this.open.delete(used);
      // Room for the largest run and as many others: a preview between two reports drops none of the first's.
      this.room = Math.max(this.room, this.minEntries + used.size);
    }
  }

  /** Drops the least recently used results beyond the room, never one an open run has used. */
  private trim(): void {
    // Oldest first; deleting while iterating a Map is safe.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.room) return;
      if (![...this.open].some((used) => used.has(key))) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
