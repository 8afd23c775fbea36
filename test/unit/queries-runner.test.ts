// Running queries against the sandbox: polling until complete, cancel, a failed query, the visible wait
// under the limit of 10 creations a minute, a 429 all the same, a call the service does not serve, and
// a whole trigger preview.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ServiceClient } from '../../src/api/client';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { CreationPacer, PACING_MARGIN_MS, POLL, runQueryResult, type QueryApi } from '../../src/backtest/runner';
import { readSavedQuery, runPreview, PreviewRefused } from '../../src/extension/queries/previewRun';
import { SavedQueryCache } from '../../src/backtest/savedQueryCache';
import { virtualClock } from './virtualClock';

const GW = DEMO.datasets.gateway;

const handles: SandboxHandle[] = [];
after(async () => {
  await Promise.all(handles.map((h) => h.close()));
});

async function setup(opts: { queryResultRateLimit?: number; retry?: boolean } = {}) {
  const c = virtualClock('2025-06-02T12:00:00Z');
  const sandbox = await startSandbox({
    clock: c.timing.now,
    rateLimit: 1000,
    ...(opts.queryResultRateLimit ? { queryResultRateLimit: opts.queryResultRateLimit } : {}),
  });
  handles.push(sandbox);
  const client = new ServiceClient({
    baseUrl: sandbox.info.baseUrl,
    configKey: sandbox.info.configKey,
    timing: c.timing,
    retry: { maxAttempts: opts.retry === false ? 1 : 4 },
  });
  const pacer = new CreationPacer(c.clock);
  const reports: string[] = [];
  return { ...c, sandbox, client, pacer, reports, report: (m: string) => reports.push(m) };
}

