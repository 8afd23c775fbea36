// The session's query results are sized to the runs over them: a run keeps every result it used until it ends,
// and the room grows to hold it, so the same run again creates none. A noise report over 100 triggers asks
// for 300 results, more than the 256 a fixed cap kept (which dropped a run's first results before it came
// round to them again): the second report creates none, counted by the service (a fake one, on a virtual
// clock: nothing really waits for the pacer).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CreationPacer, ResultCache, type RunnerClock } from '../../src/backtest';
import { MIN_ENTRIES } from '../../src/backtest/cache';
import { evaluateAll, prepareNoise, type NoiseSession, type PreparedNoise } from '../../src/backtest/noiseReport';
import { fakeQueryService } from './fake-query-service';

const NOW = Date.parse('2025-06-02T12:02:00Z') / 1000;

function virtual(seconds: number): RunnerClock {
  let ms = seconds * 1000;
  return { now: () => ms, sleep: async (wait) => void (ms += wait) };
}

/** A 5-minute trigger whose query differs from the others' by its filter: 3 query results over 7 days. */
const triggerText = (i: number): string =>
  JSON.stringify({
    name: `trigger ${i}`,
    dataset_slug: 'events',
    frequency: 300,
    threshold: { op: '>', value: 1_000 },
    query: {
      calculations: [{ op: 'COUNT' }],
      filters: [{ column: 'service', op: '=', value: `s${i}` }],
      time_range: 300,
    },
  });

async function report(triggers: number) {
  const service = fakeQueryService(7, () => NOW);
  const clock = virtual(NOW);
  const session: NoiseSession = {
    api: service.api,
    pacer: new CreationPacer(clock),
    clock,
    cache: new ResultCache(),
    signal: new AbortController().signal,
    report: () => undefined,
    nowSeconds: NOW,
  };
  const ready: PreparedNoise[] = [];
  for (let i = 0; i < triggers; i++) {
    const p = await prepareNoise(
      { key: `k${i}`, label: `t${i}.trigger.json`, text: triggerText(i), tests: [] },
      session,
    );
    assert.ok('tested' in p, JSON.stringify(p));
    ready.push(p);
  }
  const run = () => evaluateAll(ready, session, { mode: 'exact', days: 7, budget: 1_000_000 });
  return { service, run };
}

describe("the session's query results", () => {
  test('a second noise report over 100 triggers (300 query results, more than the 256 kept at least) creates none', async () => {
    const { service, run } = await report(100);
    const first = await run();
    assert.deepEqual([first.filter((e) => e.kind === 'evaluated').length, service.created()], [100, 300]);
    assert.ok(300 > MIN_ENTRIES);
    const second = await run();
    assert.deepEqual([second.filter((e) => e.kind === 'evaluated').length, service.created()], [100, 300]);
  });

  test('outside a run, the least recently used result beyond the room is dropped', async () => {
    const cache = new ResultCache(2);
    for (const key of ['a', 'b', 'c']) await cache.getOrFetch(key, async () => null);
    assert.deepEqual(
      ['a', 'b', 'c'].map((k) => cache.has(k)),
      [false, true, true],
    );
  });

  test('within a run, no result it used is dropped, and after it the room holds them all, whatever comes between', async () => {
    const cache = new ResultCache(2);
    let fetched = 0;
    const fetch = async () => {
      fetched++;
      return null;
    };
    const keys = ['a', 'b', 'c', 'd', 'e'];
    await cache.inRun(async (store) => {
      for (const k of [...keys, ...keys]) await store.getOrFetch(k, fetch);
    });
    assert.equal(fetched, 5);
    // Something else between the runs (a preview's result) drops none of them.
    await cache.getOrFetch('f', fetch);
    await cache.inRun(async (store) => {
      for (const k of keys) await store.getOrFetch(k, fetch);
    });
    assert.equal(fetched, 6);
  });
});
