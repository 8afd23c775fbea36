// The columns of the active connection's datasets, for the linter's column checks in the editor.
// Cached per connection and dataset; a dataset a document names is read in the background the first
// time (and again once its columns are older than `maxAgeMs`); while it is read, or when it cannot be
// (offline, no such dataset), its columns are simply not checked, never reported wrongly. Columns that
// arrive close together are announced together, naming the datasets whose columns changed, so that only
// the files naming them are linted again, once per batch. No vscode import.
import type { DatasetColumns } from '../../lint';
import { Batch, type BatchClock } from '../core/batch';
import { Emitter } from '../core/memento';

export interface LiveColumnsOptions {
  /** The active connection's id, or undefined when there is none. */
  connection: () => string | undefined;
  /** Reads a dataset's columns; 'missing' when the service does not know the dataset. */
  fetch: (connectionId: string, dataset: string) => Promise<DatasetColumns | 'missing'>;
  /** Columns older than this are read again in the background (the old ones are used meanwhile). */
  maxAgeMs?: number;
  /** After a failed read, how long before the dataset is asked for again. */
  retryMs?: number;
  now?: () => number;
  /** Columns arriving within this many milliseconds of the first are announced together (default 100). */
  batchMs?: number;
  clock?: BatchClock;
  log?: (message: string) => void;
}

interface Entry {
  columns?: DatasetColumns;
  /** When the columns were read, or when the last read failed. */
  at: number;
  failed?: boolean;
  pending?: Promise<void>;
}

/** What changed: the active connection's columns of these datasets, or everything (another connection). */
export type ColumnsChange = ReadonlySet<string> | 'all';

export class LiveColumns {
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly changed = new Emitter<ColumnsChange>();
  /** Fires when columns arrived or changed (the files naming those datasets are linted again), or with 'all'. */
  readonly onDidChange = this.changed.event;
  private readonly now: () => number;
  private readonly arrived: Batch<string, true>;
  /** Bumped when any columns change: the record `known` hands out stays the same object until then. */
  private revision = 0;
  private knownMade: { id: string; revision: number; record: Record<string, DatasetColumns> } | undefined;

  constructor(private readonly o: LiveColumnsOptions) {
    this.now = o.now ?? Date.now;
    this.arrived = new Batch((datasets) => this.changed.fire(new Set(datasets.keys())), {
      windowMs: o.batchMs ?? 100,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
    });
  }

  /**
   * The columns known of the active connection's datasets, by slug: the same object until they change, so
   * that the lint worker is sent a dataset's columns once per change (lintColumns.ts), not once per file.
   */
  known(): Readonly<Record<string, DatasetColumns>> {
    const id = this.o.connection();
    if (id === undefined) return {};
    const made = this.knownMade;
    if (made?.id === id && made.revision === this.revision) return made.record;
    const record: Record<string, DatasetColumns> = {};
    for (const [dataset, e] of this.entries.get(id) ?? []) if (e.columns !== undefined) record[dataset] = e.columns;
    this.knownMade = { id, revision: this.revision, record };
    return record;
  }

  /** Datasets a document names: those not read yet (or stale) are read in the background. */
  want(datasets: readonly string[]): void {
    const id = this.o.connection();
    if (id === undefined) return;
    let forConnection = this.entries.get(id);
    if (forConnection === undefined) this.entries.set(id, (forConnection = new Map()));
    const now = this.now();
    for (const dataset of new Set(datasets)) {
      const e = forConnection.get(dataset);
      if (e?.pending !== undefined) continue;
      if (e !== undefined && !e.failed && now - e.at < (this.o.maxAgeMs ?? 5 * 60_000)) continue;
      if (e?.failed === true && now - e.at < (this.o.retryMs ?? 60_000)) continue;
      this.read(id, dataset, forConnection);
    }
  }

  /** Another connection became active: documents are linted again with its columns (or none). */
  connectionChanged(): void {
    this.arrived.clear();
    this.changed.fire('all');
  }

  /** Forgets a connection's columns (it was removed, or its keys changed). */
  forget(connectionId: string): void {
    this.entries.delete(connectionId);
    this.revision++;
  }

  dispose(): void {
    this.arrived.clear();
    this.changed.dispose();
  }

  private read(id: string, dataset: string, forConnection: Map<string, Entry>): void {
    const entry: Entry = forConnection.get(dataset) ?? { at: 0 };
    forConnection.set(dataset, entry);
    entry.pending = this.o.fetch(id, dataset).then(
      (got) => {
        entry.pending = undefined;
        entry.at = this.now();
        entry.failed = false;
        const next = got === 'missing' ? undefined : got;
        const same = JSON.stringify(next) === JSON.stringify(entry.columns);
        // The same columns keep their object: a job's columns are sent to the worker once per change.
        if (same) return;
        entry.columns = next;
        this.revision++;
        // Another connection's columns change nothing the linter checks now.
        if (this.o.connection() === id) this.arrived.add(dataset, true);
      },
      (err: unknown) => {
        // Offline or refused: the columns stay as they were (or unknown), and are asked for again later.
        entry.pending = undefined;
        entry.at = this.now();
        entry.failed = true;
        this.o.log?.(`could not read the columns of ${dataset}: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }
}
