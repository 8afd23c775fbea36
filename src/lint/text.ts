// Offsets to LSP positions and back. Line breaks are \n, \r\n and \r, as in LSP.
import type { Position, Range } from './types';

export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  private lineStarts(): number[] {
    if (this.starts !== undefined) return this.starts;
    const starts = [0];
    const text = this.text;
    if (!text.includes('\r')) {
      // The common case, and much faster: let indexOf find the line feeds.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
      return starts;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.starts = starts;
    return starts;
  }

  positionAt(offset: number): Position {
    const starts = this.lineStarts();
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] ?? 0) <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: clamped - (starts[low] ?? 0) };
  }

  /** The offset of a position; a character past the end of its line means the line's end, before its line break (LSP). */
  offsetAt(position: Position): number {
    const starts = this.lineStarts();
    if (position.line < 0) return 0;
    if (position.line >= starts.length) return this.text.length;
    const lineStart = starts[position.line] ?? 0;
    // Every line but the last ends in \n, \r\n or \r; the last ends in none.
    let lineEnd = starts[position.line + 1] ?? this.text.length;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 10 /* \n */) lineEnd--;
    if (lineEnd > lineStart && this.text.charCodeAt(lineEnd - 1) === 13 /* \r */) lineEnd--;
    return Math.max(lineStart, Math.min(lineStart + Math.max(0, position.character), lineEnd));
  }

  range(offset: number, length: number): Range {
    return { start: this.positionAt(offset), end: this.positionAt(offset + length) };
  }
}
