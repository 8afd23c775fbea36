// Recordings of trigger tests in the engine: recorded against the sandbox, then run from the recording a year
// later with the sandbox stopped (the verdicts the service gave, no request); a changed query says "another
// query"; an edit the recorded buckets still serve (the threshold, exceeded_limit) runs from them; the same data
// recorded twice is the same bytes; relative and unfinished windows are not recorded; a saved query travels in
// the recording; merging keeps what the file holds and refuses to change a window without force; the format.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { ServiceClient } from '../../src/api/client';
import {
  CreationPacer,
  parseRecording,
  parseTestFile,
  prepareTrigger,
  recordedQueryApi,
  recordingText,
  recordingUpdate,
  ResultCache,
  runTriggerTests,
  TRIGGER_RECORDING_SCHEMA_PATH,
  type ExpectationOutcome,
  type QueryApi,
  type RecordedWindow,
  type RecordNote,
  type RunnerClock,
  type TriggerTestFile,
  type TriggerTestRecording,
} from '../../src/backtest';
import { recordingJsonSchemaText } from '../../src/backtest/recordingFile';
import { DEMO, startSandbox, type SandboxHandle } from '../../src/sandbox';
import { virtualClock } from './virtualClock';

const root = join(import.meta.dirname, '..', '..');
const DEMO_TRIGGER = readFileSync(
  join(root, 'demo', 'workspace', 'triggers', 'api-gateway', 'High-error-rate.trigger.json'),
  'utf8',
);
const DAY = { from: '2025-06-01T12:00:00Z', to: '2025-06-02T11:55:00Z' };
const TESTS = {
  expectations: [
    { name: 'catches the bursts', expect: 'fires', ...DAY },
    { name: 'quiet', expect: 'does-not-fire', ...DAY },
    { name: 'the last hour', expect: 'at-most', notifications: 99, from: 'now-1h', to: 'now' },
  ],
};

const file = (value: unknown): TriggerTestFile => {
  const parsed = parseTestFile(JSON.stringify(value));
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason.map((p) => p.message).join('; '));
  return parsed.file;
};
const brief = (outcomes: readonly ExpectationOutcome[]) => outcomes.map((o) => [o.status, o.message]);
const never = new AbortController().signal;

const handles: SandboxHandle[] = [];
const clients: ServiceClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
});

/** A sandbox at `iso` with a client on one virtual clock; `requests` counts what reached it. */
async function service(iso = '2025-06-02T12:00:00Z') {
  const { clock, timing, now } = virtualClock(iso);
  const sandbox = await startSandbox({ clock: now, rateLimit: 10_000 });
  const client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey, timing });
  handles.push(sandbox);
  clients.push(client);
  return { sandbox, client, clock, nowSeconds: Math.floor(now() / 1000) };
}

/** Runs a test file with a recording (or none), recording (or not); what each expectation came to. */
async function run(
  tests: TriggerTestFile,
  triggerText: string,
  o: {
    api: QueryApi;
    nowSeconds: number;
    clock?: RunnerClock;
    recording?: TriggerTestRecording;
    record?: boolean;
    offline?: boolean;
  },
) {
  // The sandbox's clock when there is one (its results complete as it moves on); else one of its own.
  const clock = o.clock ?? virtualClock('2026-06-02T12:00:00Z').clock;
  const api = recordedQueryApi(o.recording, o.api);
  const prepared = await prepareTrigger(triggerText, tests, api, never);
  assert.ok(prepared.ok, prepared.ok ? '' : prepared.reason);
  const notes: [string, RecordNote][] = [];
  const outcomes = await runTriggerTests(tests, prepared.tested, {
    api,
    pacer: new CreationPacer(clock),
    clock,
    signal: never,
    report: () => undefined,
    cache: new ResultCache(),
    nowSeconds: o.nowSeconds,
    recording: o.recording,
    offline: o.offline === true ? { status: 'not-testable', message: 'needs the service' } : undefined,
    ...(o.record === true ? { record: (name: string, note: RecordNote) => notes.push([name, note]) } : {}),
  });
  const windows = notes.flatMap(([, n]) => (n.kind === 'window' ? [n.window] : []));
  return { outcomes, notes, windows, tested: prepared.tested };
}

