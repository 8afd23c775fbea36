// The Test Explorer's adapters in a fake editor (vscode-fake.ts, with a recording test controller): the test
// files found once, a burst of file events handled in one batch that reads only the files it names,
// Continuous Run running again, on a save, exactly the test files the saved file affects, and Record the
// Window: the recording written beside the test file, its lens and preview with the sandbox stopped, a test
// run from it without a connection, and a recording of another query not replaced unless the user says so.
import { fake, jobsDone, TextDocument, Uri } from './vscode-fake';
import { CancellationTokenSource, FakeTestController, runProfile, TestRunRequest } from './vscode-fake-testing';
import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../src/api/client';
import { CreationPacer, parseRecording, ResultCache, systemClock } from '../../src/backtest';
import { SavedQueryCache } from '../../src/backtest/savedQueryCache';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { TestDiscovery } from '../../src/extension/triggerTests/testDiscovery';
import { TestRuns } from '../../src/extension/triggerTests/testRuns';
import { RecordingCommands } from '../../src/extension/triggerTests/recordingCommands';
import type { ActiveConnection } from '../../src/extension/connections';
import type { PreviewWindow, QueryServices } from '../../src/extension/queries';
import type { SeenText } from '../../src/extension/core/workspaceText';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** Waits until the run at `index` has ended (a run started by a save reads files first: it is not awaited). */
async function ended(c: FakeTestController, index: number): Promise<void> {
  await jobsDone();
  const run = c.runs[index];
  assert.ok(run, `run ${index} was started`);
  await run.ended;
}
const testFile = (i: number) => `file:///w/triggers/t${i}.trigger-test.json`;
const TEST_TEXT = JSON.stringify(
  {
    expectations: [
      { name: 'fires', expect: 'fires', from: 'now-2h', to: 'now' },
      { name: 'quiet', expect: 'does-not-fire', from: 'now-2h', to: 'now' },
    ],
  },
  null,
  2,
);

beforeEach(() => {
  fake.reset();
  fake.folders = [{ uri: Uri.parse('file:///w'), name: 'w', index: 0 }];
  for (let i = 0; i < 50; i++) fake.files.set(testFile(i), TEST_TEXT);
  fake.files.set('file:///w/triggers/t0.trigger.json', '{}');
});

describe('finding the test files', () => {
  test('each test file is read once, and a burst of events reads only the files it names, once each', async () => {
    const c = new FakeTestController();
    const discovery = new TestDiscovery(c, log);
    await discovery.start();
    assert.deepEqual([c.items.size, fake.reads], [50, 50]);
    assert.deepEqual([...(c.items.get(testFile(7))?.children.map.keys() ?? [])], ['fires', 'quiet']);

    fake.files.set(testFile(50), TEST_TEXT);
    fake.files.delete(testFile(3));
    for (const _ of [1, 2, 3]) fake.fileEvent('changed', Uri.parse(testFile(1)));
    fake.fileEvent('created', Uri.parse(testFile(50)));
    fake.fileEvent('deleted', Uri.parse(testFile(3)));
    await discovery.settled();
    assert.deepEqual(
      [c.items.size, fake.reads - 50],
      [50, 2],
      'the changed file once, the new one once, the deleted one not at all',
    );
    assert.equal(c.items.get(testFile(3)), undefined);
    assert.deepEqual(discovery.index.affectedBy(testFile(3)), []);
    discovery.dispose();
  });

  test('a test file that is not valid shows its problems on its item', async () => {
    fake.files.set(testFile(0), '{ "expectations": [] }');
    const c = new FakeTestController();
    const discovery = new TestDiscovery(c, log);
    await discovery.start();
    assert.equal(c.items.get(testFile(0))?.error, 'expectations must hold at least one expectation');
    discovery.dispose();
  });
  test("a test's name is shown on one line of at most 200 characters, its control and bidi characters neutralised", async () => {
    const name = `fires\u202e${'x'.repeat(5_000)}\nline two`;
    fake.files.set(
      testFile(0),
      JSON.stringify({ expectations: [{ name, expect: 'fires', from: 'now-2h', to: 'now' }] }),
    );
    const c = new FakeTestController();
    const discovery = new TestDiscovery(c, log);
    await discovery.start();
    const label = [...(c.items.get(testFile(0))?.children.map.values() ?? [])][0]?.label ?? '';
    assert.equal(label.length, 200);
    assert.equal(label.slice(0, 6), 'fires\ufffd');
    assert.doesNotMatch(label, /[\u202e\n]/);
    discovery.dispose();
  });
});

