// obs test --record and recorded runs: a window recorded against the sandbox runs from its recording once the
// sandbox is stopped, with no service in the environment or a dead one; a changed query says "another query"
// and is not recorded over without --force; the same data recorded twice is the same bytes; the usage rules;
// a recording is never a trigger file to lint, and a link leading out of the folder is neither read nor written.
import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRecording } from '../../src/backtest';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

const root = join(import.meta.dirname, '..', '..');
const DEMO = join(root, 'demo', 'workspace', 'triggers', 'api-gateway');
const TESTS = 'triggers/api-gateway/High-error-rate.trigger-test.json';
const TRIGGER = 'triggers/api-gateway/High-error-rate.trigger.json';
const RECORDING = 'triggers/api-gateway/High-error-rate.trigger-test.recording.json';
const NO_SERVICE =
  'obs: no service in the environment (OBS_BASE_URL, OBS_CONFIG_KEY): the tests run from their recordings, and those without one are not testable\n';
const FROM_RECORDING = 'note: Run from the recording: no query to the service.';

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
/** A day that ended on the hour two hours ago: within the 7 days, and whole. */
const end = Math.floor(Date.now() / 3_600_000) * 3_600 - 7_200;
const DAY = { from: iso(end - 86_400), to: iso(end) };
/** The demo's error bursts come twice a day: any day fires, and sends few notifications. */
const EXPECTATIONS = [
  { name: 'catches the bursts of that day', expect: 'fires', ...DAY },
  { name: 'pages at most 9 times that day', expect: 'at-most', notifications: 9, ...DAY },
  { name: 'the last hour', expect: 'at-most', notifications: 99, from: 'now-1h', to: 'now' },
];

