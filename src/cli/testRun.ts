// The run of `obs test` (declared in test.ts, loaded when the command runs).
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { relative, resolve } from 'node:path';
import type { ServiceClient } from '../api/client';
import { errorText } from '../api/errors';
import { CreationPacer, erroredOutcomes, parseTestFile, prepareTrigger, ResultCache, runTriggerTests, systemClock, triggerPathFor, TRIGGER_TEST_SUFFIX, type ExpectationOutcome, type TriggerTestFile } from '../backtest';
import { placeIn } from '../triggerFiles/contained';
import { expandPaths } from './files';
import { EXIT_TROUBLE, warn, type MainIo } from './io';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';
import { clientFromEnvironment } from './service';
import { onceEachWait } from './testWaits';
import { testJunit } from './testJunit';
import { exitStatus, summaryLine, testText, type TestFileReport } from './testReport';

/** The options of `obs test` as commander parses them (test.ts declares them). */
export interface TestInvocation {
  reporter: 'text' | 'junit';
  out?: string;
  maxBytes: number;
  /** A window older than the service keeps is skipped (exit 0) instead of failing (exit 1). */
  allowNotTestable?: boolean;
}

export async function runTests(paths: readonly string[], invocation: TestInvocation, io: MainIo): Promise<number> {
  const { files, problems } = await expandPaths(paths.length === 0 ? ['.'] : paths, io.cwd, TRIGGER_TEST_SUFFIX);
  for (const p of problems) warn(io, p);
  if (files.length === 0) return EXIT_TROUBLE;
  const client = clientFromEnvironment(io.env ?? {});
  const reports: TestFileReport[] = [];
  const signal = io.signal ?? new AbortController().signal;
  const startedAt = systemClock.now();
  const session = { client, signal, io, maxBytes: invocation.maxBytes, pacer: new CreationPacer(systemClock), cache: new ResultCache(), nowSeconds: Math.floor(startedAt / 60_000) * 60 };
  try {
    for (const file of files) {
      if (signal.aborted) break;
      reports.push(await runFile(file, session));
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  } finally {
    await client.close();
  }
  const allowNotTestable = invocation.allowNotTestable === true;
  const stopped = signal.aborted ? `stopped: ${summaryLine(reports, allowNotTestable)}; the rest did not run` : undefined;
  // The report counts the run's own problems as errors, as the exit status does.
  const run = { files: reports, problems: stopped === undefined ? problems : [...problems, stopped], allowNotTestable };
  const text = testText(reports, allowNotTestable);
  const report = invocation.reporter === 'junit' ? testJunit({ ...run, hostname: hostname(), startedAt }) : text;
  if (invocation.out !== undefined) await saveReport(resolve(io.cwd, invocation.out), report);
  io.stdout(invocation.out !== undefined || invocation.reporter === 'text' ? text : report);
  if (stopped !== undefined) warn(io, stopped);
  return exitStatus(run);
}

interface Session {
  client: ServiceClient;
  signal: AbortSignal;
  io: MainIo;
  maxBytes: number;
  pacer: CreationPacer;
  cache: ResultCache;
  nowSeconds: number;
}

async function readText(file: string, session: Session): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  try {
    // Bytes that are not UTF-8 are said, never read with replacement characters (a query would send those).
    const text = decodeStrict(await readCommandLineFile(file, session.io.cwd, session.maxBytes));
    return text === undefined ? { ok: false, reason: `cannot read ${file}: the file is not UTF-8` } : { ok: true, text };
  } catch (e) {
    return { ok: false, reason: `cannot read ${file}: ${e instanceof ReadProblem ? e.message : errorText(e)}` };
  }
}

async function runFile(file: string, session: Session): Promise<TestFileReport> {
  const started = systemClock.now();
  const report = (over: Partial<TestFileReport>): TestFileReport => ({ file, problems: [], outcomes: [], seconds: [], totalSeconds: (systemClock.now() - started) / 1000, startedAt: started, ...over });
  const read = await readText(file, session);
  if (!read.ok) return report({ problems: [read.reason] });
  const parsed = parseTestFile(read.text);
  if (!parsed.ok) return report({ problems: parsed.problems.map((p) => p.message) });
  const triggerPath = triggerPathFor(file, parsed.file.trigger);
  if (triggerPath === undefined) return report({ problems: [`name the trigger file in its "trigger" member: the file's name does not end with ${TRIGGER_TEST_SUFFIX}`] });
  const triggerFile = relative(session.io.cwd, resolve(session.io.cwd, triggerPath)).split('\\').join('/');
  const outside = await outsideOf(session.io.cwd, triggerFile);
  if (outside !== undefined) return report({ outcomes: erroredOutcomes(parsed.file, `${triggerFile}: ${outside}`) });
  const triggerText = await readText(triggerFile, session);
  if (!triggerText.ok) return report({ outcomes: erroredOutcomes(parsed.file, triggerText.reason), seconds: [] });
  const prepared = await prepareTrigger(triggerText.text, parsed.file, session.client, session.signal);
  if (!prepared.ok) return report({ outcomes: erroredOutcomes(parsed.file, `${triggerFile}: ${prepared.reason}`) });
  const trigger = { name: prepared.tested.trigger.name, dataset: prepared.tested.dataset, file: triggerFile };
  const timed = await timedRun(parsed.file, prepared.tested, session);
  return report({ trigger, outcomes: timed.outcomes, seconds: timed.seconds });
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

/** The expectations of a file run in order, with the seconds each took. */
async function timedRun(tests: TriggerTestFile, tested: Parameters<typeof runTriggerTests>[1], session: Session): Promise<{ outcomes: ExpectationOutcome[]; seconds: number[] }> {
  const seconds: number[] = [];
  let last = systemClock.now();
  const outcomes = await runTriggerTests(tests, tested, {
    api: session.client,
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

/** Writes the report whole (a temporary file renamed over the target), so CI never reads half a report. */
async function saveReport(file: string, text: string): Promise<void> {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw new Error(`--out ${file}: the report could not be saved: ${errorText(e)}`);
  }
}
