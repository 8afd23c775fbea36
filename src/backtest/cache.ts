// Query results kept for a session: a trigger test run again after an edit elsewhere reuses the series of
// the same query over the same window at the same step instead of creating a new result (the service
// creates 10 a minute). The key is the dataset and the saved query's canonical JSON, which holds the
// window (start_time, end_time) and the step (granularity). No vscode import.
import type { QueryResultData } from '../api/schemas';

/** JSON with every object's members in sorted order, so equal specs give equal keys whatever their order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

export type CachedData = QueryResultData | null | undefined;

/**
 * Results by key, the oldest dropped beyond `maxEntries`. A fetch in flight is shared by whoever asks for the
 * same key meanwhile; one that fails is forgotten, so the next run asks again.
 */
export class ResultCache {
  private readonly entries = new Map<string, Promise<CachedData>>();

  constructor(private readonly maxEntries = 256) {}

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
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.entries.delete(oldest.value);
    }
    return pending;
  }

  clear(): void {
    this.entries.clear();
  }
}
