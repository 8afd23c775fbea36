// Nesting deeper than the linter reads (512 levels): 5,000 and 100,000 levels of arrays or objects, in
// valid and in broken JSON, inside a trigger and at the top of the file. Linting never throws (no stack
// overflow), the depth is reported once where it starts, the trigger holding it is not checked, and the
// other triggers of the file are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lint, type Diagnostic } from '../../src/lint';
import fc from 'fast-check';
import { createScanner } from 'jsonc-parser';
import { deepRegionsOfBroken, MAX_DEPTH, type DeepRegion } from '../../src/lint/depth';
import { marked } from './lint-helpers';

/** `levels` arrays (or objects) nested around `inner`, the first one past MAX_DEPTH marked; `from` is the level of the outermost. */
function nested(kind: 'arrays' | 'objects', levels: number, from: number, inner = '"x"'): string {
  const open = kind === 'arrays' ? '[' : '{"a":';
  const close = kind === 'arrays' ? ']' : '}';
  const before = MAX_DEPTH + 1 - from;
  const marker = kind === 'arrays' ? '«[»' : '«{»"a":';
  return `${open.repeat(before)}${marker}${open.repeat(levels - before - 1)}${inner}${close.repeat(levels)}`;
}

const withFilterValue = (value: string) =>
  `{ "name": "deep", "threshold": { "op": ">", "value": 1 }, "query": { "calculations": [{ "op": "COUNT" }], "filters": [{ "column": "c", "op": "in", "value": ${value} }], "time_range": 1800 } }`;
/** A second trigger with one problem of its own: it is still checked. */
const OTHER =
  '{ "name": "other", "frequency": 90, "threshold": { "op": ">", "value": 1 }, "query": { "calculations": [{ "op": "COUNT" }], "time_range": 1800 } }';

const summary = (found: Diagnostic[]) => found.map((d) => [d.rule, d.path, d.range]);
const depthAt = (range: Diagnostic['range']) => ['json/too-deep', [], range];
const OTHER_FREQUENCY = ['trigger/frequency', [1, 'frequency']];

for (const levels of [5_000, 100_000]) {
  for (const kind of ['arrays', 'objects'] as const) {
    test(`valid JSON: a filter value of ${levels.toLocaleString('en')} nested ${kind} is reported where it passes 512 levels; the other trigger is checked`, () => {
      // The file's array is level 1, the trigger 2, its query 3, the filters 4, the filter 5: the value starts at 6.
      const { text, range } = marked(`[${withFilterValue(nested(kind, levels, 6))}, ${OTHER}]`);
      const found = lint(text);
      assert.deepEqual(
        summary(found).map((s) => s.slice(0, 2)),
        [['json/too-deep', []], OTHER_FREQUENCY],
      );
      assert.deepEqual(summary(found)[0], depthAt(range));
    });

    test(`broken JSON: a filter value of ${levels.toLocaleString('en')} nested ${kind} broken deep inside is reported once; the other trigger is checked`, () => {
      // A missing comma at the bottom: what is too deep is not read, so it is not reported either.
      const { text, range } = marked(`[${withFilterValue(nested(kind, levels, 6, '"x" "y"'))}, ${OTHER}]`);
      assert.throws(() => JSON.parse(text));
      const found = lint(text);
      assert.deepEqual(
        summary(found).map((s) => s.slice(0, 2)),
        [['json/too-deep', []], OTHER_FREQUENCY],
      );
      assert.deepEqual(summary(found)[0], depthAt(range));
    });

    test(`valid JSON: ${levels.toLocaleString('en')} nested ${kind} at the top of the file: the element is reported, the trigger after it checked`, () => {
      const { text, range } = marked(`[${nested(kind, levels, 2)}, ${OTHER}]`);
      const found = summary(lint(text));
      const rootType = kind === 'arrays' ? [['json/root-type', [0]]] : [];
      // An object at the top of the array is a trigger: not checked, since it holds what is too deep.
      assert.deepEqual(
        found.map((s) => s.slice(0, 2)),
        [...rootType, ['json/too-deep', []], OTHER_FREQUENCY],
      );
      assert.deepEqual(found[rootType.length], depthAt(range));
    });

    test(`broken JSON: ${levels.toLocaleString('en')} ${kind} opened at the top of the file and never closed: reported, no stack overflow`, () => {
      const { text, range } = marked(nested(kind, levels, 1).replace(/[\]}]+$/, ''));
      const found = summary(lint(text));
      assert.ok(
        found.some((s) => JSON.stringify(s) === JSON.stringify(depthAt(range))),
        JSON.stringify(found),
      );
      assert.ok(
        found.every(([rule]) => rule === 'json/too-deep' || rule === 'json/syntax' || rule === 'json/root-type'),
        JSON.stringify(found),
      );
    });
  }
}

test('a value too deep where a message would quote it (threshold op) is reported, not a stack overflow', () => {
  const { text, range } = marked(
    `[{ "name": "deep", "threshold": { "op": ${nested('arrays', 5_000, 4)}, "value": 1 }, "query_id": "q" }, ${OTHER}]`,
  );
  const found = lint(text);
  assert.deepEqual(summary(found), [depthAt(range), [...OTHER_FREQUENCY, found[1]?.range]]);
});

test('a file of one trigger too deep gets that problem only', () => {
  const { text, range } = marked(withFilterValue(nested('objects', 5_000, 5)));
  assert.deepEqual(summary(lint(text)), [depthAt(range)]);
});

test('512 levels are read and checked as usual', () => {
  const text = `[${withFilterValue(`${'['.repeat(MAX_DEPTH - 5)}"x"${']'.repeat(MAX_DEPTH - 5)}`)}]`;
  assert.deepEqual(
    lint(text).map((d) => [d.rule, d.path]),
    [['query/filters', [0, 'query', 'filters', 0, 'value']]],
  );
});

// jsonc-parser's SyntaxKind is an ambient const enum, which isolated modules cannot read.
const [OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, EOF] = [1, 2, 3, 4, 17];

/** The regions as jsonc-parser's scanner, which the recovering parser reads with, finds the brackets. */
function regionsByScanner(text: string): DeepRegion[] {
  const out: DeepRegion[] = [];
  const scanner = createScanner(text, true);
  let depth = 0;
  let start = -1;
  for (let token: number = scanner.scan(); token !== EOF; token = scanner.scan()) {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      if (++depth === MAX_DEPTH + 1) start = scanner.getTokenOffset();
    } else if ((token === CLOSE_BRACE || token === CLOSE_BRACKET) && depth > 0) {
      if (depth-- === MAX_DEPTH + 1) out.push({ start, end: scanner.getTokenOffset() + 1 });
    }
  }
  if (depth > MAX_DEPTH) out.push({ start, end: text.length });
  return out;
}

test("broken text: the regions too deep are where jsonc-parser's scanner puts them, strings, escapes, comments and line breaks around (3,000 runs)", () => {
  const piece = fc.constantFrom(
    '[',
    ']',
    '{',
    '}',
    '"',
    '\\',
    '\n',
    '\r',
    '/',
    '*',
    '//',
    '/*',
    '*/',
    'a',
    ' ',
    ',',
    ':',
    'u',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.array(piece, { maxLength: 40 }), (head, tail) => {
      const text = `${head.join('')}${'['.repeat(MAX_DEPTH - 1)}${tail.join('')}`;
      assert.deepEqual(deepRegionsOfBroken(text), regionsByScanner(text), JSON.stringify(text));
    }),
    { numRuns: 3000, seed: 512 },
  );
});
