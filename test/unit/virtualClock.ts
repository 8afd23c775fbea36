// One clock for a sandbox, its client and a runner in the tests: every sleep moves it on, nothing really waits.
import type { RunnerClock } from '../../src/backtest';

export interface VirtualClock {
  clock: RunnerClock;
  /** Every sleep asked for, in milliseconds, in order. */
  sleeps: number[];
  /** The client's timing (its retries sleep on the same clock; random fixed). */
  timing: { now: () => number; random: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void> };
  now(): number;
  set(ms: number): void;
}

export function virtualClock(startIso: string): VirtualClock {
  let now = Date.parse(startIso);
  const sleeps: number[] = [];
  const clock: RunnerClock = {
    now: () => now,
    sleep: async (ms, signal) => {
      signal.throwIfAborted();
      sleeps.push(ms);
      now += ms;
    },
  };
  return {
    clock,
    sleeps,
    timing: { now: () => now, random: () => 0.5, sleep: (ms, s) => clock.sleep(ms, s ?? new AbortController().signal) },
    now: () => now,
    set: (ms) => {
      now = ms;
    },
  };
}
