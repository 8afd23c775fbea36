// A Test Explorer run without vscode: the test files asked for, each with the expectations asked for, run
// against the active connection's query session (its pacer shared with every other query of the connection,
// its results reused: a run again after an edit that changes no query creates none), each outcome handed on
// as soon as it is known. An expectation whose window the test file's recording holds runs from it, with or
// without a connection; without one every other test errors with one sentence, said once. A run that records
// hands back, per file, what it recorded.
import { errorText } from '../../api/errors';
import {
  CreationPacer,
  parseRecording,
  parseTestFile,
  prepareTrigger,
  RecordedNotes,
  recordedQueryApi,
  ResultCache,
  runTriggerTests,
  savedQueriesOf,
  systemClock,
  triggerPathFor,
  TRIGGER_TEST_SUFFIX,
  type ExpectationOutcome,
  type FreshRecording,
  type QueryApi,
  type RecordNote,
  type ResultStore,
  type TriggerTestFile,
  type TriggerTestRecording,
} from '../../backtest';
import type { QuerySession } from '../queries';
import { noConnectionText } from './testResults';
import * as l10n from '@vscode/l10n';
import type { Outcome } from '../../result';

export interface FileToRun {
  /** The test file's URI as text. */
  key: string;
  /** Its path, '/'-separated, from which the trigger's path is found. */
  path: string;
  /** Its text (the editor's when open: unsaved edits included), or why it cannot be read. */
  text: string;
  unreadable?: string;
  /** The expectations to run, by their Test Explorer ids (the name, unique in a valid file). */
  tests: readonly { id: string; name: string }[];
}

export type TriggerRead = Outcome<{ text: string; label: string }>;
/** The recording beside a test file: its text, none (undefined), or why it is not read. */
export type RecordingRead = Outcome<{ text: string | undefined }>;

/** What a run that records recorded of one test file, for writing its recording. */
export interface RecordedFile {
  /** The test file's key (its URI as text). */
  key: string;
  /** The recording's text before the run (undefined: there was none). */
  before: string | undefined;
  fresh: FreshRecording;
  /** Expectations not recorded, each with why; how many ran from the recording. */
  notRecorded: { name: string; reason: string }[];
  kept: number;
}

export interface RunConnection {
  api: QueryApi;
  session: QuerySession;
  /** Its name, for the preview's subtitle. */
  name: string;
}

/** What a finished expectation ran against, for opening its window in the preview later. */
export interface RanAgainst {
  triggerName: string;
  /** The trigger file, as the user knows it. */
  triggerLabel: string;
  connection: string;
}

export interface RunHooks {
  started(file: string, id: string): void;
  finished(file: string, id: string, outcome: ExpectationOutcome, against: RanAgainst | undefined): void;
  /** A line for the run's output. */
  output(line: string): void;
  /** Progress, the waits for the rate limit included ("Waiting 23 s: ..."). */
  progress(message: string): void;
}

export interface RunRequest {
  files: readonly FileToRun[];
  connection: RunConnection | undefined;
  /** Reads the trigger file at a path for a test file, or says why it is not read. */
  readTrigger(file: FileToRun, path: string): Promise<TriggerRead>;
  /** Reads the recording beside a test file; without it no recording is used. */
  readRecording?(file: FileToRun): Promise<RecordingRead>;
  /** Record: what the recording does not hold runs against the connection and is handed back. */
  record?: boolean;
  hooks: RunHooks;
  signal: AbortSignal;
  /** Relative times are read at this time, once for the run (epoch seconds, whole minutes). */
  nowSeconds: number;
}

/** Runs the files in order; stops between queries when the signal aborts (then `cancelled`). */
export async function runTestFiles(req: RunRequest): Promise<{ cancelled: boolean; recorded: RecordedFile[] }> {
  if (!req.connection) req.hooks.output(noConnectionText());
  const recorded: RecordedFile[] = [];
  try {
    const runAll = async (cache: ResultStore | undefined): Promise<void> => {
      for (const f of req.files) {
        req.signal.throwIfAborted();
        const r = await runFile(f, req.connection, cache, req);
        if (r !== undefined) recorded.push(r);
      }
    };
    // One run over the session's results: none it used is dropped before it ends, and the next run finds them all.
    if (req.connection) await req.connection.session.cache.inRun(runAll);
    else await runAll(undefined);
    return { cancelled: false, recorded };
  } catch (err) {
    if (req.signal.aborted) return { cancelled: true, recorded };
    throw err;
  }
}

const errored = (t: { id: string; name: string }, message: string): ExpectationOutcome => ({
  index: -1,
  name: t.name,
  expect: 'fires',
  status: 'error',
  message,
  notes: [],
});

