// A JSON pointer the sandbox writes (as the service does, RFC 6901) is read back by the client to the
// same field, whatever the keys hold: `/` and `~` are escaped on one side and unescaped on the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatPath, pointerToField } from '../../src/api';
import { jsonPointer } from '../../src/sandbox/responses';

test('any path of keys and indices: the pointer written names the field the client reads', () => {
  const segment = fc.oneof(
    fc.string({ unit: fc.constantFrom('a', '/', '~', '0', '1', '.', ' ') }),
    fc.nat({ max: 99 }),
  );
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 6 }), (path) => {
      assert.equal(pointerToField(jsonPointer(path)), formatPath(path));
    }),
    { numRuns: 2000, seed: 38007 },
  );
});

test('a key holding "/" and "~" is escaped in its pointer', () => {
  assert.equal(jsonPointer(['data', 'attributes', 'a/b~c', 0]), '/data/attributes/a~1b~0c/0');
});
