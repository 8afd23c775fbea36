// The drift of the workspace's trigger files against the active connection, as plain data. The
// service's lists are cached per connection and dataset: a save compares only the saved file against
// the cached lists; a connection change compares every file against that connection's lists (read
// once, then kept); a refresh reads the lists again. No vscode import.
import * as l10n from '@vscode/l10n';
import {
  datasetsOfFiles,
  driftCounts,
  driftOfFile,
  listDatasets,
  onlyOnService,
  PacedPool,
  readTriggerFile,
  ServiceIndex,
  type DatasetListing,
  type DriftCounts,
  type FileDrift,
  type LocalFile,
  type ServiceTrigger,
  type TriggerLister,
} from '../../triggerFiles';
import { Emitter } from '../core/memento';

export interface DriftConnection {
  id: string;
  name: string;
  api: TriggerLister;
}

export interface DriftWorkspace {
  /** Every trigger file of the workspace (uri strings). */
  list(): Promise<string[]>;
  /** A file's saved text; undefined when it is gone. */
  read(uri: string): Promise<string | undefined>;
}

export interface DriftModelOptions {
  workspace: DriftWorkspace;
  /** The active connection, or undefined when there is none. */
  connection: () => Promise<DriftConnection | undefined>;
  concurrency: () => number;
  log?: (message: string) => void;
}

export type DriftState =
  | { kind: 'no-connection' }
  | { kind: 'loading'; connection: string }
  | { kind: 'ready'; connection: string }
  | { kind: 'failed'; connection: string; message: string };

export interface DriftSnapshot {
  state: DriftState;
  files: FileDrift[];
  onlyOnService: ServiceTrigger[];
  counts: DriftCounts;
}

interface ConnectionCache {
  connection: DriftConnection;
  /** Lists read, by canonical dataset slug. A failed list is not kept: the next check asks again. */
  listings: Map<string, DatasetListing>;
  /** Lists being read. */
  pending: Map<string, Promise<void>>;
  index?: ServiceIndex;
}