/** The recording of a file and its text: none, or why the tests cannot run (one that is not valid, unless recording over it). */
async function recordingOf(
  f: FileToRun,
  req: RunRequest,
): Promise<Outcome<{ text: string | undefined; recording: TriggerTestRecording | undefined }>> {
  const read = req.readRecording ? await req.readRecording(f) : { ok: true as const, text: undefined };
  if (!read.ok || read.text === undefined) return read.ok ? { ok: true, text: undefined, recording: undefined } : read;
  const parsed = parseRecording(read.text);
  if (parsed.ok) return { ok: true, text: read.text, recording: parsed.recording };
  return req.record === true
    ? { ok: true, text: read.text, recording: undefined }
    : { ok: false, reason: l10n.t('The recording beside the test file is not valid: {0}', parsed.reason.join('; ')) };
}

async function runFile(
  f: FileToRun,
  conn: RunConnection | undefined,
  cache: ResultStore | undefined,
  req: RunRequest,
): Promise<RecordedFile | undefined> {
  const { hooks } = req;
  const done = new Set<string>();
  // Every test of the file not finished yet errors with the reason.
  const fail = (reason: string): undefined => {
    for (const t of f.tests) if (!done.has(t.id)) hooks.finished(f.key, t.id, errored(t, reason), undefined);
    return undefined;
  };
  if (f.unreadable !== undefined) return fail(l10n.t('The test file cannot be read: {0}', f.unreadable));
  const parsed = parseTestFile(f.text);
  if (!parsed.ok)
    return fail(l10n.t('The test file is not valid: {0}', parsed.reason.map((p) => p.message).join('; ')));
  const path = triggerPathFor(f.path, parsed.file.trigger);
  if (path === undefined)
    return fail(
      l10n.t(
        'Name the trigger file in its "trigger" member: the name of the test file does not end with {0}',
        TRIGGER_TEST_SUFFIX,
      ),
    );
  const recording = await recordingOf(f, req);
  if (!recording.ok) return fail(recording.reason);
  if (!conn && recording.recording === undefined) return fail(noConnectionText());
  const trigger = await req.readTrigger(f, path);
  if (!trigger.ok) return fail(trigger.reason);
  const api = recordedQueryApi(recording.recording, conn?.api);
  const prepared = await prepareTrigger(trigger.text, parsed.file, api, req.signal);
  if (!prepared.ok) return fail(l10n.t('{0}: {1}', trigger.label, prepared.reason));
  const against: RanAgainst = {
    triggerName: prepared.tested.trigger.name,
    triggerLabel: trigger.label,
    connection: conn?.name ?? l10n.t('the recording'),
  };
  const recorder = req.record === true ? new RecordedNotes() : undefined;
  const byName = new Map(f.tests.map((t) => [t.name, t.id]));
  const order = inFileOrder(parsed.file, byName);
  let next = 0;
  const start = () => {
    const id = order[next++];
    if (id !== undefined) hooks.started(f.key, id);
  };
  start();
  try {
    await runTriggerTests(parsed.file, prepared.tested, {
      api,
      // Without a connection nothing is created: the recording answers, or the test errors first.
      pacer: conn?.session.pacer ?? new CreationPacer(systemClock),
      clock: conn?.session.clock ?? systemClock,
      cache: cache ?? new ResultCache(),
      queries: conn?.session.queries,
      recording: recording.recording,
      offline: conn ? undefined : { status: 'error', message: noConnectionText() },
      ...(recorder ? { record: (name: string, note: RecordNote) => recorder.note(name, note) } : {}),
      signal: req.signal,
      report: hooks.progress,
      nowSeconds: req.nowSeconds,
      only: new Set(byName.keys()),
      onOutcome: (o) => {
        const id = byName.get(o.name) ?? o.name;
        done.add(id);
        hooks.finished(f.key, id, o, against);
        start();
      },
    });
  } catch (err) {
    if (req.signal.aborted) throw err;
    // The engine turns what the service says into outcomes; anything else is said for the tests not yet done.
    return fail(errorText(err));
  }
  if (recorder === undefined) return undefined;
  return {
    key: f.key,
    before: recording.text,
    fresh: { windows: recorder.windows, savedQueries: savedQueriesOf(prepared.tested) },
    notRecorded: recorder.notRecorded,
    kept: recorder.kept,
  };
}

/** The ids asked for, in the order the file lists their expectations (the order they run in). */
function inFileOrder(file: TriggerTestFile, byName: ReadonlyMap<string, string>): string[] {
  return file.expectations.flatMap((e) => {
    const id = byName.get(e.name);
    return id === undefined ? [] : [id];
  });
}
