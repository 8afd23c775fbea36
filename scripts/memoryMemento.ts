// An in-memory Memento (the slice src/extension/core/memento.ts names MementoLike) for the tests and the
// bench, which run the models in plain Node. Values are cloned as VS Code's globalState stores them.
import type { MementoLike } from '../src/extension/core/memento';

export class MemoryMemento implements MementoLike {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.data.delete(key);
    else this.data.set(key, structuredClone(value));
  }
}
