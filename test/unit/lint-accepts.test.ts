// The linter's fast acceptance (src/lint/schema/accepts.ts): it answers "zod accepts these members" only
// where zod's parse does, and then a trigger is checked without zod. Its answers are held to zod's, and the
// work zod does is counted from outside (outside-work.ts).
import { measured } from './outside-work'; // first: V8 counts blocks only in code compiled after it
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as z from 'zod';
import { lint, type LintOptions } from '../../src/lint';
import { acceptsOf, TriggerWriteObject } from '../../src/lint/schema';
import { listedByService, trigger as benchTrigger } from '../../bench/inputs';
import { nearValidTrigger, triggerValue } from './lint-generators';

const accepts = acceptsOf(TriggerWriteObject);
const zodAccepts = (v: unknown) => TriggerWriteObject.safeParse(v).success;

test('the fast acceptance answers as zod does on every generated trigger, valid or nearly (5,000 runs)', () => {
  let accepted = 0;
  fc.assert(
    fc.property(nearValidTrigger, (t) => {
      const fast = accepts(t);
      assert.equal(fast, zodAccepts(t), JSON.stringify(t));
      if (fast) accepted++;
    }),
    { numRuns: 5000, seed: 77 },
  );
  // The property would hold vacuously if nothing were accepted: many of these triggers are valid member by member.
  assert.ok(accepted > 1000, `${accepted} accepted`);
});

test("the fast acceptance answers as zod does on the property tests' triggers, near every boundary of the rules (3,000 runs)", () => {
  fc.assert(
    fc.property(triggerValue, (t) => assert.equal(accepts(t), zodAccepts(t), JSON.stringify(t))),
    { numRuns: 3000, seed: 79 },
  );
});

test('the fast acceptance answers as zod does on triggers with one member changed to any JSON value (5,000 runs)', () => {
  const base = benchTrigger(1, true);
  const members = Object.keys(TriggerWriteObject.shape);
  fc.assert(
    fc.property(fc.constantFrom(...members, 'unknown_member'), fc.jsonValue({ maxDepth: 3 }), (member, value) => {
      const t = { ...base, [member]: value };
      assert.equal(accepts(t), zodAccepts(t), JSON.stringify({ member, value }));
    }),
    { numRuns: 5000, seed: 78 },
  );
});

test('the bench triggers and a trigger as the service lists it are accepted, as zod accepts them', () => {
  for (const t of [benchTrigger(3, false), benchTrigger(3, true), listedByService(3)]) {
    assert.equal(accepts(t), true);
    assert.equal(zodAccepts(t), true);
  }
});

test('a schema kind it does not model (default, transform, pipe, coercion) is never accepted, though zod accepts it', () => {
  const schemas = [
    z.string().default('x'),
    z.string().transform((s) => s.length),
    z.string().pipe(z.string()),
    z.coerce.number(),
    z.string().trim(),
  ];
  for (const schema of schemas) {
    assert.equal(schema.safeParse('7').success, true);
    assert.equal(acceptsOf(schema)('7'), false, schema.def.type);
  }
});

test('an object the ordinary prototype does not make is judged as zod judges it (for-in reaches inherited members)', () => {
  const strict = z.strictObject({ a: z.string() });
  const withInherited = Object.create({ b: 1 }) as Record<string, unknown>;
  withInherited.a = 'x';
  assert.equal(acceptsOf(strict)(withInherited), strict.safeParse(withInherited).success);
  const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 'x' });
  assert.equal(acceptsOf(strict)(bare), strict.safeParse(bare).success);
});

/** Blocks of zod's parse run while linting `n` copies of a trigger (counted by V8, outside the linter). */
function zodWork(
  make: (i: number) => Record<string, unknown>,
  n: number,
  options: LintOptions = {},
): { zodBlocks: number; diagnostics: number } {
  const text = JSON.stringify(
    Array.from({ length: n }, (_, i) => make(i)),
    null,
    2,
  );
  const work = measured(() => lint(text, { ...options, maxDiagnostics: 100_000 }));
  return { zodBlocks: work.blocks('/node_modules/zod/v4/core/parse.'), diagnostics: work.result.length };
}

test('1,000 valid triggers, and 1,000 as the service lists them (3,000 infos), are checked without a zod parse', () => {
  zodWork((i) => ({ ...benchTrigger(i, false), frequency: 61 }), 1); // the linter's schemas are made on first use
  assert.deepEqual(
    zodWork((i) => benchTrigger(i, true), 1000),
    { zodBlocks: 0, diagnostics: 0 },
  );
  assert.deepEqual(zodWork(listedByService, 1000), { zodBlocks: 0, diagnostics: 3000 });
});

test('a trigger with an invalid member is parsed by zod, which words its problem: zod does the work of that trigger alone', () => {
  const invalid = (i: number) => ({ ...benchTrigger(i, false), frequency: i === 5 ? 61 : 300 });
  const alone = zodWork((i) => invalid(i + 5), 1);
  const found = zodWork(invalid, 1000);
  assert.equal(found.diagnostics, 1);
  assert.ok(alone.zodBlocks > 0);
  assert.equal(found.zodBlocks, alone.zodBlocks);
});
