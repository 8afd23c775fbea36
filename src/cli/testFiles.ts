// One trigger test file run, for `obs test` and `obs review`: read inside the current folder, its trigger file
// read (never outside it, neither as written nor through a link), its recording standing in for the service
// where it holds an expectation's window, each expectation evaluated and timed. No command's run lives here.
import { relative, resolve } from 'node:path';
import type { ServiceClient } from '../api/client';
import { errorText } from '../api/errors';
import {
  erroredOutcomes,
  parseTestFile,
  prepareTrigger,
  RecordedNotes,
  recordedQueryApi,
  runTriggerTests,
  savedQueriesOf,
  systemClock,
  triggerPathFor,
  TRIGGER_TEST_SUFFIX,
  type CreationPacer,
  type ExpectationOutcome,
  type QueryApi,
  type ResultCache,
  type TestedTrigger,
  type TriggerTestFile,
  type TriggerTestRecording,
} from '../backtest';
import { placeIn } from '../triggerFiles/contained';
import { warn, type MainIo } from './io';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import { readRecording, saveRecording, type RecordingRead } from './testRecording';
import type { TestFileReport } from './testReport';
import { expectationPlaces } from './testGithub';
import { onceEachWait } from './testWaits';
import type { Outcome } from '../result';
import { effectiveText, type CliEnvironment } from './environment';

/** What an expectation no recording holds gets when no service is configured. */
const NEEDS_SERVICE = `needs the service: no recording holds its window; set ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} to run it against the service, or record it with obs test --record`;

/** What the test files of one run share: the service, its pacing and query results, the clock's minute. */
export interface TestSession {
  /** None: no service configured, the tests run from their recordings only. */
  client: ServiceClient | undefined;
  signal: AbortSignal;
  io: MainIo;
  maxBytes: number;
  pacer: CreationPacer;
  cache: ResultCache;
  nowSeconds: number;
  record: boolean;
  force: boolean;
  /** Recordings --record could not write. */
  unsaved: number;
  /**
   * With --env: each trigger is tested as the environment sees it; one other than the home one is tested against
   * its service alone, since the recordings hold the home's query results.
   */
  environment?: CliEnvironment;
}

async function readText(file: string, session: TestSession): Promise<Outcome<{ text: string }>> {
  try {
    // Bytes that are not UTF-8 are said, never read with replacement characters (a query would send those).
    const text = decodeStrict(await readCommandLineFile(file, session.io.cwd, session.maxBytes));
    return text === undefined
      ? { ok: false, reason: `cannot read ${file}: the file is not UTF-8` }
      : { ok: true, text };
  } catch (e) {
    return { ok: false, reason: `cannot read ${file}: ${e instanceof ReadProblem ? e.message : errorText(e)}` };
  }
}

