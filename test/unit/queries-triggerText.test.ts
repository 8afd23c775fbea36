// "Preview" from a trigger file's CodeLens reads the trigger from the editor's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { triggerFromText } from '../../src/backtest/triggerText';

test('a trigger object is read with its members, unknown ones kept', () => {
  const read = triggerFromText(
    '{"name":"Errors","frequency":300,"dataset_slug":"api","query":{"calculations":[{"op":"COUNT"}],"time_range":900},"extra":1}',
  );
  assert.deepEqual(read, {
    ok: true,
    trigger: {
      name: 'Errors',
      frequency: 300,
      dataset_slug: 'api',
      query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
      extra: 1,
    },
  });
});

test('a trigger without a name is called "unnamed trigger"', () => {
  assert.deepEqual(triggerFromText('{"name":""}'), { ok: true, trigger: { name: 'unnamed trigger' } });
});

test('a byte order mark is ignored, as editors do', () => {
  assert.equal(triggerFromText('\uFEFF{"name":"A"}').ok, true);
});

test('text that is not JSON asks for the linter problems to be fixed first', () => {
  assert.deepEqual(triggerFromText('{"name": "A",}'), {
    ok: false,
    reason: 'the file is not valid JSON (fix the problems the linter shows first)',
  });
});

test('an array of triggers is refused with what to do instead', () => {
  const read = triggerFromText('[{"name":"A"},{"name":"B"}]');
  assert.equal(read.ok, false);
  assert.match(read.ok ? '' : read.reason, /^the file holds several triggers/);
});

test('a member the preview reads with the wrong type is named', () => {
  assert.deepEqual(triggerFromText('{"name":"A","frequency":"5m"}'), {
    ok: false,
    reason: 'frequency has the wrong type (fix the problems the linter shows first)',
  });
  assert.deepEqual(triggerFromText('"just a string"'), {
    ok: false,
    reason: 'the file does not hold a trigger object',
  });
});
