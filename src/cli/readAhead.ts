// Reading the files of a command line ahead of their use: several reads at once, so that the disk and the
// thread pool work while the linter does, each file still handed over in the order given. Bounded twice:
// at most `concurrency` files being read or waiting to be used, and at most `budget` bytes of them, unless
// one file alone is over the budget (it is then read alone).
import type { Outcome } from '../result';

/** How far obs reads ahead: 8 files at once, 32 MiB of them together (a larger file is read alone). */
export const READ_AHEAD = { concurrency: 8, budget: 32 * 1024 * 1024 } as const;

/**
 * Reads an item. `admit` is called with its size once known, before its bytes are read, and the read goes
 * on when it resolves; a read that ends before (a missing file) need not call it. What goes wrong is best
 * made part of the result: a rejection is passed on by readAhead when the item's turn comes.
 */
export type ReadItem<T, R> = (item: T, admit: (size: number) => Promise<void>) => Promise<R>;

/** Items are let in to be read in their order, each once the bytes let in before it leave room. */
class Admission {
  private readonly sizes: (number | undefined)[];
  private readonly open: (() => void)[] = [];
  private next = 0;
  /** Bytes let in and not yet used. */
  private held = 0;

  constructor(
    count: number,
    private readonly budget: number,
  ) {
    this.sizes = new Array<number | undefined>(count);
  }

  /** Resolves when item `index`, of `size` bytes, is let in (at once for an item asked again). */
  enter(index: number, size: number): Promise<void> {
    if (this.sizes[index] !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      this.sizes[index] = size;
      this.open[index] = resolve;
      this.admit();
    });
  }

  /** Item `index` was used: its bytes make room. */
  leave(index: number): void {
    this.held -= this.sizes[index] ?? 0;
    this.admit();
  }

  private admit(): void {
    for (;;) {
      const size = this.sizes[this.next];
      const resolve = this.open[this.next];
      if (size === undefined || resolve === undefined || (this.held > 0 && this.held + size > this.budget)) return;
      this.held += size;
      this.next++;
      resolve();
    }
  }
}

/**
 * Reads `items` ahead and hands each result to `use` in the items' order; a result is dropped once used.
 * Items are let in to be read in their order, so the next one to be used never waits for a later one.
 */
export async function readAhead<T, R>(
  items: readonly T[],
  limits: { concurrency: number; budget: number },
  read: ReadItem<T, R>,
  use: (result: R, index: number) => void,
): Promise<void> {
  const admission = new Admission(items.length, limits.budget);
  const tasks: (Promise<Outcome<{ value: R }, unknown>> | undefined)[] = [];
  let started = 0;
  const start = (index: number, item: T) => {
    // Settled, so that a failure waits for its turn instead of going unheard; an item that never asked to
    // be let in is let in when it ends (with no bytes), so that the items after it are not held up.
    tasks[index] = Promise.resolve()
      .then(() => read(item, (size) => admission.enter(index, size)))
      .then(
        (value): Outcome<{ value: R }, unknown> => ({ ok: true, value }),
        (reason: unknown): Outcome<{ value: R }, unknown> => ({ ok: false, reason }),
      )
      .then(async (settled) => {
        await admission.enter(index, 0);
        return settled;
      });
  };
  for (let i = 0; i < items.length; i++) {
    for (; started < items.length && started < i + Math.max(1, limits.concurrency); started++)
      start(started, items[started] as T);
    const settled = await tasks[i];
    tasks[i] = undefined;
    try {
      if (settled !== undefined && !settled.ok) throw settled.reason;
      if (settled !== undefined) use(settled.value, i);
    } finally {
      admission.leave(i);
    }
  }
}