describe('Continuous Run', () => {
  async function setup() {
    const c = new FakeTestController();
    const discovery = new TestDiscovery(c, log);
    await discovery.start();
    const connections = { getActive: async () => undefined };
    const services = (): QueryServices => ({
      sessionFor: () => assert.fail('no session without a connection'),
      showPreviewWindow: () => assert.fail('no preview in a run'),
    });
    const runs = new TestRuns({
      controller: c,
      profile: runProfile,
      discovery,
      connections,
      services,
      seenText: (_uri, _connection, text) => ({ text }),
      feedback: { log },
    });
    return { c, discovery, runs, profile: runProfile };
  }

  test('saving a trigger file runs again the tests of the test file that tests it, and nothing else', async () => {
    const { c, runs, profile, discovery } = await setup();
    const watch = new CancellationTokenSource();
    await runs.handle(new TestRunRequest(undefined, undefined, profile, true), watch.token);
    assert.equal(c.runs.length, 0, 'turning it on runs nothing yet');
    fake.events.save.fire(new TextDocument(Uri.parse('file:///w/triggers/t0.trigger.json'), '{}'));
    await ended(c, 0);
    assert.deepEqual(c.invalidated, [testFile(0)]);
    assert.equal(c.runs.length, 1);
    assert.deepEqual(
      c.runs[0]?.request.include?.map((i) => i.id),
      [testFile(0)],
    );
    // Without a connection, each of its two tests errors with the sentence that says so.
    assert.deepEqual(
      c.runs[0]?.log
        .filter((l) => l.startsWith('errored'))
        .map((l) => l.replace(/: There is no connection: .*$/, ': no connection')),
      [`errored fires: no connection`, `errored quiet: no connection`],
    );

    fake.events.save.fire(new TextDocument(Uri.parse('file:///w/README.md'), ''));
    watch.cancel();
    fake.events.save.fire(new TextDocument(Uri.parse(testFile(5)), TEST_TEXT));
    await jobsDone();
    assert.deepEqual(
      c.invalidated,
      [testFile(0), testFile(5)],
      "the saved test file's results are out of date all the same",
    );
    assert.equal(c.runs.length, 1, 'an unrelated file, and a save after Continuous Run was turned off, run nothing');
    runs.dispose();
    discovery.dispose();
  });

  test('a watch on one test runs only that test when its file is saved', async () => {
    const { c, runs, profile, discovery } = await setup();
    const one = c.items.get(testFile(5))?.children.get('quiet');
    assert.ok(one);
    await runs.handle(new TestRunRequest([one], undefined, profile, true), new CancellationTokenSource().token);
    fake.events.save.fire(new TextDocument(Uri.parse(testFile(5)), TEST_TEXT));
    await ended(c, 0);
    assert.deepEqual(
      c.runs[0]?.log.filter((l) => !l.startsWith('end')).map((l) => l.split(':')[0]),
      ['enqueued quiet', 'errored quiet'],
    );
    runs.dispose();
    discovery.dispose();
  });
});

