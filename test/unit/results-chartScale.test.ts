// The chart's value axis: whole-number steps for a series of whole numbers (a COUNT), uPlot's own otherwise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WHOLE_STEPS, wholeNumbersOnly } from '../../src/webview/shared/chartScale';

test('whole numbers with gaps count as whole; one fraction, or nothing at all, does not', () => {
  assert.equal(wholeNumbersOnly([[0, 1, null, 3], [2]]), true);
  assert.equal(wholeNumbersOnly([[0, 1], [2.5]]), false);
  assert.equal(wholeNumbersOnly([[null], []]), false);
});

test('the whole steps are 1, 2 and 5 times the powers of ten, and reach past the largest safe integer', () => {
  assert.deepEqual(WHOLE_STEPS.slice(0, 7), [1, 2, 5, 10, 20, 50, 100]);
  assert.ok(WHOLE_STEPS.every((s) => Number.isInteger(s)));
  assert.ok((WHOLE_STEPS.at(-1) ?? 0) > Number.MAX_SAFE_INTEGER / 10);
});
