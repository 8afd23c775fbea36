// Trigger tests run against the sandbox: the demo's test file (passing and failing the same at any time),
// one query result per trigger and window, none at all for a run again over the same windows (the session's
// cache, whatever else changed in the trigger), NOT TESTABLE for a window the service no longer keeps
// (and no query for it), the 10-a-minute limit waited out visibly, errors that name their cause, cancel.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import {
  CreationPacer,
  parseTestFile,
  prepareTrigger,
  ResultCache,
  runTriggerTests,
  type ExpectationOutcome,
  type TriggerTestFile,
} from '../../src/backtest';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { forEachEvent } from '../../src/sandbox/queries/synthetic';
import { utcText } from '../../src/backtest/times';
import { virtualClock } from './virtualClock';

const root = join(import.meta.dirname, '..', '..');
const DEMO_DIR = join(root, 'demo', 'workspace', 'triggers', 'api-gateway');
const DEMO_TESTS = readFileSync(join(DEMO_DIR, 'High-error-rate.trigger-test.json'), 'utf8');
const DEMO_TRIGGER = readFileSync(join(DEMO_DIR, 'High-error-rate.trigger.json'), 'utf8');
const NOW = '2025-06-02T12:00:00Z';

/** A sandbox, a client and a runner on one clock that every sleep moves on: nothing really waits. */
async function setup(options: { queryResultRateLimit?: number } = {}) {
  const { clock, sleeps, timing, now, set } = virtualClock(NOW);
  const sandbox = await startSandbox({ clock: now, rateLimit: 10_000, ...options });
  const client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey, timing });
  const reports: string[] = [];
  const created = () =>
    sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;
  return {
    sandbox,
    client,
    clock,
    sleeps,
    reports,
    created,
    setNow: set,
    nowSeconds: () => Math.floor(now() / 1000),
    run: (
      tests: TriggerTestFile,
      triggerText: string,
      over: {
        cache?: ResultCache;
        signal?: AbortSignal;
        onOutcome?: (o: ExpectationOutcome) => void;
        nowSeconds?: number;
      } = {},
    ) =>
      runFile(tests, triggerText, {
        api: client,
        pacer: new CreationPacer(clock),
        clock,
        signal: over.signal ?? new AbortController().signal,
        report: (m: string) => reports.push(m),
        cache: over.cache ?? new ResultCache(),
        nowSeconds: over.nowSeconds ?? Math.floor(now() / 1000),
        ...(over.onOutcome ? { onOutcome: over.onOutcome } : {}),
      }),
  };
}

async function runFile(
  tests: TriggerTestFile,
  triggerText: string,
  run: Parameters<typeof runTriggerTests>[2],
): Promise<ExpectationOutcome[]> {
  const prepared = await prepareTrigger(triggerText, tests, run.api, run.signal);
  assert.ok(prepared.ok, prepared.ok ? '' : prepared.reason);
  return runTriggerTests(tests, prepared.tested, run);
}

const file = (value: unknown): TriggerTestFile => {
  const parsed = parseTestFile(typeof value === 'string' ? value : JSON.stringify(value));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason.map((p) => p.message).join('; '));
  return parsed.file;
};
const brief = (outcomes: readonly ExpectationOutcome[]) => outcomes.map((o) => [o.status, o.message]);

const handles: SandboxHandle[] = [];
const clients: ServiceClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(handles.map((h) => h.close()));
});
async function fresh(options: { queryResultRateLimit?: number } = {}) {
  const s = await setup(options);
  handles.push(s.sandbox);
  clients.push(s.client);
  return s;
}

