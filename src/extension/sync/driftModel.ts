// The drift of the workspace's trigger files against the active connection, as plain data (and beside them
// that of its burn alert and definitions files: sloDriftFiles.ts). The service's lists are cached per
// connection and dataset (driftListings.ts): a save compares only the saved file against
// the cached lists; a connection change compares every file against that connection's lists (read
// once, then kept); a refresh reads the lists again. File events (saves, changes on disk, deletes) are
// collected while they keep coming (a trailing debounce, capped) and applied together, with one change event
// per batch: a branch switch that changes thousands of files redraws the views a few times, not once per
// file. A batch updates only its files' entries and what the views read of all files together (counts,
// drafts, the service's triggers no file holds: driftTally.ts); the list of every file, in order, is built
// only when a view asks for it after a change. So a batch costs what its files hold, however many files the
// workspace has and however the events arrive. No vscode import.
import {
  datasetsOfFiles,
  driftOfFile,
  kindOfFile,
  sloHoldsReference,
  type DatasetListing,
  type FileDrift,
  type LocalFile,
  type SavedSlo,
  type ServiceIndex,
  type ServiceTrigger,
  type SloFileDrift,
} from '../../triggerFiles';
import { Batch, type BatchClock } from '../core/batch';
import { Emitter } from '../core/memento';
import { DriftTally } from './driftTally';
import { FileOrder, LazySnapshot, type DriftSnapshot, type DriftState } from './driftSnapshot';
import type { AwayEnvironment } from '../core/workspaceEnvironments';
import { ConnectionCache, triggerFileOn, type DriftConnection } from './driftListings';
import { compareSloAlone, SloDriftFiles } from './sloDriftFiles';
import type { TriggerFileState } from './treeDrift';

export type { DriftSnapshot, DriftState } from './driftSnapshot';
export type { DriftConnection } from './driftListings';

interface DriftWorkspace {
  /** Every trigger, burn alert and definitions file of the workspace (uri strings). */
  list(): Promise<string[]>;
  /** A file's saved text; undefined when it is gone. */
  read(uri: string): Promise<string | undefined>;
  /** How a person names the file (relative to the workspace), in reasons that name another file. */
  name?(uri: string): string;
}

export interface DriftModelOptions {
  workspace: DriftWorkspace;
  /** The active connection, or undefined when there is none. */
  connection: () => Promise<DriftConnection | undefined>;
  concurrency: () => number;
  log?: (message: string) => void;
  /** File events are applied once none came for this many milliseconds (default 50)... */
  batchMs?: number;
  /** ...or this long after the first event of the batch, if they keep coming (default 500). */
  batchMaxMs?: number;
  clock?: BatchClock;
}

/** A file event waiting in the batch: changed (with its saved text when the editor has it) or deleted. */
type FileEvent = { kind: 'changed'; text?: string } | { kind: 'deleted' };

/** The files read: trigger files parsed, burn alert and definitions files as their texts. */
interface ReadFiles {
  triggers: Map<string, LocalFile>;
  slo: Map<string, string>;
}

