// The active connection's recipients (GET /1/recipients), read once per connection and client and kept
// until Refresh: the tree's tooltips, the linter's unknown-recipient check, the editor's hover and
// completion and the drift views name recipient ids with it. While the list is not known (not read yet,
// offline, refused) nothing is named and nothing is checked: ids show as they are. No vscode import.
import type { AccountRecipient } from '../../api/schemas';
import { listingRefusal, refusalReason } from './listingRefusal';
import { Emitter } from './memento';
import { RecipientDirectory } from './recipients';

/** The one call this needs (the ServiceClient satisfies it). */
export interface RecipientLister {
  listRecipients(o?: { signal?: AbortSignal }): Promise<{ data: AccountRecipient[] }>;
}

export interface AccountRecipientsOptions {
  /** The active connection's id, or undefined when there is none. */
  connection: () => string | undefined;
  /** The client of a connection (the same object until its keys or settings change). */
  client: (connectionId: string) => Promise<RecipientLister>;
  /** After a failure that is not a refusal, how long before the list is asked for again (default 60 s). */
  retryMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

type State =
  | { kind: 'loading'; done: Promise<void> }
  | { kind: 'known'; directory: RecipientDirectory }
  | { kind: 'refused'; status: number }
  | { kind: 'failed'; at: number };

interface Entry {
  client: RecipientLister;
  state: State;
}

export class AccountRecipients {
  private readonly entries = new Map<string, Entry>();
  private readonly changed = new Emitter<void>();
  /** Fires when the active connection's list arrived, changed or was forgotten. */
  readonly onDidChange = this.changed.event;
  private readonly now: () => number;

  constructor(private readonly o: AccountRecipientsOptions) {
    this.now = o.now ?? Date.now;
  }

  /** The active connection's recipients when they are known; undefined otherwise (nothing is named then). */
  known(): RecipientDirectory | undefined {
    const id = this.o.connection();
    const state = id === undefined ? undefined : this.entries.get(id)?.state;
    return state?.kind === 'known' ? state.directory : undefined;
  }

  /** Reads the active connection's list in the background unless it is known, being read, or was refused. */
  want(): void {
    void this.directory().catch((err: unknown) =>
      this.o.log?.(`recipients: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  /** The active connection's recipients, read if needed; undefined without a connection or when they cannot be read. */
  async directory(): Promise<RecipientDirectory | undefined> {
    const id = this.o.connection();
    return id === undefined ? undefined : this.directoryOf(id);
  }

  /** A connection's recipients, read if needed (one listing for every reader); undefined when they cannot be read. */
  async directoryOf(id: string): Promise<RecipientDirectory | undefined> {
    const client = await this.o.client(id);
    let entry = this.entries.get(id);
    if (entry === undefined || entry.client !== client || this.retryDue(entry.state)) {
      entry = { client, state: { kind: 'failed', at: 0 } };
      this.entries.set(id, entry);
      this.read(id, entry);
    }
    if (entry.state.kind === 'loading') await entry.state.done;
    return entry.state.kind === 'known' ? entry.state.directory : undefined;
  }

  /**
   * A connection's recipients as a lister, for code that lists them itself (drift resolving references): it reads
   * this one listing, so the team is not listed twice. It fails when the list cannot be read.
   */
  listerOf(id: string): RecipientLister {
    return {
      listRecipients: async () => {
        const directory = await this.directoryOf(id);
        if (directory === undefined) throw new Error('the recipients are not listed (the log says why)');
        return { data: [...directory.list] };
      },
    };
  }

  /** Forgets the active connection's list (Refresh) and reads it again. */
  refresh(): void {
    const id = this.o.connection();
    if (id === undefined) return;
    this.entries.delete(id);
    this.changed.fire();
    this.want();
  }

  /** Forgets the lists of connections that no longer exist. */
  keepOnly(connectionIds: readonly string[]): void {
    const keep = new Set(connectionIds);
    for (const id of [...this.entries.keys()]) if (!keep.has(id)) this.entries.delete(id);
  }

  dispose(): void {
    this.changed.dispose();
    this.entries.clear();
  }

  private retryDue(state: State): boolean {
    return state.kind === 'failed' && this.now() - state.at >= (this.o.retryMs ?? 60_000);
  }

  private read(id: string, entry: Entry): void {
    const done = entry.client.listRecipients().then(
      (res) => {
        entry.state = { kind: 'known', directory: new RecipientDirectory(res.data) };
      },
      (err: unknown) => {
        const status = listingRefusal(err);
        // Said once: a refused list is not asked for again until Refresh.
        const why = status === undefined ? undefined : `${refusalReason(status)} (${status})`;
        if (why !== undefined) this.o.log?.(`recipients are not listed: ${why}; recipient ids are shown as they are`);
        else this.o.log?.(`could not list the recipients: ${err instanceof Error ? err.message : String(err)}`);
        entry.state = status !== undefined ? { kind: 'refused', status } : { kind: 'failed', at: this.now() };
      },
    );
    entry.state = { kind: 'loading', done };
    void done.then(() => {
      if (this.entries.get(id) === entry && this.o.connection() === id && entry.state.kind === 'known')
        this.changed.fire();
    });
  }
}