describe("the demo's test file", () => {
  test('at 12:00 UTC on 2025-06-02: the burst is caught, pages stay few, "stays quiet" fails; one query result for the three', async () => {
    const s = await fresh();
    const out = await s.run(file(DEMO_TESTS), DEMO_TRIGGER);
    assert.deepEqual(brief(out), [
      ['passed', 'fired 2 times between 2025-06-01 12:00 and 2025-06-02 11:55 UTC, first at 2025-06-01 15:05 UTC'],
      [
        'passed',
        'sent 2 notifications (on_change) between 2025-06-01 12:00 and 2025-06-02 11:55 UTC; at most 10 allowed',
      ],
      [
        'failed',
        'fired 2 times between 2025-06-01 12:00 and 2025-06-02 11:55 UTC, first at 2025-06-01 15:05 UTC; expected none',
      ],
    ]);
    assert.deepEqual([out[2]?.expected, out[2]?.actual], ['no firing', '2 firings, first at 2025-06-01 15:05 UTC']);
    assert.equal(s.created(), 1);
    // What the preview needs to show the window: its plan and evaluation.
    const preview = out[0]?.preview;
    assert.deepEqual(
      [preview?.dataset, preview?.from, preview?.to, preview?.plan.step, preview?.plan.chunks.length],
      ['api-gateway', Date.parse('2025-06-01T12:00:00Z') / 1000, Date.parse('2025-06-02T11:55:00Z') / 1000, 300, 1],
    );
  });

  test("its counts agree with a direct count of the sandbox's events (COUNT of errors over 20 min > 5, every 5 min)", async () => {
    const s = await fresh();
    const out = await s.run(file(DEMO_TESTS), DEMO_TRIGGER);
    const from = Date.parse('2025-06-01T12:00:00Z') / 1000;
    const to = Date.parse('2025-06-02T11:55:00Z') / 1000;
    const errorsAt = new Map<number, number>();
    forEachEvent('api-gateway', from - 1200, to, (e, t) => {
      if (e.error === true) errorsAt.set(Math.floor(t / 60) * 60, (errorsAt.get(Math.floor(t / 60) * 60) ?? 0) + 1);
    });
    const met: number[] = [];
    for (let at = from + 300; at <= to; at += 300) {
      let count = 0;
      for (let m = at - 1200; m < at; m += 60) count += errorsAt.get(m) ?? 0;
      if (count > 5) met.push(at);
    }
    const starts = met.filter((t, i) => i === 0 || met[i - 1] !== t - 300);
    assert.equal(out[0]?.actual, `${starts.length} firings, first at ${utcText(met[0] ?? 0)}`);
    assert.equal(out[1]?.actual, `${starts.length} notifications (on_change)`);
  });

  test('passes and fails the same whatever the time it runs (property over now)', async () => {
    const s = await fresh({ queryResultRateLimit: 1_000_000 });
    const tests = file(DEMO_TESTS);
    // Any minute from 2020 to 2100. The one minute found where the demo paged 7 times (its file allowed 6 then) is
    // always tried: any 24 hours hold two or three of the sandbox's bursts.
    const anyNow = fc.integer({ min: 1_577_836_800 / 60, max: 4_102_444_800 / 60 }).map((m) => m * 60_000);
    await fc.assert(
      fc.asyncProperty(anyNow, async (now) => {
        s.setNow(now);
        const out = await s.run(tests, DEMO_TRIGGER);
        assert.deepEqual(
          out.map((o) => o.status),
          ['passed', 'passed', 'failed'],
          JSON.stringify(brief(out)),
        );
      }),
      { numRuns: 30, examples: [[3_753_958_320_000]] },
    );
  });
});

