// Which rows of the Datasets view the user left open, per connection, in the workspace's state. VS Code keeps
// a row open only while a row of its id stays in the tree: when the tree is drawn for another connection in
// between (a switch and back, the sandbox stopped and started) or the window reloads, it forgets, and every
// dataset the user was working in had to be opened again. Rows drawn anew start open where they were left
// open. No vscode import.
import type { MementoLike } from '../core/memento';

const STATE_KEY = 'obs.tree.expanded';
/** Open rows remembered per connection; the oldest go first (a row that no longer exists is never closed). */
const MAX_PER_CONNECTION = 500;

type Stored = Record<string, string[]>;

export class ExpandedNodes {
  constructor(private readonly memento: MementoLike) {}

  isExpanded(connectionId: string, nodeId: string): boolean {
    return this.of(connectionId).includes(nodeId);
  }

  /** The user opened or closed a row (its children keep what they were: VS Code shows them so when it opens again). */
  async set(connectionId: string, nodeId: string, expanded: boolean): Promise<void> {
    const ids = this.of(connectionId).filter((id) => id !== nodeId);
    if (expanded) ids.push(nodeId);
    if (!expanded && ids.length === this.of(connectionId).length) return;
    await this.store(connectionId, ids.slice(-MAX_PER_CONNECTION));
  }

  /** A removed connection's rows go with it. */
  async forgetConnection(connectionId: string): Promise<void> {
    const all = this.all();
    if (!(connectionId in all)) return;
    delete all[connectionId];
    await this.memento.update(STATE_KEY, all);
  }

  private of(connectionId: string): string[] {
    const ids = this.all()[connectionId];
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }

  private all(): Stored {
    const stored = this.memento.get<unknown>(STATE_KEY);
    return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? { ...(stored as Stored) } : {};
  }

  private async store(connectionId: string, ids: string[]): Promise<void> {
    await this.memento.update(STATE_KEY, { ...this.all(), [connectionId]: ids });
  }
}
