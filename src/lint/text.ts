// Offsets to LSP positions and back. Line breaks are \n, \r\n and \r, as in LSP.
import type { Position, Range } from './types';

/** Line starts as 32-bit numbers (a file of 3 million lines takes 12 MB, not 24 in an array of numbers), grown by doubling. */
class Starts {
  data = new Int32Array(256);
  length = 1;

  push(n: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = n;
  }

  at(i: number): number | undefined {
    return i >= 0 && i < this.length ? this.data[i] : undefined;
  }
}

export class LineIndex {
  /** Starts of the lines found so far (the first is 0): lines are found only as far as a position is asked for. */
  private readonly starts = new Starts();
  /** Offset up to which line breaks are in `starts`. */
  private scanned = 0;
  private readonly crlf: boolean;

  constructor(private readonly text: string) {
    // Without \r (the common case) indexOf finds the line feeds, much faster than a loop.
    this.crlf = text.includes('\r');
  }

  /** Finds line breaks until one past `offset` (or the end). */
  private scanTo(offset: number): Starts {
    const { text, starts } = this;
    while (this.scanned < text.length && (starts.at(starts.length - 1) ?? 0) <= offset) {
      if (!this.crlf) {
        const i = text.indexOf('\n', this.scanned);
        if (i < 0) {
          this.scanned = text.length;
          break;
        }
        starts.push(i + 1);
        this.scanned = i + 1;
        continue;
      }
      const i = this.scanned;
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        const next = text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
        starts.push(next);
        this.scanned = next;
      } else {
        if (c === 10 /* \n */) starts.push(i + 1);
        this.scanned = i + 1;
      }
    }
    return starts;
  }

  private lineStarts(): Starts {
    return this.scanTo(Infinity);
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.scanTo(clamped);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts.at(mid) ?? 0) <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - (starts.at(low) ?? 0) };
  }

  /** The offset of a position; a character past the end of its line means the line's end, before its line break (LSP). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    const starts = position.line + 1 < this.starts.length ? this.starts : this.lineStarts();
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts.at(position.line) ?? 0;
    // Every line but the last ends in \n, \r\n or \r; the last ends in none.
    let lineEnd = starts.at(position.line + 1) ?? this.text.length;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 10 /* \n */) lineEnd--;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 13 /* \r */) lineEnd--;
    return Math.max(lineStart, Math.min(lineStart + Math.max(0, position.character), lineEnd));
  }

  range(offset: number, length: number): Range {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }
}
