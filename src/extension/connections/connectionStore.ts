// Connection profiles, kept in globalState (not settings: settings can be synced or committed with a
// workspace, and profiles are per machine), and this window's active connection. No vscode import.
// Secrets never pass through here: see secretStore.ts.
//
// The active connection belongs to the window: globalState is shared by every window and changes
// under it without an event, so a switch in one window must not silently retarget another (whose status
// bar would still name the old connection). globalState only remembers the last choice for new windows.
// Removing the active connection leaves none active: never silently another one, which may be production.
// Transient profiles (the local sandbox) live only in this window's memory.
import { Emitter, type MementoLike } from '../core/memento';
import { validateProfile, type ConnectionProfile } from './profiles';

const PROFILES_KEY = 'obs.connections';
const ACTIVE_KEY = 'obs.activeConnection';

export class ConnectionStore {
  private readonly changed = new Emitter<void>();
  /** Fires after profiles or the active id changed. */
  readonly onDidChange = this.changed.event;

  private current: string | undefined;
  private readonly transient = new Map<string, ConnectionProfile>();

  constructor(private readonly memento: MementoLike) {
    const last = memento.get<unknown>(ACTIVE_KEY);
    this.current = typeof last === 'string' ? last : undefined;
  }

  /** Saved profiles, then this window's transient ones. */
  list(): ConnectionProfile[] {
    return [...this.persisted().filter((p) => !this.transient.has(p.id)), ...this.transient.values()];
  }

  /** Profiles saved in globalState (a transient id shadows a saved one of the same id). */
  persisted(): ConnectionProfile[] {
    const raw = this.memento.get<unknown[]>(PROFILES_KEY);
    if (!Array.isArray(raw)) return [];
    const out: ConnectionProfile[] = [];
    for (const item of raw) {
      const v = validateProfile(item);
      if (v.ok) out.push(v.profile);
    }
    return out;
  }

  isTransient(id: string): boolean {
    return this.transient.has(id);
  }

  /** A profile kept in memory only, for this window (the local sandbox). */
  addTransient(profile: ConnectionProfile): void {
    const v = validateProfile(profile);
    if (!v.ok) throw new TypeError(`invalid connection: ${v.reason.map((p) => p.message).join('; ')}`);
    this.transient.set(profile.id, { ...v.profile });
    this.changed.fire();
  }

  get(id: string): ConnectionProfile | undefined {
    return this.list().find((p) => p.id === id);
  }

  /** This window's active connection id, if that connection still exists. */
  activeId(): string | undefined {
    const id = this.current;
    return id !== undefined && this.get(id) ? id : undefined;
  }

  active(): ConnectionProfile | undefined {
    const id = this.activeId();
    return id === undefined ? undefined : this.get(id);
  }

  /** Adds or replaces a profile (matched by id). Only the profile's own fields are stored. */
  async save(profile: ConnectionProfile): Promise<void> {
    if (this.transient.has(profile.id))
      throw new TypeError(`the connection ${profile.id} exists only in this window and is not saved`);
    const v = validateProfile(profile);
    if (!v.ok) throw new TypeError(`invalid connection: ${v.reason.map((p) => p.message).join('; ')}`);
    const clean: ConnectionProfile = {
      id: v.profile.id,
      name: v.profile.name.trim(),
      baseUrl: v.profile.baseUrl,
      uiUrl: v.profile.uiUrl,
      team: v.profile.team.trim(),
      environmentId: v.profile.environmentId.trim(),
    };
    const list = this.persisted();
    const index = list.findIndex((p) => p.id === clean.id);
    if (index >= 0) list[index] = clean;
    else list.push(clean);
    await this.memento.update(PROFILES_KEY, list);
    this.changed.fire();
  }

  /** Removes a profile. If it was active, no connection is active afterwards (never another one). */
  async remove(id: string): Promise<void> {
    if (this.current === id) this.current = undefined;
    if (this.transient.delete(id)) {
      this.changed.fire();
      return;
    }
    const list = this.persisted();
    const next = list.filter((p) => p.id !== id);
    if (next.length !== list.length) await this.memento.update(PROFILES_KEY, next);
    if (this.memento.get<unknown>(ACTIVE_KEY) === id) await this.memento.update(ACTIVE_KEY, undefined);
    this.changed.fire();
  }

  /** Makes a connection active in this window; a saved one is also remembered for new windows. */
  async setActive(id: string | undefined): Promise<void> {
    if (id !== undefined && !this.get(id)) throw new RangeError(`no connection with id ${id}`);
    this.current = id;
    if (id === undefined || !this.transient.has(id)) await this.memento.update(ACTIVE_KEY, id);
    this.changed.fire();
  }
}
