// The service's reads of burn alerts and definitions, each made once and kept until dropped: drift in the editor
// keeps them per connection (a saved file is compared again without reading the service), and `obs drift
// --applied` shares them between the files last applied and the files now. What a write answered (a form's save)
// can take the place of a read. No vscode import.
import type { SloReads } from './sloPlan';

/** What a write of a burn alert or of a dataset's definitions answered: the read of that object it replaces. */
export type SavedSlo =
  /** The alert after a PUT: the service's answer over what was sent and read (it holds the recipients). */
  | { kind: 'burn-alert'; dataset: string; alert: Record<string, unknown> & { id: string } }
  /** The whole map the PATCH answered. */
  | { kind: 'definitions'; dataset: string; map: Record<string, unknown> };

type Json = Record<string, unknown>;
type Read<T> = Promise<{ data: T }>;

/**
 * The service's reads of burn alerts and definitions, each made once and kept until dropped (a refresh, a write
 * to the service). A read that failed is not kept: the next comparison asks again.
 */
export class KeptSloReads implements SloReads {
  private readonly slos = new Map<string, Promise<{ id: string; name?: string }[]>>();
  private readonly alertLists = new Map<string, Promise<Json[]>>();
  private readonly alerts = new Map<string, Promise<Json>>();
  private readonly definitions = new Map<string, Promise<Json>>();

  constructor(readonly service: SloReads) {}

  listSlos(dataset: string, o?: { signal?: AbortSignal }): Read<{ id: string; name?: string }[]> {
    return keep(this.slos, dataset, () => this.service.listSlos(dataset, o));
  }

  listBurnAlerts(dataset: string, sloId: string, o?: { signal?: AbortSignal }): Read<Json[]> {
    return keep(this.alertLists, `${dataset}\u0000${sloId}`, () => this.service.listBurnAlerts(dataset, sloId, o));
  }

  getBurnAlert(dataset: string, id: string, o?: { signal?: AbortSignal }): Read<Json> {
    return keep(this.alerts, `${dataset}\u0000${id}`, () => this.service.getBurnAlert(dataset, id, o));
  }

  updateDatasetDefinitions(dataset: string, body: Record<string, never>, o?: { signal?: AbortSignal }): Read<Json> {
    return keep(this.definitions, dataset, () => this.service.updateDatasetDefinitions(dataset, body, o));
  }

  /** What a form saved becomes the read of its object: the alert (in the lists kept too), or the whole map. */
  remember(saved: SavedSlo): void {
    if (saved.kind === 'definitions') {
      this.definitions.set(saved.dataset, Promise.resolve(saved.map));
      return;
    }
    const { dataset, alert } = saved;
    this.alerts.set(`${dataset}\u0000${alert.id}`, Promise.resolve(alert));
    for (const [key, list] of this.alertLists)
      if (key.startsWith(`${dataset}\u0000`))
        this.alertLists.set(
          key,
          list.then((alerts) => alerts.map((a) => (a.id === alert.id ? { ...a, ...alert } : a))),
        );
  }
}

/** The kept answer of `key`, else the read made now (its pacing seen by the caller's pool) and kept. */
function keep<T>(kept: Map<string, Promise<T>>, key: string, read: () => Read<T>): Read<T> {
  const got = kept.get(key);
  if (got !== undefined) return got.then((data) => ({ data }));
  const reading = read();
  const data = reading.then((r) => r.data);
  kept.set(key, data);
  data.catch(() => {
    if (kept.get(key) === data) kept.delete(key);
  });
  return reading;
}
