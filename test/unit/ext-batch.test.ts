// Batches of events (src/extension/core/batch.ts) on a virtual clock: with a maximum wait, each event keeps
// the batch open for the window (a trailing debounce), but never past the maximum after its first event.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Batch } from '../../src/extension/core/batch';
import { VirtualTimers } from './virtualTimers';

function setup(maxWaitMs?: number) {
  const clock = new VirtualTimers();
  const handed: { at: number; keys: string[] }[] = [];
  const batch = new Batch<string, true>((b) => handed.push({ at: clock.now, keys: [...b.keys()] }), {
    windowMs: 50,
    clock,
    ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
  });
  return { clock, handed, batch };
}

test('with a maximum wait, events 49 ms apart keep one batch open until the maximum, then it is handed over', () => {
  const { clock, handed, batch } = setup(500);
  for (let i = 0; i < 20; i++) {
    clock.advanceTo(i * 49);
    batch.add(`f${i}`, true);
  }
  clock.advanceTo(2000);
  assert.deepEqual(
    handed.map((h) => [h.at, h.keys.length]),
    [
      [500, 11],
      [931 + 50, 9],
    ],
  );
});

test('with a maximum wait, a batch is handed over once no event came for the window', () => {
  const { clock, handed, batch } = setup(500);
  for (const at of [0, 30, 60, 200, 251]) {
    clock.advanceTo(at);
    batch.add(`at${at}`, true);
  }
  clock.advanceTo(1000);
  assert.deepEqual(handed, [
    { at: 110, keys: ['at0', 'at30', 'at60'] },
    { at: 250, keys: ['at200'] },
    { at: 301, keys: ['at251'] },
  ]);
  assert.equal(clock.pending, 0, 'no timer is left behind');
});

test('without a maximum wait, a batch closes the window after its first event, as before', () => {
  const { clock, handed, batch } = setup();
  for (const at of [0, 30, 49, 50, 99]) {
    clock.advanceTo(at);
    batch.add(`at${at}`, true);
  }
  clock.advanceTo(1000);
  assert.deepEqual(handed, [
    { at: 50, keys: ['at0', 'at30', 'at49'] },
    { at: 100, keys: ['at50', 'at99'] },
  ]);
});
