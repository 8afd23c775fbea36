// A counter for the work classes report through their `observe` option (src/extension/core/work.ts):
// tests pass `observe` at construction and assert on the counts, never on time.
import type { WorkObserver } from '../../src/extension/core/work';

export interface WorkCounter<K extends string> {
  readonly observe: WorkObserver<K>;
  /** The units of `kind` counted so far (0 when none). */
  count(...kinds: K[]): number;
  /** Every kind counted so far, with its count. */
  counts(): Partial<Record<K, number>>;
}

export function workCounter<K extends string>(): WorkCounter<K> {
  const counts = new Map<K, number>();
  return {
    observe: (kind, amount = 1) => void counts.set(kind, (counts.get(kind) ?? 0) + amount),
    count: (...kinds) => kinds.reduce((sum, k) => sum + (counts.get(k) ?? 0), 0),
    counts: () => Object.fromEntries(counts) as Partial<Record<K, number>>,
  };
}