/** Files read at once by a full comparison. */
const READ_BATCH = 32;
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export class DriftModel {
  private readonly changed = new Emitter<readonly string[] | 'all'>();
  /** Fires with the files whose drift changed (once per batch of file events), or 'all'. */
  readonly onDidChange = this.changed.event;
  private readonly caches = new Map<string, ConnectionCache>();
  private active: ConnectionCache | undefined;
  private state: DriftState = { kind: 'no-connection' };
  private readonly drift = new Map<string, FileDrift>();
  private readonly slo: SloDriftFiles;
  /** What the views read of all files together, kept up to date file by file, against `tallied`. */
  private readonly tally = new DriftTally();
  private tallied: ServiceIndex | undefined;
  /** The connection of the last comparison done, while its drift is kept (the tree shows it while comparing again). */
  private compared: string | undefined;
  /** The order of the files of `drift`, kept between batches. */
  private readonly order = new FileOrder();
  /** The snapshot of the current state, built on the first read after a change. */
  private cached: DriftSnapshot | undefined;
  /** Bumped by every full comparison: a late result of an older one is dropped. */
  private generation = 0;
  private readonly events: Batch<string, FileEvent>;
  /** Batches are applied one after another, in the order they came. */
  private applying: Promise<void> = Promise.resolve();
  /** Resolves the callers waiting for the batch being collected. */
  private batchDone: { promise: Promise<void>; resolve: () => void } | undefined;
  private disposed = false;

  constructor(private readonly o: DriftModelOptions) {
    const name = o.workspace.name;
    this.slo = new SloDriftFiles(name === undefined ? undefined : (uri) => name.call(o.workspace, uri));
    this.events = new Batch((batch) => this.applyBatch(batch), {
      windowMs: o.batchMs ?? 50,
      maxWaitMs: o.batchMaxMs ?? 500,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
    });
  }

  /** Every file's drift in file order, the service's triggers no file holds, and the counts: built once per change. */
  snapshot(): DriftSnapshot {
    if (this.cached !== undefined) return this.cached;
    const ready = this.state.kind === 'ready' && this.tallied !== undefined;
    const counts = this.tally.countsNow();
    if (!ready) counts.serviceOnly = 0;
    this.cached = new LazySnapshot(
      this.state,
      counts,
      this.tally.draftsNow(),
      () => this.order.list(() => this.drift.keys()).flatMap((uri) => this.drift.get(uri) ?? []),
      () => (ready ? this.tally.onlyOnService() : []),
      { counts: this.slo.countsNow(), files: () => this.slo.list() },
    );
    return this.cached;
  }

  /**
   * What the Datasets tree shows of a service trigger: the file holding it (one that differs before one in
   * sync), or only on the service. Kept while the same connection compares again, so the tree does not blink.
   */
  triggerFileState(
    connectionId: string,
    triggerId: string,
    relativePath: (uri: string) => string,
  ): TriggerFileState | undefined {
    if (this.compared === undefined || this.compared !== connectionId) return undefined;
    return this.tally.stateOf(triggerId, (uri) => this.drift.get(uri), relativePath);
  }

  getState(): DriftState {
    return this.state;
  }

  /** A trigger file's drift, once the comparison is done. */
  fileDrift(uri: string): FileDrift | undefined {
    return this.state.kind === 'ready' ? this.drift.get(uri) : undefined;
  }

  /** The environment other than the home one a file is compared as on the active connection, if any. */
  environmentOf(uri: string): AwayEnvironment | undefined {
    return this.active?.connection.environmentOf?.(uri);
  }

  /** A burn alert or definitions file's drift, once the comparison is done. */
  sloFileDrift(uri: string): SloFileDrift | undefined {
    return this.state.kind === 'ready' ? this.slo.get(uri) : undefined;
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
    if (this.stale(generation)) return;
    if (conn === undefined) {
      this.clearConnection();
      return;
    }
    const cache = this.cacheFor(conn, refetch);
    this.active = cache;
    if (this.compared !== conn.id) this.compared = undefined;
    this.state = { kind: 'loading', connection: conn.name };
    this.emit('all');
    try {
      const read = await this.readFiles(await this.o.workspace.list(), conn);
      if (this.stale(generation)) return;
      const [, slo] = await Promise.all([
        cache.ensureListings([...datasetsOfFiles(read.triggers.values())], this.o.concurrency(), this.o.log),
        compareSloAlone(read.slo, cache.slo, this.o.concurrency(), conn.environmentOf),
      ]);
      if (this.stale(generation)) return;
      const resolved = await cache.team.resolve(read.triggers);
      const resolving = sloHoldsReference(slo) ? { team: await cache.team.team() } : undefined;
      if (this.stale(generation)) return;
      this.compareAll(resolved, cache.indexOf());
      this.slo.reset(slo, resolving);
      this.state = { kind: 'ready', connection: conn.name };
      this.compared = conn.id;
    } catch (err) {
      if (this.stale(generation)) return;
      this.o.log?.(`drift: comparing with ${conn.name} failed: ${message(err)}`);
      this.state = { kind: 'failed', connection: conn.name, message: message(err) };
      this.compared = undefined;
    }
    this.emit('all');
  }

  /** A newer full comparison started, or the model was disposed: this one's result is dropped. */
  private stale(generation: number): boolean {
    return generation !== this.generation || this.disposed;
  }

  /** No active connection: no drift to show. */
  private clearConnection(): void {
    this.active = undefined;
    this.state = { kind: 'no-connection' };
    this.compared = undefined;
    this.drift.clear();
    this.slo.reset([]);
    this.retally(undefined);
    this.emit('all');
  }

  /** The connection's cache, new when its client changed; with `refetch`, its lists are dropped. */
  private cacheFor(conn: DriftConnection, refetch: boolean): ConnectionCache {
    let cache = this.caches.get(conn.id);
    // A new client (keys or settings changed) may see another service: its lists are read again.
    if (cache === undefined || cache.connection.api !== conn.api) {
      cache = new ConnectionCache(conn, this.o.log);
      this.caches.set(conn.id, cache);
    }
    cache.connection = conn;
    if (refetch) cache.forget();
    return cache;
  }

  /** The files that could be read: trigger files parsed, the others' texts. */
  private async readFiles(uris: readonly string[], conn: DriftConnection): Promise<ReadFiles> {
    const read: ReadFiles = { triggers: new Map(), slo: new Map() };
    await this.readInBatches(uris, (uri, text) => {
      if (text === undefined) return;
      if (kindOfFile(uri) === 'trigger') read.triggers.set(uri, triggerFileOn(conn, uri, text));
      else read.slo.set(uri, text);
    });
    return read;
  }

  /** Every file's drift anew, from the files read. */
  private compareAll(read: ReadonlyMap<string, LocalFile>, index: ServiceIndex): void {
    this.drift.clear();
    for (const [uri, file] of read) {
      this.drift.set(uri, driftOfFile(uri, file, index));
    }
    this.retally(index);
  }

  /** The tally made again over every file, against another index (new lists read): once per index. */
  private retally(index: ServiceIndex | undefined): void {
    this.order.reset();
    this.tally.reset(index);
    this.tallied = index;
    for (const d of this.drift.values()) this.tally.update(d, 1);
  }

  /** Reads files a few at a time (thousands of sequential reads would add up to seconds), handing each batch's texts on as it comes. */
  private async readInBatches(
    uris: readonly string[],
    each: (uri: string, text: string | undefined) => void,
  ): Promise<void> {
    for (let i = 0; i < uris.length; i += READ_BATCH) {
      const batch = uris.slice(i, i + READ_BATCH);
      const texts = await Promise.all(batch.map((uri) => this.o.workspace.read(uri)));
      batch.forEach((uri, j) => each(uri, texts[j]));
    }
  }

  /**
   * A trigger, burn alert or definitions file was saved (with its text) or created or changed on disk: compared
   * again, with the other files of its batch. Resolves once its batch is applied.
   */
  fileChanged(uri: string, text?: string): Promise<void> {
    return this.enqueue(uri, text === undefined ? { kind: 'changed' } : { kind: 'changed', text });
  }

  /** A file was deleted: it leaves the drift with its batch. */
  fileDeleted(uri: string): Promise<void> {
    return this.enqueue(uri, { kind: 'deleted' });
  }

  private enqueue(uri: string, event: FileEvent): Promise<void> {
    // Until a full comparison is done there is nothing to update: it reads every file itself.
    if (this.active === undefined || this.state.kind !== 'ready' || this.disposed) return Promise.resolve();
    this.events.add(uri, event);
    if (this.batchDone === undefined) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((r) => (resolve = r));
      this.batchDone = { promise, resolve };
    }
    return this.batchDone.promise;
  }

  private applyBatch(batch: ReadonlyMap<string, FileEvent>): void {
    const done = this.batchDone;
    this.batchDone = undefined;
    this.applying = this.applying
      .then(() => this.apply(batch))
      .catch((err: unknown) => this.o.log?.(`drift: ${message(err)}`))
      .finally(() => done?.resolve());
  }

  /** Reads the batch's changed files, compares them, and fires one change for all of them. */
  private async apply(batch: ReadonlyMap<string, FileEvent>): Promise<void> {
    const cache = this.active;
    const generation = this.generation;
    if (cache === undefined || this.state.kind !== 'ready' || this.disposed) return;
    const all = await this.textsOf(batch);
    const texts = new Map([...all].filter(([uri]) => kindOfFile(uri) === 'trigger'));
    let files = new Map<string, LocalFile>();
    for (const [uri, text] of texts) if (text !== undefined) files.set(uri, triggerFileOn(cache.connection, uri, text));
    const slo = this.compareSloBatch(all, cache);
    try {
      await cache.ensureListings([...datasetsOfFiles(files.values())], this.o.concurrency(), this.o.log);
      files = await cache.team.resolve(files);
    } catch (err) {
      // The files stay as they were compared last; the deleted ones still leave.
      this.o.log?.(`drift: ${message(err)}`);
      files.clear();
    }
    const sloCompared = await slo.compared;
    const resolving = sloHoldsReference(sloCompared) ? { team: await cache.team.team() } : undefined;
    if (generation !== this.generation || this.active !== cache || this.disposed) return;
    const index = cache.indexOf();
    if (index !== this.tallied) this.retally(index);
    const changed: string[] = this.slo.apply(sloCompared, slo.gone, resolving);
    for (const [uri, text] of texts) {
      const file = files.get(uri);
      const before = this.drift.get(uri);
      if (text === undefined) {
        if (before === undefined) continue;
        this.drift.delete(uri);
        this.tally.update(before, -1);
        this.order.placed(uri, false);
      } else if (file !== undefined) {
        const after = driftOfFile(uri, file, index);
        this.drift.set(uri, after);
        // In before out: a dataset only this file names stays named, and its service triggers stay put.
        this.tally.update(after, 1);
        if (before === undefined) this.order.placed(uri, true);
        else this.tally.update(before, -1);
      } else continue;
      changed.push(uri);
    }
    if (changed.length > 0) this.emit(changed);
  }

  /** The batch's burn alert and definitions files: those still there compared (each alone), and those gone. */
  private compareSloBatch(all: ReadonlyMap<string, string | undefined>, cache: ConnectionCache) {
    const texts = new Map<string, string>();
    const gone: string[] = [];
    for (const [uri, text] of all) {
      if (kindOfFile(uri) === 'trigger') continue;
      if (text === undefined) gone.push(uri);
      else texts.set(uri, text);
    }
    const compared = compareSloAlone(texts, cache.slo, this.o.concurrency(), cache.connection.environmentOf);
    return { compared, gone };
  }

  /** The batch's texts: given (a save), read from disk (a change), or undefined (deleted, or gone when read). */
  private async textsOf(batch: ReadonlyMap<string, FileEvent>): Promise<Map<string, string | undefined>> {
    const texts = new Map<string, string | undefined>();
    const toRead: string[] = [];
    for (const [uri, e] of batch) {
      texts.set(uri, e.kind === 'changed' ? e.text : undefined);
      if (e.kind === 'changed' && e.text === undefined) toRead.push(uri);
    }
    await this.readInBatches(toRead, (uri, text) => texts.set(uri, text));
    return texts;
  }

  private emit(what: readonly string[] | 'all'): void {
    this.cached = undefined;
    this.changed.fire(what);
  }

  /**
   * Lists read elsewhere (by a pull) for a connection: drift uses them instead of reading them again,
   * and the files already read are compared with them.
   */
  accept(connectionId: string, dataset: string, listing: DatasetListing): void {
    const cache = this.caches.get(connectionId);
    if (cache === undefined || listing.state === 'failed') return;
    cache.accept(dataset, listing);
    this.cached = undefined;
  }

  /** The service was written to: the connection's cached reads are dropped, so the next comparison reads again. */
  forgetLists(connectionId: string): void {
    this.caches.get(connectionId)?.forget();
  }

  /** A form saved a burn alert or definitions: the service's answer is kept as drift's read of that object. */
  sloSaved(connectionId: string, saved: SavedSlo): void {
    this.caches.get(connectionId)?.slo.remember(saved);
  }

  /** Burn alerts or definitions were read afresh (a pull): the burn alert and definitions reads kept are dropped. */
  forgetSloReads(connectionId: string | undefined): void {
    if (connectionId !== undefined) this.caches.get(connectionId)?.forgetSlo();
  }

  /** The service's trigger a file's trigger was compared with (for Compare): the first that differs, else the first. */
  serviceTriggerOf(uri: string, index?: number): ServiceTrigger | undefined {
    const d = this.drift.get(uri);
    if (d === undefined) return undefined;
    const t =
      index === undefined
        ? (d.triggers.find((x) => x.status === 'differs') ?? d.triggers.find((x) => x.service !== undefined))
        : d.triggers.find((x) => x.index === index);
    return t?.service;
  }

  /** A trigger of a connection's cached lists, by id (the left side of Compare). */
  serviceTrigger(connectionId: string, triggerId: string): ServiceTrigger | undefined {
    const cache = this.caches.get(connectionId);
    return cache === undefined ? undefined : cache.indexOf().get(triggerId);
  }

  dispose(): void {
    this.disposed = true;
    this.events.clear();
    this.batchDone?.resolve();
    this.changed.dispose();
  }
}
