// Reading the files of a command line ahead of their use: several reads at once, so that the disk and the
// thread pool work while the linter does, each file still handed over in the order given. Bounded twice:
// at most `concurrency` files being read or waiting to be used, and at most `budget` bytes of them (by
// the size a file has before it is read), unless one file alone is over the budget (it is then read alone).

/** How far obs reads ahead: 8 files at once, 32 MiB of them together (a larger file is read alone). */
export const READ_AHEAD = { concurrency: 8, budget: 32 * 1024 * 1024 } as const;

export interface ReadAheadOptions<T, R> {
  concurrency: number;
  /** Bytes read ahead at most, over the files read or waiting to be used. */
  budget: number;
  /** How many bytes reading an item will take, known before reading it (a file's size); 0 when unknown. */
  size(item: T): Promise<number>;
  /** Reads an item; what goes wrong is part of its result (a rejection is passed on by readAhead). */
  read(item: T): Promise<R>;
}

/** Items are let in to be read one after the other, each once the bytes let in before it leave room. */
class Admission {
  private readonly sizes: (number | undefined)[];
  private readonly open: (() => void)[] = [];
  private next = 0;
  /** Bytes let in and not yet used. */
  private held = 0;

  constructor(count: number, private readonly budget: number) {
    this.sizes = new Array<number | undefined>(count);
  }

  /** Resolves when item `index`, of `size` bytes, is let in. */
  enter(index: number, size: number): Promise<void> {
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
export async function readAhead<T, R>(items: readonly T[], options: ReadAheadOptions<T, R>, use: (result: R, index: number) => void): Promise<void> {
  const admission = new Admission(items.length, options.budget);
  const tasks: (Promise<{ ok: R } | { failed: unknown }> | undefined)[] = [];
  let started = 0;
  const start = (index: number, item: T) => {
    const size = options.size(item).catch(() => 0);
    // Settled, so that a failure waits for its turn instead of going unheard.
    tasks[index] = size
      .then((n) => admission.enter(index, n))
      .then(() => options.read(item))
      .then(
        (ok) => ({ ok }),
        (failed: unknown) => ({ failed }),
      );
  };
  for (let i = 0; i < items.length; i++) {
    for (; started < items.length && started < i + Math.max(1, options.concurrency); started++) start(started, items[started] as T);
    const settled = await tasks[i];
    tasks[i] = undefined;
    try {
      if (settled !== undefined && 'failed' in settled) throw settled.failed;
      if (settled !== undefined) use(settled.ok, i);
    } finally {
      admission.leave(i);
    }
  }
}
