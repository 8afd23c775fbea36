// The linter's work grows linearly with its input, whatever the input: these tests count work from
// outside the linter (blocks and calls V8 counted, array reads through a counting proxy), never time, on
// inputs that took quadratic time before (an object of many members, many fixes, many havings).
import { measured } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixAll, lint, MAX_MESSAGE_LENGTH } from '../../src/lint';
import { checkTriggerRelations, NEUTRAL_METRICS_DATASET_HINT } from '../../src/lint/schema/relations';
import { MAX_SUGGESTION_SEARCHES } from '../../src/lint/columns';
import { trigger } from './lint-helpers';

/** The base trigger with n unknown members after its own (built without spreading n arguments). */
const withUnknown = (n: number) =>
  trigger().replace(/\n}$/, `,\n${Array.from({ length: n }, (_, i) => `  "x${i}": ${i}`).join(',\n')}\n}`);

/** The linter's blocks run over `text` (after one lint of it, so what is compiled on first use is not counted). */
function linterBlocks(text: string, lintOf: (text: string) => unknown = (t) => lint(t)): number {
  lintOf(text);
  return measured(() => lintOf(text)).blocks('/src/lint/');
}

test('an object of N unknown members: the linter does at most twice the work for twice the members', () => {
  const small = linterBlocks(withUnknown(5_000));
  const large = linterBlocks(withUnknown(10_000));
  assert.ok(large <= 2 * small, `blocks ${small} then ${large}`);
});

test('of N unknown members the first 1,000 are shown, built alone, and one more diagnostic counts the rest', () => {
  const text = withUnknown(10_000);
  const work = measured(() => lint(text));
  assert.equal(work.result.length, 1_001);
  assert.equal(
    work.result[0]?.message,
    '9,000 more problems not shown (0 errors, 9,000 warnings, 0 infos): only the first 1,000 of a file are reported; fix those and lint again',
  );
  assert.equal(work.calls('/src/lint/build', 'findingDiagnostic'), 1_000);
});

test('200,000 unknown members: no stack overflow (nothing spreads an unbounded list into arguments)', () => {
  const found = lint(withUnknown(200_000));
  assert.equal(found.length, 1_001);
  assert.equal(found[0]?.rule, 'file/too-many-problems');
});

test('duplicate members: the scan of twice the triggers does at most twice the work', () => {
  const repeating = (n: number) =>
    `[${Array.from({ length: n }, () => trigger('"name": "a"').replace('"frequency": 900', '"frequency": 900, "frequency": 900')).join(',')}]`;
  const scan = (n: number) => {
    const text = repeating(n);
    const work = measured(() => lint(text, { maxDiagnostics: 5_000 }));
    assert.equal(work.result.filter((d) => d.rule === 'json/duplicate-member').length, n);
    return work.blocks('/src/lint/duplicates');
  };
  scan(10);
  const small = scan(1_000);
  const large = scan(2_000);
  assert.ok(large <= 2 * small, `blocks ${small} then ${large}`);
});