/** One test file run: read, its trigger file read (inside the folder only), each expectation evaluated. */
export async function runTestFile(file: string, session: TestSession): Promise<TestFileReport> {
  const started = systemClock.now();
  const report = (over: Partial<TestFileReport>): TestFileReport => ({
    file,
    problems: [],
    outcomes: [],
    seconds: [],
    totalSeconds: (systemClock.now() - started) / 1000,
    startedAt: started,
    ...over,
  });
  const read = await readText(file, session);
  if (!read.ok) return report({ problems: [read.reason] });
  const parsed = parseTestFile(read.text);
  if (!parsed.ok) return report({ problems: parsed.reason.map((p) => p.message) });
  // From here on each expectation is reported where it lies in the file.
  const places = expectationPlaces(read.text, parsed.file.expectations.length);
  const located = (over: Partial<TestFileReport>): TestFileReport => report({ places, ...over });
  const triggerPath = triggerPathFor(file, parsed.file.trigger);
  if (triggerPath === undefined)
    return located({
      problems: [
        `name the trigger file in its "trigger" member: the file's name does not end with ${TRIGGER_TEST_SUFFIX}`,
      ],
    });
  const triggerFile = relative(session.io.cwd, resolve(session.io.cwd, triggerPath)).split('\\').join('/');
  const outside = await outsideOf(session.io.cwd, triggerFile);
  if (outside !== undefined) return located({ outcomes: erroredOutcomes(parsed.file, `${triggerFile}: ${outside}`) });
  const away = session.environment?.plan.overlay !== undefined;
  const recording: RecordingRead = away
    ? { ok: true, path: '', text: undefined, recording: undefined }
    : await readRecording(file, session.io.cwd, session.maxBytes);
  if (!recording.ok) return located({ outcomes: erroredOutcomes(parsed.file, recording.reason) });
  if (recording.invalid !== undefined && !session.record)
    return located({ outcomes: erroredOutcomes(parsed.file, recording.invalid) });
  if (session.client === undefined && recording.recording === undefined)
    return located({
      outcomes: erroredOutcomes(parsed.file, NEEDS_SERVICE).map((o) => ({ ...o, status: 'not-testable' as const })),
    });
  const triggerText = await readText(triggerFile, session);
  if (!triggerText.ok) return located({ outcomes: erroredOutcomes(parsed.file, triggerText.reason), seconds: [] });
  const api = recordedQueryApi(recording.recording, session.client);
  const text = effectiveText(triggerText.text, session.environment);
  const prepared = await prepareTrigger(text, parsed.file, api, session.signal);
  if (!prepared.ok) return located({ outcomes: erroredOutcomes(parsed.file, `${triggerFile}: ${prepared.reason}`) });
  const trigger = { name: prepared.tested.trigger.name, dataset: prepared.tested.dataset, file: triggerFile };
  const recorder = session.record ? new RecordedNotes() : undefined;
  const timed = await timedRun(parsed.file, prepared.tested, session, {
    api,
    recording: recording.recording,
    recorder,
  });
  if (recorder && !session.signal.aborted) {
    const saved = await saveRecording(
      recording,
      recorder,
      savedQueriesOf(prepared.tested),
      session.force,
      session.io.cwd,
    );
    for (const line of saved.lines) warn(session.io, line);
    if (!saved.written) session.unsaved++;
  }
  return located({ trigger, outcomes: timed.outcomes, seconds: timed.seconds });
}

/**
 * Why a trigger file is not read, if so: a test file (from a pull request, say) names it by a path of its
 * own, which must not lead out of the folder obs test runs in, neither as written nor through a link.
 */
async function outsideOf(cwd: string, file: string): Promise<string | undefined> {
  switch (await placeIn(cwd, file)) {
    case 'inside':
      // A file that does not exist is said by the read that follows.
      return undefined;
    case 'outside':
      return 'it lies outside the folder obs test runs in, so it is not read';
    default:
      return 'it is a link leading outside the folder obs test runs in, so it is not read';
  }
}

interface FileRun {
  /** The service, with the recording's saved queries in front of it. */
  api: QueryApi;
  recording: TriggerTestRecording | undefined;
  recorder: RecordedNotes | undefined;
}

/** The expectations of a file run in order, with the seconds each took. */
async function timedRun(
  tests: TriggerTestFile,
  tested: TestedTrigger,
  session: TestSession,
  file: FileRun,
): Promise<{ outcomes: ExpectationOutcome[]; seconds: number[] }> {
  const seconds: number[] = [];
  let last = systemClock.now();
  const outcomes = await runTriggerTests(tests, tested, {
    api: file.api,
    recording: file.recording,
    offline: session.client === undefined ? { status: 'not-testable', message: NEEDS_SERVICE } : undefined,
    ...(file.recorder ? { record: file.recorder.note.bind(file.recorder) } : {}),
    pacer: session.pacer,
    clock: systemClock,
    signal: session.signal,
    cache: session.cache,
    nowSeconds: session.nowSeconds,
    report: onceEachWait((m) => warn(session.io, m)),
    onOutcome: () => {
      const now = systemClock.now();
      seconds.push((now - last) / 1000);
      last = now;
    },
  });
  return { outcomes, seconds };
}
