// The Test Explorer's vscode-free core: the items of a test file (names, ranges, problems where they are),
// which test files a save affects, how an outcome is shown, the trigger file a test file may make it read,
// and a run against the sandbox: the demo's two passes and one failure, no new query result for a run again
// after an edit that changes no query, "no connection" said once, an invalid file, a cancelled run; a run that
// records, and the recorded tests run from the recording without a connection (the others still need one).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { CreationPacer, ResultCache, type ExpectationOutcome } from '../../src/backtest';
import { SavedQueryCache } from '../../src/backtest/savedQueryCache';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { TestIndex } from '../../src/extension/triggerTests/testIndex';
import { lineStarts, outlineTestFile, positionOf } from '../../src/extension/triggerTests/testOutline';
import { noConnectionText, resultView } from '../../src/extension/triggerTests/testResults';
import { outsideFolder } from '../../src/extension/triggerTests/triggerLocation';
import {
  runTestFiles,
  type FileToRun,
  type RunConnection,
  type RunHooks,
} from '../../src/extension/triggerTests/runTests';
import { recordedExpectations } from '../../src/extension/triggerTests/testRecordings';
import { recordingUpdate } from '../../src/backtest';
import { virtualClock } from './virtualClock';
import { DEFAULT_NOISE_MAX_PER_WEEK } from '../../src/extension/core/settings';

const root = join(import.meta.dirname, '..', '..');
const DEMO_DIR = join(root, 'demo', 'workspace', 'triggers', 'api-gateway');
const DEMO_TESTS = readFileSync(join(DEMO_DIR, 'High-error-rate.trigger-test.json'), 'utf8');
const DEMO_TRIGGER = readFileSync(join(DEMO_DIR, 'High-error-rate.trigger.json'), 'utf8');
const DEMO_NAMES = [
  'catches the error bursts of the last day',
  'pages at most 10 times a day',
  'stays quiet for a whole day',
];

describe('the items of a test file', () => {
  test("the demo's three expectations, each with the range of its object (the gutter shows its result on its first line)", () => {
    const outline = outlineTestFile(DEMO_TESTS);
    assert.deepEqual(
      outline.expectations.map((e) => e.id),
      DEMO_NAMES,
    );
    const starts = lineStarts(DEMO_TESTS);
    assert.deepEqual(
      outline.expectations.map((e) => positionOf(starts, e.start)),
      [
        { line: 2, character: 4 },
        { line: 9, character: 4 },
        { line: 17, character: 4 },
      ],
    );
    assert.ok(
      outline.expectations.every(
        (e) => DEMO_TESTS.slice(e.start, e.end).startsWith('{') && DEMO_TESTS.slice(e.start, e.end).endsWith('}'),
      ),
    );
    assert.deepEqual([outline.problems, outline.trigger, outline.file?.expectations.length], [[], undefined, 3]);
  });

  test('a file being edited keeps its items; each problem is placed on the member it names', () => {
    const text =
      '{\n  "trigger": "../x.trigger.json",\n  "expectations": [\n    { "name": "a", "expect": "fires", "from": "now-2h", "to": "soon" },\n    { "name": "a", "expect": "fires", "from": "now-2h", "to": "now" }\n  ]\n}\n';
    const outline = outlineTestFile(text);
    assert.deepEqual(
      outline.expectations.map((e) => [e.id, e.name]),
      [
        ['a', 'a'],
        ['a\u00001', 'a'],
      ],
    );
    assert.equal(outline.trigger, '../x.trigger.json');
    assert.equal(outline.file, undefined);
    const problem = outline.problems[0];
    assert.ok(problem);
    assert.match(problem.message, /^expectations\[0\]\.to must be an ISO 8601 time in UTC/);
    assert.equal(text.slice(problem.start, problem.end), '"soon"');
  });

  test('broken JSON still lists the expectations read so far', () => {
    const outline = outlineTestFile('{ "expectations": [ { "name": "first", "expect": "fires" }, { "name": "second"');
    assert.deepEqual(
      outline.expectations.map((e) => e.name),
      ['first', 'second'],
    );
    assert.match(outline.problems[0]?.message ?? '', /^the file is not valid JSON/);
  });
});