/** Files read at once by a full comparison. */
const READ_BATCH = 32;
const canonical = (d: string): string => (d === '__all__' ? 'all' : d);
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class DriftModel {
  private readonly changed = new Emitter<readonly string[] | 'all'>();
  /** Fires with the files whose drift changed, or 'all'. */
  readonly onDidChange = this.changed.event;
  private readonly caches = new Map<string, ConnectionCache>();
  private active: ConnectionCache | undefined;
  private state: DriftState = { kind: 'no-connection' };
  private readonly read = new Map<string, LocalFile>();
  private readonly drift = new Map<string, FileDrift>();
  /** Bumped by every full comparison: a late result of an older one is dropped. */
  private generation = 0;
  private readonly fileGeneration = new Map<string, number>();
  private disposed = false;
  /** List calls made (tests count them). */
  readonly stats = { lists: 0 };

  constructor(private readonly o: DriftModelOptions) {}

  snapshot(): DriftSnapshot {
    const files = [...this.drift.values()].sort((a, b) => a.file.localeCompare(b.file));
    const index = this.active?.index;
    const only = index === undefined || this.state.kind !== 'ready' ? [] : onlyOnService(files, index);
    return { state: this.state, files, onlyOnService: only, counts: driftCounts(files, only) };
  }

  getState(): DriftState {
    return this.state;
  }

  /** A file's drift, once the comparison is done. */
  fileDrift(uri: string): FileDrift | undefined {
    return this.state.kind === 'ready' ? this.drift.get(uri) : undefined;
  }

  connectionName(): string | undefined {
    return this.state.kind === 'no-connection' ? undefined : this.state.connection;
  }

  connectionId(): string | undefined {
    return this.active?.connection.id;
  }

  /**
   * Compares every trigger file again: with `refetch`, the active connection's lists are read again
   * from the service; otherwise cached lists are used (a connection change, a new file).
   */
  async refresh(refetch: boolean): Promise<void> {
    const generation = ++this.generation;
    let conn: DriftConnection | undefined;
    try {
      conn = await this.o.connection();
    } catch (err) {
      this.o.log?.(`drift: no connection (${message(err)})`);
      conn = undefined;
    }
    if (generation !== this.generation || this.disposed) return;
    if (conn === undefined) {
      this.active = undefined;
      this.state = { kind: 'no-connection' };
      this.drift.clear();
      this.changed.fire('all');
      return;
    }
    let cache = this.caches.get(conn.id);
    // A new client (keys or settings changed) may see another service: its lists are read again.
    if (cache === undefined || cache.connection.api !== conn.api) {
      cache = { connection: conn, listings: new Map(), pending: new Map() };
      this.caches.set(conn.id, cache);
    }
    cache.connection = conn;
    if (refetch) {
      cache.listings.clear();
      cache.index = undefined;
    }
    this.active = cache;
    this.state = { kind: 'loading', connection: conn.name };
    this.changed.fire('all');
    try {
      const uris = await this.o.workspace.list();
      const read = new Map<string, LocalFile>();
      // Files are read a few at a time: thousands of sequential reads would add up to seconds.
      for (let i = 0; i < uris.length; i += READ_BATCH) {
        const batch = uris.slice(i, i + READ_BATCH);
        const texts = await Promise.all(batch.map((uri) => this.o.workspace.read(uri)));
        batch.forEach((uri, j) => {
          const text = texts[j];
          if (text !== undefined) read.set(uri, readTriggerFile(text));
        });
      }
      if (generation !== this.generation || this.disposed) return;
      await this.ensureListings(cache, [...datasetsOfFiles(read.values())]);
      if (generation !== this.generation || this.disposed) return;
      const index = this.indexOf(cache);
      this.read.clear();
      this.drift.clear();
      for (const [uri, file] of read) {
        this.read.set(uri, file);
        this.drift.set(uri, driftOfFile(uri, file, index));
      }
      this.state = { kind: 'ready', connection: conn.name };
    } catch (err) {
      if (generation !== this.generation || this.disposed) return;
      this.o.log?.(`drift: comparing with ${conn.name} failed: ${message(err)}`);
      this.state = { kind: 'failed', connection: conn.name, message: message(err) };
    }
    this.changed.fire('all');
  }

  /** A trigger file was saved (or created, or changed on disk): compares it alone. */
  async fileChanged(uri: string, text?: string): Promise<void> {
    const cache = this.active;
    if (cache === undefined || this.state.kind !== 'ready') return;
    const mine = (this.fileGeneration.get(uri) ?? 0) + 1;
    this.fileGeneration.set(uri, mine);
    const generation = this.generation;
    const body = text ?? (await this.o.workspace.read(uri));
    if (body === undefined) {
      this.fileDeleted(uri);
      return;
    }
    const file = readTriggerFile(body);
    await this.ensureListings(cache, [...datasetsOfFiles([file])]);
    if (generation !== this.generation || this.fileGeneration.get(uri) !== mine || this.active !== cache || this.disposed) return;
    this.read.set(uri, file);
    this.drift.set(uri, driftOfFile(uri, file, this.indexOf(cache)));
    this.changed.fire([uri]);
  }

  fileDeleted(uri: string): void {
    this.read.delete(uri);
    if (this.drift.delete(uri)) this.changed.fire([uri]);
  }

  /**
   * Lists read elsewhere (by a pull) for a connection: drift uses them instead of reading them again,
   * and the files already read are compared with them.
   */
  accept(connectionId: string, dataset: string, listing: DatasetListing): void {
    const cache = this.caches.get(connectionId);
    if (cache === undefined || listing.state === 'failed') return;
    cache.listings.set(canonical(dataset), listing);
    cache.index = undefined;
  }

  /** Triggers were written to a connection: its cached lists are dropped, so the next comparison reads them again. */
  forgetLists(connectionId: string): void {
    const cache = this.caches.get(connectionId);
    if (cache === undefined) return;
    cache.listings.clear();
    cache.index = undefined;
  }

  /** The service's trigger a file's trigger was compared with (for Compare): the first that differs, else the first. */
  serviceTriggerOf(uri: string, index?: number): ServiceTrigger | undefined {
    const d = this.drift.get(uri);
    if (d === undefined) return undefined;
    const t = index === undefined ? (d.triggers.find((x) => x.status === 'differs') ?? d.triggers.find((x) => x.service !== undefined)) : d.triggers.find((x) => x.index === index);
    return t?.service;
  }

  /** A trigger of a connection's cached lists, by id (the left side of Compare). */
  serviceTrigger(connectionId: string, triggerId: string): ServiceTrigger | undefined {
    const cache = this.caches.get(connectionId);
    return cache === undefined ? undefined : this.indexOf(cache).get(triggerId);
  }

  dispose(): void {
    this.disposed = true;
    this.changed.dispose();
  }

  private async ensureListings(cache: ConnectionCache, datasets: readonly string[]): Promise<void> {
    const wanted = [...new Set(datasets.map(canonical))];
    const missing = wanted.filter((d) => !cache.listings.has(d) && !cache.pending.has(d));
    if (missing.length > 0) {
      const pool = new PacedPool({ concurrency: Math.max(1, this.o.concurrency()) });
      this.stats.lists += missing.length;
      const all = listDatasets(cache.connection.api, missing, pool).then(
        (got) => {
          for (const d of missing) {
            const listing = got.get(d) ?? { state: 'failed' as const, message: l10n.t('not listed') };
            if (listing.state === 'failed') this.o.log?.(`drift: could not list the triggers of ${d}: ${listing.message}`);
            cache.listings.set(d, listing);
            cache.pending.delete(d);
          }
          cache.index = undefined;
        },
        (err: unknown) => {
          for (const d of missing) cache.pending.delete(d);
          throw err;
        },
      );
      for (const d of missing) cache.pending.set(d, all);
    }
    await Promise.all(wanted.map((d) => cache.pending.get(d)).filter((p) => p !== undefined));
  }

  /** The index of the cache's lists; a failed list is dropped from the cache once indexed, so the next check asks again. */
  private indexOf(cache: ConnectionCache): ServiceIndex {
    if (cache.index !== undefined) return cache.index;
    const index = new ServiceIndex();
    for (const [dataset, listing] of cache.listings) index.add(dataset, listing);
    for (const [dataset, listing] of [...cache.listings]) if (listing.state === 'failed') cache.listings.delete(dataset);
    cache.index = index;
    return index;
  }
}