describe('query results', () => {
  const windows = {
    expectations: [
      { name: 'last day', expect: 'fires', from: 'now-24h', to: 'now' },
      { name: 'last day again, another kind', expect: 'at-most', notifications: 10, from: 'now-24h', to: 'now' },
      { name: 'an hour', expect: 'at-most', notifications: 99, from: 'now-3h', to: 'now-2h' },
      // 6 days at 5-minute buckets is 1,736 buckets: two queries of at most 1,000.
      { name: 'six days', expect: 'at-most', notifications: 100, from: 'now-6d', to: 'now' },
    ],
  };

  test('a run creates one per window and chunk of at most 1,000 buckets, shared by expectations of the same window', async () => {
    const s = await fresh();
    const out = await s.run(file(windows), DEMO_TRIGGER);
    assert.deepEqual(
      out.map((o) => o.status),
      ['passed', 'passed', 'passed', 'passed'],
    );
    assert.deepEqual(
      out.map((o) => o.preview?.plan.chunks.length),
      [1, 1, 1, 2],
    );
    assert.equal(s.created(), 4);
  });

  test('a run again in the session over the same windows creates none, even after the threshold changed', async () => {
    const s = await fresh();
    const cache = new ResultCache();
    await s.run(file(windows), DEMO_TRIGGER, { cache });
    const first = s.created();
    const saved = s.sandbox.state.savedQueries.length;
    const edited = JSON.stringify({
      ...(JSON.parse(DEMO_TRIGGER) as Record<string, unknown>),
      threshold: { op: '>', value: 1000 },
    });
    const again = await s.run(file(windows), edited, { cache });
    assert.equal(s.created() - first, 0);
    assert.equal(s.sandbox.state.savedQueries.length - saved, 0);
    assert.deepEqual(
      again.map((o) => o.status),
      ['failed', 'passed', 'passed', 'passed'],
      'the new threshold is evaluated on the kept series',
    );
  });

  test('a changed query is not taken for the same one: it runs again', async () => {
    const s = await fresh();
    const cache = new ResultCache();
    const one = file({ expectations: [windows.expectations[0]] });
    await s.run(one, DEMO_TRIGGER, { cache });
    const t = JSON.parse(DEMO_TRIGGER) as { query: { filters: unknown[] } };
    t.query.filters = [{ column: 'error', op: '=', value: false }];
    await s.run(one, JSON.stringify(t), { cache });
    assert.equal(s.created(), 2);
  });

  test('the eleventh result of a run waits for the limit, saying so, instead of failing', async () => {
    const s = await fresh();
    const hours = Array.from({ length: 11 }, (_, i) => ({
      name: `hour ${i}`,
      expect: 'at-most',
      notifications: 99,
      from: `now-${i + 2}h`,
      to: `now-${i + 1}h`,
    }));
    const out = await s.run(file({ expectations: hours }), DEMO_TRIGGER);
    assert.deepEqual(new Set(out.map((o) => o.status)), new Set(['passed']));
    assert.equal(s.created(), 11);
    assert.ok(
      s.reports.includes('Waiting 62 s: the service runs at most 10 queries a minute...'),
      s.reports.join('\n'),
    );
  });
});

