// What the service refuses when a trigger is written, beyond spec 2.6.1 (docs/rules.md names each rule):
// the definitions those rules rest on, held to what they stand for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOT_BLANK_PATTERN } from '../../src/lint/schema';

test('a blank name is one of Unicode White_Space characters only: the pattern finds every other code point, and none of those', () => {
  const whiteSpace = /^\p{White_Space}$/u;
  const misjudged: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (NOT_BLANK_PATTERN.test(ch) === whiteSpace.test(ch)) misjudged.push(cp.toString(16));
  }
  assert.deepEqual(misjudged, []);
});
