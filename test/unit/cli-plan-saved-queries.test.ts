// obs plan holds a trigger's query_id to its saved query before a write is planned, against the sandbox: a
// query_id naming no saved query of the dataset, or one whose saved query breaks the trigger query rules
// (spec 2.6.1: HEATMAP, orders and limit, a time range the trigger's frequency does not fit), blocks the
// trigger with the reason; a fit one plans; each saved query is read once (the sandbox's request log counts
// the reads); a service that does not serve the read to the key skips the check, and says so.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { triggerFileText } from '../../src/triggerFiles';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

const GW = DEMO.datasets.gateway;
let sandbox: TestSandbox;
let env: Record<string, string>;
let dir = '';
/** A saved query of the gateway with a HEATMAP (a saved query may hold one; a trigger's may not). */
let heatmap = '';

before(async () => {
  sandbox = await startTestSandbox({ rateLimit: 100_000 });
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
  const made = await sandbox.v1('POST', `/1/queries/${GW}`, {
    calculations: [{ op: 'HEATMAP', column: 'duration_ms' }],
    time_range: 1800,
  });
  assert.equal(made.status, 200, made.text);
  heatmap = (made.json() as { id: string }).id;
});
after(async () => {
  await sandbox.handle.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'obs-plan-queries-'));
  sandbox.handle.faults.clear();
});

/** A new trigger of the gateway on a saved query, every 15 minutes. */
const onSaved = (name: string, queryId: string, more: Record<string, unknown> = {}) => ({
  dataset_slug: GW,
  name,
  threshold: { op: '>', value: 1 },
  frequency: 900,
  query_id: queryId,
  ...more,
});

function write(file: string, value: unknown): void {
  mkdirSync(join(dir, 'triggers', GW), { recursive: true });
  writeFileSync(join(dir, 'triggers', GW, file), `${JSON.stringify(value, null, 2)}\n`);
}

interface PlanJson {
  changes: { action: string; name: string }[];
  blocked: { file?: string; reasons: string[] }[];
}

async function obs(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runObs(argv, { cwd: dir, env });
}

/** obs plan --out plan.json, with the saved queries it read. */
async function plan(): Promise<{ code: number; plan: PlanJson; stderr: string; reads: string[] }> {
  const seen = sandbox.handle.requests.length;
  const { code, stdout, stderr } = await obs('plan', '--format', 'json', '--out', 'plan.json', 'triggers');
  const reads = sandbox.handle.requests
    .slice(seen)
    .filter((r) => r.method === 'GET' && r.path.startsWith('/1/queries/'))
    .map((r) => r.path);
  return { code, plan: JSON.parse(stdout) as PlanJson, stderr, reads };
}

const blocked = (p: PlanJson) => p.blocked.map((b) => [b.file, b.reasons]);
const RULE_1 =
  'expected one of COUNT, SUM, AVG, COUNT_DISTINCT, MAX, MIN, P001, P01, P05, P10, P20, P25, P50, P75, P80, P90, P95, P99, P999, RATE_AVG, RATE_SUM, RATE_MAX, COUNT_DATAPOINTS, HISTOGRAM_COUNT';
const RULE_3 =
  'must not be set in a trigger query: results are ordered by the threshold operator and all matching groups are evaluated';

test('a query_id naming no saved query of the dataset blocks the trigger, saying so: exit 2, nothing planned', async () => {
  write('missing.trigger.json', onSaved('On a missing query', 'q_nope'));
  const r = await plan();
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(r.plan.changes, []);
  assert.deepEqual(blocked(r.plan), [
    [`triggers/${GW}/missing.trigger.json`, ['query_id "q_nope" names no saved query of api-gateway']],
  ]);
});

test('a query_id no path may hold (".") names no saved query: blocked without asking the service', async () => {
  write('dot.trigger.json', onSaved('On a dot', '.'));
  const r = await plan();
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(
    [r.reads, blocked(r.plan)],
    [
      [],
      [
        [
          `triggers/${GW}/dot.trigger.json`,
          [
            'query_id "." names no saved query of api-gateway (read saved query refused before sending: queryId: query id must not be "." or "..")',
          ],
        ],
      ],
    ],
  );
});

