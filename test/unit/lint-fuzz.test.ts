// Generated and mutated documents: the linter never throws, every range lies in the document,
// every fix yields valid JSON on which its rule no longer fires for its member, and the lazy tree
// that locates findings agrees with jsonc-parser's and with JSON.parse, on JSON written any way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getNodeValue, parseTree, type Node } from 'jsonc-parser';
import { applyFixes, lint, type Diagnostic, type LintOptions, type Range } from '../../src/lint';
import { findValueNode } from '../../src/lint/fixes';
import { recover, RecoveredIndex } from '../../src/lint/recover';
import { skimTree, treeOver, type TreeNode } from '../../src/lint/skim';
import { TRIGGER_READ_ONLY_MEMBERS } from '../../src/api/schemas/trigger';
import { CALCULATION_OPS, FILTER_OPS, METRICS_CALCULATION_OPS } from '../../src/lint/schema';

const OPTIONS: LintOptions = { metricsDatasets: ['metrics'] };

// Values near every boundary of the rules, plus values of the wrong type.
const seconds = fc.oneof(
  fc.constantFrom(0, 30, 59, 60, 61, 90, 120, 240, 241, 900, 899, 901, 3600, 3601, 43200, 86400, 86401, 86460, 345600),
  fc.integer({ min: -100, max: 100_000 }),
  fc.integer({ min: 1, max: 1440 }).map((n) => n * 60),
  fc.double({ min: 0, max: 100_000, noNaN: true }),
  fc.constant('900'),
);
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', 'team', 'Team', 'a'.repeat(121), 'x'.repeat(33)));
const op = fc.constantFrom(...CALCULATION_OPS, ...METRICS_CALCULATION_OPS, 'MEDIAN', 42);
const column = fc.constantFrom('duration_ms', 'status', 'c1', '');
const calculation = fc.record(
  { op, column, name: fc.constantFrom('a', 'b', ''), filters: fc.constant([{ column: 'x', op: 'exists' }]), alias: fc.constant(1) },
  { requiredKeys: ['op'] },
);
const having = fc.record(
  { calculate_op: op, column, op: fc.constantFrom('>', '<', '~'), value: fc.oneof(fc.integer(), fc.constant('5')) },
  { requiredKeys: [] },
);
const query = fc.record(
  {
    calculations: fc.array(calculation, { maxLength: 4 }),
    filters: fc.array(fc.record({ column, op: fc.constantFrom(...FILTER_OPS, 'like'), value: fc.oneof(fc.integer(), fc.string({ maxLength: 3 })) }), { maxLength: 2 }),
    filter_combination: fc.constantFrom('AND', 'OR', 'XOR'),
    breakdowns: fc.array(fc.oneof(column, fc.integer()), { maxLength: 2 }),
    havings: fc.array(having, { maxLength: 2 }),
    formulas: fc.array(fc.record({ name: text, expression: text }, { requiredKeys: [] }), { maxLength: 2 }),
    time_range: seconds,
    granularity: fc.oneof(fc.integer({ min: -1, max: 5000 }), fc.constant('60')),
    orders: fc.constant([]),
    limit: fc.integer(),
    start_time: fc.integer(),
    end_time: fc.integer(),
    usage_mode: fc.boolean(),
    timerange: fc.integer(),
  },
  { requiredKeys: [] },
);
const readOnly = fc.record(Object.fromEntries(TRIGGER_READ_ONLY_MEMBERS.map((m) => [m, fc.constantFrom('x', false, null)])), { requiredKeys: [] });
const triggerValue = fc
  .tuple(
    fc.record(
      {
        dataset_slug: fc.constantFrom('api', 'metrics', '', 'all'),
        name: text,
        description: text,
        tags: fc.array(fc.record({ key: text, value: fc.oneof(text, fc.integer()) }), { maxLength: 12 }),
        threshold: fc.record(
          { op: fc.constantFrom('>', '>=', '<', '<=', '='), value: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant('1')), exceeded_limit: fc.integer({ min: -1, max: 7 }) },
          { requiredKeys: [] },
        ),
        frequency: seconds,
        alert_type: fc.constantFrom('on_change', 'on_true', 'always'),
        disabled: fc.oneof(fc.boolean(), fc.constant('no')),
        recipients: fc.array(fc.oneof(fc.record({ id: text }), fc.record({ type: text, target: text }), fc.constant({})), { maxLength: 2 }),
        evaluation_schedule_type: fc.constantFrom('frequency', 'window', 'hourly'),
        evaluation_schedule: fc.oneof(
          fc.constant(null),
          fc.record({
            window: fc.record({
              days_of_week: fc.array(fc.constantFrom('monday', 'sunday', 'Monday'), { maxLength: 8 }),
              start_time: fc.constantFrom('09:00', '9:00', '24:00'),
              end_time: fc.constantFrom('17:00', '23:59'),
            }),
          }),
        ),
        baseline_details: fc.oneof(
          fc.constant(null),
          fc.record({ type: fc.constantFrom('percentage', 'value', 'ratio'), offset_minutes: fc.constantFrom(60, 1440, 30) }),
        ),
        query: fc.oneof(query, fc.constant(null), fc.constant('q')),
        query_id: fc.oneof(fc.constant('q1'), fc.constant(null)),
        frequncy: fc.integer(),
      },
      { requiredKeys: [] },
    ),
    readOnly,
  )
  .map(([t, r]) => ({ ...r, ...t }));