describe('which test files a save affects', () => {
  test('a test file its own; a trigger file every test file testing it; any other file none', () => {
    const index = new TestIndex();
    index.set('t/a.trigger-test.json', 't/a.trigger.json');
    index.set('t/a-more.trigger-test.json', 't/a.trigger.json');
    index.set('t/b.trigger-test.json', 't/b.trigger.json');
    assert.deepEqual(index.affectedBy('t/a.trigger.json').sort(), [
      't/a-more.trigger-test.json',
      't/a.trigger-test.json',
    ]);
    assert.deepEqual(index.affectedBy('t/b.trigger-test.json'), ['t/b.trigger-test.json']);
    assert.deepEqual(index.affectedBy('t/c.trigger.json'), []);
  });

  test('a test file that now names another trigger, or is gone, is no longer affected by the old one', () => {
    const index = new TestIndex();
    index.set('a.trigger-test.json', 'a.trigger.json');
    index.set('a.trigger-test.json', 'other.trigger.json');
    assert.deepEqual(
      [index.affectedBy('a.trigger.json'), index.affectedBy('other.trigger.json')],
      [[], ['a.trigger-test.json']],
    );
    index.delete('a.trigger-test.json');
    assert.deepEqual([index.affectedBy('other.trigger.json'), index.size], [[], 0]);
  });
});

describe('an outcome as the Test Explorer shows it', () => {
  const base = { index: 0, name: 'quiet', expect: 'does-not-fire' as const, notes: [] as string[] };
  test('failed: the sentence (notes after it) and expected against actual for the diff', () => {
    const view = resultView({
      ...base,
      status: 'failed',
      message: 'fired 0 times between 2025-06-02 09:10 and 09:40 UTC; expected at least 1',
      expected: 'at least 1 firing',
      actual: '0 firings',
      notes: ['The trigger is disabled.'],
    });
    assert.deepEqual(view, {
      state: 'failed',
      message:
        'fired 0 times between 2025-06-02 09:10 and 09:40 UTC; expected at least 1\nNote: The trigger is disabled.',
      expected: 'at least 1 firing',
      actual: '0 firings',
      line: 'FAILED  quiet: fired 0 times between 2025-06-02 09:10 and 09:40 UTC; expected at least 1\nNote: The trigger is disabled.',
    });
  });
  test('not testable: failed with the reason, as obs test fails it (exit 1, a JUnit failure); an error: errored', () => {
    assert.deepEqual(
      resultView({ ...base, status: 'not-testable', message: 'the service keeps query results for 7 days' }),
      {
        state: 'failed',
        message: 'Not testable: the service keeps query results for 7 days',
        line: 'NOT TESTABLE  quiet: the service keeps query results for 7 days',
      },
    );
    assert.deepEqual(resultView({ ...base, status: 'error', message: 'the query did not complete' }), {
      state: 'errored',
      message: 'the query did not complete',
      line: 'ERROR  quiet: the query did not complete',
    });
  });
});

describe('the trigger file a test file makes the editor read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-trigger-location-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const folder = join(dir, 'workspace');
  mkdirSync(join(folder, 'triggers'), { recursive: true });
  writeFileSync(join(folder, 'triggers', 'a.trigger.json'), '{}');
  writeFileSync(join(dir, 'secret.json'), '{}');
  symlinkSync(join(dir, 'secret.json'), join(folder, 'triggers', 'link.trigger.json'));

  test('inside the workspace folder: read', async () => {
    assert.equal(await outsideFolder(folder, join(folder, 'triggers', 'a.trigger.json')), undefined);
  });
  test('outside it by its path, or by a link inside it: not read, and why', async () => {
    assert.equal(
      await outsideFolder(folder, join(dir, 'secret.json')),
      'it lies outside the workspace folder of the test file, so it is not read',
    );
    assert.equal(
      await outsideFolder(folder, join(folder, 'triggers', 'link.trigger.json')),
      'it is a link leading outside the workspace folder of the test file, so it is not read',
    );
  });
});

