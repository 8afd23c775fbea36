// The one place connection keys are read or written: VS Code SecretStorage, keyed per connection id.
// Keys never go to settings, state, logs or error messages.
import { Emitter } from '../core/memento';
import type { ConnectionSecrets } from './profiles';

export type SecretKind = 'configKey' | 'managementKey';
const KINDS: readonly SecretKind[] = ['configKey', 'managementKey'];
const PREFIX = 'obs.connection/';

/** The storage key of one secret of one connection. */
export function secretStorageKey(connectionId: string, kind: SecretKind): string {
  return `${PREFIX}${connectionId}/${kind}`;
}

/** The connection id a storage key belongs to, or undefined for keys that are not ours. */
export function connectionIdOfStorageKey(key: string): string | undefined {
  if (!key.startsWith(PREFIX)) return undefined;
  const rest = key.slice(PREFIX.length);
  const slash = rest.lastIndexOf('/');
  if (slash <= 0) return undefined;
  const kind = rest.slice(slash + 1);
  return (KINDS as readonly string[]).includes(kind) ? rest.slice(0, slash) : undefined;
}

/** The slice of vscode.SecretStorage used here (tests pass an in-memory one). */
export interface SecretStorageLike {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
  onDidChange(listener: (e: { key: string }) => unknown): { dispose(): void };
}

export class SecretStore {
  private readonly changed = new Emitter<string>();
  /** Fires with the connection id whose keys changed (in this window or another). */
  readonly onDidChange = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(private readonly secrets: SecretStorageLike) {
    this.subscription = secrets.onDidChange((e) => {
      const id = connectionIdOfStorageKey(e.key);
      if (id !== undefined) this.changed.fire(id);
    });
  }

  async get(connectionId: string): Promise<ConnectionSecrets> {
    const [configKey, managementKey] = await Promise.all(
      KINDS.map((k) => this.secrets.get(secretStorageKey(connectionId, k))),
    );
    return { configKey: configKey || undefined, managementKey: managementKey || undefined };
  }

  /** Stores the given keys; a key given as undefined is left as it is, as '' it is deleted. */
  async set(connectionId: string, secrets: ConnectionSecrets): Promise<void> {
    for (const kind of KINDS) {
      const value = secrets[kind];
      if (value === undefined) continue;
      if (value === '') await this.secrets.delete(secretStorageKey(connectionId, kind));
      else await this.secrets.store(secretStorageKey(connectionId, kind), value);
    }
  }

  async delete(connectionId: string): Promise<void> {
    for (const kind of KINDS) await this.secrets.delete(secretStorageKey(connectionId, kind));
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
