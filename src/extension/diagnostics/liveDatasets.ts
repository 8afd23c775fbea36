// The datasets the active connection's service has (GET /1/datasets), for the linter's dataset check in
// the editor (`trigger/unknown-dataset`). Read in the background the first time a linted file names a
// dataset, kept per connection and read again once older than `maxAgeMs`. While it is read, or when it
// cannot be (offline, or a key or service that does not list datasets: 401, 403, 404, 405), no dataset is
// checked: a dataset is never reported missing from a list nobody has seen. No vscode import.
import { Emitter } from '../core/memento';

export interface LiveDatasetsOptions {
  /** The active connection's id, or undefined when there is none. */
  connection: () => string | undefined;
  /** The slugs of the connection's datasets; 'refused' when the service does not list them for this key. */
  fetch: (connectionId: string) => Promise<readonly string[] | 'refused'>;
  /** A list older than this is read again in the background (the old one is used meanwhile). */
  maxAgeMs?: number;
  /** After a failed or refused read, how long before the list is asked for again. */
  retryMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

interface Entry {
  slugs?: readonly string[];
  at: number;
  failed?: boolean;
  pending?: Promise<void>;
}

export class LiveDatasets {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<void>();
  /** Fires when the active connection's list arrived or changed: every trigger file is checked again. */
  readonly onDidChange = this.changed.event;
  private readonly now: () => number;

  constructor(private readonly o: LiveDatasetsOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The active connection's dataset slugs, when they are known. */
  known(): readonly string[] | undefined {
    const id = this.o.connection();
    return id === undefined ? undefined : this.entries.get(id)?.slugs;
  }

  /** A linted file names a dataset: the list is read if it is not known yet, or stale. */
  want(): void {
    const id = this.o.connection();
    if (id === undefined) return;
    const e = this.entries.get(id);
    const now = this.now();
    if (e?.pending !== undefined) return;
    if (e !== undefined && !e.failed && now - e.at < (this.o.maxAgeMs ?? 5 * 60_000)) return;
    if (e?.failed === true && now - e.at < (this.o.retryMs ?? 60_000)) return;
    this.read(id);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private read(id: string): void {
    const entry: Entry = this.entries.get(id) ?? { at: 0 };
    this.entries.set(id, entry);
    entry.pending = this.o.fetch(id).then(
      (got) => {
        entry.pending = undefined;
        entry.at = this.now();
        entry.failed = got === 'refused';
        const next = got === 'refused' ? undefined : [...got].sort();
        const same = JSON.stringify(next) === JSON.stringify(entry.slugs);
        entry.slugs = next;
        if (got === 'refused')
          this.o.log?.('the service does not list its datasets for this key: trigger datasets are not checked');
        if (!same && this.o.connection() === id) this.changed.fire();
      },
      (err: unknown) => {
        // Offline: the list stays as it was (or unknown), and is asked for again later.
        entry.pending = undefined;
        entry.at = this.now();
        entry.failed = true;
        this.o.log?.(`could not list the datasets: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }
}
