// Serialised answers of the list endpoints, kept per kind of list and dataset: a list of 10,000 columns
// is built and serialised once, then sent as the same bytes until that list changes. A write drops only
// the lists it changes (its route says which kinds, for the dataset of its path; the environment-wide
// list of that kind holds them too), so a write to one dataset keeps every other dataset's lists. A
// change made by code holding `handle.state` is noticed when it replaces or resizes a list the answer
// came from (`sources`, compared by identity).
import type { Reply } from './responses';
import { ENVIRONMENT_WIDE } from './spec';

export type ListKind = 'columns' | 'triggers';

interface Entry {
  sources: readonly unknown[];
  reply: Reply;
  size: number;
}

/** Bytes of answers kept at most: the sandbox runs in the editor's memory. */
const DEFAULT_BUDGET = 32 * 1024 * 1024;

const keyOf = (kind: ListKind, scope: string): string => `${kind}\u0000${scope}`;

function sameSources(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

export class ListCache {
  /** In order of last use, least recent first. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly budget: number = DEFAULT_BUDGET) {}

  /**
   * The list of `kind` for `scope` (a dataset slug or `__all__`), made by `make` once while `sources`
   * stay the same and no write changed it. Only 200s are kept.
   */
  reply(kind: ListKind, scope: string, sources: readonly unknown[], make: () => Reply): Reply {
    const key = keyOf(kind, scope);
    const hit = this.entries.get(key);
    if (hit !== undefined && sameSources(hit.sources, sources)) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.reply;
    }
    this.drop(key);
    const made = make();
    if (made.status !== 200) return made;
    const bytes = Buffer.from(made.body, 'utf8');
    const reply: Reply = { ...made, bytes };
    if (bytes.length > this.budget) return reply;
    while (this.bytes + bytes.length > this.budget) this.dropOldest();
    this.entries.set(key, { sources, reply, size: bytes.length });
    this.bytes += bytes.length;
    return reply;
  }

  /** The list of `kind` for dataset `scope` changed, and so did the environment-wide one. */
  changed(kind: ListKind, scope: string): void {
    this.drop(keyOf(kind, scope));
    this.drop(keyOf(kind, ENVIRONMENT_WIDE));
  }

  /** Any list may have changed (a reset, data replaced). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  private dropOldest(): void {
    const oldest = this.entries.keys().next();
    if (oldest.done === true) return;
    this.drop(oldest.value);
  }
}