const layout = fc.constantFrom<string | number>(0, 2, '\t');
const document = fc.oneof(
  fc.tuple(triggerValue, layout).map(([t, indent]) => JSON.stringify(t, null, indent)),
  fc.tuple(fc.array(triggerValue, { maxLength: 3 }), layout).map(([ts, indent]) => JSON.stringify(ts, null, indent)),
);

/** Text mutations that break JSON the way typing does: cut, insert, truncate, CRLF. */
const mutated = fc
  .tuple(document, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.constantFrom('', ',', '}', ']', '"', ':', '{', '1', ' ', '\n', '//', 'é', '\u0000')), { minLength: 1, maxLength: 3 }), fc.boolean())
  .map(([doc, edits, crlf]) => {
    let out = doc;
    for (const [at, cut, insert] of edits) {
      const i = out.length === 0 ? 0 : at % (out.length + 1);
      out = out.slice(0, i) + insert + out.slice(i + cut);
    }
    return crlf ? out.replace(/\n/g, '\r\n') : out;
  })
  .chain((doc) => fc.constantFrom(doc, `\uFEFF${doc}`));

function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.length);
}

function assertInside(range: Range, lengths: number[], what: string): void {
  const inside = (p: Range['start']) => p.line >= 0 && p.line < lengths.length && p.character >= 0 && p.character <= (lengths[p.line] ?? -1);
  assert.ok(inside(range.start) && inside(range.end), `${what} ${JSON.stringify(range)} outside the document`);
  const ordered = range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character);
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
  assert.ok(!after.some((a) => a.rule === d.rule && JSON.stringify(a.path) === same), `fix "${d.fix.title}" left ${d.rule} at ${same}\n${fixed}`);
}

test('generated triggers: no throw, ranges inside, fixes that hold (1,500 runs)', () => {
  fc.assert(fc.property(document, checkDocument), { numRuns: 1500, seed: 4242 });
});

test('mutated triggers, as when typing: no throw, ranges inside (1,500 runs)', () => {
  fc.assert(fc.property(mutated, checkDocument), { numRuns: 1500, seed: 1717 });
});