describe('running a saved query', () => {
  test('a result that completes later is polled with growing waits until complete, then has its data', async () => {
    const s = await setup();
    const out = await runQueryResult(s.client, s.pacer, s.clock, {
      dataset: GW,
      body: { query_id: DEMO.savedQueries.gwSlow },
      signal: new AbortController().signal,
      report: s.report,
    });
    assert.equal(out.kind, 'complete');
    assert.equal(out.result.complete, true);
    assert.ok((out.result.data?.series?.length ?? 0) > 0, 'the complete result carries its series');
    // 4 s of service time: 250, 400, 640, 1024, 1638.4 ms make 3952.4 ms, the sixth poll finds it complete.
    assert.equal(out.polls, 6);
    assert.deepEqual(s.sleeps.slice(0, 3), [250, 400, 640]);
    const gets = s.sandbox.requests.filter((r) => r.method === 'GET' && r.path.startsWith(`/1/query_results/${GW}/`));
    assert.equal(gets.length, 6);
    assert.match(s.reports.join('\n'), /Waiting for result qr_\d{6} \(0 s\)/);
  });

  test('a quick result is complete in the create response and is not polled', async () => {
    const s = await setup();
    const out = await runQueryResult(s.client, s.pacer, s.clock, {
      dataset: GW,
      body: { query_id: DEMO.savedQueries.gw5xx },
      signal: new AbortController().signal,
      report: s.report,
    });
    assert.equal(out.kind, 'complete');
    assert.equal(out.polls, 0);
  });

  test('cancelling while it polls stops at once with a cancellation', async () => {
    const s = await setup();
    const controller = new AbortController();
    const report = (m: string) => {
      if (m.startsWith('Waiting for result')) controller.abort();
    };
    await assert.rejects(
      runQueryResult(s.client, s.pacer, s.clock, {
        dataset: GW,
        body: { query_id: DEMO.savedQueries.gwSlow },
        signal: controller.signal,
        report,
      }),
      { name: 'AbortError' },
    );
    assert.equal(s.sandbox.requests.filter((r) => r.method === 'GET').length, 0);
  });

  test("a failed query is a failure carrying the service's error text", async () => {
    const s = await setup();
    await assert.rejects(
      runQueryResult(s.client, s.pacer, s.clock, {
        dataset: GW,
        body: { query_id: DEMO.savedQueries.gwFailing },
        signal: new AbortController().signal,
        report: s.report,
      }),
      {
        name: 'ServiceError',
        kind: 'query-failed',
        message:
          'create query result failed: the query failed: query failed: a calculation names a column that does not exist',
      },
    );
  });

  test('the eleventh run within a minute waits visibly for the limit instead of failing', async () => {
    const s = await setup();
    const signal = new AbortController().signal;
    for (let i = 0; i < 11; i++)
      await runQueryResult(s.client, s.pacer, s.clock, {
        dataset: GW,
        body: { query_id: DEMO.savedQueries.gw5xx },
        signal,
        report: s.report,
      });
    const waits = s.reports.filter((m) => m.startsWith('Waiting') && m.includes('queries a minute'));
    assert.equal(waits[0], 'Waiting 62 s: the service runs at most 10 queries a minute...');
    assert.equal(waits.length, 62, 'the wait counts down once a second');
    assert.equal(s.sandbox.requests.filter((r) => r.method === 'POST').length, 11);
  });

  test("the eleventh result reaches the service 60 s and the margin after the first, by the service's clock", async () => {
    const s = await setup();
    const signal = new AbortController().signal;
    for (let i = 0; i < 11; i++)
      await runQueryResult(s.client, s.pacer, s.clock, {
        dataset: GW,
        body: { query_id: DEMO.savedQueries.gw5xx },
        signal,
        report: s.report,
      });
    const arrived = s.sandbox.requests
      .filter((r) => r.method === 'POST' && r.path === `/1/query_results/${GW}`)
      .map((r) => Date.parse(r.at));
    assert.deepEqual(
      arrived.map((t) => t - (arrived[0] ?? 0)),
      [...new Array<number>(10).fill(0), 60_000 + PACING_MARGIN_MS],
    );
    assert.equal(PACING_MARGIN_MS, 2_000);
  });

  test('a 429 from the service all the same (others use the team too) is waited out and retried', async () => {
    const s = await setup({ queryResultRateLimit: 1, retry: false });
    const signal = new AbortController().signal;
    await runQueryResult(s.client, s.pacer, s.clock, {
      dataset: GW,
      body: { query_id: DEMO.savedQueries.gw5xx },
      signal,
      report: s.report,
    });
    const out = await runQueryResult(s.client, s.pacer, s.clock, {
      dataset: GW,
      body: { query_id: DEMO.savedQueries.gw5xx },
      signal,
      report: s.report,
    });
    assert.equal(out.kind, 'complete');
    const posts = s.sandbox.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 3, 'the first, the refused one and its retry');
    assert.ok(s.reports.some((m) => /^Waiting \d+ s: the service runs at most 10 queries a minute/.test(m)));
  });

  test('when the service does not serve polling, the result comes back incomplete naming the call', async () => {
    const s = await setup();
    s.sandbox.faults.nextStatus(405, 1, 'auto', { match: { method: 'GET', path: '/1/query_results/' } });
    const out = await runQueryResult(s.client, s.pacer, s.clock, {
      dataset: GW,
      body: { query_id: DEMO.savedQueries.gwSlow },
      signal: new AbortController().signal,
      report: s.report,
    });
    assert.equal(out.kind, 'incomplete');
    assert.match(
      out.kind === 'incomplete' ? out.reason : '',
      /^Checking a query result again is not available on this service: GET \/1\/query_results\/api-gateway\/qr_\d{6} answered 405 \(method not allowed\)\. The result may be ready in the browser\.$/,
    );
  });

  test('a saved query run on a dataset the service does not have says so, with the slug meant', async () => {
    const s = await setup();
    await assert.rejects(
      runQueryResult(s.client, s.pacer, s.clock, {
        dataset: 'api-gatway',
        body: { query_id: DEMO.savedQueries.gw5xx },
        signal: new AbortController().signal,
        report: s.report,
      }),
      {
        name: 'DatasetMissingError',
        message: 'The service has no dataset "api-gatway" (did you mean "api-gateway"?).',
      },
    );
  });

  test('polling gives up after 90 s with the reason', async () => {
    const s = await setup();
    // A service whose results never complete: the runner stops asking after 90 s.
    const out = await runQueryResult(
      {
        ...s.client,
        createQueryResult: s.client.createQueryResult.bind(s.client),
        getQueryResult: async () => ({ data: { id: 'qr_x', complete: false }, status: 200, attempts: 1 }),
        createQuery: s.client.createQuery.bind(s.client),
        getQuery: s.client.getQuery.bind(s.client),
        listDatasets: s.client.listDatasets.bind(s.client),
        listColumns: s.client.listColumns.bind(s.client),
      },
      s.pacer,
      s.clock,
      {
        dataset: GW,
        body: { query_id: DEMO.savedQueries.gwSlow },
        signal: new AbortController().signal,
        report: s.report,
      },
    );
    assert.equal(out.kind, 'incomplete');
    assert.equal(
      out.kind === 'incomplete' ? out.reason : '',
      `The result was not complete after ${Math.round(s.sleeps.reduce((a, b) => a + b, 0) / 1000)} s. Open it in the browser, or run it again.`,
    );
    assert.ok(s.sleeps.reduce((a, b) => a + b, 0) >= POLL.giveUpMs);
    assert.ok(s.sleeps.every((ms) => ms <= POLL.maxMs));
  });
});

