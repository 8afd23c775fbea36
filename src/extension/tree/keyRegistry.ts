// API keys this extension created or updated, remembered per connection. The spec has no endpoint that
// lists keys, so this is the only way to show them. It holds ids and names only: NEVER a secret.
import { Emitter, type MementoLike } from '../core/memento';

export interface RememberedKey {
  id: string;
  name: string;
  disabled: boolean;
  keyType: string;
  createdAt?: string;
}

const STATE_KEY = 'obs.keyRegistry';
type Stored = Record<string, RememberedKey[]>;

/** Copies only the known, non-secret fields, whatever else the caller's object carries. */
function sanitise(key: RememberedKey): RememberedKey {
  const out: RememberedKey = {
    id: String(key.id),
    name: String(key.name),
    disabled: Boolean(key.disabled),
    keyType: String(key.keyType),
  };
  if (typeof key.createdAt === 'string') out.createdAt = key.createdAt;
  return out;
}

export class KeyRegistry {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = (listener: () => void): { dispose(): void } => this.changed.event(listener);

  constructor(private readonly memento: MementoLike) {}

  list(connectionId: string): RememberedKey[] {
    return (this.all()[connectionId] ?? []).map((k) => ({ ...k }));
  }

  async remember(connectionId: string, key: RememberedKey): Promise<void> {
    if (typeof key.id !== 'string' || key.id === '') throw new TypeError('a remembered key needs an id');
    const all = this.all();
    const list = (all[connectionId] ?? []).filter((k) => k.id !== key.id);
    list.push(sanitise(key));
    all[connectionId] = list;
    await this.save(all);
  }

  async update(connectionId: string, id: string, patch: Partial<Omit<RememberedKey, 'id'>>): Promise<void> {
    const all = this.all();
    const list = all[connectionId] ?? [];
    const index = list.findIndex((k) => k.id === id);
    const current = list[index];
    if (current === undefined) return;
    list[index] = sanitise({ ...current, ...patch, id });
    all[connectionId] = list;
    await this.save(all);
  }

  async forget(connectionId: string, id: string): Promise<void> {
    const all = this.all();
    const list = all[connectionId];
    if (!list) return;
    all[connectionId] = list.filter((k) => k.id !== id);
    await this.save(all);
  }

  /** Drops every key of a connection (when the connection is removed). */
  async forgetConnection(connectionId: string): Promise<void> {
    const all = this.all();
    if (!(connectionId in all)) return;
    delete all[connectionId];
    await this.save(all);
  }

  dispose(): void {
    this.changed.dispose();
  }

  private all(): Stored {
    const stored = this.memento.get<Stored>(STATE_KEY);
    if (typeof stored !== 'object' || stored === null) return {};
    const out: Stored = {};
    for (const [conn, list] of Object.entries(stored)) {
      if (Array.isArray(list))
        out[conn] = list.filter((k): k is RememberedKey => typeof k?.id === 'string').map(sanitise);
    }
    return out;
  }

  private async save(all: Stored): Promise<void> {
    await this.memento.update(STATE_KEY, all);
    this.changed.fire();
  }
}
