import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LintScheduler, type SchedulerClock } from '../../src/extension/diagnostics/lintScheduler';

/** A manual clock: timers fire only when the test advances time; it counts the timers set, cleared and fired. */
class FakeClock implements SchedulerClock {
  now = 0;
  readonly work = { set: 0, cleared: 0, fired: 0 };
  private timers = new Map<unknown, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = Symbol('timer');
    this.work.set++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    if (this.timers.delete(handle)) this.work.cleared++;
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= this.now) {
        this.timers.delete(id);
        this.work.fired++;
        t.fn();
      }
    }
  }
  get pending(): number {
    return this.timers.size;
  }
}

function setup(run?: (key: string, signal: AbortSignal) => void | Promise<void>) {
  const clock = new FakeClock();
  const runs: string[] = [];
  const scheduler = new LintScheduler<string>({
    clock,
    delayMs: 150,
    run: run ?? ((key) => void runs.push(key)),
  });
  return { clock, runs, scheduler };
}

test('a change lints after 150 ms, not before', async () => {
  const { clock, runs, scheduler } = setup();
  scheduler.schedule('a.json');
  clock.advance(149);
  assert.deepEqual(runs, []);
  clock.advance(1);
  await scheduler.idle();
  assert.deepEqual(runs, ['a.json']);
});

test("a burst of 50 edits lints once, 150 ms after the last one: each edit's wait is cleared by the next", async () => {
  const { clock, runs, scheduler } = setup();
  for (let i = 0; i < 50; i++) {
    scheduler.schedule('a.json');
    clock.advance(20);
  }
  assert.deepEqual(runs, []);
  clock.advance(130);
  await scheduler.idle();
  assert.deepEqual(runs, ['a.json']);
  assert.deepEqual(clock.work, { set: 50, cleared: 49, fired: 1 });
});

test('documents are debounced independently', async () => {
  const { clock, runs, scheduler } = setup();
  scheduler.schedule('a.json');
  clock.advance(100);
  scheduler.schedule('b.json');
  clock.advance(50);
  await scheduler.idle();
  assert.deepEqual(runs, ['a.json']);
  clock.advance(100);
  await scheduler.idle();
  assert.deepEqual(runs, ['a.json', 'b.json']);
});

test('open and save lint at once and cancel a pending change', async () => {
  const { clock, runs, scheduler } = setup();
  scheduler.schedule('a.json');
  await scheduler.lintNow('a.json');
  assert.deepEqual(runs, ['a.json']);
  clock.advance(500);
  await scheduler.idle();
  assert.deepEqual(runs, ['a.json'], 'the pending debounced run was dropped');
  assert.equal(clock.pending, 0);
});

test('close cancels a pending lint', async () => {
  const { clock, runs, scheduler } = setup();
  scheduler.schedule('a.json');
  scheduler.cancel('a.json');
  clock.advance(1000);
  await scheduler.idle();
  assert.deepEqual(runs, []);
});

test('a newer edit aborts a lint that is still running, so its result is not published', async () => {
  const published: number[] = [];
  let release: (() => void) | undefined;
  let call = 0;
  const { clock, scheduler } = setup(async (_key, signal) => {
    const n = ++call;
    if (n === 1) await new Promise<void>((r) => (release = r));
    if (!signal.aborted) published.push(n);
  });
  scheduler.schedule('a.json');
  clock.advance(150);
  scheduler.schedule('a.json'); // arrives while run 1 is waiting
  release?.();
  clock.advance(150);
  await scheduler.idle();
  assert.deepEqual(published, [2]);
});

test('a run that throws is reported and does not stop later runs', async () => {
  const errors: string[] = [];
  let n = 0;
  const clock = new FakeClock();
  const scheduler = new LintScheduler<string>({
    clock,
    run: () => {
      if (++n === 1) throw new Error('boom');
    },
    onError: (key, err) => errors.push(`${key}: ${(err as Error).message}`),
  });
  await scheduler.lintNow('a.json');
  await scheduler.lintNow('a.json');
  assert.deepEqual(errors, ['a.json: boom']);
  assert.equal(n, 2);
});

test('after dispose nothing runs', async () => {
  const { clock, runs, scheduler } = setup();
  scheduler.schedule('a.json');
  scheduler.dispose();
  scheduler.schedule('b.json');
  clock.advance(1000);
  await scheduler.idle();
  assert.deepEqual(runs, []);
});
