// Connection profiles and the active connection id, kept in globalState (not settings: settings can be
// synced or committed with a workspace, and profiles are per machine). No vscode import.
// Secrets never pass through here: see secretStore.ts.
import { Emitter, type MementoLike } from '../model/memento';
import { validateProfile, type ConnectionProfile } from './profiles';

const PROFILES_KEY = 'obs.connections';
const ACTIVE_KEY = 'obs.activeConnection';

export class ConnectionStore {
  private readonly changed = new Emitter<void>();
  /** Fires after profiles or the active id changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: MementoLike) {}

  list(): ConnectionProfile[] {
    const raw = this.memento.get<unknown[]>(PROFILES_KEY);
    if (!Array.isArray(raw)) return [];
    const out: ConnectionProfile[] = [];
    for (const item of raw) {
      const v = validateProfile(item);
      if (v.ok) out.push(v.profile);
    }
    return out;
  }

  get(id: string): ConnectionProfile | undefined {
    return this.list().find((p) => p.id === id);
  }

  activeId(): string | undefined {
    const id = this.memento.get<string>(ACTIVE_KEY);
    return typeof id === 'string' && this.get(id) ? id : undefined;
  }

  active(): ConnectionProfile | undefined {
    const id = this.activeId();
    return id === undefined ? undefined : this.get(id);
  }

  /** Adds or replaces a profile (matched by id). Only the profile's own fields are stored. */
  async save(profile: ConnectionProfile): Promise<void> {
    const v = validateProfile(profile);
    if (!v.ok) throw new TypeError(`invalid connection: ${v.problems.map((p) => p.message).join('; ')}`);
    const clean: ConnectionProfile = {
      id: v.profile.id,
      name: v.profile.name.trim(),
      baseUrl: v.profile.baseUrl,
      uiUrl: v.profile.uiUrl,
      team: v.profile.team.trim(),
      environmentId: v.profile.environmentId.trim(),
    };
    const list = this.list();
    const index = list.findIndex((p) => p.id === clean.id);
    if (index >= 0) list[index] = clean;
    else list.push(clean);
    await this.memento.update(PROFILES_KEY, list);
    this.changed.fire();
  }

  async remove(id: string): Promise<void> {
    const list = this.list();
    const next = list.filter((p) => p.id !== id);
    if (next.length === list.length) return;
    await this.memento.update(PROFILES_KEY, next);
    if (this.memento.get<string>(ACTIVE_KEY) === id) {
      await this.memento.update(ACTIVE_KEY, next[0]?.id);
    }
    this.changed.fire();
  }

  async setActive(id: string | undefined): Promise<void> {
    if (id !== undefined && !this.get(id)) throw new RangeError(`no connection with id ${id}`);
    await this.memento.update(ACTIVE_KEY, id);
    this.changed.fire();
  }
}