describe('Record the Window', () => {
  const root = join(import.meta.dirname, '..', '..');
  const DEMO_TRIGGER = readFileSync(
    join(root, 'demo', 'workspace', 'triggers', 'api-gateway', 'High-error-rate.trigger.json'),
    'utf8',
  );
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'obs-te-record-')));
  const handles: SandboxHandle[] = [];
  const clients: ServiceClient[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
  const minute = (s: number) => iso(s).slice(0, 16).replace('T', ' ');
  // A day that ended on the hour two hours ago: kept by the service, and whole.
  const end = Math.floor(Date.now() / 3_600_000) * 3_600 - 7_200;
  const TEXT = JSON.stringify(
    {
      expectations: [
        { name: 'the day', expect: 'fires', from: iso(end - 86_400), to: iso(end) },
        { name: 'relative', expect: 'fires', from: 'now-24h', to: 'now' },
      ],
    },
    null,
    2,
  );
  const testKey = Uri.file(join(dir, 'a.trigger-test.json')).toString();
  const triggerKey = Uri.file(join(dir, 'a.trigger.json')).toString();
  const recordingPath = join(dir, 'a.trigger-test.recording.json');

  /** The Test Explorer of a workspace folder on disk, its connection the sandbox (until `online` is false). */
  async function setup(seen: SeenText = (_uri, _connection, text) => ({ text })) {
    fake.folders = [{ uri: Uri.file(dir), name: 'w', index: 0 }];
    fake.files.clear();
    fake.files.set(testKey, TEXT);
    fake.files.set(triggerKey, DEMO_TRIGGER);
    const sandbox = await startSandbox({ rateLimit: 10_000, queryResultRateLimit: 1_000 });
    const client = new ServiceClient({ baseUrl: sandbox.info.baseUrl, configKey: sandbox.info.configKey });
    handles.push(sandbox);
    clients.push(client);
    const state = { online: true, lenses: 0 };
    const previews: PreviewWindow[] = [];
    const session = {
      pacer: new CreationPacer(systemClock),
      cache: new ResultCache(),
      queries: new SavedQueryCache(),
      clock: systemClock,
    };
    const { baseUrl, uiUrl, team, environmentId } = sandbox.info;
    const active: ActiveConnection = {
      client,
      profile: { id: 'sandbox', name: 'Sandbox', baseUrl, uiUrl, team, environmentId },
    };
    const connections = { getActive: async () => (state.online ? active : undefined) };
    const services = (): QueryServices => ({
      sessionFor: () => session,
      showPreviewWindow: (w: PreviewWindow) => void previews.push(w),
    });
    const c = new FakeTestController();
    const discovery = new TestDiscovery(c, log);
    await discovery.start();
    const runs = new TestRuns({
      controller: c,
      profile: runProfile,
      discovery,
      connections,
      services,
      seenText: seen,
      feedback: { log },
    });
    const recordings = new RecordingCommands({
      profile: runProfile,
      connections,
      services,
      runs,
      refreshLenses: () => state.lenses++,
    });
    const file = c.items.get(testKey);
    assert.ok(file);
    return { c, sandbox, state, previews, runs, recordings, file, discovery };
  }

  test('records the absolute window beside the test file; with the sandbox stopped its lens and its menu preview it and the test runs from it', async () => {
    const t = await setup();
    rmSync(recordingPath, { force: true });
    await t.recordings.record(t.file);
    assert.deepEqual(fake.progress[0], {
      location: 15,
      title: 'Recording the windows of a.trigger-test.json',
      cancellable: true,
    });
    assert.deepEqual(
      t.c.runs[0]?.log.filter((l) => !l.startsWith('enqueued')),
      ['started the day', 'passed the day', 'started relative', 'passed relative', 'end'],
    );
    assert.ok(existsSync(recordingPath));
    assert.deepEqual(fake.shown.at(-1), {
      severity: 'info',
      text: 'Recorded 1 window in a.trigger-test.recording.json. Not recorded: "relative": its window is relative to the run (now-24h to now), and a recording holds fixed times: write the window in UTC times to record it.',
      actions: [],
    });
    assert.equal(t.state.lenses, 1);

    await t.sandbox.close();
    t.state.online = false;
    const lenses = await t.recordings.lenses(new TextDocument(Uri.parse(testKey), TEXT));
    assert.deepEqual(
      lenses.map((l) => [l.range.start.character, l.command?.command, l.command?.arguments]),
      [[TEXT.indexOf('{\n      "name": "the day"'), 'obs.triggerTests.previewRecorded', [testKey, 'the day']]],
    );
    await t.recordings.previewRecorded(testKey, 'the day');
    await t.recordings.previewRecorded(t.file.children.get('the day'));
    const subtitle = `a.trigger.json · "the day" · ${minute(end - 86_400)} to ${minute(end)} UTC · api-gateway, from the recording`;
    assert.deepEqual(
      t.previews.map((p) => [p.name, p.preview.from, p.preview.to, p.subtitle]),
      [
        ['High error rate', end - 86_400, end, subtitle],
        ['High error rate', end - 86_400, end, subtitle],
      ],
    );
    await t.recordings.previewRecorded(t.file.children.get('relative'));
    assert.match(fake.shown.at(-1)?.text ?? '', /^The recorded window cannot be shown: There is no connection/);
    assert.equal(t.previews.length, 2);

    await t.runs.handle(
      new TestRunRequest([t.file], undefined, runProfile, false),
      new CancellationTokenSource().token,
    );
    assert.deepEqual(
      t.c.runs[1]?.log
        .filter((l) => /^(passed|errored|failed)/.test(l))
        .map((l) => l.replace(/: There is no connection: .*$/, ': no connection')),
      ['passed the day', 'errored relative: no connection'],
    );

    const runs = t.c.runs.length;
    await t.recordings.record(t.file);
    assert.equal(t.c.runs.length, runs, 'no run without a connection');
    assert.match(fake.shown.at(-1)?.text ?? '', /^Recording needs a connection: /);
    t.discovery.dispose();
  });

  test('a recording of another query is replaced only when the user says so', async () => {
    const t = await setup();
    rmSync(recordingPath, { force: true });
    await t.recordings.record(t.c.items.get(testKey)?.children.get('the day'));
    const before = readFileSync(recordingPath, 'utf8');
    const trigger = JSON.parse(DEMO_TRIGGER) as { query: { filters: unknown[] } };
    trigger.query.filters = [];
    fake.files.set(triggerKey, JSON.stringify(trigger));
    await t.recordings.record(t.file);
    const asked = fake.shown.at(-1);
    assert.deepEqual([asked?.severity, asked?.actions], ['warning', ['Replace']]);
    assert.match(
      asked?.text ?? '',
      /^a\.trigger-test\.recording\.json holds a different recording: the recorded window .* holds another query\. Replace it with the one made now\? /,
    );
    assert.equal(readFileSync(recordingPath, 'utf8'), before, 'dismissed: nothing replaced');

    fake.answer = 'Replace';
    await t.recordings.record(t.file);
    assert.equal(
      fake.shown.at(-1)?.text,
      `Recorded 1 window in a.trigger-test.recording.json. Not recorded: "relative": its window is relative to the run (now-24h to now), and a recording holds fixed times: write the window in UTC times to record it.`,
    );
    const now = parseRecording(readFileSync(recordingPath, 'utf8'));
    assert.ok(now.ok);
    assert.deepEqual(
      now.recording.windows.map((w) => w.query['filters']),
      [[]],
      'the window of the query without filters',
    );
    t.discovery.dispose();
  });

  test('a trigger file that cannot be read records nothing, and says so', async () => {
    const t = await setup();
    rmSync(recordingPath, { force: true });
    fake.files.set(triggerKey, '{');
    await t.recordings.record(t.file);
    assert.deepEqual(
      t.c.runs[0]?.log.filter((l) => /^(passed|errored|failed|skipped)/.test(l)).map((l) => l.split(':')[0]),
      ['errored the day', 'errored relative'],
    );
    assert.equal(existsSync(recordingPath), false);
    assert.deepEqual(fake.shown.at(-1), {
      severity: 'warning',
      text: 'Nothing was recorded: the tests could not run. The Test Results say why.',
      actions: [],
    });
    t.discovery.dispose();
  });

  /** The sandbox's connection as production sees the folder's files: its threshold `value`, in place of the file's. */
  const asProduction =
    (value: number): SeenText =>
    (_uri, connection, text) => {
      assert.equal(connection, 'Sandbox');
      const trigger = JSON.parse(text || '{}') as { threshold?: { value: number } };
      if (trigger.threshold !== undefined) trigger.threshold.value = value;
      return { text: JSON.stringify(trigger), environment: 'production' };
    };
  const outcomes = (c: FakeTestController, run: number) =>
    c.runs[run]?.log.filter((l) => /^(passed|errored|failed|skipped)/.test(l)).map((l) => l.split(':')[0]);

  test("on an environment's connection a test runs against its service with the trigger as it sees it, its recording unread", async () => {
    const recorded = await setup();
    rmSync(recordingPath, { force: true });
    await recorded.recordings.record(recorded.file);
    // A recording the home environment's run could not read: the environment's run never reads it.
    writeFileSync(recordingPath, '{');
    const run = async (t: Awaited<ReturnType<typeof setup>>) => {
      await t.runs.handle(
        new TestRunRequest([t.file], undefined, runProfile, false),
        new CancellationTokenSource().token,
      );
      return { log: t.c.runs.at(-1)?.log ?? [], output: t.c.runs.at(-1)?.output ?? [] };
    };
    const home = await run(await setup());
    assert.deepEqual(
      home.log.filter((l) => /^(passed|errored|failed)/.test(l)).map((l) => l.split(':')[0]),
      ['errored the day', 'errored relative'],
      "the home environment's run reads the recording, and says it is not valid",
    );
    const same = await run(await setup(asProduction(5)));
    assert.deepEqual(
      same.log.filter((l) => /^(passed|errored|failed)/.test(l)).map((l) => l.split(':')[0]),
      ['passed the day', 'passed relative'],
    );
    assert.equal(
      same.output[0],
      "Each trigger is tested as production sees it, against its service; its recordings (the home environment's) are not used.\r\n",
    );
    const raised = await run(await setup(asProduction(1_000_000_000)));
    assert.deepEqual(
      raised.log.filter((l) => /^(passed|errored|failed)/.test(l)).map((l) => l.split(':')[0]),
      ['failed the day', 'failed relative'],
      "production's threshold is the one evaluated",
    );
  });

  test("recording on an environment's connection errors each test, saying why, and writes nothing", async () => {
    const t = await setup(asProduction(5));
    rmSync(recordingPath, { force: true });
    await t.recordings.record(t.file);
    assert.deepEqual(outcomes(t.c, 0), ['errored the day', 'errored relative']);
    assert.ok(
      t.c.runs[0]?.log.includes(
        "errored the day: Nothing was recorded: recordings hold the home environment's query results, and Sandbox is production. Record on the home environment's connection.",
      ),
      t.c.runs[0]?.log.join('\n'),
    );
    assert.equal(existsSync(recordingPath), false);
  });

  test('Cancel during the recording stops the run and writes nothing', async () => {
    const t = await setup();
    rmSync(recordingPath, { force: true });
    fake.cancelProgressAt = 'Starting the query';
    await t.recordings.record(t.file);
    assert.deepEqual(
      t.c.runs[0]?.log.filter((l) => /^(passed|errored|failed|skipped)/.test(l)),
      ['skipped the day', 'skipped relative'],
    );
    assert.equal(existsSync(recordingPath), false);
    assert.deepEqual(fake.shown.at(-1), {
      severity: 'info',
      text: 'Recording cancelled: nothing was written.',
      actions: [],
    });
    assert.equal(t.state.lenses, 0);
    t.discovery.dispose();
  });
});