describe('pacing, whatever the network does', () => {
  /** A service whose creations take `up` ms to arrive and `down` ms to be answered, on the virtual clock: it notes when each arrives. */
  function slowService(c: ReturnType<typeof virtualClock>, latencies: readonly { up: number; down: number }[]) {
    const arrivals: number[] = [];
    const signal = new AbortController().signal;
    const respond = <T>(data: T) => ({ data, status: 201, attempts: 1 });
    const api: QueryApi = {
      createQuery: async () => respond({ id: 'q' }),
      getQuery: async () => respond({ id: 'q' }),
      createQueryResult: async () => {
        const l = latencies[arrivals.length] ?? { up: 0, down: 0 };
        await c.clock.sleep(l.up, signal);
        arrivals.push(c.now());
        await c.clock.sleep(l.down, signal);
        return respond({ id: `r${arrivals.length}`, complete: true, data: { series: [] } });
      },
      getQueryResult: async () => respond({ id: 'r', complete: true }),
      listDatasets: async () => respond([]),
      listColumns: async () => respond([]),
    };
    return { api, arrivals, signal };
  }

  test('no eleven creations reach the service within 60 s and the margin, whatever each takes to arrive and to be answered, and however the runs are spaced (property)', async () => {
    // Each run: a pause before it, then its creation's time to arrive and to be answered.
    // Most runs follow at once (the pacer is then what spaces them), some after a while.
    const pause = fc.oneof(
      { weight: 4, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
    );
    const run = fc.record({
      pause,
      up: fc.integer({ min: 0, max: 10_000 }),
      down: fc.integer({ min: 0, max: 10_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(run, { minLength: 11, maxLength: 30 }), async (runs) => {
        const c = virtualClock('2025-06-02T12:00:00Z');
        const service = slowService(c, runs);
        const pacer = new CreationPacer(c.clock);
        for (const r of runs) {
          await c.clock.sleep(r.pause, service.signal);
          await runQueryResult(service.api, pacer, c.clock, {
            dataset: GW,
            body: { query_id: 'q' },
            signal: service.signal,
            report: () => undefined,
          });
        }
        const tooClose = service.arrivals
          .slice(10)
          .map((t, i) => t - (service.arrivals[i] ?? 0))
          .filter((gap) => gap < 60_000 + PACING_MARGIN_MS);
        assert.deepEqual(tooClose, []);
      }),
      { numRuns: 200 },
    );
  });
});

describe('trigger preview against the sandbox', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  before(async () => {
    s = await setup();
  });
  const trigger = (id: string) => {
    const t = s.sandbox.state.triggers.find((x) => x.id === id);
    assert.ok(t);
    return t;
  };
  const now = () => Math.floor(s.clock.now() / 1000);

  /**
   * The firings of "High error rate" (COUNT where error = true over 20 minutes > 5, every 5 minutes, once is
   * enough) in (from, to], counted by hand from a query of its own: the failed requests of each 5-minute bucket
   * straight from the sandbox, summed over the four buckets before each evaluation time (the multiples of 5
   * minutes): a firing starts at each evaluation over the threshold whose previous one was not, and ends at
   * the next one that is not (null while it lasts).
   */
  async function firingsCountedDirectly(from: number, to: number): Promise<{ start: number; end: number | null }[]> {
    const signal = new AbortController().signal;
    const query = {
      calculations: [{ op: 'COUNT' as const }],
      filters: [{ column: 'error', op: '=' as const, value: true }],
      granularity: 300,
      start_time: from - 1_200,
      end_time: to,
    };
    const saved = await s.client.createQuery(GW, query);
    const out = await runQueryResult(s.client, s.pacer, s.clock, {
      dataset: GW,
      body: { query_id: saved.data.id ?? '' },
      signal,
      report: s.report,
    });
    assert.equal(out.kind, 'complete');
    const failed = new Map<number, number>();
    for (const point of out.kind === 'complete' ? (out.result.data?.series ?? []) : []) {
      const at = typeof point.time === 'number' ? point.time : Date.parse(point.time) / 1000;
      failed.set(at, Number(point.data?.['COUNT'] ?? 0));
    }
    assert.ok(
      [...failed.values()].some((n) => n > 0),
      'the direct query sees failed requests',
    );
    const firings: { start: number; end: number | null }[] = [];
    let over = false;
    for (let at = Math.floor(from / 300) * 300 + 300; at <= to; at += 300) {
      const count = [1_200, 900, 600, 300].reduce((sum, back) => sum + (failed.get(at - back) ?? 0), 0);
      if (count > 5 && !over) firings.push({ start: at, end: null });
      const last = firings.at(-1);
      if (count <= 5 && over && last) last.end = at;
      over = count > 5;
    }
    return firings;
  }

  test('"High error rate" over 24 h: one saved query, its result, and firings that match a direct count', async () => {
    const t = trigger(DEMO.triggers.gwErrors);
    const before = s.sandbox.state.savedQueries.length;
    const to = now();
    const run = await runPreview(
      s.client,
      s.pacer,
      s.clock,
      {
        dataset: GW,
        trigger: t,
        query: t.query ?? {},
        windowSeconds: 86_400,
        mode: 'exact',
        nowSeconds: to,
        where: GW,
      },
      new AbortController().signal,
      s.report,
    );
    assert.equal(s.sandbox.state.savedQueries.length, before + 1);
    const saved = s.sandbox.state.savedQueries.at(-1);
    assert.deepEqual(Object.keys(saved?.query ?? {}).sort(), [
      'calculations',
      'end_time',
      'filters',
      'granularity',
      'start_time',
    ]);
    assert.equal(saved?.query.granularity, 300);
    assert.equal(run.plan.chunks.length, 1);
    assert.equal(run.outcome.times.length, 288);
    assert.equal(run.outcome.exact, true);
    assert.deepEqual(
      run.outcome.firings.map((f) => ({ start: f.start, end: f.end })),
      await firingsCountedDirectly(to - 86_400, to),
      run.summary,
    );
    assert.ok(run.outcome.firings.length >= 1, `the demo's daily error bursts make it fire: ${run.summary}`);
    assert.match(
      run.summary,
      /^It would have fired \d+ times? \(\d+ notifications? and \d+ resolves? on_change; \d+ notifications? if on_true\) in the last 24 h\./,
    );
    assert.equal(run.model.preview?.threshold.value, 5);
    // The firings table: exact ISO times in two time columns (shown relative, copied exactly).
    assert.deepEqual(run.model.table?.columns, ['fired at', 'resolved at', 'lasted (min)', 'groups']);
    assert.deepEqual(run.model.table?.timeColumns, [0, 1]);
    const first = run.outcome.firings[0];
    assert.ok(first);
    assert.deepEqual(run.model.table?.rows[0], [
      new Date(first.start * 1000).toISOString(),
      first.end === null ? null : new Date(first.end * 1000).toISOString(),
      first.end === null ? null : Math.round((first.end - first.start) / 60),
      first.groups.join(', '),
    ]);
    const lasted = run.model.table?.rows[0]?.[2];
    assert.ok(
      typeof lasted === 'number' && lasted > 0 && lasted % 5 === 0,
      `a firing lasts whole evaluations of 5 min: ${String(lasted)}`,
    );
  });

  test('a saved query named by query_id is read back and previewed', async () => {
    const t = trigger(DEMO.triggers.gwSavedQuery);
    const query = await readSavedQuery(s.client, GW, t.query_id ?? '', new AbortController().signal);
    assert.equal(query.time_range, 1800);
    const run = await runPreview(
      s.client,
      s.pacer,
      s.clock,
      { dataset: GW, trigger: t, query, windowSeconds: 3_600, mode: 'exact', nowSeconds: now(), where: GW },
      new AbortController().signal,
      s.report,
    );
    assert.equal(run.outcome.times.length, 6);
  });

  test('7 days at a 5-minute frequency takes several queries, or one at a coarser step that says so', async () => {
    const t = trigger(DEMO.triggers.gwOnTrue);
    const exact = await runPreview(
      s.client,
      s.pacer,
      s.clock,
      {
        dataset: GW,
        trigger: t,
        query: t.query ?? {},
        windowSeconds: 604_800,
        mode: 'exact',
        nowSeconds: now(),
        where: GW,
      },
      new AbortController().signal,
      s.report,
    );
    assert.equal(exact.plan.chunks.length, 3);
    assert.ok(exact.plan.notes.some((n) => n.startsWith('The window is shortened')));
    const coarse = await runPreview(
      s.client,
      s.pacer,
      s.clock,
      {
        dataset: GW,
        trigger: t,
        query: t.query ?? {},
        windowSeconds: 604_800,
        mode: 'coarse',
        nowSeconds: now(),
        where: GW,
      },
      new AbortController().signal,
      s.report,
    );
    assert.equal(coarse.plan.chunks.length, 1);
    assert.equal(coarse.plan.step, 900);
    assert.equal(coarse.outcome.exact, false);
    assert.equal(
      coarse.model.chart?.note,
      'Coarser steps: buckets of 15 min instead of 5 min (one query instead of 3), so every window value is estimated.',
    );
  });

  test('a trigger without a threshold is refused with the reason, before anything is sent', async () => {
    const sent = s.sandbox.requests.length;
    await assert.rejects(
      runPreview(
        s.client,
        s.pacer,
        s.clock,
        {
          dataset: GW,
          trigger: { name: 'x', frequency: 300 },
          query: { calculations: [{ op: 'COUNT' }], time_range: 600 },
          windowSeconds: 3600,
          mode: 'exact',
          nowSeconds: now(),
          where: GW,
        },
        new AbortController().signal,
        s.report,
      ),
      (e: unknown) =>
        e instanceof PreviewRefused &&
        e.message === 'Trigger "x" cannot be previewed: the threshold needs an op of >, >=, < or <=.',
    );
    assert.equal(s.sandbox.requests.length, sent);
  });

  test('a trigger of a dataset the service does not have: the error names the missing dataset and the one meant, not an unavailable call', async () => {
    const t = trigger(DEMO.triggers.gwErrors);
    await assert.rejects(
      runPreview(
        s.client,
        s.pacer,
        s.clock,
        {
          dataset: 'checkout',
          trigger: t,
          query: t.query ?? {},
          windowSeconds: 3600,
          mode: 'exact',
          nowSeconds: now(),
          where: 'checkout',
        },
        new AbortController().signal,
        s.report,
      ),
      {
        name: 'DatasetMissingError',
        message: 'The service has no dataset "checkout" (did you mean "checkout-service"?).',
      },
    );
  });

  test('previewing the same query twice in a session saves it once', async () => {
    const t = trigger(DEMO.triggers.gwErrors);
    const queries = new SavedQueryCache();
    const posts = () => s.sandbox.requests.filter((r) => r.method === 'POST' && r.path === `/1/queries/${GW}`).length;
    const before = posts();
    const request = {
      dataset: GW,
      trigger: t,
      query: t.query ?? {},
      windowSeconds: 3600,
      mode: 'exact' as const,
      nowSeconds: now(),
      where: GW,
      queries,
    };
    await runPreview(s.client, s.pacer, s.clock, request, new AbortController().signal, s.report);
    await runPreview(s.client, s.pacer, s.clock, request, new AbortController().signal, s.report);
    assert.equal(posts() - before, 1);
  });

  test('saving the preview query answered 404 names the call and what still works', async () => {
    s.sandbox.faults.nextStatus(404, 1, 'auto', { match: { method: 'POST', path: '/1/queries/' } });
    const t = trigger(DEMO.triggers.gwErrors);
    await assert.rejects(
      runPreview(
        s.client,
        s.pacer,
        s.clock,
        {
          dataset: GW,
          trigger: t,
          query: t.query ?? {},
          windowSeconds: 3600,
          mode: 'exact',
          nowSeconds: now(),
          where: GW,
        },
        new AbortController().signal,
        s.report,
      ),
      {
        name: 'CallUnavailableError',
        message:
          'Saving a query is not available on this service: POST /1/queries/api-gateway answered 404 (not found). Running a saved query by id still works.',
      },
    );
  });
});
