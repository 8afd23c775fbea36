// A virtual clock for the timer port of batches and schedulers (BatchClock): timers fire only when the test
// moves time on, in the order they are due, and it counts the timers it was asked to set and clear.
import type { BatchClock } from '../../src/extension/core/batch';

export class VirtualTimers implements BatchClock {
  now = 0;
  readonly work = { set: 0, cleared: 0, fired: 0 };
  private readonly timers = new Map<symbol, { at: number; fn: () => void }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = Symbol('timer');
    this.work.set++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'symbol' && this.timers.delete(handle)) this.work.cleared++;
  }

  /** Moves time on to `at`, firing every timer due by then at its own time, earliest first. */
  advanceTo(at: number): void {
    for (;;) {
      let next: [symbol, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers)
        if (entry[1].at <= at && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.timers.delete(next[0]);
      this.now = next[1].at;
      this.work.fired++;
      next[1].fn();
    }
    this.now = Math.max(this.now, at);
  }

  get pending(): number {
    return this.timers.size;
  }
}
