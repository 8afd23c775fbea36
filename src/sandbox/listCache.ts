// Serialised answers of the list endpoints, kept per state version: a list of 10,000 columns is built
// and serialised once, then sent as the same bytes until the data changes. The server bumps the
// version on every write it carries out (and on reset); a change made by code holding `handle.state`
// is noticed when it replaces or resizes a list the answer came from (`sources`, compared by identity).
import type { Reply } from './responses';

interface Entry {
  version: number;
  sources: readonly unknown[];
  reply: Reply;
}

/** Answers kept at most: one per dataset and list, for the datasets in use. */
const MAX_ENTRIES = 64;

export class ListCache {
  private version = 0;
  private readonly entries = new Map<string, Entry>();
  /** Answers made and answers reused (tests count them). */
  readonly stats = { made: 0, reused: 0 };

  /** The data changed: no answer kept so far is current. */
  invalidate(): void {
    this.version++;
    this.entries.clear();
  }

  /** The answer for `key`, made by `make` once per version while `sources` stay the same. Only 200s are kept. */
  reply(key: string, sources: readonly unknown[], make: () => Reply): Reply {
    const hit = this.entries.get(key);
    if (hit !== undefined && hit.version === this.version && hit.sources.length === sources.length && hit.sources.every((s, i) => s === sources[i])) {
      this.stats.reused++;
      return hit.reply;
    }
    this.stats.made++;
    const made = make();
    if (made.status !== 200) return made;
    const reply: Reply = { ...made, bytes: Buffer.from(made.body, 'utf8') };
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { version: this.version, sources, reply });
    return reply;
  }
}
