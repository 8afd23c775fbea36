// The first N of a stream of items by offset, in memory for N only: a max-heap whose top is the last
// item kept. A file's millionth problem costs one comparison, not a slot in a list to be sorted.

export interface Candidate<T> {
  offset: number;
  /** Order of arrival: of items at one offset the earlier comes first. */
  seq: number;
  item: T;
}

const after = <T>(a: Candidate<T>, b: Candidate<T>) => a.offset > b.offset || (a.offset === b.offset && a.seq > b.seq);

export class FirstByOffset<T> {
  private readonly heap: Candidate<T>[] = [];
  private seq = 0;

  /** `onDropped` hears of every item that is not (or no longer) among the first `limit`. */
  constructor(
    private readonly limit: number,
    private readonly onDropped: (item: T) => void,
  ) {}

  /** Whether an item at `offset` would be kept now (so callers can skip making it). */
  wouldKeep(offset: number): boolean {
    const top = this.heap[0];
    return this.limit > 0 && (this.heap.length < this.limit || (top !== undefined && offset < top.offset));
  }

  /** Offers an item; `make` is called only when it is kept. */
  offer(offset: number, make: () => T, dropped: () => void): void {
    const seq = this.seq++;
    if (!this.wouldKeep(offset)) {
      dropped();
      return;
    }
    const candidate = { offset, seq, item: make() };
    if (this.heap.length < this.limit) {
      this.heap.push(candidate);
      this.up(this.heap.length - 1);
      return;
    }
    const top = this.heap[0];
    if (top !== undefined) this.onDropped(top.item);
    this.heap[0] = candidate;
    this.down(0);
  }

  /** The items kept, by offset (and arrival). */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => a.offset - b.offset || a.seq - b.seq).map((c) => c.item);
  }

  private up(i: number): void {
    const h = this.heap;
    for (let child = i; child > 0; ) {
      const parent = (child - 1) >> 1;
      const c = h[child];
      const p = h[parent];
      if (c === undefined || p === undefined || !after(c, p)) return;
      h[child] = p;
      h[parent] = c;
      child = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (let parent = i; ; ) {
      const left = 2 * parent + 1;
      const right = left + 1;
      let largest = parent;
      const l = h[left];
      const r = h[right];
      const current = h[largest];
      if (l !== undefined && current !== undefined && after(l, current)) largest = left;
      const best = h[largest];
      if (r !== undefined && best !== undefined && after(r, best)) largest = right;
      if (largest === parent) return;
      const a = h[parent];
      const b = h[largest];
      if (a === undefined || b === undefined) return;
      h[parent] = b;
      h[largest] = a;
      parent = largest;
    }
  }
}
