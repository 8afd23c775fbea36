// A broken file is read trigger by trigger (recover.ts's ElementCheck, lint.ts): its value is never held
// whole, and the tree keeps only the triggers whose findings can be shown. Positions come from a line
// index that keeps one line start in 64 (text.ts). Counted, never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint } from '../../src/lint';
import { visit } from 'jsonc-parser';
import { callsOf, measured } from './outside-work';
import { recover } from '../../src/lint/recover';
import { LineIndex } from '../../src/lint/text';
import { trigger as benchTrigger } from '../../bench/inputs';

/** 2,000 triggers, the one at `bad` with a frequency not a multiple of 60, the final ] left out. */
const brokenFile = (bad: number) =>
  `[\n${Array.from({ length: 2_000 }, (_, i) => JSON.stringify({ ...benchTrigger(i, true), frequency: i === bad ? 61 : 300 }, null, 2)).join(',\n')}\n`;

test('a broken top-level array goes to the element check one element at a time, and neither its values nor their containers are kept', () => {
  const seen: number[] = [];
  const recovered = recover(brokenFile(-1), 1000, (index, value, start, end) => {
    assert.ok(typeof value === 'object' && value !== null && start < end);
    seen.push(index);
    return false;
  });
  assert.equal(recovered.streamed, true);
  assert.deepEqual(
    seen,
    Array.from({ length: 2_000 }, (_, i) => i),
  );
  assert.ok(
    Array.isArray(recovered.value) && recovered.value.length === 2_000 && recovered.value.every((v) => v === undefined),
  );
  // The top-level array alone: 2,000 elements of 12 containers each were read and let go.
  assert.equal(recovered.containers.starts.length, 1);
  const kept = recover(brokenFile(-1), 1000, (index) => index === 1_500);
  assert.equal(kept.containers.starts.length, 1 + 12);
});

test('the finding of the one bad trigger of a broken file is located exactly: its trigger kept its part of the tree', () => {
  const text = brokenFile(1_500);
  const found = lint(text);
  assert.deepEqual(
    found.map((d) => d.rule),
    ['trigger/frequency', 'json/syntax'],
  );
  const frequency = found.find((d) => d.rule === 'trigger/frequency');
  const offset = text.indexOf('"frequency": 61');
  const lines = new LineIndex(text);
  assert.deepEqual(frequency?.range.start, lines.positionAt(offset));
  assert.deepEqual(frequency?.path, [1_500, 'frequency']);
});

test('past the limit, the findings of a broken file are counted as they are in a valid one', () => {
  const bad = (i: number) => ({ ...benchTrigger(i, true), frequency: 61 });
  const triggers = Array.from({ length: 300 }, (_, i) => JSON.stringify(bad(i)));
  const valid = lint(`[${triggers.join(',')}]`, { maxDiagnostics: 5 });
  const broken = lint(`[${triggers.join(',')}`, { maxDiagnostics: 5 });
  assert.equal(
    valid[0]?.message,
    '295 more problems not shown (295 errors, 0 warnings, 0 infos): only the first 5 of a file are reported; fix those and lint again',
  );
  assert.equal(
    broken[0]?.message,
    '296 more problems not shown (296 errors, 0 warnings, 0 infos): only the first 5 of a file are reported; fix those and lint again',
  );
  assert.deepEqual(
    broken.slice(1).map((d) => d.path),
    valid.slice(1).map((d) => d.path),
  );
});

/** Positions as LSP counts them, from every line break of the text counted. */
function reference(text: string) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\r' && text[i + 1] === '\n') continue;
    if (text[i] === '\n' || text[i] === '\r') starts.push(i + 1);
  }
  return {
    positionAt(offset: number) {
      const o = Math.max(0, Math.min(offset, text.length));
      let line = 0;
      while (line + 1 < starts.length && (starts[line + 1] ?? 0) <= o) line++;
      return { line, character: o - (starts[line] ?? 0) };
    },
    offsetAt(position: { line: number; character: number }) {
      if (position.line < 0) return 0;
      if (position.line >= starts.length) return text.length;
      const start = starts[position.line] ?? 0;
      const end = (starts[position.line + 1] ?? text.length + 1) - 1;
      const content =
        position.line + 1 < starts.length
          ? text.slice(start, end + 1).replace(/\r?\n$|\r$/, '').length
          : text.length - start;
      return start + Math.max(0, Math.min(position.character, content));
    },
  };
}

test('positions and offsets from the line index are those of every line break counted, across the kept line starts (2,000 runs)', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', '\n', '\r', '\r\n'), maxLength: 600 }),
      fc.array(fc.integer({ min: -2, max: 620 }), { maxLength: 30 }),
      fc.array(fc.record({ line: fc.integer({ min: -1, max: 400 }), character: fc.integer({ min: -1, max: 8 }) }), {
        maxLength: 30,
      }),
      (text, offsets, positions) => {
        const index = new LineIndex(text);
        const expected = reference(text);
        for (const offset of offsets)
          assert.deepEqual(
            index.positionAt(offset),
            expected.positionAt(offset),
            `${offset} in ${JSON.stringify(text)}`,
          );
        for (const position of positions)
          assert.equal(
            index.offsetAt(position),
            expected.offsetAt(position),
            `${JSON.stringify(position)} in ${JSON.stringify(text)}`,
          );
      },
    ),
    { numRuns: 2000, seed: 64 },
  );
});

test('a file whose array or object its last character does not close is never given to JSON.parse: it would build the value only to refuse it', () => {
  const cut = brokenFile(1_500);
  const linted = callsOf(JSON, 'parse', () => lint(cut));
  assert.equal(linted.calls, 0);
  assert.deepEqual(
    linted.result.map((d) => d.rule),
    ['trigger/frequency', 'json/syntax'],
  );
  for (const text of ['{ "name": "x" \n', '[', '  [ {} , \t\r\n']) {
    assert.equal(callsOf(JSON, 'parse', () => lint(text)).calls, 0, JSON.stringify(text));
  }
});

test('a file that ends as JSON may is given to JSON.parse once, whether it parses or not', () => {
  for (const text of [`${brokenFile(1_500)}]`, '[ {"name": } ]', '{}\n', '"text"', '[1,]\n']) {
    assert.equal(callsOf(JSON, 'parse', () => lint(text)).calls, 1, JSON.stringify(text));
  }
});

test("a broken file is read by jsonc-parser's scanner once: as many tokens as one visit of the text reads", () => {
  const text = brokenFile(1_500);
  const once = measured(() => visit(text, {})).calls('jsonc-parser', 'scanNext');
  assert.ok(once > 100_000, String(once));
  const linted = measured(() => lint(text));
  assert.equal(linted.calls('jsonc-parser', 'scanNext'), once);
});

test('the caller hears once that JSON.parse refused the text, so that it can free what the parse built; never otherwise', () => {
  const heard = (text: string) => {
    let calls = 0;
    lint(text, { afterRefusedParse: () => calls++ });
    return calls;
  };
  assert.equal(heard(`${brokenFile(1_500)}]`.replace('},\n{', '}\n{')), 1);
  assert.equal(heard('[ {"name": } ]'), 1);
  // Valid, or never given to JSON.parse (an array its last character does not close).
  assert.equal(heard(`${brokenFile(1_500)}]`), 0);
  assert.equal(heard(brokenFile(1_500)), 0);
});
