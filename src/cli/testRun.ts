// The run of `obs test` (declared in test.ts, loaded when the command runs): against the service named by the
// environment, each test file's recording standing in for the service where it holds an expectation's
// window; with no service configured, only from recordings; with --record, writing the recordings.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { CreationPacer, ResultCache, systemClock, TRIGGER_TEST_SUFFIX } from '../backtest';
import { expandPaths } from './files';
import { EXIT_TROUBLE, warn, writeData, type MainIo } from './io';
import { outFileProblem, writeOutFile } from './outFile';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY, ServiceSetupError } from './service';
import { runTestFile, type TestSession } from './testFiles';
import { testJunit } from './testJunit';
import { exitStatus, summaryLine, testText, type TestFileReport } from './testReport';
import { testAnnotations } from './testGithub';
import { writeGithubReport } from './github/report';
import { testMarkdown } from './markdown/test';
import { environmentOf, type EnvironmentInvocation } from './environment';

/** The options of `obs test` as commander parses them (test.ts declares them). */
export interface TestInvocation extends EnvironmentInvocation {
  reporter: 'text' | 'junit' | 'github';
  out?: string;
  maxBytes: number;
  /** Record the windows of the test files into their recordings (the service needed). */
  record?: boolean;
  /** With record: replace a recording whose content differs. */
  force?: boolean;
  /** A window older than the service keeps is skipped (exit 0) instead of failing (exit 1). */
  allowNotTestable?: boolean;
}

/** No service configured at all (neither variable set): obs test runs from the recordings only. */
function noService(env: Readonly<Record<string, string | undefined>>): boolean {
  return (env[ENV_BASE_URL]?.trim() ?? '') === '' && (env[ENV_CONFIG_KEY]?.trim() ?? '') === '';
}

export async function runTests(paths: readonly string[], invocation: TestInvocation, given: MainIo): Promise<number> {
  const environment = await environmentOf(invocation, paths, given);
  if (!environment.ok) {
    warn(given, `${environment.reason}; no test was run`);
    return EXIT_TROUBLE;
  }
  // The recordings hold the home environment's query results: another's are never written into them.
  if (environment.value?.plan.overlay !== undefined && invocation.record === true) {
    warn(given, `--record records the home environment's service: leave out --env ${environment.value.plan.name}`);
    return EXIT_TROUBLE;
  }
  // With --env the service is the one the environment's variables name.
  const io = environment.value === undefined ? given : { ...given, env: environment.value.serviceEnv };
  const { files, problems, nothing } = await expandPaths(
    paths.length === 0 ? ['.'] : paths,
    io.cwd,
    TRIGGER_TEST_SUFFIX,
  );
  for (const p of problems) warn(io, p);
  // A path that names nothing stops the run before any test: a report of the others would read as the whole.
  if (nothing.length > 0 || files.length === 0) return EXIT_TROUBLE;
  const out = invocation.out === undefined ? undefined : resolve(io.cwd, invocation.out);
  const outProblem = out === undefined ? undefined : await outFileProblem(out);
  if (outProblem !== undefined) {
    warn(io, `--out ${invocation.out ?? ''}: ${outProblem}; no test was run`);
    return EXIT_TROUBLE;
  }
  const offline = noService(io.env ?? {});
  if (offline && invocation.record === true)
    throw new ServiceSetupError(
      `--record needs the service: set ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment`,
    );
  if (offline)
    warn(
      io,
      `no service in the environment (${ENV_BASE_URL}, ${ENV_CONFIG_KEY}): the tests run from their recordings, and those without one are not testable`,
    );
  const client = offline ? undefined : clientFromEnvironment(io.env ?? {});
  const reports: TestFileReport[] = [];
  const signal = io.signal ?? new AbortController().signal;
  const startedAt = systemClock.now();
  const session: TestSession = {
    client,
    signal,
    io,
    maxBytes: invocation.maxBytes,
    pacer: new CreationPacer(systemClock),
    cache: new ResultCache(),
    nowSeconds: Math.floor(startedAt / 60_000) * 60,
    record: invocation.record === true,
    force: invocation.force === true,
    unsaved: 0,
    ...(environment.value === undefined ? {} : { environment: environment.value }),
  };
  try {
    for (const file of files) {
      if (signal.aborted) break;
      reports.push(await runTestFile(file, session));
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  } finally {
    await client?.close();
  }
  const allowNotTestable = invocation.allowNotTestable === true;
  const stopped = signal.aborted
    ? `stopped: ${summaryLine(reports, allowNotTestable)}; the rest did not run`
    : undefined;
  // The report counts the run's own problems as errors, as the exit status does.
  // Recordings --record could not write are trouble, as a problem of the run is.
  const unsaved =
    session.unsaved === 0
      ? []
      : [`${session.unsaved === 1 ? '1 recording' : `${session.unsaved} recordings`} could not be written`];
  const run = {
    files: reports,
    problems: [...problems, ...unsaved, ...(stopped === undefined ? [] : [stopped])],
    allowNotTestable,
  };
  const text = testText(reports, allowNotTestable);
  const report = invocation.reporter === 'junit' ? testJunit({ ...run, hostname: hostname(), startedAt }) : text;
  if (invocation.reporter === 'github')
    await writeGithubReport(io, {
      command: 'test',
      annotations: testAnnotations(run),
      summaryLine: summaryLine(reports, allowNotTestable),
      markdown: testMarkdown(run),
      fullReport: 'obs test (its text report)',
    });
  else if (out !== undefined || invocation.reporter === 'text') io.stdout(text);
  else writeData(io, report);
  if (stopped !== undefined) warn(io, stopped);
  const unwritten = out === undefined ? undefined : await writeOutFile(out, report);
  if (unwritten !== undefined) {
    // The tests ran: their report is above; only the file is missing.
    warn(io, `--out ${invocation.out ?? ''}: the report could not be written: ${unwritten}`);
    return EXIT_TROUBLE;
  }
  return exitStatus(run);
}