const dirs: string[] = [];
const sandboxes: TestSandbox[] = [];
after(async () => {
  await Promise.all(sandboxes.map((s) => s.handle.close().catch(() => undefined)));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function sandbox(): Promise<{ s: TestSandbox; env: Record<string, string> }> {
  const s = await startTestSandbox({ queryResultRateLimit: 1_000 });
  sandboxes.push(s);
  return { s, env: { OBS_BASE_URL: s.base, OBS_CONFIG_KEY: s.handle.info.configKey } };
}

/** A folder with the demo trigger and a test file of `expectations` beside it. */
function workspace(expectations: unknown[] = EXPECTATIONS): string {
  const dir = mkdtempSync(join(tmpdir(), 'obs-record-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'triggers', 'api-gateway'), { recursive: true });
  cpSync(join(DEMO, 'High-error-rate.trigger.json'), join(dir, TRIGGER));
  writeFileSync(join(dir, TESTS), JSON.stringify({ expectations }, null, 2));
  return dir;
}

async function obs(dir: string, argv: string[], env: Record<string, string>) {
  return runObs(argv, { cwd: dir, env });
}

/** The lines of a text report for the expectations, their counts (which depend on the hour) as N, the noun plural. */
const lines = (stdout: string) =>
  stdout.split('\n').map((l) =>
    l
      .replace(
        /\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC|\d{4}-\d{2}-\d{2} \d{2}:\d{2}(?= and)|(?<=and )\d{2}:\d{2} UTC/g,
        '<time>',
      )
      // One notification is "1 notification": the plural goes with the count.
      .replace(/(fired|sent) \d+ (notification|time)s?\b/, '$1 N $2s'),
  );

const editFilter = (dir: string) => {
  const t = JSON.parse(readFileSync(join(dir, TRIGGER), 'utf8')) as { query: { filters: unknown[] } };
  t.query.filters = [{ column: 'error', op: '=', value: false }];
  writeFileSync(join(dir, TRIGGER), JSON.stringify(t, null, 2));
};

describe('recorded against the sandbox, then run without it', () => {
  let dir = '';
  beforeEach(() => {
    dir = workspace();
  });

  test('--record writes the absolute window beside the test file; with the sandbox stopped the recorded tests pass from it', async () => {
    const { s, env } = await sandbox();
    const recorded = await obs(dir, ['test', '--record'], env);
    assert.equal(recorded.code, 0, recorded.stdout + recorded.stderr);
    assert.equal(
      recorded.stderr,
      `obs: not recorded: "the last hour": its window is relative to the run (now-1h to now), and a recording holds fixed times: write the window in UTC times to record it\nobs: recorded 1 window in ${RECORDING}\n`,
    );
    const parsed = parseRecording(readFileSync(join(dir, RECORDING), 'utf8'));
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.recording.windows.map((w) => [w.from, w.to, w.dataset, w.query]),
      [
        [
          DAY.from,
          DAY.to,
          'api-gateway',
          { calculations: [{ op: 'COUNT' }], filters: [{ column: 'error', op: '=', value: true }], granularity: 300 },
        ],
      ],
    );
    await s.handle.close();

    const offline = await obs(dir, ['test'], {});
    assert.deepEqual([offline.code, offline.stderr], [1, NO_SERVICE]);
    assert.deepEqual(lines(offline.stdout), [
      `${TESTS}: "High error rate" (${TRIGGER}) on api-gateway`,
      '  passed        catches the bursts of that day: fired N times between <time> and <time>, first at <time>',
      `                ${FROM_RECORDING}`,
      '  passed        pages at most 9 times that day: sent N notifications (on_change) between <time> and <time>; at most 9 allowed',
      `                ${FROM_RECORDING}`,
      '  NOT TESTABLE  the last hour: needs the service: no recording holds its window; set OBS_BASE_URL and OBS_CONFIG_KEY to run it against the service, or record it with obs test --record',
      '',
      '3 expectations in 1 file: 2 passed, 0 failed, 1 not testable, 0 errors',
      '',
    ]);

    // CI offline: a test file of recorded windows only passes with no service in the environment.
    writeFileSync(join(dir, TESTS), JSON.stringify({ expectations: EXPECTATIONS.slice(0, 2) }));
    const ci = await obs(dir, ['test'], {});
    assert.deepEqual([ci.code, ci.stderr], [0, NO_SERVICE]);
    assert.match(ci.stdout, /\n2 expectations in 1 file: 2 passed, 0 failed, 0 not testable, 0 errors\n$/);

    // A service named but gone: the recorded tests do not call it.
    const dead = await obs(dir, ['test'], env);
    assert.deepEqual([dead.code, dead.stderr], [0, '']);
    assert.match(dead.stdout, /\n2 expectations in 1 file: 2 passed, 0 failed, 0 not testable, 0 errors\n$/);
  });

  test('after the trigger\'s query changed: "another query", no pass; --record does not write over it, --record --force does', async () => {
    const { env } = await sandbox();
    await obs(dir, ['test', '--record'], env);
    const before = readFileSync(join(dir, RECORDING), 'utf8');
    editFilter(dir);
    const offline = await obs(dir, ['test'], {});
    assert.equal(offline.code, 2);
    assert.deepEqual(
      lines(offline.stdout).slice(1, 3),
      EXPECTATIONS.slice(0, 2).map(
        (e) => `  ERROR         ${e.name}: the recording is of another query (filters changed since): record again`,
      ),
    );

    const span = `${DAY.from.replace('T', ' ').replace(':00Z', ' UTC')} to ${DAY.to.replace('T', ' ').replace(':00Z', ' UTC')}`;
    const refused = await obs(dir, ['test', '--record'], env);
    assert.equal(refused.code, 2);
    assert.equal(
      refused.stderr.split('\n').at(-2),
      `obs: ${RECORDING} not written: the recorded window ${span} holds another query; --force replaces it`,
    );
    assert.equal(readFileSync(join(dir, RECORDING), 'utf8'), before);

    const forced = await obs(dir, ['test', '--record', '--force'], env);
    assert.equal(
      forced.stderr.split('\n').at(-2),
      `obs: recorded 1 window in ${RECORDING}; replaced: the recorded window ${span} holds another query`,
    );
    const now = parseRecording(readFileSync(join(dir, RECORDING), 'utf8'));
    assert.deepEqual(now.ok ? now.recording.windows.map((w) => w.query['filters']) : [], [
      [{ column: 'error', op: '=', value: false }],
    ]);
    assert.equal((await obs(dir, ['test', TESTS], {})).stdout.match(/Run from the recording/g)?.length, 2);
  });

  test('the same data recorded twice is the same bytes; recording again changes nothing and says so', async () => {
    const { env } = await sandbox();
    await obs(dir, ['test', '--record'], env);
    const other = workspace();
    await obs(other, ['test', '--record'], env);
    const text = readFileSync(join(dir, RECORDING), 'utf8');
    assert.equal(readFileSync(join(other, RECORDING), 'utf8'), text);
    const again = await obs(dir, ['test', '--record'], env);
    assert.equal(
      again.stderr.split('\n').at(-2),
      `obs: ${RECORDING} is unchanged: 1 window (2 expectations ran from it)`,
    );
    assert.equal(readFileSync(join(dir, RECORDING), 'utf8'), text);
  });
});

describe('usage and files', () => {
  test('--force needs --record, and --record needs the service', async () => {
    const dir = workspace();
    const force = await obs(dir, ['test', '--force'], {});
    assert.equal(force.code, 2);
    assert.match(
      force.stderr,
      /^obs: --force goes with --record: it lets a recording whose content differs be replaced\n/,
    );
    const record = await obs(dir, ['test', '--record'], {});
    assert.deepEqual(
      [record.code, record.stderr],
      [2, 'obs: --record needs the service: set OBS_BASE_URL and OBS_CONFIG_KEY in the environment\n'],
    );
    assert.equal(existsSync(join(dir, RECORDING)), false);
  });

  test('a recording beside its test file is no trigger file: lint and plan of triggers/**/*.json leave it out', async () => {
    const { env } = await sandbox();
    const dir = workspace();
    await obs(dir, ['test', '--record'], env);
    assert.ok(existsSync(join(dir, RECORDING)));
    const lint = await obs(dir, ['lint', 'triggers/**/*.json'], env);
    assert.equal(lint.code, 0, lint.stdout);
    assert.match(lint.stdout, /^1 file checked: /m);
    const plan = await obs(dir, ['plan', 'triggers/**/*.json'], env);
    assert.doesNotMatch(plan.stdout + plan.stderr, /recording/);
  });

  test('a recording that is a link leading out of the folder is neither read nor written through', async () => {
    const { env } = await sandbox();
    const dir = workspace(EXPECTATIONS.slice(0, 1));
    const outside = mkdtempSync(join(tmpdir(), 'obs-record-outside-'));
    dirs.push(outside);
    writeFileSync(join(outside, 'elsewhere.json'), 'KEEP');
    symlinkSync(join(outside, 'elsewhere.json'), join(dir, RECORDING));
    const reason = `${RECORDING}: it is a link leading outside the folder obs test runs in, so it is not used`;
    const read = await obs(dir, ['test'], env);
    assert.equal(read.code, 2);
    assert.equal(lines(read.stdout)[1], `  ERROR         catches the bursts of that day: ${reason}`);
    const record = await obs(dir, ['test', '--record', '--force'], env);
    assert.equal(record.code, 2);
    assert.equal(readFileSync(join(outside, 'elsewhere.json'), 'utf8'), 'KEEP');
  });
});