describe('not testable', () => {
  test('a window needing data older than the 7 days the service keeps is not testable and runs no query', async () => {
    const s = await fresh();
    const out = await s.run(
      file({
        expectations: [
          { name: 'last week', expect: 'fires', from: 'now-7d', to: 'now-6d' },
          {
            name: 'an old incident',
            expect: 'does-not-fire',
            from: '2025-05-20T09:10:00Z',
            to: '2025-05-20T09:40:00Z',
          },
        ],
      }),
      DEMO_TRIGGER,
    );
    assert.deepEqual(brief(out), [
      [
        'not-testable',
        'the service keeps query results for 7 days, and this window needs data from 2025-05-26 11:40 UTC (20 min before it starts); the earliest window testable now starts at 2025-05-26 12:35 UTC',
      ],
      [
        'not-testable',
        'the service keeps query results for 7 days, and this window needs data from 2025-05-20 08:50 UTC (20 min before it starts); the earliest window testable now starts at 2025-05-26 12:35 UTC',
      ],
    ]);
    assert.equal(out[0]?.preview, undefined);
    assert.equal(s.created(), 0);
  });

  test('the earliest window it names is testable, and a minute earlier is not', async () => {
    const s = await fresh();
    const out = await s.run(
      file({
        expectations: [
          {
            name: 'from then',
            expect: 'at-most',
            notifications: 99,
            from: '2025-05-26T12:35:00Z',
            to: '2025-05-26T13:35:00Z',
          },
          {
            name: 'a minute earlier',
            expect: 'at-most',
            notifications: 99,
            from: '2025-05-26T12:34:00Z',
            to: '2025-05-26T13:35:00Z',
          },
        ],
      }),
      DEMO_TRIGGER,
    );
    assert.deepEqual(
      out.map((o) => o.status),
      ['passed', 'not-testable'],
      out[0]?.message,
    );
  });

  test('a daily trigger\'s "now-5d" is testable at every hour of the day: it needs the day before its first evaluation, no more', async () => {
    const s = await fresh();
    const daily = JSON.parse(DEMO_TRIGGER) as { frequency: number; query: { time_range: number } };
    daily.frequency = 86_400;
    daily.query.time_range = 86_400;
    const tests = file({
      expectations: [{ name: 'five days', expect: 'at-most', notifications: 99, from: 'now-5d', to: 'now' }],
    });
    const statuses: string[] = [];
    for (let hour = 0; hour < 24; hour++) {
      const at = Date.parse('2025-06-02T00:00:00Z') + hour * 3_600_000;
      s.setNow(at);
      const [out] = await s.run(tests, JSON.stringify(daily), { nowSeconds: at / 1000 });
      statuses.push(out?.status === 'passed' ? 'passed' : `${hour}:00 ${out?.status ?? ''} ${out?.message ?? ''}`);
    }
    assert.deepEqual(statuses, new Array(24).fill('passed'));
  });

  test('a window that has not happened yet is not testable', async () => {
    const s = await fresh();
    const out = await s.run(
      file({
        expectations: [{ name: 'tomorrow', expect: 'fires', from: '2025-06-03T00:00:00Z', to: '2025-06-03T06:00:00Z' }],
      }),
      DEMO_TRIGGER,
    );
    assert.deepEqual(brief(out), [
      [
        'not-testable',
        'the window has not happened yet: it starts at 2025-06-03 00:00 UTC, and the newest evaluation with complete data is at 2025-06-02 11:55 UTC',
      ],
    ]);
  });
});

