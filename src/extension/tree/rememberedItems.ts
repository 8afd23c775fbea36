// What the user told the tree, remembered per connection in globalState: datasets added by hand,
// datasets hidden, and SLO ids per dataset: what the tree shows beside (or, where a key may not list
// them, instead of) the datasets and SLOs the service lists.
import { Emitter, type MementoLike } from '../core/memento';

interface ConnectionMemory {
  datasets: string[];
  hidden: string[];
  slos: Record<string, string[]>;
}
type Stored = Record<string, ConnectionMemory>;
const STATE_KEY = 'obs.remembered';

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

export class RememberedItems {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly memento: MementoLike) {}

  datasets(connectionId: string): string[] {
    return [...this.of(connectionId).datasets];
  }
  hidden(connectionId: string): string[] {
    return [...this.of(connectionId).hidden];
  }
  slos(connectionId: string, dataset: string): string[] {
    return [...(this.of(connectionId).slos[dataset] ?? [])];
  }

  async addDatasets(connectionId: string, slugs: readonly string[]): Promise<void> {
    await this.edit(connectionId, (m) => {
      for (const slug of slugs) {
        if (!m.datasets.includes(slug)) m.datasets.push(slug);
        m.hidden = m.hidden.filter((h) => h !== slug);
      }
    });
  }

  /**
   * Takes away the "added" mark only: the dataset's SLO ids stay, so a dataset that is also discovered
   * keeps them in the tree (see planDatasetRemoval in datasetRemoval.ts).
   */
  async removeDataset(connectionId: string, slug: string): Promise<void> {
    await this.edit(connectionId, (m) => {
      m.datasets = m.datasets.filter((d) => d !== slug);
    });
  }

  /** Takes away the "added" mark and forgets the dataset's SLO ids (after the user confirmed it). */
  async forgetDataset(connectionId: string, slug: string): Promise<void> {
    await this.edit(connectionId, (m) => {
      m.datasets = m.datasets.filter((d) => d !== slug);
      delete m.slos[slug];
    });
  }

  async hideDataset(connectionId: string, slug: string): Promise<void> {
    await this.edit(connectionId, (m) => {
      if (!m.hidden.includes(slug)) m.hidden.push(slug);
    });
  }

  async unhideAll(connectionId: string): Promise<void> {
    await this.edit(connectionId, (m) => {
      m.hidden = [];
    });
  }

  async addSlos(connectionId: string, dataset: string, sloIds: readonly string[]): Promise<void> {
    await this.edit(connectionId, (m) => {
      const list = m.slos[dataset] ?? [];
      for (const id of sloIds) if (!list.includes(id)) list.push(id);
      m.slos[dataset] = list;
    });
  }

  async removeSlo(connectionId: string, dataset: string, sloId: string): Promise<void> {
    await this.edit(connectionId, (m) => {
      const list = (m.slos[dataset] ?? []).filter((s) => s !== sloId);
      if (list.length > 0) m.slos[dataset] = list;
      else delete m.slos[dataset];
    });
  }

  async forgetConnection(connectionId: string): Promise<void> {
    const all = this.all();
    if (!(connectionId in all)) return;
    delete all[connectionId];
    await this.memento.update(STATE_KEY, all);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private all(): Stored {
    const raw = this.memento.get<Stored>(STATE_KEY);
    return typeof raw === 'object' && raw !== null ? structuredClone(raw) : {};
  }

  private of(connectionId: string): ConnectionMemory {
    const raw = this.all()[connectionId];
    const slos: Record<string, string[]> = {};
    if (raw && typeof raw.slos === 'object' && raw.slos !== null) {
      for (const [k, v] of Object.entries(raw.slos)) slos[k] = strings(v);
    }
    return { datasets: strings(raw?.datasets), hidden: strings(raw?.hidden), slos };
  }

  private async edit(connectionId: string, change: (m: ConnectionMemory) => void): Promise<void> {
    const all = this.all();
    const m = this.of(connectionId);
    change(m);
    all[connectionId] = m;
    await this.memento.update(STATE_KEY, all);
    this.changed.fire();
  }
}
