// The active connection and its client. Profiles live in globalState (connectionStore.ts), keys in
// SecretStorage (secretStore.ts); a client is built per connection and rebuilt when either changes.
import * as vscode from 'vscode';
import type { ServiceClient } from '../../api/client';
import { ConnectionGoneError, NoConnectionError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Settings } from '../core/settings';
import { readCaCertificates } from './caCertificates';
import type { ClientModule } from './clientLoader';
import { formatRequestLog } from './requestLog';
import type { ConnectionProfile, ConnectionSecrets } from './profiles';
import type { ConnectionStore } from './connectionStore';
import type { SecretStore } from './secretStore';

export interface ActiveConnection {
  profile: ConnectionProfile;
  client: ServiceClient;
}

interface CachedClient {
  fingerprint: string;
  client: ServiceClient;
}

export class ConnectionManager implements vscode.Disposable {
  private readonly activeChanged = new vscode.EventEmitter<ConnectionProfile | undefined>();
  readonly onDidChangeActive = this.activeChanged.event;
  private readonly clients = new Map<string, CachedClient>();
  private readonly secretVersions = new Map<string, number>();
  // The keys are held in ES private fields (#), not TypeScript's `private`, which is visible at run time:
  // nothing outside this class can read them, only write or delete them (setSecrets, deleteSecrets).
  readonly #secrets: SecretStore;
  /** Keys of transient connections (the local sandbox): in memory only, gone with the window. */
  readonly #transientSecrets = new Map<string, ConnectionSecrets>();
  private lastActive: string;
  /** Connections whose removal has begun: no new client is built for them (it would have no keys). */
  private readonly removing = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly store: ConnectionStore,
    secrets: SecretStore,
    private readonly settings: Settings,
    private readonly log: Logger,
    private readonly loadClient: () => ClientModule,
  ) {
    this.#secrets = secrets;
    this.lastActive = JSON.stringify(store.active() ?? null);
    this.disposables.push(
      this.activeChanged,
      store.onDidChange(() => this.checkActiveChanged()),
      secrets.onDidChange((id) => {
        this.secretVersions.set(id, (this.secretVersions.get(id) ?? 0) + 1);
        this.dropClient(id);
        if (id === store.activeId()) this.activeChanged.fire(store.active());
      }),
      settings.onDidChange((names) => {
        if (names.has('httpProxy') || names.has('caCertificates')) {
          for (const id of [...this.clients.keys()]) this.dropClient(id);
        }
      }),
      // globalState changes under us when another window edits or removes a profile, without an event:
      // look again whenever this window gets the focus, so the status bar and tree never name a stale one.
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) this.checkActiveChanged();
      }),
    );
  }

  list(): ConnectionProfile[] {
    return this.store.list();
  }

  activeProfile(): ConnectionProfile | undefined {
    return this.store.active();
  }

  /** The active connection with a client, or undefined when none is configured. */
  async getActive(): Promise<ActiveConnection | undefined> {
    const profile = this.store.active();
    if (!profile) return undefined;
    return { profile, client: await this.clientFor(profile) };
  }

  /** The active connection; without one, tells the user how to add one and throws NoConnectionError. */
  async requireActive(): Promise<ActiveConnection> {
    const active = await this.getActive();
    if (active) return active;
    if (this.list().length > 0) {
      const switchConnection = vscode.l10n.t('Switch Connection...');
      void vscode.window
        .showWarningMessage(vscode.l10n.t('No observability connection is active in this window.'), switchConnection)
        .then((choice) => {
          if (choice === switchConnection) void vscode.commands.executeCommand('obs.connection.switch');
        });
    } else {
      const addConnection = vscode.l10n.t('Add Connection...');
      const trySandbox = vscode.l10n.t('Try the Local Sandbox');
      void vscode.window
        .showWarningMessage(vscode.l10n.t('No observability connection is configured.'), addConnection, trySandbox)
        .then((choice) => {
          if (choice === addConnection) void vscode.commands.executeCommand('obs.connection.add');
          if (choice === trySandbox) void vscode.commands.executeCommand('obs.sandbox.start');
        });
    }
    throw new NoConnectionError();
  }

  /**
   * The connection a tree item belongs to, with its client, whichever connection is active now: an
   * action on an item always goes to the server the item came from.
   */
  async connectionFor(connectionId: string): Promise<ActiveConnection> {
    const profile = this.store.get(connectionId);
    if (!profile) throw new ConnectionGoneError(connectionId);
    return { profile, client: await this.clientFor(profile) };
  }

  isTransient(id: string): boolean {
    return this.store.isTransient(id);
  }

  /** Adds a window-only connection (the local sandbox); its keys are kept in memory, never stored. */
  addTransient(profile: ConnectionProfile, secrets: ConnectionSecrets): void {
    this.dropClient(profile.id);
    this.#transientSecrets.set(profile.id, { ...secrets });
    this.store.addTransient(profile);
  }

  /** Stores a saved connection's keys (a key given as undefined is left as it is, as '' it is deleted). */
  async setSecrets(connectionId: string, secrets: ConnectionSecrets): Promise<void> {
    await this.#secrets.set(connectionId, secrets);
  }

  /** Deletes a saved connection's keys. */
  async deleteSecrets(connectionId: string): Promise<void> {
    await this.#secrets.delete(connectionId);
  }

  /** Which keys a connection has (presence only), for the edit dialogue. */
  async storedKeys(connectionId: string): Promise<{ configKey: boolean; managementKey: boolean }> {
    const keys = this.#transientSecrets.get(connectionId) ?? (await this.#secrets.get(connectionId));
    return { configKey: keys.configKey !== undefined, managementKey: keys.managementKey !== undefined };
  }

  /**
   * The configuration key of a connection, for the environment of a child process that talks to its service
   * (`obs mcp`, started by VS Code for AI agents). Besides the client, the one way a key leaves this class:
   * the caller puts it only into that child's environment, never into an argument, a file or a log line.
   */
  async configKeyForChild(connectionId: string): Promise<string | undefined> {
    this.checkUsable(connectionId);
    const keys = this.store.isTransient(connectionId)
      ? this.#transientSecrets.get(connectionId)
      : await this.#secrets.get(connectionId);
    return keys?.configKey;
  }

  /**
   * Whether a connection handed out by getActive() is still the active one with the same client: false
   * once it was switched away from, removed, or its keys or settings changed (each drops the client).
   */
  isCurrent(active: ActiveConnection): boolean {
    const id = active.profile.id;
    return this.store.activeId() === id && !this.removing.has(id) && this.clients.get(id)?.client === active.client;
  }

  async clientFor(profile: ConnectionProfile): Promise<ServiceClient> {
    this.checkUsable(profile.id);
    const proxy = this.settings.httpProxy();
    const caFiles = this.settings.caCertificates();
    // The fingerprint says when to rebuild; it holds no secret, only a counter of secret changes.
    const fingerprint = JSON.stringify([profile, proxy ?? '', caFiles, this.secretVersions.get(profile.id) ?? 0]);
    const cached = this.clients.get(profile.id);
    if (cached && cached.fingerprint === fingerprint) return cached.client;
    const keys = this.store.isTransient(profile.id)
      ? (this.#transientSecrets.get(profile.id) ?? {})
      : await this.#secrets.get(profile.id);
    // Removed while its keys were read (they may be deleted by now): building a keyless client would
    // turn the removal into "no configuration key is set" errors.
    this.checkUsable(profile.id);
    const again = this.clients.get(profile.id);
    if (again && again.fingerprint === fingerprint) return again.client;
    this.dropClient(profile.id);
    const { ServiceClient: Client } = this.loadClient();
    const client = new Client({
      baseUrl: profile.baseUrl,
      configKey: keys.configKey,
      managementKey: keys.managementKey,
      proxy,
      caCertificates: caFiles.length > 0 ? readCaCertificates(caFiles) : undefined,
      onLog: (e) => {
        const line = formatRequestLog(profile.name, e);
        if (e.error !== undefined && e.retryInMs === undefined) this.log.warn(line);
        else this.log.info(line);
      },
    });
    this.clients.set(profile.id, { fingerprint, client });
    return client;
  }

  /**
   * Runs `use` with a client of a connection that is not saved (yet): the Add Connection check. One
   * attempt, a short connect timeout; the key typed, or (for an edit that keeps it) the one stored for
   * `connectionId`. The client is closed afterwards.
   */
  async withProbeClient<T>(
    baseUrl: string,
    keys: { configKey?: string | undefined; connectionId?: string | undefined },
    use: (client: ServiceClient) => Promise<T>,
  ): Promise<T> {
    const stored =
      keys.configKey === undefined && keys.connectionId !== undefined
        ? (await this.#secrets.get(keys.connectionId)).configKey
        : undefined;
    const caFiles = this.settings.caCertificates();
    const { ServiceClient: Client } = this.loadClient();
    const client = new Client({
      baseUrl,
      configKey: keys.configKey ?? stored,
      proxy: this.settings.httpProxy(),
      caCertificates: caFiles.length > 0 ? readCaCertificates(caFiles) : undefined,
      retry: { maxAttempts: 1 },
      timeouts: { connectMs: 5_000, headersMs: 15_000 },
      onLog: (e) => this.log.info(formatRequestLog(baseUrl, e)),
    });
    try {
      return await use(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  async save(profile: ConnectionProfile): Promise<void> {
    await this.store.save(profile);
    this.dropClient(profile.id);
  }

  async setActive(id: string | undefined): Promise<void> {
    await this.store.setActive(id);
  }

  /** Removes a connection and deletes its keys. If it was active, none is active afterwards. */
  async remove(id: string): Promise<void> {
    this.removing.add(id);
    try {
      this.dropClient(id);
      if (this.store.isTransient(id) || this.#transientSecrets.has(id)) {
        this.#transientSecrets.delete(id);
      } else {
        await this.#secrets.delete(id);
      }
      await this.store.remove(id);
    } finally {
      this.removing.delete(id);
    }
  }

  dispose(): void {
    for (const id of [...this.clients.keys()]) this.dropClient(id);
    for (const d of this.disposables) d.dispose();
  }

  private checkUsable(id: string): void {
    const gone =
      this.removing.has(id) || !this.store.get(id) || (this.store.isTransient(id) && !this.#transientSecrets.has(id));
    if (gone) throw new ConnectionGoneError(id);
  }

  private dropClient(id: string): void {
    const cached = this.clients.get(id);
    if (!cached) return;
    this.clients.delete(id);
    void cached.client.close().catch(() => undefined);
  }

  private checkActiveChanged(): void {
    const now = JSON.stringify(this.store.active() ?? null);
    if (now === this.lastActive) return;
    this.lastActive = now;
    this.activeChanged.fire(this.store.active());
  }
}
