// Generated and mutated documents: the linter never throws, every range lies in the document,
// every fix yields valid JSON on which its rule no longer fires for its member, and the lazy tree
// that locates findings agrees with jsonc-parser's and with JSON.parse, on JSON written any way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getNodeValue, parseTree, type Node } from 'jsonc-parser';
import { applyFixes, lint, type Diagnostic, type Range } from '../../src/lint';
import { findValueNode } from '../../src/lint/fixes';
import { recover, RecoveredIndex } from '../../src/lint/recover';
import { skimTree, treeOver, type TreeNode } from '../../src/lint/skim';
import { document, mutated, OPTIONS, writtenDocument } from './lint-generators';

function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.length);
}

function assertInside(range: Range, lengths: number[], what: string): void {
  const inside = (p: Range['start']) =>
    p.line >= 0 && p.line < lengths.length && p.character >= 0 && p.character <= (lengths[p.line] ?? -1);
  assert.ok(inside(range.start) && inside(range.end), `${what} ${JSON.stringify(range)} outside the document`);
  const ordered =
    range.start.line < range.end.line ||
    (range.start.line === range.end.line && range.start.character <= range.end.character);
  assert.ok(ordered, `${what} ${JSON.stringify(range)} ends before it starts`);
}

function checkDocument(text: string): void {
  const diagnostics = lint(text, OPTIONS);
  const lengths = lineLengths(text);
  for (const d of diagnostics) {
    assertInside(d.range, lengths, d.rule);
    for (const r of d.related ?? []) assertInside(r.range, lengths, `${d.rule} related`);
    if (d.fix === undefined) continue;
    for (const e of d.fix.edits) assertInside(e.range, lengths, `${d.rule} fix`);
    checkFix(text, d);
  }
}

function checkFix(text: string, d: Diagnostic): void {
  assert.ok(d.fix);
  const fixed = applyFixes(text, d.fix.edits);
  const after = lint(fixed, OPTIONS);
  const same = JSON.stringify(d.path);
  assert.deepEqual(
    after.filter((a) => a.rule === 'json/syntax').map((a) => a.message),
    [],
    `fix "${d.fix.title}" broke the JSON`,
  );
  assert.ok(
    !after.some((a) => a.rule === d.rule && JSON.stringify(a.path) === same),
    `fix "${d.fix.title}" left ${d.rule} at ${same}\n${fixed}`,
  );
}

test('generated triggers: no throw, ranges inside, fixes that hold (1,500 runs)', () => {
  fc.assert(fc.property(document, checkDocument), { numRuns: 1500, seed: 4242 });
});

test('mutated triggers, as when typing: no throw, ranges inside (1,500 runs)', () => {
  fc.assert(fc.property(mutated, checkDocument), { numRuns: 1500, seed: 1717 });
});

test('any JSON value: no throw, ranges inside (2,000 runs)', () => {
  fc.assert(
    fc.property(fc.tuple(fc.json({ maxDepth: 4 }), fc.boolean()), ([json, pretty]) =>
      checkDocument(pretty ? JSON.stringify(JSON.parse(json), null, 2) : json),
    ),
    { numRuns: 2000, seed: 99 },
  );
});

test('any text: no throw, ranges inside (500 runs)', () => {
  fc.assert(fc.property(fc.string({ maxLength: 60, unit: 'binary' }), checkDocument), { numRuns: 500, seed: 7 });
});

/** Type, offsets, keys and shape of every node: what the linter reads from a tree. */
function shape(node: TreeNode | Node | undefined): unknown {
  if (node === undefined) return undefined;
  const keyed = node.type === 'string' && node.parent?.type === 'property' && node.parent.children?.[0] === node;
  return [
    node.type,
    node.offset,
    node.length,
    keyed ? node.value : null,
    (node.children ?? []).map((c: TreeNode | Node) => shape(c)),
  ];
}

test('the lazy tree has the nodes of jsonc-parser on valid JSON (1,000 runs)', () => {
  fc.assert(
    fc.property(
      fc.tuple(
        fc.json({ maxDepth: 4 }),
        fc.constantFrom<string | number | undefined>(undefined, 2, '\t'),
        fc.constantFrom('', ' \n'),
      ),
      ([json, indent, pad]) => {
        const text = pad + JSON.stringify(JSON.parse(json), null, indent) + pad;
        assert.deepEqual(shape(skimTree(text)), shape(parseTree(text)));
      },
    ),
    { numRuns: 1000, seed: 5 },
  );
});

/** Every path into a JSON value (object members by key, array elements by index). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

test('the lazy tree has the nodes of jsonc-parser on JSON written any way (2,000 runs)', () => {
  fc.assert(
    fc.property(writtenDocument, (text) => {
      JSON.parse(text); // valid by construction: the lazy tree is only used on valid JSON
      assert.deepEqual(shape(skimTree(text)), shape(parseTree(text)));
    }),
    { numRuns: 2000, seed: 11 },
  );
});

test('the lazy tree finds what JSON.parse reads at every path, the last of duplicate keys included (2,000 runs)', () => {
  fc.assert(
    fc.property(writtenDocument, (text) => {
      const value: unknown = JSON.parse(text);
      const root = skimTree(text);
      assert.ok(root);
      for (const path of paths(value)) {
        const node = findValueNode(root, path);
        assert.ok(node, `no node at ${JSON.stringify(path)}`);
        let expected: unknown = value;
        for (const k of path) expected = (expected as Record<string | number, unknown>)[k];
        assert.deepEqual(
          JSON.parse(text.slice(node.offset, node.offset + node.length)),
          expected,
          `at ${JSON.stringify(path)}`,
        );
      }
    }),
    { numRuns: 2000, seed: 12 },
  );
});

test('on broken JSON the recovered tree has the nodes of jsonc-parser and the value of its getNodeValue (1,500 runs)', () => {
  // Prototype-less objects (getNodeValue's) and ordinary ones (the linter's) compare by their members.
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v ?? null)) as unknown;
  fc.assert(
    fc.property(mutated, (text) => {
      try {
        JSON.parse(text);
        return; // valid JSON takes the other path
      } catch {
        // broken: recovered
      }
      const recovered = recover(text, Infinity);
      const expected = parseTree(text, [], {
        disallowComments: true,
        allowTrailingComma: false,
        allowEmptyContent: false,
      });
      const root =
        recovered.root === undefined
          ? undefined
          : treeOver(new RecoveredIndex(text, recovered.containers), recovered.root.offset, recovered.root.end);
      assert.deepEqual(shape(root), shape(expected));
      assert.deepEqual(plain(recovered.value), plain(expected === undefined ? undefined : getNodeValue(expected)));
    }),
    { numRuns: 1500, seed: 31 },
  );
});
