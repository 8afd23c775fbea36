// Placing diagnostics: offsets become line and character positions in document order, and each lookup
// starts from the line found before it, not from the kept line start before it (one in 64). Work is counted
// from outside (the line breaks searched for), never timed.
import { measured } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineIndex } from '../../src/lint/text';

const LINES = 6_400;
const text = Array.from({ length: LINES }, (_, i) => `  "member${i}": ${i},`).join('\n');
const lineStarts: number[] = [];
for (let at = 0; at >= 0; at = text.indexOf('\n', at) + 1 || -1) lineStarts.push(at);

test('every line start looked up in document order: each line break is searched for at most three times', () => {
  const work = measured(() => {
    const lines = new LineIndex(text);
    return lineStarts.map((offset) => lines.positionAt(offset));
  });
  assert.deepEqual(
    work.result,
    lineStarts.map((_, line) => ({ line, character: 0 })),
  );
  const searches = work.calls('/src/lint/text', 'lineAfter');
  assert.ok(searches <= 3 * LINES, `${searches} searches for ${LINES} lines`);
});

test('a lookup before the one made last still finds its own line', () => {
  const lines = new LineIndex(text);
  assert.deepEqual(lines.positionAt(lineStarts[5_000] ?? 0), { line: 5_000, character: 0 });
  assert.deepEqual(lines.positionAt((lineStarts[70] ?? 0) + 3), { line: 70, character: 3 });
  assert.deepEqual(lines.positionAt((lineStarts[4_999] ?? 0) + 1), { line: 4_999, character: 1 });
});