describe('errors', () => {
  test('a window ending before it starts, one holding no evaluation, and a group naming no breakdown', async () => {
    const s = await fresh();
    const out = await s.run(
      file({
        expectations: [
          { name: 'reversed', expect: 'fires', from: 'now-1h', to: '2025-06-02T10:00:00Z' },
          { name: 'too short', expect: 'fires', from: '2025-06-02T10:01:00Z', to: '2025-06-02T10:04:00Z' },
          { name: 'a group', expect: 'fires', from: 'now-2h', to: 'now', group: { 'http.route': '/api/cart' } },
        ],
      }),
      DEMO_TRIGGER,
    );
    assert.deepEqual(brief(out), [
      [
        'error',
        'the window ends (2025-06-02T10:00:00Z, 2025-06-02 10:00 UTC) before it starts (now-1h, 2025-06-02 11:00 UTC)',
      ],
      ['error', 'the window holds no evaluation: the trigger is evaluated every 5 min, at multiples of it (UTC)'],
      ['error', "group names http.route, not a breakdown of the trigger's query (it has none)"],
    ]);
    assert.equal(s.created(), 0);
  });

  test('a query the service fails is an error with its reason; the next expectations still run', async () => {
    const s = await fresh();
    const broken = JSON.stringify({
      ...(JSON.parse(DEMO_TRIGGER) as Record<string, unknown>),
      query: {
        calculations: [{ op: 'COUNT' }],
        filters: [{ column: 'http.status_code', op: '>=', value: 500 }],
        time_range: 1200,
      },
    });
    const out = await s.run(
      file({
        expectations: [
          { name: 'a', expect: 'fires', from: 'now-2h', to: 'now' },
          { name: 'b', expect: 'fires', from: 'now-3h', to: 'now' },
        ],
      }),
      broken,
    );
    assert.deepEqual(
      out.map((o) => o.status),
      ['error', 'error'],
    );
    assert.match(
      out[0]?.message ?? '',
      /^create query result failed: the query failed: query failed: .*http\.status_code/,
    );
  });

  test('a trigger the engine cannot read as the service would is an error for each expectation, before any query', async () => {
    const s = await fresh();
    const t = JSON.stringify({
      ...(JSON.parse(DEMO_TRIGGER) as Record<string, unknown>),
      query: {
        calculations: [{ op: 'COUNT' }],
        havings: [{ calculate_op: 'MAX', column: 'x', op: '>', value: 1 }],
        time_range: 1200,
      },
    });
    const out = await s.run(file({ expectations: [{ name: 'a', expect: 'fires', from: 'now-2h', to: 'now' }] }), t);
    assert.deepEqual(brief(out), [
      [
        'error',
        'the trigger cannot be evaluated as the service would: its HAVING clause cannot be read (the linter shows why)',
      ],
    ]);
    assert.equal(s.created(), 0);
  });

  test('a trigger of a saved query (query_id) is read back and tested', async () => {
    const s = await fresh();
    const t = s.sandbox.state.triggers.find((x) => x.id === DEMO.triggers.gwSavedQuery);
    assert.ok(t);
    const out = await s.run(
      file({ expectations: [{ name: 'a', expect: 'at-most', notifications: 1000, from: 'now-2h', to: 'now' }] }),
      JSON.stringify(t),
    );
    assert.equal(out[0]?.status, 'passed', out[0]?.message);
  });

  test('a trigger file naming no dataset asks for one', async () => {
    const s = await fresh();
    const { dataset_slug: _slug, ...t } = JSON.parse(DEMO_TRIGGER) as Record<string, unknown>;
    const prepared = await prepareTrigger(JSON.stringify(t), {}, s.client, new AbortController().signal);
    assert.deepEqual(prepared, {
      ok: false,
      reason: 'the trigger file names no dataset_slug: give the test file a "dataset" member',
    });
  });
});

describe('cancel and one expectation', () => {
  test('cancelled, the run stops with the abort; what was done was handed out as it came', async () => {
    const s = await fresh();
    const controller = new AbortController();
    const seen: string[] = [];
    const tests = file({
      expectations: [
        { name: 'a', expect: 'fires', from: 'now-2h', to: 'now' },
        { name: 'b', expect: 'fires', from: 'now-3h', to: 'now' },
      ],
    });
    const run = s.run(tests, DEMO_TRIGGER, {
      signal: controller.signal,
      onOutcome: (o) => {
        seen.push(o.name);
        controller.abort();
      },
    });
    await assert.rejects(run, { name: 'AbortError' });
    assert.deepEqual(seen, ['a']);
    assert.equal(s.created(), 1);
  });

  test('only the expectations asked for run', async () => {
    const s = await fresh();
    const tests = file({
      expectations: [
        { name: 'a', expect: 'fires', from: 'now-2h', to: 'now' },
        { name: 'b', expect: 'fires', from: 'now-3h', to: 'now' },
      ],
    });
    const prepared = await prepareTrigger(DEMO_TRIGGER, tests, s.client, new AbortController().signal);
    assert.ok(prepared.ok);
    const out = await runTriggerTests(tests, prepared.tested, {
      api: s.client,
      pacer: new CreationPacer(s.clock),
      clock: s.clock,
      signal: new AbortController().signal,
      report: () => undefined,
      cache: new ResultCache(),
      nowSeconds: s.nowSeconds(),
      only: new Set(['b']),
    });
    assert.deepEqual(
      out.map((o) => [o.index, o.name]),
      [[1, 'b']],
    );
    assert.equal(s.created(), 1);
  });
});

before(() => {
  // The demo file is the one the docs show: it must keep its three expectations in this order.
  assert.deepEqual(
    file(DEMO_TESTS).expectations.map((e) => e.expect),
    ['fires', 'at-most', 'does-not-fire'],
  );
});