describe('a run against the sandbox', () => {
  const handles: SandboxHandle[] = [];
  const clients: ServiceClient[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(handles.map((h) => h.close()));
  });

  /** A sandbox at 12:00 UTC on a clock every sleep moves on, and a connection with one session. */
  async function setup() {
    const { clock, timing, now } = virtualClock('2025-06-02T12:00:00Z');
    const sandbox = await startSandbox({ clock: now, rateLimit: 10_000 });
    const client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey, timing });
    handles.push(sandbox);
    clients.push(client);
    const connection: RunConnection = {
      api: client,
      name: 'Sandbox',
      session: { pacer: new CreationPacer(clock), cache: new ResultCache(), queries: new SavedQueryCache(), clock },
    };
    const created = () =>
      sandbox.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/')).length;
    return { connection, created, nowSeconds: Math.floor(now() / 1000) };
  }

  const demoFile = (text = DEMO_TESTS, names = DEMO_NAMES): FileToRun => ({
    key: 'file:///w/triggers/api-gateway/High-error-rate.trigger-test.json',
    path: '/w/triggers/api-gateway/High-error-rate.trigger-test.json',
    text,
    tests: names.map((n) => ({ id: n, name: n })),
  });

  function recorder() {
    const events: string[] = [];
    const outcomes: ExpectationOutcome[] = [];
    const output: string[] = [];
    const hooks: RunHooks = {
      started: (_f, id) => events.push(`started ${id}`),
      finished: (_f, id, o) => {
        events.push(`${o.status} ${id}`);
        outcomes.push(o);
      },
      output: (line) => output.push(line),
      progress: () => undefined,
    };
    return { events, outcomes, output, hooks };
  }

  const reads: string[] = [];
  const readTrigger = (triggerText: string) => async (_f: FileToRun, path: string) => {
    reads.push(path);
    return { ok: true as const, text: triggerText, label: 'triggers/api-gateway/High-error-rate.trigger.json' };
  };

  test("the demo's tests: two pass and one fails, each started before it finishes, from one query result", async () => {
    const s = await setup();
    const r = recorder();
    await runTestFiles({
      files: [demoFile()],
      connection: s.connection,
      readTrigger: readTrigger(DEMO_TRIGGER),
      hooks: r.hooks,
      signal: new AbortController().signal,
      nowSeconds: s.nowSeconds,
    });
    assert.deepEqual(
      r.events,
      DEMO_NAMES.flatMap((n, i) => [`started ${n}`, `${i === 2 ? 'failed' : 'passed'} ${n}`]),
    );
    assert.equal(
      r.outcomes[2]?.message,
      'fired 2 times between 2025-06-01 12:00 and 2025-06-02 11:55 UTC, first at 2025-06-01 15:05 UTC; expected none',
    );
    assert.equal(reads.at(-1), '/w/triggers/api-gateway/High-error-rate.trigger.json');
    assert.equal(s.created(), 1);
  });

  test('run again after an edit that changes no query (the threshold): no new query result; after a change to the query: one', async () => {
    const s = await setup();
    const run = async (triggerText: string, names = DEMO_NAMES) => {
      const r = recorder();
      await runTestFiles({
        files: [demoFile(DEMO_TESTS, names)],
        connection: s.connection,
        readTrigger: readTrigger(triggerText),
        hooks: r.hooks,
        signal: new AbortController().signal,
        nowSeconds: s.nowSeconds,
      });
      return r.outcomes.map((o) => o.status);
    };
    await run(DEMO_TRIGGER);
    assert.equal(s.created(), 1);
    const trigger = JSON.parse(DEMO_TRIGGER) as { threshold: { value: number }; query: { filters: unknown[] } };
    trigger.threshold.value = 1000;
    assert.deepEqual(await run(JSON.stringify(trigger)), ['failed', 'passed', 'passed']);
    assert.deepEqual(await run(DEMO_TRIGGER, [DEMO_NAMES[2] ?? '']), ['failed']);
    assert.equal(s.created(), 1, 'the session kept the result');
    trigger.query.filters = [{ column: 'error', op: '=', value: false }];
    await run(JSON.stringify(trigger));
    assert.equal(s.created(), 2);
  });

  test('without a connection every test errors with "no connection" in words, said once in the output', async () => {
    const r = recorder();
    const other: FileToRun = { ...demoFile(), key: 'file:///w/other.trigger-test.json' };
    await runTestFiles({
      files: [demoFile(), other],
      connection: undefined,
      readTrigger: readTrigger(DEMO_TRIGGER),
      hooks: r.hooks,
      signal: new AbortController().signal,
      nowSeconds: 0,
    });
    assert.deepEqual(
      r.outcomes.map((o) => [o.status, o.message]),
      new Array(6).fill(['error', noConnectionText()]),
    );
    assert.match(noConnectionText(), /^There is no connection: /);
    assert.deepEqual(r.output, [noConnectionText()]);
  });

  test('a test file that is not valid errors each of its tests with its problems, and reads no trigger', async () => {
    const s = await setup();
    const r = recorder();
    const before = reads.length;
    const text = DEMO_TESTS.replace('"now-24h"', '"yesterday"');
    await runTestFiles({
      files: [demoFile(text)],
      connection: s.connection,
      readTrigger: readTrigger(DEMO_TRIGGER),
      hooks: r.hooks,
      signal: new AbortController().signal,
      nowSeconds: s.nowSeconds,
    });
    assert.deepEqual(new Set(r.outcomes.map((o) => o.status)), new Set(['error']));
    assert.match(
      r.outcomes[0]?.message ?? '',
      /^The test file is not valid: expectations\[0\]\.from must be an ISO 8601 time/,
    );
    assert.deepEqual([reads.length - before, s.created()], [0, 0]);
  });

  test('a run that records hands back the absolute window; without a connection that test then runs from the recording, the relative one errors', async () => {
    const s = await setup();
    const text = JSON.stringify({
      expectations: [
        { name: 'the day', expect: 'fires', from: '2025-06-01T12:00:00Z', to: '2025-06-02T11:55:00Z' },
        { name: 'relative', expect: 'fires', from: 'now-24h', to: 'now' },
      ],
    });
    const names = ['the day', 'relative'];
    const r = recorder();
    const done = await runTestFiles({
      files: [demoFile(text, names)],
      connection: s.connection,
      readTrigger: readTrigger(DEMO_TRIGGER),
      readRecording: async () => ({ ok: true, text: undefined }),
      record: true,
      hooks: r.hooks,
      signal: new AbortController().signal,
      nowSeconds: s.nowSeconds,
    });
    assert.deepEqual(
      r.outcomes.map((o) => o.status),
      ['passed', 'passed'],
    );
    const file = done.recorded[0];
    assert.ok(file);
    assert.deepEqual(
      [
        done.recorded.length,
        file.key,
        file.before,
        file.fresh.windows.map((w) => [w.from, w.to]),
        file.notRecorded.map((n) => n.name),
        file.kept,
      ],
      [1, demoFile().key, undefined, [['2025-06-01T12:00:00Z', '2025-06-02T11:55:00Z']], ['relative'], 0],
    );
    const update = recordingUpdate(undefined, file.fresh, false);
    assert.equal(update.kind, 'write');
    const recording = update.kind === 'write' ? update.text : '';
    const created = s.created();

    const offline = recorder();
    await runTestFiles({
      files: [demoFile(text, names)],
      connection: undefined,
      readTrigger: readTrigger(DEMO_TRIGGER),
      readRecording: async () => ({ ok: true, text: recording }),
      hooks: offline.hooks,
      signal: new AbortController().signal,
      nowSeconds: s.nowSeconds + 30 * 86_400,
    });
    assert.deepEqual(
      offline.outcomes.map((o) => [o.status, o.message]),
      [
        ['passed', r.outcomes[0]?.message],
        ['error', noConnectionText()],
      ],
    );
    assert.deepEqual(offline.outcomes[0]?.notes, ['Run from the recording: no query to the service.']);
    assert.deepEqual(offline.output, [noConnectionText()]);
    assert.equal(s.created(), created);

    const t = JSON.parse(DEMO_TRIGGER) as { query: { filters: unknown[] } };
    t.query.filters = [];
    const changed = recorder();
    await runTestFiles({
      files: [demoFile(text, names)],
      connection: s.connection,
      readTrigger: readTrigger(JSON.stringify(t)),
      readRecording: async () => ({ ok: true, text: recording }),
      hooks: changed.hooks,
      signal: new AbortController().signal,
      nowSeconds: s.nowSeconds,
    });
    assert.deepEqual(
      changed.outcomes[0]?.message,
      'the recording is of another query (filters changed since): record again',
    );
    assert.deepEqual(
      recordedExpectations(text, recording).map((e) => [e.name, text.slice(e.start, e.start + 16)]),
      [['the day', '{"name":"the day']],
    );
    assert.deepEqual(recordedExpectations(text, undefined), []);
  });

  test('a recording that is not valid errors the tests of its file, saying so', async () => {
    const s = await setup();
    const r = recorder();
    await runTestFiles({
      files: [demoFile()],
      connection: s.connection,
      readTrigger: readTrigger(DEMO_TRIGGER),
      readRecording: async () => ({ ok: true, text: '{"recording": 1}' }),
      hooks: r.hooks,
      signal: new AbortController().signal,
      nowSeconds: s.nowSeconds,
    });
    assert.deepEqual(
      new Set(r.outcomes.map((o) => o.message)),
      new Set(['The recording beside the test file is not valid: windows is missing']),
    );
    assert.equal(s.created(), 0);
  });

  test('a cancelled run stops between queries and says so instead of failing', async () => {
    const s = await setup();
    const r = recorder();
    const abort = new AbortController();
    r.hooks.started = () => abort.abort();
    const done = await runTestFiles({
      files: [demoFile()],
      connection: s.connection,
      readTrigger: readTrigger(DEMO_TRIGGER),
      hooks: r.hooks,
      signal: abort.signal,
      nowSeconds: s.nowSeconds,
    });
    assert.deepEqual([done.cancelled, r.outcomes.length, s.created()], [true, 0, 0]);
  });
});

