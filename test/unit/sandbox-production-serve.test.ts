// The sandbox serving the demo's production environment (`demoEnvironment: 'production'`, `--demo production`):
// its own keys, ids and slugs, a reset and a data file that stay production, and query data whose traffic
// matches production's thresholds.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEMO,
  PRODUCTION,
  PRODUCTION_CREDENTIALS,
  SANDBOX_CREDENTIALS,
  demoData,
  productionData,
  startSandbox,
  type SandboxData,
} from '../../src/sandbox';
import { passesAll } from '../../src/sandbox/queries/aggregate';
import { readSpec } from '../../src/sandbox/queries/spec';
import { forEachEvent, incidentsOfDay, type Incident, type SyntheticEvent } from '../../src/sandbox/queries/synthetic';
import { dataOf } from '../../src/sandbox/state';
import { startTestSandbox, testClock, type TestSandbox } from './sandbox-helpers';

const dir = mkdtempSync(join(tmpdir(), 'obs-sandbox-production-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a sandbox for one test and closes it after, whatever the test's outcome. */
async function withSandbox<T>(
  options: Parameters<typeof startTestSandbox>[0],
  run: (sb: TestSandbox) => Promise<T>,
): Promise<T> {
  const sb = await startTestSandbox(options);
  try {
    return await run(sb);
  } finally {
    await sb.handle.close();
  }
}

const ids = (res: { json(): unknown }): string[] => (res.json() as { id: string }[]).map((r) => r.id);

describe('a production sandbox', () => {
  test('answers production’s keys with production’s data, and refuses staging’s key', async () => {
    await withSandbox({ demoEnvironment: 'production' }, async (sb) => {
      assert.deepEqual(
        [sb.handle.info.environmentId, sb.handle.info.configKey],
        [PRODUCTION.environmentId, PRODUCTION_CREDENTIALS.configKey],
      );
      assert.deepEqual(ids(await sb.v1('GET', `/1/triggers/checkout-prod`)), [
        PRODUCTION.triggers.coFormula,
        PRODUCTION.triggers.coTenTags,
      ]);
      assert.equal((await sb.v1('GET', `/1/triggers/${DEMO.datasets.checkout}`)).status, 404);
      const stagingKey = { 'X-Service-Team': SANDBOX_CREDENTIALS.configKey };
      assert.equal((await sb.v1('GET', '/1/datasets', undefined, stagingKey)).status, 401);
    });
  });

  test('staging, named or by default, serves the demo as it always was and refuses production’s key', async () => {
    const productionKey = { 'X-Service-Team': PRODUCTION_CREDENTIALS.configKey };
    for (const options of [{}, { demoEnvironment: 'staging' as const }]) {
      await withSandbox(options, async (sb) => {
        assert.deepEqual(dataOf(sb.handle.state), demoData());
        assert.equal(sb.handle.info.configKey, SANDBOX_CREDENTIALS.configKey);
        assert.equal((await sb.v1('GET', '/1/datasets', undefined, productionKey)).status, 401);
      });
    }
  });

  test('an environment of the demo without the demo is refused', async () => {
    const start = startSandbox({ demo: false, demoEnvironment: 'production' });
    try {
      await assert.rejects(start, {
        name: 'RangeError',
        message: 'demoEnvironment needs the demo data: it cannot go with demo: false',
      });
    } finally {
      await start.then(
        (started) => started.close(),
        () => undefined,
      );
    }
  });

  test('the ids it assigns are never those staging assigns', async () => {
    const query = { calculations: [{ op: 'COUNT' }], time_range: 3600 };
    const created = async (sb: TestSandbox) =>
      (
        (await sb.v1('POST', `/1/queries/${DEMO.datasets.gateway}`, query)).json() as {
          id: string;
        }
      ).id;
    assert.deepEqual(
      [await withSandbox({}, created), await withSandbox({ demoEnvironment: 'production' }, created)],
      ['q_000001', 'q_500001'],
    );
  });

  test('a reset goes back to production’s demo, still opened by production’s keys', async () => {
    await withSandbox({ demoEnvironment: 'production' }, async (sb) => {
      const id = PRODUCTION.triggers.coFormula;
      assert.equal((await sb.v1('DELETE', `/1/triggers/checkout-prod/${id}`)).status, 204);
      assert.equal((await sb.control('POST', 'reset')).status, 200);
      assert.deepEqual(dataOf(sb.handle.state), productionData(demoData()));
      assert.equal((await sb.v1('GET', `/1/triggers/checkout-prod/${id}`)).status, 200);
    });
  });

  test('a data file of production stays production’s, keys included, when restarted without the flag', async () => {
    const dataFile = join(dir, 'production.json');
    await (await startSandbox({ demoEnvironment: 'production', dataFile })).close();
    await withSandbox({ dataFile }, async (sb) => {
      assert.deepEqual(
        [sb.handle.info.environmentId, sb.handle.info.configKey],
        [PRODUCTION.environmentId, PRODUCTION_CREDENTIALS.configKey],
      );
      assert.equal((await sb.v1('GET', '/1/triggers/checkout-prod')).status, 200);
    });
  });
});

describe('a sandbox’s keys follow its data', () => {
  test('reset from a production data file to the staging demo, a sandbox takes staging’s keys', async () => {
    const dataFile = join(dir, 'reset-to-staging.json');
    await (await startSandbox({ demoEnvironment: 'production', dataFile })).close();
    await withSandbox({ dataFile }, async (sb) => {
      assert.equal((await sb.control('POST', 'reset')).status, 200);
      const staging = { 'X-Service-Team': SANDBOX_CREDENTIALS.configKey };
      const production = { 'X-Service-Team': PRODUCTION_CREDENTIALS.configKey };
      assert.deepEqual(
        [
          sb.handle.info.configKey,
          (await sb.v1('GET', '/1/datasets', undefined, staging)).status,
          (await sb.v1('GET', '/1/datasets', undefined, production)).status,
        ],
        [SANDBOX_CREDENTIALS.configKey, 200, 401],
      );
    });
  });
});

describe('production’s query data', () => {
  const clock = testClock('2025-06-02T15:00:00Z');
  const hour = { calculations: [{ op: 'COUNT' }], start_time: clock.now() / 1000 - 3600, end_time: clock.now() / 1000 };

  /** The COUNT of the last hour of a dataset, through the sandbox's saved query and query result routes. */
  async function lastHourCount(sb: TestSandbox, slug: string): Promise<number> {
    const saved = (await sb.v1('POST', `/1/queries/${slug}`, hour)).json() as { id: string };
    const created = (await sb.v1('POST', `/1/query_results/${slug}`, { query_id: saved.id })).json() as {
      id: string;
    };
    const read = await sb.v1('GET', `/1/query_results/${slug}/${created.id}`);
    const body = read.json() as { complete: boolean; data?: { results: { data: { COUNT?: number } }[] } };
    assert.equal(body.complete, true, read.text);
    return body.data?.results[0]?.data.COUNT ?? Number.NaN;
  }

  test('about four times staging’s requests and payments, checkout’s under its own slug', async () => {
    const options = { clock: clock.now, rateLimit: 1000, queryResultRateLimit: 1000 };
    const count = async (sb: TestSandbox, checkout: string) => [
      await lastHourCount(sb, DEMO.datasets.gateway),
      await lastHourCount(sb, checkout),
    ];
    const [stagingGateway = 0, stagingCheckout = 0] = await withSandbox(options, (sb) =>
      count(sb, DEMO.datasets.checkout),
    );
    const [productionGateway = 0, productionCheckout = 0] = await withSandbox(
      { ...options, demoEnvironment: 'production' },
      (sb) => count(sb, PRODUCTION.datasets.checkout),
    );
    const ratios = [productionGateway / stagingGateway, productionCheckout / stagingCheckout];
    assert.ok(
      ratios.every((r) => r > 3.5 && r < 4.5),
      `${stagingGateway} -> ${productionGateway}, ${stagingCheckout} -> ${productionCheckout}`,
    );
  });
});

describe('production’s thresholds fit production’s traffic', () => {
  // Four days from a fixed Monday: eight error bursts of the gateway, and the noise between them.
  const FROM = Date.parse('2026-11-02T00:00:00Z') / 1000;
  const TO = FROM + 4 * 86_400;
  const bursts: Incident[] = [0, 1, 2, 3]
    .flatMap((d) => incidentsOfDay(DEMO.datasets.gateway, FROM / 86_400 + d))
    .filter((i) => i.kind === 'errors');
  const staging = demoData();
  const production = productionData(demoData());

  /** When a COUNT trigger of the data named so fires between FROM and TO (with its threshold, or the one given). */
  function firings(data: SandboxData, name: string, threshold?: number): { at: number[]; range: number } {
    const trigger = data.triggers.find((t) => t.name === name);
    assert.ok(trigger);
    const read = readSpec(trigger.query ?? data.savedQueries.find((q) => q.id === trigger.query_id)?.query, TO);
    assert.ok(read.ok);
    const { spec } = read;
    assert.deepEqual(spec.calculations, [{ op: 'COUNT' }]);
    const dataset = data.datasets.find((d) => d.slug === trigger.dataset_slug);
    assert.ok(dataset);
    const range = spec.time_range ?? 0;
    const perMinute = new Map<number, number>();
    const count = (e: SyntheticEvent, t: number) => {
      if (!passesAll(spec.filters, spec.filter_combination, e)) return;
      const minute = Math.floor(t / 60) * 60;
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
    };
    forEachEvent(dataset.events?.source ?? dataset.slug, FROM - range, TO, count, dataset.events?.scale ?? 1);
    const value = threshold ?? trigger.threshold.value;
    const met = (n: number) => (trigger.threshold.op === '>' ? n > value : n >= value);
    const at: number[] = [];
    for (let t = FROM; t < TO; t += trigger.frequency) {
      let n = 0;
      for (let m = t - range; m < t; m += 60) n += perMinute.get(m) ?? 0;
      if (met(n)) at.push(t);
    }
    return { at, range };
  }
  const overlaps = (b: Incident, t: number, range: number) => t - range < b.end && t > b.start;
  const burstsCaught = ({ at, range }: { at: number[]; range: number }) =>
    bursts.filter((b) => at.some((t) => overlaps(b, t, range))).length;
  const firedOutside = ({ at, range }: { at: number[]; range: number }) =>
    at.filter((t) => !bursts.some((b) => overlaps(b, t, range))).length;

  for (const name of ['High error rate', 'Server errors (every interval)', '5xx from a saved query']) {
    test(`"${name}" fires in every error burst in both; at staging’s threshold, between them too`, () => {
      const stagingThreshold = staging.triggers.find((t) => t.name === name)?.threshold.value;
      const inStaging = firings(staging, name);
      const inProduction = firings(production, name);
      const unscaled = firings(production, name, stagingThreshold);
      assert.deepEqual([bursts.length, burstsCaught(inStaging), burstsCaught(inProduction)], [8, 8, 8]);
      assert.ok(
        firedOutside(inProduction) <= firedOutside(inStaging) && firedOutside(unscaled) > firedOutside(inStaging),
        `outside bursts: staging ${firedOutside(inStaging)}, production ${firedOutside(inProduction)}, ` +
          `production at staging's threshold ${firedOutside(unscaled)}`,
      );
    });
  }
});