test('fix all over N read-only members: one pass removes them all, with one overlap check per edit', () => {
  const n = 4_000;
  const listed = `[${Array.from({ length: n }, (_, i) => trigger(`"triggered": ${i % 2 === 0}`)).join(',\n')}]`;
  const clean = `[${Array.from({ length: n }, () => trigger()).join(',\n')}]`;
  const work = measured(() => fixAll(listed));
  assert.equal(work.result.text, clean);
  assert.equal(work.result.applied, n);
  assert.deepEqual(work.result.diagnostics, []);
  assert.ok(work.calls('/src/lint/fixes', 'overlaps') <= n, `compared ${work.calls('/src/lint/fixes', 'overlaps')}`);
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
    const calculations = counted(
      Array.from({ length: n }, (_, i) => ({ op: 'SUM', column: `c${i}` })),
      reads,
    );
    const havings = counted(
      Array.from({ length: n }, (_, i) => ({ calculate_op: 'MAX', column: `c${i}`, op: '>', value: 1 })),
      reads,
    );
    const messages: string[] = [];
    checkTriggerRelations(
      { name: 'n', query: { calculations, havings, time_range: 1800 } },
      () => false,
      NEUTRAL_METRICS_DATASET_HINT,
      'file',
      (_p, m) => messages.push(m),
    );
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
  assert.ok(
    found.every((d) => d.message.length <= 400),
    `longest ${Math.max(...found.map((d) => d.message.length))}`,
  );
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
  const bad = (i: number) => ({
    name: `t${i}`,
    frequency: 90,
    threshold: { op: '!', value: 'x' },
    query: { calculations: [{ op: 'NOPE', column: 3 }], time_range: 30, bogus: 1 },
    tags: [{ key: 'A', value: 'B' }],
    alert_type: 'x',
  });
  const worded = (n: number) => {
    const text = JSON.stringify(
      Array.from({ length: n }, (_, i) => bad(i)),
      null,
      1,
    );
    const work = measured(() => lint(text, { maxDiagnostics: 5 }));
    // Every message of the linter is worded through l10n.t.
    return { worded: work.calls('/@vscode/l10n/', 't'), summary: work.result[0]?.message ?? '' };
  };
  const one = worded(1);
  const many = worded(2_000);
  assert.ok(one.worded > 5, `the first trigger's problems are worded (${one.worded})`);
  assert.equal(many.worded, one.worded);
  assert.equal(
    many.summary,
    '19,995 more problems not shown (17,995 errors, 2,000 warnings, 0 infos): only the first 5 of a file are reported; fix those and lint again',
    'the others are still counted',
  );
});

test('each lint has its own cap of nearest-name searches: a lint started while another runs takes none of its searches', () => {
  // Every unknown column is one edit from a known one, so each search that is made finds a suggestion.
  const columnsOf = (prefix: string) => ({ names: Array.from({ length: 400 }, (_, i) => `${prefix}${i}`) });
  const file = (prefix: string, triggers: { names: number[]; op: string }[]) =>
    JSON.stringify(
      triggers.map(({ names, op }, t) => ({
        name: `t${t}`,
        dataset_slug: 'api',
        threshold: { op: '>', value: 1 },
        query: { calculations: [{ op }], breakdowns: names.map((i) => `${prefix}${i}x`), time_range: 1800 },
      })),
    );
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
  const suggested = (found: { rule: string; fix?: unknown }[]) =>
    found.filter((d) => d.rule === 'query/unknown-column' && d.fix !== undefined).length;
  let inner: number | undefined;
  // The outer file's second trigger uses a metrics-only op on a standard dataset, so the linter asks the
  // caller's hint for its words while checking it: the hint lints another file of 250 unknown columns.
  const hint = () => {
    inner ??= suggested(
      lint(file('b', [{ names: range(0, 250), op: 'COUNT' }]), {
        columns: { api: columnsOf('b') },
        maxDiagnostics: 5_000,
      }),
    );
    return 'name it';
  };
  const outerWork = measured(() =>
    lint(
      file('a', [
        { names: range(0, 150), op: 'COUNT' },
        { names: range(150, 300), op: 'COUNT_DATAPOINTS' },
      ]),
      {
        columns: { api: columnsOf('a') },
        metricsDatasetHint: hint,
        maxDiagnostics: 5_000,
      },
    ),
  );
  assert.equal(inner, MAX_SUGGESTION_SEARCHES, 'the inner lint makes its own 200 searches');
  assert.equal(
    suggested(outerWork.result),
    MAX_SUGGESTION_SEARCHES,
    'the outer lint still makes its 200: 150 for its first trigger, 50 for its second',
  );
  assert.equal(
    outerWork.calls('/src/lint/nearest', 'nearestName'),
    2 * MAX_SUGGESTION_SEARCHES,
    'the searches of both lints, and no more',
  );
});
