// The noise diff of a plan's changes: each version of a trigger (the service's, the file's) evaluated over the
// last 7 days as obs noise evaluates it, side by side, in one run whose second side creates no query the first
// created; a create without a "was", a delete without a "would be", a version that cannot be evaluated saying
// why on its side alone, and the trigger's tests run with each version. Against a fake service whose events
// the tests place (bursts of 10 events every 3 hours, 3 of them of 100), on a virtual clock.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CreationPacer, ResultCache, type RunnerClock } from '../../src/backtest';
import { noiseDiff, type NoiseDiffEntry, type NoiseDiffTarget, type NoiseSide } from '../../src/backtest/noiseDiff';
import type { NoiseSession } from '../../src/backtest/noiseReport';
import { countingQueryService, type Placed } from './noise-diff-fake';

const NOW = Date.parse('2025-06-02T12:02:00Z') / 1000;
/** The newest evaluation of the window: the quarter hour before NOW with complete data. */
const END = Date.parse('2025-06-02T12:00:00Z') / 1000;
const HOUR = 3_600;
/** 41 bursts, 3 hours apart back from END; bursts 5, 20 and 35 are of 100 events, the others of 10. */
const BURSTS = Array.from({ length: 41 }, (_v, k) => ({ at: END - (k + 1) * 3 * HOUR, big: [5, 20, 35].includes(k) }));

function placed(groupOf: (k: number) => string = () => 'api'): Placed {
  return new Map(BURSTS.map((b, k) => [b.at, [{ group: groupOf(k), count: b.big ? 100 : 10 }]]));
}

function virtual(seconds: number): RunnerClock {
  let ms = seconds * 1000;
  return { now: () => ms, sleep: async (wait) => void (ms += wait) };
}

function session(events: Placed = placed()) {
  const service = countingQueryService(events, 'service');
  const clock = virtual(NOW);
  const s: NoiseSession = {
    api: service.api,
    pacer: new CreationPacer(clock),
    clock,
    cache: new ResultCache(),
    signal: new AbortController().signal,
    report: () => undefined,
    nowSeconds: NOW,
  };
  return { service, s };
}

/** A 5-minute trigger over 5 minutes of COUNT, as a file's text. */
function trigger(value: number, over: Record<string, unknown> = {}, query: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: 'abc123',
    dataset_slug: 'api-gateway',
    name: 'Error bursts',
    frequency: 300,
    threshold: { op: '>', value },
    query: { calculations: [{ op: 'COUNT' }], time_range: 300, ...query },
    ...over,
  });
}

function target(over: Partial<NoiseDiffTarget>): NoiseDiffTarget {
  return {
    key: 'k',
    label: 'triggers/api-gateway/Error-bursts.trigger.json',
    action: 'update',
    name: 'Error bursts',
    dataset: 'api-gateway',
    tests: [],
    ...over,
  };
}

const run = (s: NoiseSession, targets: NoiseDiffTarget[]) => noiseDiff(targets, s, { mode: 'exact', days: 7 });

function evaluated(side: NoiseSide | undefined): Extract<NoiseSide, { kind: 'evaluated' }> {
  assert.ok(side?.kind === 'evaluated', JSON.stringify(side));
  return side;
}

async function only(s: NoiseSession, t: NoiseDiffTarget): Promise<NoiseDiffEntry> {
  const [entry, ...rest] = await run(s, [t]);
  assert.ok(entry !== undefined && rest.length === 0);
  return entry;
}

