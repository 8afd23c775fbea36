// obs asks Node for its compile cache where Node offers one (22.1 and later), and starts as before where it
// does not (Node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enableCompileCache } from '../../src/cli/compileCache';

test('where node:module offers a compile cache, obs enables it once', () => {
  let asked = 0;
  enableCompileCache({
    enableCompileCache: () => {
      asked++;
      return { status: 1 };
    },
  });
  assert.equal(asked, 1);
});

test('where it does not (Node 20), obs goes on without one', () => {
  assert.doesNotThrow(() => enableCompileCache({}));
});