test("a query_id whose saved query breaks the trigger query rules blocks the trigger, naming each rule: HEATMAP; orders and limit; a time range beyond 4 x the trigger's frequency", async () => {
  write('heatmap.trigger.json', onSaved('On a heatmap', heatmap));
  // Top routes: orders and limit over 7200 s, which a trigger every 1800 s may span.
  write('orders.trigger.json', onSaved('On top routes', DEMO.savedQueries.gwTopRoutes, { frequency: 1800 }));
  // 5xx over 1800 s: fit for a trigger every 900 s, but not every 300 s.
  write('often.trigger.json', onSaved('On 5xx, often', DEMO.savedQueries.gw5xx, { frequency: 300 }));
  // A problem of the trigger itself is the linter's reason, said once, beside its saved query's.
  write('tagged.trigger.json', onSaved('Tagged, on a heatmap', heatmap, { tags: [{ key: 'Team', value: 'edge' }] }));
  const r = await plan();
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(r.plan.changes, []);
  const head = (id: string) => `query_id ${JSON.stringify(id)} names a saved query a trigger may not use`;
  assert.deepEqual(blocked(r.plan), [
    [
      `triggers/${GW}/heatmap.trigger.json`,
      [`${head(heatmap)}: query/calculation-op-refused: calculation op HEATMAP is not allowed in a trigger; ${RULE_1}`],
    ],
    [
      `triggers/${GW}/often.trigger.json`,
      [
        `${head(DEMO.savedQueries.gw5xx)}: query/time-range-max: time_range 1800 exceeds 1200 = 4 x frequency 300; expected 300 (the frequency) to 1200 (4 x frequency)`,
      ],
    ],
    [
      `triggers/${GW}/orders.trigger.json`,
      [
        `${head(DEMO.savedQueries.gwTopRoutes)}: query/refused-member: orders ${RULE_3}`,
        `${head(DEMO.savedQueries.gwTopRoutes)}: query/refused-member: limit ${RULE_3}`,
      ],
    ],
    [
      `triggers/${GW}/tagged.trigger.json`,
      [
        'trigger/tag-key (line 12): tag key "Team" is not allowed; expected 1 to 32 lowercase letters a-z',
        `${head(heatmap)}: query/calculation-op-refused: calculation op HEATMAP is not allowed in a trigger; ${RULE_1}`,
      ],
    ],
  ]);
});

test('a query_id whose saved query fits the trigger plans its write, and apply makes it', async () => {
  write('fit.trigger.json', onSaved('On 5xx', DEMO.savedQueries.gw5xx));
  const r = await plan();
  assert.equal(r.code, 1, r.stderr);
  assert.deepEqual([r.plan.changes.map((c) => [c.action, c.name]), r.plan.blocked], [[['create', 'On 5xx']], []]);
  assert.deepEqual(r.reads, [`/1/queries/${GW}/${DEMO.savedQueries.gw5xx}`]);
  const applied = await obs('apply', 'plan.json');
  assert.equal(applied.code, 0, applied.stdout + applied.stderr);
  assert.match(applied.stdout, /\n1 applied, 0 skipped, 0 refused, 0 failed\n$/);
});

test('each saved query named is read once, however many triggers to be written name it; a trigger in sync reads none', async () => {
  write('a.trigger.json', [
    onSaved('First on a heatmap', heatmap),
    onSaved('Second on a heatmap', heatmap, { frequency: 1800 }),
  ]);
  write('b.trigger.json', onSaved('Third on a heatmap', heatmap, { threshold: { op: '>', value: 3 } }));
  write('c.trigger.json', onSaved('On top routes', DEMO.savedQueries.gwTopRoutes));
  write('d.trigger.json', onSaved('On a missing query', 'q_nope'));
  write('e.trigger.json', onSaved('Again on a missing query', 'q_nope'));
  // The demo trigger on the saved query 5xx, as pulled: nothing to write, so no trigger's check reads 5xx.
  const inSync = (await sandbox.v1('GET', `/1/triggers/${GW}/${DEMO.triggers.gwSavedQuery}`)).json() as Record<
    string,
    unknown
  >;
  assert.equal(inSync.query_id, DEMO.savedQueries.gw5xx);
  writeFileSync(join(dir, 'triggers', GW, 'in-sync.trigger.json'), triggerFileText(inSync));
  const r = await plan();
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual([r.plan.changes, r.plan.blocked.length], [[], 6]);
  assert.deepEqual(r.reads.sort(), [
    `/1/queries/${GW}/${heatmap}`,
    `/1/queries/${GW}/${DEMO.savedQueries.gwTopRoutes}`,
    `/1/queries/${GW}/q_nope`,
  ]);
});

const REFUSED_READ: Record<number, string> = {
  403: 'the key lacks the permission for this',
  405: 'the service refused the request',
};
for (const status of [403, 405]) {
  test(`a service that answers the read with ${status} skips the check and says so: the trigger is planned`, async () => {
    sandbox.handle.faults.nextStatus(status, 1, 'auto', { match: { method: 'GET', path: '/1/queries/' } });
    write('missing.trigger.json', onSaved('On a missing query', 'q_nope'));
    const r = await plan();
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(
      r.plan.changes.map((c) => [c.action, c.name]),
      [['create', 'On a missing query']],
    );
    assert.match(
      r.stderr,
      new RegExp(
        `^obs: the saved queries named by query_id were not checked: read saved query failed: ${REFUSED_READ[status] ?? ''}\\. `,
        'm',
      ),
    );
  });
}