describe('the manifest', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    activationEvents: string[];
    contributes: {
      menus: Record<string, { command: string; when?: string; group?: string }[]>;
      configuration: { properties: Record<string, { default?: unknown }> };
      views: Record<string, { id: string }[]>;
    };
  };
  test('a workspace with test files wakes the extension; a failure with a window offers the preview, a test Record the Window; the noise report has its view and budget', () => {
    assert.ok(manifest.activationEvents.includes('workspaceContains:**/*.trigger-test.json'));
    // The failure's message offers it in its context menu. Not as a button on the message: VS Code floats that
    // over the bottom right of the expected/actual diff, where it covered the actual value.
    const preview = 'obs.triggerTests.openPreview';
    assert.deepEqual(manifest.contributes.menus['testing/message/context'], [
      { command: preview, when: 'testMessage == obs.triggerTest.window' },
    ]);
    assert.equal(manifest.contributes.menus['testing/message/content'], undefined);
    // Every test and test file of the controller: its window in the preview (of the last run, of the recording),
    // in the menu and inline, and Record the Window in the menu and inline; the preview also from the editor's gutter.
    assert.deepEqual(
      manifest.contributes.menus['testing/item/context']?.map((m) => [m.command, m.when, m.group]),
      [
        ['obs.triggerTests.openPreview', 'controllerId == obs.triggerTests', 'navigation'],
        ['obs.triggerTests.previewRecorded', 'controllerId == obs.triggerTests', 'navigation'],
        ['obs.triggerTests.record', 'controllerId == obs.triggerTests', 'navigation'],
        ['obs.triggerTests.openPreview', 'controllerId == obs.triggerTests', 'inline'],
        ['obs.triggerTests.record', 'controllerId == obs.triggerTests', 'inline'],
      ],
    );
    assert.deepEqual(manifest.contributes.menus['testing/item/gutter'], [
      { command: preview, when: 'controllerId == obs.triggerTests' },
    ]);
    assert.ok(manifest.contributes.views['obs']?.some((v) => v.id === 'obs.noise'));
    assert.equal(
      manifest.contributes.configuration.properties['obs.noise.maxNotificationsPerWeek']?.default,
      DEFAULT_NOISE_MAX_PER_WEEK,
    );
  });
});