describe('the noise diff', () => {
  test('a threshold raised from one that fired 41 times to one that fires 3 times reports exactly those counts', async () => {
    const { s } = session();
    const e = await only(s, target({ service: trigger(5), file: trigger(50) }));
    const was = evaluated(e.was);
    const now = evaluated(e.wouldBe);
    assert.deepEqual(
      [was.counts.notifications, was.counts.resolves, now.counts.notifications, now.counts.resolves],
      [41, 41, 3, 3],
    );
    // Each notification at the evaluation 5 minutes after its burst's minute: the big bursts are 35, 20 and 5.
    const sent = (k: number) => END - (k + 1) * 3 * HOUR + 300;
    assert.deepEqual([now.first, now.last, was.first, was.last], [sent(35), sent(5), sent(40), sent(0)]);
    assert.deepEqual([now.from, now.to], [was.from, was.to]);
    assert.equal(now.groups, undefined);
  });

  test('the second side creates no query the first created: the update creates what the file version alone does', async () => {
    const update = session();
    await run(update.s, [target({ service: trigger(5), file: trigger(50) })]);
    const create = session();
    await run(create.s, [target({ action: 'create', file: trigger(50) })]);
    // 7 days at 5-minute buckets: 3 queries of at most 1,000 buckets, each saved once and run once.
    assert.deepEqual(
      [update.service.saved(), update.service.results(), create.service.saved(), create.service.results()],
      [3, 3, 3, 3],
    );
  });

  test('a create has no "was", a delete no "would be"', async () => {
    const { s } = session();
    const [created, deleted] = await run(s, [
      target({ key: 'c', action: 'create', file: trigger(50) }),
      target({ key: 'd', action: 'delete', service: trigger(5) }),
    ]);
    assert.deepEqual(
      [created?.was, sentOf(created?.wouldBe), sentOf(deleted?.was), deleted?.wouldBe],
      [undefined, 3, 41, undefined],
    );
  });

  test('a version that cannot be evaluated says why on its side only', async () => {
    const { s } = session();
    const daily = trigger(
      50,
      { frequency: 86_400, threshold: { op: '>', value: 50, exceeded_limit: 5 } },
      {
        time_range: 86_400,
      },
    );
    const e = await only(s, target({ service: trigger(5), file: daily }));
    assert.equal(sentOf(e.was), 41);
    assert.deepEqual(e.wouldBe, {
      kind: 'skipped',
      reason:
        'the service keeps 7 days of data, too little for a window after the evaluations that decide its state when the window opens (every 24 h over 24 h, exceeded_limit 5, its schedule)',
    });
  });

  test("the trigger's tests run with each version: each side passes and fails its own", async () => {
    const { s } = session();
    const tests = {
      label: 'triggers/api-gateway/Error-bursts.trigger-test.json',
      text: JSON.stringify({
        expectations: [
          { name: 'pages at most 10 times in 6 days', expect: 'at-most', notifications: 10, from: 'now-6d', to: 'now' },
          { name: 'catches the burst of 3 hours ago', expect: 'fires', from: 'now-4h', to: 'now-2h' },
        ],
      }),
    };
    const e = await only(s, target({ service: trigger(5), file: trigger(50), tests: [tests] }));
    const failed = (side: typeof e.testsWas) => [side?.tally, side?.notPassed.map((p) => [p.status, p.name])];
    assert.deepEqual(failed(e.testsWas), [
      { passed: 1, failed: 1, 'not-testable': 0, error: 0 },
      [['failed', 'pages at most 10 times in 6 days']],
    ]);
    assert.deepEqual(failed(e.testsWouldBe), [
      { passed: 1, failed: 1, 'not-testable': 0, error: 0 },
      [['failed', 'catches the burst of 3 hours ago']],
    ]);
    assert.deepEqual(e.testFiles, [tests.label]);
  });

  test('the groups named are those that met the threshold when it notified, most often first', async () => {
    // The big bursts: two in "checkout", one in "cart"; the small ones in "web".
    const { s } = session(placed((k) => (k === 5 ? 'cart' : k === 20 || k === 35 ? 'checkout' : 'web')));
    const e = await only(
      s,
      target({
        service: trigger(5, {}, { breakdowns: ['service'] }),
        file: trigger(50, {}, { breakdowns: ['service'] }),
      }),
    );
    assert.deepEqual(evaluated(e.wouldBe).groups, {
      count: 2,
      top: [
        { label: 'checkout', notifications: 2 },
        { label: 'cart', notifications: 1 },
      ],
    });
    assert.deepEqual(evaluated(e.was).groups, {
      count: 3,
      top: [
        { label: 'web', notifications: 38 },
        { label: 'checkout', notifications: 2 },
        { label: 'cart', notifications: 1 },
      ],
    });
  });
});

function sentOf(side: NoiseSide | undefined): number | undefined {
  return side?.kind === 'evaluated' ? side.counts.notifications : undefined;
}
