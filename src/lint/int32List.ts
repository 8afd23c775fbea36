// A growable list of 32-bit integers: numbers kept without an object each (offsets, line starts).

export class Int32List {
  data: Int32Array;
  length = 0;

  constructor(capacity = 64) {
    this.data = new Int32Array(capacity);
  }

  push(n: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = n;
  }

  /** Forgets the numbers from `length` on. */
  truncate(length: number): void {
    this.length = Math.min(this.length, length);
  }
}
