// A small base for lazily loaded trees: children cached until refresh, concurrent requests for the same
// node shared, loads cancellable, failures turned into nodes, and a name filter. No vscode import.
//
// A change names a node only once what it shows is loaded: VS Code's extension host forgets the children
// of a node it redraws until it has fetched them again, and in that window a child being expanded stays
// empty and a command run on a child gets no argument. So a refresh reloads first and redraws once.
import { Emitter } from '../core/memento';

export interface LoadFailure {
  /** The operation that failed, in words ("list columns of orders"). */
  operation: string;
  message: string;
  cancelled: boolean;
  /** The HTTP status the service answered with, when it answered. */
  status?: number | undefined;
}

interface CacheEntry<N> {
  promise: Promise<N[]>;
  /** Set once the promise settled. */
  value?: N[];
  controller: AbortController;
}

export abstract class CachedTreeModel<N> {
  private readonly cache = new Map<string, CacheEntry<N>>();
  private readonly changed = new Emitter<N | undefined>();
  private readonly loadingChanged = new Emitter<boolean>();
  private loadingCount = 0;
  private filterText: string | undefined;
  /** Aborted by cancelLoading(); every load started before then is cancelled. */
  private generation = new AbortController();

  /** Fires with the node whose children changed, or undefined for the whole tree. */
  readonly onDidChange = this.changed.event;
  /** Fires true when the first load starts and false when the last one ends. */
  readonly onDidChangeLoading = this.loadingChanged.event;

  /** Loads the children of a node (undefined = root). Throw to report a failure. */
  protected abstract load(node: N | undefined, signal: AbortSignal): Promise<N[]>;
  /** A stable id for caching and for the view. */
  abstract idOf(node: N | undefined): string;
  /** The node shown in place of children that failed to load. */
  protected abstract failureNode(parent: N | undefined, failure: LoadFailure): N;
  /** Describes a failure for the failure node (operation and a message free of secrets). */
  protected abstract describeFailure(parent: N | undefined, err: unknown, cancelled: boolean): LoadFailure;
  /** The names a node is found by: its own and its ancestors' (so children of a match stay visible). */
  protected abstract namesOf(node: N): string[];
  /** Nodes that stay visible whatever the filter (errors, so a failure never looks like an empty tree). */
  protected abstract alwaysVisible(node: N): boolean;
  /** Whether a node can have children (containers stay visible if a loaded descendant matches). */
  protected abstract hasChildren(node: N): boolean;

  /** Whether a node counts in countVisible (hints and errors do not). */
  protected countsAsItem(_node: N): boolean {
    return true;
  }

  /** The node a refresh of `node` reloads: itself, or an ancestor whose look depends on it (e.g. a total). */
  protected refreshTargetOf(node: N): N {
    return node;
  }

  /** Called once a node's children are loaded (not for failures), e.g. to remember their count. */
  protected loaded(_node: N, _children: N[]): void {}

  get loading(): boolean {
    return this.loadingCount > 0;
  }

  get filter(): string | undefined {
    return this.filterText;
  }

  setFilter(text: string | undefined): void {
    const t = text?.trim();
    this.filterText = t === undefined || t === '' ? undefined : t.toLowerCase();
    this.changed.fire(undefined);
  }

  /** Children as shown: loaded (or cached) and filtered. */
  async getChildren(node?: N): Promise<N[]> {
    const all = await this.loadChildren(node);
    return this.filterText === undefined ? all : all.filter((c) => this.isVisible(c));
  }

