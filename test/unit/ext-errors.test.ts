// How failures are told to the user: never twice, never as a broken sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  NoConnectionError,
  isAlreadyReported,
  isCancellation,
  progressFailureText,
} from '../../src/extension/core/errors';
import { AbortedError } from '../../src/api/limiter';
import { present } from '../../src/extension/tree/presentation';

test('"no active connection" counts as already reported: requireActive() showed its own message with buttons', () => {
  assert.equal(isAlreadyReported(new NoConnectionError()), true);
  assert.equal(isAlreadyReported(new AbortedError()), true);
  assert.equal(isCancellation(new NoConnectionError()), false, 'but it is not a cancellation');
  assert.equal(isAlreadyReported(new Error('HTTP 500')), false);
  assert.equal(isAlreadyReported('a string'), false);
});

test('a failure under a progress title reads as a sentence: "<title> failed: <message>"', () => {
  assert.equal(
    progressFailureText('Running saved query q1 on staging...', new Error('HTTP 500')),
    'Running saved query q1 on staging failed: HTTP 500',
  );
  assert.equal(
    progressFailureText('Listing burn alerts\u2026', new Error('HTTP 404')),
    'Listing burn alerts failed: HTTP 404',
  );
});

test('an error node label is one line without bidi controls, whatever the dataset slug it names', () => {
  const p = present({
    kind: 'error',
    parentId: 'root',
    operation: 'list columns of user\u202Egnp.exe\nx',
    message: 'm',
    cancelled: false,
  });
  assert.equal(p.label, 'Could not list columns of user\uFFFDgnp.exe x');
});
