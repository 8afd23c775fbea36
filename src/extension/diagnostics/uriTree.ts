// Values kept by uri in a tree of the uri's path segments, so that everything under a folder is found by
// walking down to the folder and through what lies under it. Deleting or renaming a folder then costs in
// proportion to its own entries, not to all of Problems (a scan of every entry per deleted file cost
// seconds for a folder of thousands among thousands). No vscode import.

interface Node<T> {
  readonly children: Map<string, Node<T>>;
  value?: T;
  has: boolean;
}

const node = <T>(): Node<T> => ({ children: new Map(), has: false });

/** `file:///w/a/b.json` → `file:`, ``, ``, `w`, `a`, `b.json`; a folder's trailing slash is dropped. */
function segments(uri: string): string[] {
  const parts = uri.split('/');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

export class UriTree<T> {
  private readonly root = node<T>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  set(uri: string, value: T): void {
    let at = this.root;
    for (const s of segments(uri)) {
      let next = at.children.get(s);
      if (next === undefined) at.children.set(s, (next = node<T>()));
      at = next;
    }
    if (!at.has) this.count++;
    at.has = true;
    at.value = value;
  }

  /** Removes `uri`'s own value (not what lies under it); folders left empty are pruned. */
  delete(uri: string): boolean {
    const path: Node<T>[] = [this.root];
    const parts = segments(uri);
    for (const s of parts) {
      const next = path[path.length - 1]?.children.get(s);
      if (next === undefined) return false;
      path.push(next);
    }
    const target = path[path.length - 1];
    if (target === undefined || !target.has) return false;
    target.has = false;
    target.value = undefined;
    this.count--;
    for (let i = parts.length; i > 0; i--) {
      const child = path[i];
      if (child === undefined || child.has || child.children.size > 0) break;
      path[i - 1]?.children.delete(parts[i - 1] ?? '');
    }
    return true;
  }

  /** The values of `uri` itself and of every uri under it as a folder (`<uri>/...`). */
  under(uri: string): T[] {
    let at: Node<T> | undefined = this.root;
    for (const s of segments(uri)) {
      at = at.children.get(s);
      if (at === undefined) return [];
    }
    const out: T[] = [];
    const stack: Node<T>[] = [at];
    for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
      if (next.has) out.push(next.value as T);
      for (const child of next.children.values()) stack.push(child);
    }
    return out;
  }
}