test('any JSON value: no throw, ranges inside (2,000 runs)', () => {
  fc.assert(
    fc.property(fc.tuple(fc.json({ maxDepth: 4 }), fc.boolean()), ([json, pretty]) => checkDocument(pretty ? JSON.stringify(JSON.parse(json), null, 2) : json)),
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
  return [node.type, node.offset, node.length, keyed ? node.value : null, (node.children ?? []).map((c: TreeNode | Node) => shape(c))];
}

test('the lazy tree has the nodes of jsonc-parser on valid JSON (1,000 runs)', () => {
  fc.assert(
    fc.property(fc.tuple(fc.json({ maxDepth: 4 }), fc.constantFrom<string | number | undefined>(undefined, 2, '\t'), fc.constantFrom('', ' \n')), ([json, indent, pad]) => {
      const text = pad + JSON.stringify(JSON.parse(json), null, indent) + pad;
      assert.deepEqual(shape(skimTree(text)), shape(parseTree(text)));
    }),
    { numRuns: 1000, seed: 5 },
  );
});

// JSON as people and other tools write it, not as JSON.stringify does: any whitespace (CRLF and lone
// CR too), every kind of escape (short, \u in either case, escaped surrogate pairs and lone
// surrogates), number forms, full Unicode, and duplicate keys spelled differently ("a" and "\u0061").
const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const space = fc.array(fc.constantFrom(' ', '\t', '\n', '\r\n', '\r'), { maxLength: 2 }).map((a) => a.join(''));
const character = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('"', '\\', '/', '\b', '\f', '\n', '\r', '\t', '\u0000', '\u001f', '\u2028', '\u{1F642}', '\ud800', '\udfff', '{', ']', ',', ':'),
);
function encode(c: string, how: number): string {
  const units = Array.from({ length: c.length }, (_, i) => c.charCodeAt(i));
  const mustEscape = c === '"' || c === '\\' || units.some((u) => u < 0x20);
  const short = SHORT_ESCAPES[c];
  if (how === 0 && !mustEscape) return c;
  if (how === 1 && short !== undefined) return short;
  const hex = (u: number) => u.toString(16).padStart(4, '0');
  return units.map((u) => `\\u${how === 2 ? hex(u).toUpperCase() : hex(u)}`).join('');
}
const jsonString = fc.array(fc.tuple(character, fc.nat({ max: 3 })), { maxLength: 6 }).map((parts) => `"${parts.map(([c, how]) => encode(c, how)).join('')}"`);
const key = fc.oneof(jsonString, fc.constantFrom('"a"', '"\\u0061"', '"b"', '""'));
const jsonNumber = fc.oneof(
  fc.constantFrom('0', '-0', '1', '-12', '3.25', '1e5', '1E+5', '-2.5e-3', '0.0', '1e0', '123456789012345678901234567890'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);
const { written } = fc.letrec<{ written: string; array: string; object: string }>((tie) => ({
  written: fc.oneof({ depthSize: 'small', maxDepth: 5 }, jsonString, jsonNumber, fc.constantFrom('true', 'false', 'null'), tie('array'), tie('object')),
  array: fc
    .tuple(fc.array(fc.tuple(space, tie('written'), space), { maxLength: 4 }), space)
    .map(([items, inside]) => (items.length === 0 ? `[${inside}]` : `[${items.map(([a, v, b]) => a + v + b).join(',')}]`)),
  object: fc
    .tuple(fc.array(fc.tuple(space, key, space, space, tie('written'), space), { maxLength: 4 }), space)
    .map(([members, inside]) => (members.length === 0 ? `{${inside}}` : `{${members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`)),
}));
const writtenDocument = fc.tuple(space, written, space).map(([a, v, b]) => a + v + b);

/** Every path into a JSON value (object members by key, array elements by index). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
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
        assert.deepEqual(JSON.parse(text.slice(node.offset, node.offset + node.length)), expected, `at ${JSON.stringify(path)}`);
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
      const expected = parseTree(text, [], { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
      const root = recovered.root === undefined ? undefined : treeOver(new RecoveredIndex(text, recovered.containers), recovered.root.offset, recovered.root.end);
      assert.deepEqual(shape(root), shape(expected));
      assert.deepEqual(plain(recovered.value), plain(expected === undefined ? undefined : getNodeValue(expected)));
    }),
    { numRuns: 1500, seed: 31 },
  );
});