/** What the sandbox answered for TESTS at 12:00 on 2025-06-02, and the recording of it. */
async function recorded(triggerText = DEMO_TRIGGER, iso?: string) {
  const s = await service(iso);
  const live = await run(file(TESTS), triggerText, {
    api: s.client,
    clock: s.clock,
    nowSeconds: s.nowSeconds,
    record: true,
  });
  const update = recordingUpdate(undefined, { windows: live.windows, savedQueries: {} }, false);
  assert.equal(update.kind, 'write');
  const text = update.kind === 'write' ? update.text : '';
  const parsed = parseRecording(text);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason.join('; '));
  return { ...live, s, text, recording: parsed.recording };
}

/** The query calls of a service that is not there: every call fails the test. */
const noService: QueryApi = recordedQueryApi(undefined, undefined);
const A_YEAR_LATER = Date.parse('2026-06-02T12:00:00Z') / 1000;

describe('recorded, then run from the recording with no service', () => {
  test('a year later the absolute windows give the verdicts the service gave, with no request; the relative one needs the service', async () => {
    const r = await recorded();
    assert.deepEqual(
      r.notes.map(([name, n]) => [name, n.kind]),
      [
        ['catches the bursts', 'window'],
        ['quiet', 'window'],
        ['the last hour', 'not-recorded'],
      ],
    );
    const requests = r.s.sandbox.requests.length;
    await r.s.sandbox.close();
    const later = await run(file(TESTS), DEMO_TRIGGER, {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.deepEqual(brief(later.outcomes), [...brief(r.outcomes.slice(0, 2)), ['not-testable', 'needs the service']]);
    assert.deepEqual(brief(r.outcomes.slice(0, 2)), [
      ['passed', 'fired 2 times between 2025-06-01 12:00 and 2025-06-02 11:55 UTC, first at 2025-06-01 15:05 UTC'],
      [
        'failed',
        'fired 2 times between 2025-06-01 12:00 and 2025-06-02 11:55 UTC, first at 2025-06-01 15:05 UTC; expected none',
      ],
    ]);
    assert.deepEqual(later.outcomes[0]?.notes, ['Run from the recording: no query to the service.']);
    assert.deepEqual(
      [later.outcomes[0]?.preview?.from, later.outcomes[0]?.preview?.to],
      [Date.parse(DAY.from) / 1000, Date.parse(DAY.to) / 1000],
    );
    assert.equal(r.s.sandbox.requests.length, requests);
  });

  test('the two windows of the same times are one recorded window, held one point a line', async () => {
    const r = await recorded();
    assert.equal(r.recording.windows.length, 1);
    const w = r.recording.windows[0];
    assert.ok(w);
    // Exceeded_limit 5 reaches 4 evaluations (20 minutes) before the first one at 12:00, which reads the 20 minutes before it.
    assert.deepEqual(
      [w.from, w.to, w.dataset, w.start_time, w.end_time],
      [DAY.from, DAY.to, 'api-gateway', '2025-06-01T11:20:00Z', DAY.to],
    );
    assert.deepEqual(w.query, {
      calculations: [{ op: 'COUNT' }],
      filters: [{ column: 'error', op: '=', value: true }],
      granularity: 300,
    });
    assert.equal(w.series.length, (Date.parse(DAY.to) - Date.parse('2025-06-01T11:20:00Z')) / 300_000);
    const lines = r.text.split('\n');
    assert.equal(
      lines.filter((l) => /^ {8}\["2025-0[0-9]-[0-9]{2}T[0-9:]{8}Z", \{"COUNT":\d+\}\],?$/.test(l)).length,
      w.series.length,
    );
    // The rest: the braces, `recording`, `windows`, the window's six members and `series`, and the last newline.
    assert.equal(lines.length, w.series.length + 16);
  });

  test("the trigger's query changed: the recording is of another query, not a pass", async () => {
    const r = await recorded();
    const t = JSON.parse(DEMO_TRIGGER) as { query: { filters: unknown[]; breakdowns?: string[] } };
    t.query.filters = [{ column: 'error', op: '=', value: false }];
    const filters = await run(file(TESTS), JSON.stringify(t), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.deepEqual(
      brief(filters.outcomes).slice(0, 2),
      new Array(2).fill(['error', 'the recording is of another query (filters changed since): record again']),
    );
    t.query.filters = [{ column: 'error', op: '=', value: true }];
    t.query.breakdowns = ['http.route'];
    const breakdowns = await run(file(TESTS), JSON.stringify(t), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.equal(
      breakdowns.outcomes[0]?.message,
      'the recording is of another query (breakdowns changed since): record again',
    );
    const other = await run(file({ ...TESTS, dataset: 'checkout' }), DEMO_TRIGGER, {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.equal(other.outcomes[0]?.message, 'the recording is of another query (dataset changed since): record again');
  });

  test('filters listed in another order are the same query', async () => {
    const two = JSON.parse(DEMO_TRIGGER) as { query: { filters: unknown[] } };
    two.query.filters = [
      { column: 'error', op: '=', value: true },
      { column: 'http.route', op: 'exists' },
    ];
    const r = await recorded(JSON.stringify(two));
    two.query.filters.reverse();
    const later = await run(file(TESTS), JSON.stringify(two), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.deepEqual(
      later.outcomes.slice(0, 2).map((o) => [o.status, o.notes]),
      r.outcomes.slice(0, 2).map((o) => [o.status, ['Run from the recording: no query to the service.']]),
    );
    assert.deepEqual(
      r.outcomes.slice(0, 2).map((o) => o.status),
      ['passed', 'failed'],
    );
  });

  test('an edit the recorded buckets still serve runs from them: the threshold, exceeded_limit up to 5; a longer time_range needs older data', async () => {
    const r = await recorded();
    const t = JSON.parse(DEMO_TRIGGER) as {
      threshold: { op: string; value: number; exceeded_limit?: number };
      query: { time_range: number };
    };
    t.threshold.value = 1000;
    const higher = await run(file(TESTS), JSON.stringify(t), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.deepEqual(
      higher.outcomes.slice(0, 2).map((o) => [o.status, o.actual]),
      [
        ['failed', '0 firings'],
        ['passed', '0 firings'],
      ],
    );
    t.threshold = { op: '>', value: 5, exceeded_limit: 5 };
    const limit = await run(file(TESTS), JSON.stringify(t), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.deepEqual(
      limit.outcomes.slice(0, 2).map((o) => o.notes),
      new Array(2).fill(['Run from the recording: no query to the service.']),
    );
    t.threshold = { op: '>', value: 5 };
    t.query.time_range = 3600;
    const longer = await run(file(TESTS), JSON.stringify(t), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      offline: true,
    });
    assert.equal(
      longer.outcomes[0]?.message,
      'the recording holds data from 2025-06-01 11:20 UTC to 2025-06-02 11:55 UTC, and the window now needs it from 2025-06-01 11:00 UTC to 2025-06-02 11:55 UTC: record again',
    );
  });

  test('a trigger of a saved query (query_id): the saved query travels in the recording', async () => {
    const s = await service();
    const t = s.sandbox.state.triggers.find((x) => x.id === DEMO.triggers.gwSavedQuery);
    assert.ok(t);
    const tests = file({
      expectations: [
        {
          name: 'pages',
          expect: 'at-most',
          notifications: 1000,
          from: '2025-06-02T06:00:00Z',
          to: '2025-06-02T10:00:00Z',
        },
      ],
    });
    const live = await run(tests, JSON.stringify(t), {
      api: s.client,
      clock: s.clock,
      nowSeconds: s.nowSeconds,
      record: true,
    });
    const { id: _id, ...saved } = live.tested.query;
    const recording: TriggerTestRecording = {
      recording: 1,
      saved_queries: { [DEMO.savedQueries.gw5xx]: saved },
      windows: live.windows,
    };
    await s.sandbox.close();
    const later = await run(tests, JSON.stringify(t), {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording,
      offline: true,
    });
    assert.deepEqual(brief(later.outcomes), brief(live.outcomes));
    assert.equal(later.outcomes[0]?.status, 'passed');
  });
});

describe('what is recorded', () => {
  test('the same data recorded twice, at different times of day, is the same bytes', async () => {
    const morning = await recorded(DEMO_TRIGGER, '2025-06-02T12:00:00Z');
    const evening = await recorded(DEMO_TRIGGER, '2025-06-02T23:17:00Z');
    assert.equal(evening.text, morning.text);
  });

  test('a relative window and one not over are not recorded, each saying why', async () => {
    const s = await service();
    const tests = file({
      expectations: [
        TESTS.expectations[2],
        {
          name: 'this morning',
          expect: 'at-most',
          notifications: 99,
          from: '2025-06-02T09:00:00Z',
          to: '2025-06-02T11:59:00Z',
        },
      ],
    });
    const live = await run(tests, DEMO_TRIGGER, {
      api: s.client,
      clock: s.clock,
      nowSeconds: s.nowSeconds,
      record: true,
    });
    assert.deepEqual(live.notes, [
      [
        'the last hour',
        {
          kind: 'not-recorded',
          reason:
            'its window is relative to the run (now-1h to now), and a recording holds fixed times: write the window in UTC times to record it',
        },
      ],
      [
        'this morning',
        {
          kind: 'not-recorded',
          reason: 'its window is not over: the service holds all of its data from 2025-06-02 12:02 UTC; record it then',
        },
      ],
    ]);
  });

  test('a run that records over a recording that holds the window runs from it and keeps it', async () => {
    const r = await recorded();
    const again = await run(file(TESTS), DEMO_TRIGGER, {
      api: noService,
      nowSeconds: A_YEAR_LATER,
      recording: r.recording,
      record: true,
    });
    assert.deepEqual(
      again.notes.slice(0, 2).map(([, n]) => n),
      [{ kind: 'kept' }, { kind: 'kept' }],
    );
  });
});

describe('the file after a run that records', () => {
  const window = (from: string, to: string, value: number): RecordedWindow => ({
    from,
    to,
    dataset: 'api-gateway',
    query: { calculations: [{ op: 'COUNT' }], granularity: 300 },
    start_time: from,
    end_time: to,
    series: [[from, { COUNT: value }]],
  });
  const a = window('2025-06-01T10:00:00Z', '2025-06-01T11:00:00Z', 1);
  const b = window('2025-06-01T12:00:00Z', '2025-06-01T13:00:00Z', 2);
  const fileOf = (...windows: RecordedWindow[]) => recordingText({ recording: 1, windows });

  test('a new window is added and those of the file kept; the same again changes nothing', () => {
    const update = recordingUpdate(fileOf(a), { windows: [b], savedQueries: {} }, false);
    assert.deepEqual(update, { kind: 'write', text: fileOf(a, b), added: 1, replaced: 0, differences: [] });
    assert.deepEqual(recordingUpdate(fileOf(a, b), { windows: [b, a], savedQueries: {} }, false), {
      kind: 'unchanged',
      windows: 2,
    });
  });

  test('a window of other content is not replaced without force, and is with it', () => {
    const other = { ...a, query: { ...a.query, filters: [{ column: 'error', op: '=', value: true }] } };
    assert.deepEqual(recordingUpdate(fileOf(a, b), { windows: [other], savedQueries: {} }, false), {
      kind: 'refused',
      reasons: ['the recorded window 2025-06-01 10:00 UTC to 2025-06-01 11:00 UTC holds another query'],
    });
    const forced = recordingUpdate(fileOf(a, b), { windows: [other], savedQueries: {} }, true);
    assert.deepEqual(forced, {
      kind: 'write',
      text: fileOf(other, b),
      added: 0,
      replaced: 1,
      differences: ['the recorded window 2025-06-01 10:00 UTC to 2025-06-01 11:00 UTC holds another query'],
    });
    const data = window(a.from, a.to, 7);
    assert.deepEqual(recordingUpdate(fileOf(a), { windows: [data], savedQueries: {} }, false), {
      kind: 'refused',
      reasons: [
        'the recorded window 2025-06-01 10:00 UTC to 2025-06-01 11:00 UTC holds other data: the service answers differently now',
      ],
    });
  });

  test('a file that is not a valid recording is replaced only with force', () => {
    assert.deepEqual(recordingUpdate('{"recording": 2, "windows": []}', { windows: [a], savedQueries: {} }, false), {
      kind: 'refused',
      reasons: ['it is not a valid recording (recording must be 1: this is a recording of another version of obs)'],
    });
    assert.equal(recordingUpdate('not json', { windows: [a], savedQueries: {} }, true).kind, 'write');
  });
});

describe('the format', () => {
  test('the text is the same whatever order the windows and points come in: windows by time, points by time then row', () => {
    const w = (from: string, to: string, series: RecordedWindow['series']): RecordedWindow => ({
      from,
      to,
      dataset: 'd',
      query: { breakdowns: ['route'], granularity: 60 },
      start_time: from,
      end_time: to,
      series,
    });
    const points: RecordedWindow['series'] = [
      ['2025-06-01T10:00:00Z', { COUNT: 2, route: '/b' }],
      ['2025-06-01T10:00:00Z', { COUNT: 1, route: '/a' }],
      ['2025-06-01T10:01:00Z', { route: '/a', COUNT: 3 }],
    ];
    const a = w('2025-06-01T10:00:00Z', '2025-06-01T11:00:00Z', points);
    const b = w('2025-06-01T09:00:00Z', '2025-06-01T10:00:00Z', []);
    const text = recordingText({ recording: 1, windows: [a, b] });
    assert.equal(recordingText({ recording: 1, windows: [b, { ...a, series: [...points].reverse() }] }), text);
    assert.deepEqual(
      text.split('\n').filter((l) => l.startsWith('        [')),
      [
        '        ["2025-06-01T10:00:00Z", {"COUNT":1,"route":"/a"}],',
        '        ["2025-06-01T10:00:00Z", {"COUNT":2,"route":"/b"}],',
        '        ["2025-06-01T10:01:00Z", {"COUNT":3,"route":"/a"}]',
      ],
    );
    assert.ok(text.indexOf('"from": "2025-06-01T09:00:00Z"') < text.indexOf('"from": "2025-06-01T10:00:00Z"'));
  });

  test('each problem is one sentence naming the member', () => {
    const w = {
      from: '2025-06-01T10:00:00Z',
      to: '2025-06-01T11:00:00Z',
      dataset: 'd',
      query: { granularity: 60 },
      start_time: '2025-06-01T10:00:00Z',
      end_time: '2025-06-01T11:00:00Z',
      series: [],
    };
    const problems = (value: unknown) => {
      const r = parseRecording(JSON.stringify(value));
      return r.ok ? [] : r.reason;
    };
    assert.deepEqual(problems({ recording: 1, windows: [w, w] }), [
      'windows[1] is the window from 2025-06-01T10:00:00Z to 2025-06-01T11:00:00Z again: each window is recorded once',
    ]);
    assert.deepEqual(
      problems({ recording: 1, windows: [{ ...w, series: [['2025-06-01T11:00:00Z', { COUNT: 1 }]] }] }),
      ['windows[0].series[0] lies outside start_time to end_time'],
    );
    assert.deepEqual(problems({ recording: 1, windows: [{ ...w, from: '2025-06-01T10:00Z' }] }), [
      'windows[0].from must be a time in UTC with seconds ("2025-06-02T09:10:00Z")',
    ]);
    assert.deepEqual(problems({ recording: 1, windows: [{ ...w, query: {} }] }), [
      'windows[0].query.granularity is missing',
    ]);
    // Bounds of numbers are worded as numbers.
    assert.deepEqual(problems({ recording: 1, windows: [{ ...w, query: { granularity: 1e308 } }] }), [
      'windows[0].query.granularity must be a whole number of at most 9007199254740991',
    ]);
    assert.deepEqual(problems({ recording: 1, windows: [{ ...w, query: { granularity: 0 } }] }), [
      'windows[0].query.granularity must be 1 or more',
    ]);
    assert.deepEqual(problems({ recording: 1, windows: [], extra: 1 }), [
      'the file has "extra" that a recording does not have',
    ]);
  });

  test(`${TRIGGER_RECORDING_SCHEMA_PATH} is generated from the same schema, and takes a recording the code writes`, async () => {
    assert.equal(readFileSync(join(root, TRIGGER_RECORDING_SCHEMA_PATH), 'utf8'), recordingJsonSchemaText());
    const r = await recorded();
    const validate = new Ajv({ strict: false }).compile(JSON.parse(recordingJsonSchemaText()) as object);
    assert.equal(validate(JSON.parse(r.text)), true, JSON.stringify(validate.errors));
    assert.equal(validate({ recording: 1, windows: [{ from: 'yesterday' }] }), false);
  });

  test('the example of docs/TRIGGER-TESTS.md is a valid recording, written as the code writes it', () => {
    const doc = readFileSync(join(root, 'docs', 'TRIGGER-TESTS.md'), 'utf8');
    const example = /```json\n(\{\n {2}"recording": 1,[\s\S]*?)\n```/.exec(doc)?.[1] ?? '';
    const parsed = parseRecording(example);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason.join('; '));
    assert.equal(recordingText(parsed.recording), `${example}\n`);
  });
});