  /** Children before filtering, loading them if needed. */
  loadChildren(node?: N): Promise<N[]> {
    const id = this.idOf(node);
    const cached = this.cache.get(id);
    if (cached) return cached.promise;
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, this.generation.signal]);
    const entry: CacheEntry<N> = { controller, promise: Promise.resolve([]) };
    this.setLoading(+1);
    entry.promise = this.load(node, signal)
      .catch((err: unknown) => [this.failureNode(node, this.describeFailure(node, err, signal.aborted))])
      .then((children) => {
        entry.value = children;
        if (node !== undefined && !signal.aborted && this.cache.get(id) === entry) this.loaded(node, children);
        return children;
      })
      .finally(() => this.setLoading(-1));
    this.cache.set(id, entry);
    return entry.promise;
  }

  /** Every node whose children's list is loaded holds them: all of those, without loading anything. */
  loadedNodes(): N[] {
    return [...this.cache.values()].flatMap((e) => e.value ?? []);
  }

  /** Children already loaded, without loading (undefined when not loaded yet). */
  cachedChildren(node?: N): N[] | undefined {
    return this.cache.get(this.idOf(node))?.value;
  }

  /**
   * Forgets the cached children of a node and everything below it, and loads them again; the change naming
   * the node comes once they are in (the view keeps showing the old ones until then). The whole tree
   * (node undefined) is forgotten and redrawn at once.
   */
  refresh(asked?: N): void {
    const node = asked === undefined ? undefined : this.refreshTargetOf(asked);
    if (node === undefined) {
      for (const e of this.cache.values()) e.controller.abort();
      this.cache.clear();
      this.changed.fire(undefined);
      return;
    }
    const id = this.idOf(node);
    this.forgetSubtree(id);
    const reload = this.loadChildren(node);
    // A later refresh of the same node redraws for itself: only the newest reload names the node.
    void reload.then(() => {
      if (this.cache.get(id)?.promise === reload) this.changed.fire(node);
    });
  }

  /**
   * Like refresh, for a node known only by id (a command's argument, the parent of an error node): the
   * loaded node object with that id, which the view knows, or the whole tree when none is loaded.
   */
  refreshId(id: string): void {
    if (id === this.idOf(undefined)) return this.refresh();
    const node = this.loadedNode(id);
    if (node !== undefined) return this.refresh(node);
    this.forgetSubtree(id);
    this.changed.fire(undefined);
  }

  /** The loaded node with this id: looked for only among the children of its ancestors (ids are paths). */
  protected loadedNode(id: string): N | undefined {
    for (const [parentId, entry] of this.cache) {
      if (!id.startsWith(`${parentId}/`) && parentId !== this.idOf(undefined)) continue;
      const found = entry.value?.find((n) => this.idOf(n) === id);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  private forgetSubtree(id: string): void {
    for (const [key, e] of this.cache) {
      if (key === id || key.startsWith(`${id}/`)) {
        e.controller.abort();
        this.cache.delete(key);
      }
    }
  }

  /** Cancels every load in flight; their nodes show as cancelled with a Retry. */
  cancelLoading(): void {
    this.generation.abort();
    this.generation = new AbortController();
  }

  /** How many descendants of a node are visible under the filter, and how many are loaded. */
  countVisible(node: N): { visible: number; total: number } | undefined {
    const loaded = this.cachedChildren(node);
    if (!loaded) return undefined;
    const children = loaded.filter((c) => this.countsAsItem(c));
    return { visible: children.filter((c) => this.isVisible(c)).length, total: children.length };
  }

  isVisible(node: N): boolean {
    const filter = this.filterText;
    if (filter === undefined || this.alwaysVisible(node)) return true;
    if (this.namesOf(node).some((n) => n.toLowerCase().includes(filter))) return true;
    if (!this.hasChildren(node)) return false;
    const children = this.cachedChildren(node);
    return children !== undefined && children.some((c) => this.isVisible(c) && !this.alwaysVisible(c));
  }

  dispose(): void {
    this.cancelLoading();
    this.cache.clear();
    this.changed.dispose();
    this.loadingChanged.dispose();
  }

  private setLoading(delta: number): void {
    const before = this.loadingCount > 0;
    this.loadingCount += delta;
    const after = this.loadingCount > 0;
    if (before !== after) this.loadingChanged.fire(after);
  }
}
