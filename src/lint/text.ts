// Offsets to LSP positions and back. Line breaks are \n, \r\n and \r, as in LSP.
import { Int32List } from './int32List';
import type { Position, Range } from './types';

/** Lines between two kept line starts: a file of 3 million lines keeps 47,000 numbers, not 3 million. */
const STEP = 64;

/** The start of the line after the first line break at or after `from`; -1 when there is none. */
function lineAfter(text: string, from: number, crlf: boolean): number {
  // Without \r (the common case) indexOf finds the line feeds, much faster than a loop.
  if (!crlf) {
    const i = text.indexOf('\n', from);
    return i < 0 ? -1 : i + 1;
  }
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 /* \r */) return text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
    if (c === 10 /* \n */) return i + 1;
  }
  return -1;
}

export class LineIndex {
  /** The start of every STEP-th line found so far: line k * STEP starts at checkpoints[k]. */
  private readonly checkpoints = new Int32List();
  /** Lines found so far: line starts are known up to line `lines - 1`, which starts at `lastStart`. */
  private lines = 1;
  private lastStart = 0;
  /** Whether every line break is found. */
  private done = false;
  private readonly crlf: boolean;
  /** The line positionAt found last, and its start: diagnostics are placed in document order, so the next
   * offset is most often on that line or a few after it (without this, every lookup walked up to STEP lines). */
  private cursorLine = 0;
  private cursorStart = 0;

  constructor(private readonly text: string) {
    this.crlf = text.includes('\r');
    this.checkpoints.push(0);
  }

  /** Finds the next line start; false at the end of the text. */
  private findNext(): boolean {
    if (this.done) return false;
    const next = lineAfter(this.text, this.lastStart, this.crlf);
    if (next < 0) {
      this.done = true;
      return false;
    }
    if (this.lines % STEP === 0) this.checkpoints.push(next);
    this.lines++;
    this.lastStart = next;
    return true;
  }

  /** The start of a line already found (`line < lines`): from the checkpoint before it, line by line. */
  private startOf(line: number): number {
    let start = this.checkpoints.data[Math.floor(line / STEP)] ?? 0;
    for (let l = line - (line % STEP); l < line; l++) start = lineAfter(this.text, start, this.crlf);
    return start;
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    // Lines are found until one starts past the offset (or the text ends).
    while (this.lastStart <= clamped && this.findNext());
    // The last checkpoint at or before the offset, then its lines one by one.
    let low = 0;
    let high = this.checkpoints.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.checkpoints.data[mid] ?? 0) <= clamped) low = mid;
      else high = mid - 1;
    }
    let line = low * STEP;
    let start = this.checkpoints.data[low] ?? 0;
    // The line found last, when it lies between that checkpoint and the offset, is a nearer start.
    if (this.cursorLine > line && this.cursorStart <= clamped) {
      line = this.cursorLine;
      start = this.cursorStart;
    }
    while (line + 1 < this.lines) {
      const next = lineAfter(this.text, start, this.crlf);
      if (next < 0 || next > clamped) break;
      line++;
      start = next;
    }
    this.cursorLine = line;
    this.cursorStart = start;
    return { line, character: clamped - start };
  }

  /** The offset of a position; a character past the end of its line means the line's end, before its line break (LSP). */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    while (this.lines <= position.line + 1 && this.findNext());
    if (position.line >= this.lines) return this.text.length;
    const lineStart = this.startOf(position.line);
    // Every line but the last ends in \n, \r\n or \r; the last ends in none.
    let lineEnd = position.line + 1 < this.lines ? lineAfter(this.text, lineStart, this.crlf) : this.text.length;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 10 /* \n */) lineEnd--;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 13 /* \r */) lineEnd--;
    return Math.max(lineStart, Math.min(lineStart + Math.max(0, position.character), lineEnd));
  }

  range(offset: number, length: number): Range {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }
}
