// The linter's work grows linearly with its input, whatever the input: these tests count work (members
// indexed and looked up, characters scanned, overlap checks, array reads), never time, on inputs that
// took quadratic time before (an object of many members, many fixes, many havings and calculations).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixAll, lint, MAX_MESSAGE_LENGTH } from '../../src/lint';
import { duplicateScanStats } from '../../src/lint/duplicates';
import { fixStats } from '../../src/lint/fixes';
import { lintStats } from '../../src/lint/lint';
import { checkTriggerRelations, NEUTRAL_METRICS_DATASET_HINT } from '../../src/lint/schema/relations';
import { skimStats } from '../../src/lint/skim';
import { wordingStats } from '../../src/lint/schema/wording';
import { trigger } from './lint-helpers';

/** The base trigger with n unknown members after its own (built without spreading n arguments). */
const withUnknown = (n: number) => trigger().replace(/\n}$/, `,\n${Array.from({ length: n }, (_, i) => `  "x${i}": ${i}`).join(',\n')}\n}`);

function skimWork(text: string): { indexed: number; visits: number; diagnostics: number; first: string | undefined } {
  skimStats.indexed = 0;
  skimStats.visits = 0;
  const found = lint(text);
  return { indexed: skimStats.indexed, visits: skimStats.visits, diagnostics: found.length, first: found[0]?.message };
}

test('an object of N unknown members is indexed once: N + 4 members, and lookups grow with N, not N²', () => {
  const small = skimWork(withUnknown(5_000));
  const large = skimWork(withUnknown(10_000));
  assert.equal(small.indexed, 5_004);
  assert.equal(large.indexed, 10_004);
  // A key index (each member once) and one lookup per unknown member.
  assert.ok(large.visits <= 2 * 10_004 + 10, `visits ${large.visits}`);
  assert.ok(large.visits <= 2 * small.visits + 10, `visits ${small.visits} then ${large.visits}`);
});

test('of N unknown members the first 1,000 are shown and one more diagnostic counts the rest', () => {
  const work = skimWork(withUnknown(10_000));
  assert.equal(work.diagnostics, 1_001);
  assert.equal(work.first, '9,000 more problems not shown (0 errors, 9,000 warnings, 0 infos): only the first 1,000 of a file are reported; fix those and lint again');
  assert.equal(lintStats.built, 1_000);
});

test('200,000 unknown members: no stack overflow (nothing spreads an unbounded list into arguments)', () => {
  const found = lint(withUnknown(200_000));
  assert.equal(found.length, 1_001);
  assert.equal(found[0]?.rule, 'file/too-many-problems');
});

test('duplicate members: the check reads each character at most once', () => {
  const text = `[${Array.from({ length: 2_000 }, () => trigger('"name": "a"').replace('"frequency": 900', '"frequency": 900, "frequency": 900')).join(',')}]`;
  const found = lint(text, { maxDiagnostics: 5_000 });
  assert.equal(found.filter((d) => d.rule === 'json/duplicate-member').length, 2_000);
  assert.ok(duplicateScanStats.charsScanned <= text.length, `${duplicateScanStats.charsScanned} of ${text.length}`);
});

test('fix all over N read-only members: one pass removes them all, with one overlap check per edit', () => {
  const n = 4_000;
  const listed = `[${Array.from({ length: n }, (_, i) => trigger(`"triggered": ${i % 2 === 0}`)).join(',\n')}]`;
  const clean = `[${Array.from({ length: n }, () => trigger()).join(',\n')}]`;
  fixStats.compared = 0;
  const result = fixAll(listed);
  assert.equal(result.text, clean);
  assert.equal(result.applied, n);
  assert.deepEqual(result.diagnostics, []);
  assert.ok(fixStats.compared <= n, `compared ${fixStats.compared}`);
});

/** An array whose element reads are counted. */
function counted<T>(items: T[], reads: { n: number }): T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.n++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

test('havings and calculations are matched by lookup: reads grow with havings + calculations, not their product', () => {
  const readsFor = (n: number) => {
    const reads = { n: 0 };
    const calculations = counted(Array.from({ length: n }, (_, i) => ({ op: 'SUM', column: `c${i}` })), reads);
    const havings = counted(Array.from({ length: n }, (_, i) => ({ calculate_op: 'MAX', column: `c${i}`, op: '>', value: 1 })), reads);
    const messages: string[] = [];
    checkTriggerRelations({ name: 'n', query: { calculations, havings, time_range: 1800 } }, () => false, NEUTRAL_METRICS_DATASET_HINT, 'file', (_p, m) => messages.push(m));
    return { reads: reads.n, messages };
  };
  const small = readsFor(1_000);
  const large = readsFor(2_000);
  assert.ok(large.reads <= 2 * small.reads + 10, `reads ${small.reads} then ${large.reads}`);
  assert.ok(large.reads <= 10 * 4_000, `reads ${large.reads}`);
  // Every message names at most 10 calculations, so the messages grow linearly too.
  assert.ok(
    large.messages.every((m) => m.length < 600),
    `longest ${Math.max(...large.messages.map((m) => m.length))}`,
  );
});

test('2,000 calculations: every message is short, though each names the aggregates', () => {
  const calcs = Array.from({ length: 2_000 }, (_, i) => `{ "op": "SUM", "column": "c${i}" }`).join(', ');
  const found = lint(trigger(`"query": { "calculations": [${calcs}], "time_range": 1800 }`), { maxDiagnostics: 5_000 });
  assert.equal(found.filter((d) => d.rule === 'query/non-having-aggregates').length, 1_999);
  assert.ok(found.every((d) => d.message.length <= 400), `longest ${Math.max(...found.map((d) => d.message.length))}`);
  assert.match(found[0]?.message ?? '', /\(SUM\(c0\), SUM\(c1\), .*, SUM\(c9\) and 1990 more\)/);
});

test('a member name of a megabyte: the message is cut at the message bound', () => {
  const found = lint(trigger(`"${'k'.repeat(1_000_000)}": 1`));
  assert.equal(found.length, 1);
  assert.ok((found[0]?.message.length ?? Infinity) <= MAX_MESSAGE_LENGTH);
  assert.match(found[0]?.message ?? '', /^"k{60}\.\.\." is not a member of the trigger/);
});

test('broken JSON with a syntax problem per character: the first N are kept, the rest counted', () => {
  const found = lint(`[${'@ '.repeat(50_000)}]`, { maxDiagnostics: 10 });
  assert.equal(found.length, 11);
  assert.equal(found[0]?.rule, 'file/too-many-problems');
  assert.equal(found[0]?.severity, 'error');
  assert.match(found[0]?.message ?? '', /^49,990 more problems not shown \(49,990 errors, 0 warnings, 0 infos\)/);
  assert.deepEqual(
    found.slice(1).map((d) => d.range.start.character),
    [1, 3, 5, 7, 9, 11, 13, 15, 17, 19],
  );
});

test('triggers after the shown problems are checked without wording their messages: the wording work is that of the shown ones', () => {
  // Each of these triggers has more problems than the limit, so only the first trigger's can be shown.
  const bad = (i: number) => ({ name: `t${i}`, frequency: 90, threshold: { op: '!', value: 'x' }, query: { calculations: [{ op: 'NOPE', column: 3 }], time_range: 30, bogus: 1 }, tags: [{ key: 'A', value: 'B' }], alert_type: 'x' });
  const worded = (n: number) => {
    wordingStats.worded = 0;
    const found = lint(JSON.stringify(Array.from({ length: n }, (_, i) => bad(i)), null, 1), { maxDiagnostics: 5 });
    return { worded: wordingStats.worded, summary: found[0]?.message ?? '' };
  };
  const one = worded(1);
  const many = worded(2_000);
  assert.ok(one.worded > 5, `the first trigger's problems are worded (${one.worded})`);
  assert.equal(many.worded, one.worded);
  assert.equal(many.summary, '19,995 more problems not shown (17,995 errors, 2,000 warnings, 0 infos): only the first 5 of a file are reported; fix those and lint again', 'the others are still counted');
});
