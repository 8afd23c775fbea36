// The run of `obs review` (declared in review.ts, loaded when the command runs): the files a change touches
// (reviewScope.ts) linted, the plan of every file under the paths made by the one pipeline (what an apply after
// the merge would do), its changes split into the change's own and the others, and the trigger tests of what the
// change touches, run against the service; printed as one Markdown report or as JSON.
import { resolve } from 'node:path';
import { systemClock } from '../backtest';
import type { NoiseSession } from '../backtest/noiseReport';
import { identities, TRIGGER_FILE_SUFFIX, type PlanInputs } from '../triggerFiles';
import { EXIT_TROUBLE, warn, writeData, type MainIo } from './io';
import { lintFiles, lintOptions } from './lintFiles';
import { outFileProblem, writeOutFile } from './outFile';
import { planFiles, targetOf, type CliPlan } from './planMaking';
import { changedLines, changedSince, textAt, type ChangedFiles, type ChangedLines } from './reviewChanged';
import { noiseDiffJson } from './noiseDiffJson';
import { noiseDiffOf } from './noiseDiffPlan';
import { isFromChange, reviewExit, saysNothing, type FailOn, type ReviewReport } from './reviewReport';
import { reviewMarkdown } from './reviewMarkdown';
import { repoPath, reviewScope, type ReviewScope } from './reviewScope';
import type { FileReport } from './lintSarif';
import { clientFromEnvironment } from './service';
import { runTestFile, type TestSession } from './testFiles';
import { cliNoiseSession } from './triggerTestFiles';
import { visibleJson } from './visible';
import { metricsDatasetsOf } from './workspaceSettings';
import type { ServiceClient } from '../api/client';
import type { TestFileReport } from './testReport';
import { environmentOf, type CliEnvironment, type EnvironmentInvocation } from './environment';
import { EnvironmentLint } from './lintEnvironment';
import { overlayTouches, plannedAs } from './reviewEnvironment';

/** The options of `obs review` as commander parses them (review.ts declares them). */
export interface ReviewInvocation extends EnvironmentInvocation {
  changedSince?: string;
  format: 'markdown' | 'json';
  jsonOut?: string;
  comment?: boolean;
  commentKey?: string;
  failOn: FailOn;
  /** false with --no-noise: no noise diff (it creates query results, paced at the service's rate). */
  noise: boolean;
  days: number;
  prune?: boolean;
  matchByName?: boolean;
  allowUnknownColumns?: boolean;
  metricsDataset?: string[];
  settings?: string;
  maxProblems: number;
  concurrency: number;
  maxBytes: number;
}

/** The identities of the triggers the files a change deleted held at its base (a prune deletes those). */
async function deletedTriggers(
  changed: ChangedFiles,
  io: MainIo,
  matchByName: boolean,
  environment: CliEnvironment | undefined,
): Promise<Set<string>> {
  const out = new Set<string>();
  for (const file of changed.deleted) {
    if (!file.toLowerCase().endsWith(TRIGGER_FILE_SUFFIX)) continue;
    const text = await textAt(io.cwd, changed.base, file);
    // As planned: matched by name (or in another environment), a file's ids are not the service's; only its names
    // say what a prune deletes.
    const held = text === undefined ? undefined : plannedAs(text, environment, matchByName);
    if (held?.ok === true) for (const t of held.triggers) for (const k of identities(t)) out.add(k);
  }
  return out;
}

function planInputs(
  paths: string[],
  invocation: ReviewInvocation,
  metricsDatasets: string[],
  environment: CliEnvironment | undefined,
): PlanInputs {
  return {
    scope: { kind: invocation.prune === true ? 'all' : 'files' },
    allowUnknownColumns: invocation.allowUnknownColumns === true,
    // An environment other than the home one finds each trigger by dataset and name, as obs plan --env does.
    matchByName: invocation.matchByName === true || environment?.plan.overlay !== undefined,
    paths,
    metricsDatasets,
    maxBytes: invocation.maxBytes,
    ...(environment === undefined ? {} : { environment: environment.record }),
  };
}

/**
 * The test files run one after the other, at the service's pace, with the query results the noise diff created
 * (the same queries over the same days are not created again).
 */
async function runTests(
  files: readonly string[],
  noise: NoiseSession,
  client: ServiceClient,
  io: MainIo,
  maxBytes: number,
  environment: CliEnvironment | undefined,
) {
  const session: TestSession = {
    client,
    signal: noise.signal,
    io,
    maxBytes,
    pacer: noise.pacer,
    cache: noise.cache,
    nowSeconds: Math.floor(systemClock.now() / 60_000) * 60,
    record: false,
    force: false,
    unsaved: 0,
    ...(environment === undefined ? {} : { environment }),
  };
  const reports: TestFileReport[] = [];
  for (const file of files) if (!session.signal.aborted) reports.push(await runTestFile(file, session));
  const stopped = session.signal.aborted ? ['stopped: the tests not run are missing from the report'] : [];
  return { files: reports, problems: stopped };
}

/** The report as JSON: the noise diff in its own documented shape (obs plan --noise --format json gives the same). */
function reviewJson(report: ReviewReport): Record<string, unknown> {
  const { noise, ...rest } = report;
  return noise === undefined ? rest : { ...rest, noise: noiseDiffJson(noise.entries, { days: noise.days }) };
}

/** The changed lines of each linted file, by the name the lint report gives it. */
function linesByFile(
  lint: readonly FileReport[],
  lines: ChangedLines,
  cwd: string,
): Record<string, number[] | 'whole'> {
  const out: Record<string, number[] | 'whole'> = {};
  for (const f of lint) {
    const found = lines.get(repoPath(cwd, f.file));
    out[f.file] = found === undefined ? [] : found === 'whole' ? 'whole' : [...found].sort((a, b) => a - b);
  }
  return out;
}

/** The plan of the change's own changes only, for the noise diff. */
function ownPlan(made: CliPlan, fromChange: readonly number[]): CliPlan {
  const changes = fromChange.flatMap((i) => made.plan.changes.slice(i, i + 1));
  return { ...made, plan: { ...made.plan, changes } };
}

/** What must hold before anything is read: the metrics datasets, a writable --json-out, the change's files. */
async function preflight(invocation: ReviewInvocation, io: MainIo) {
  const metrics = await metricsDatasetsOf(invocation.metricsDataset, invocation.settings, io);
  if (metrics === undefined) return undefined;
  const jsonOut = invocation.jsonOut === undefined ? undefined : resolve(io.cwd, invocation.jsonOut);
  const outProblem = jsonOut === undefined ? undefined : await outFileProblem(jsonOut);
  if (outProblem !== undefined) {
    warn(io, `--json-out ${invocation.jsonOut ?? ''}: ${outProblem}; nothing was reviewed`);
    return undefined;
  }
  if (invocation.changedSince === undefined) return { metrics, jsonOut, changed: undefined };
  const changed = await changedSince(invocation.changedSince, io.cwd);
  if (!changed.ok) {
    warn(io, `--changed-since ${invocation.changedSince}: ${changed.reason}`);
    return undefined;
  }
  return { metrics, jsonOut, changed };
}

/** What the change touches, as the report says it: the ref, the commit compared with, the files. */
function changedPart(invocation: ReviewInvocation, changed: ChangedFiles | undefined): Partial<ReviewReport> {
  if (changed === undefined || invocation.changedSince === undefined) return {};
  const { base } = changed;
  const [files, deleted] = [[...changed.changed].sort(), [...changed.deleted].sort()];
  return { changedSince: { ref: invocation.changedSince, base, changed: files, deleted } };
}

type ServiceChecks = Pick<ReviewReport, 'plan' | 'fromChange' | 'noise' | 'tests' | 'problems'>;

/**
 * What the review asks the service: the plan of every file under the paths, its changes that are the change's
 * own, what those would have notified (one session, whose query results the tests then share), and the tests.
 */
async function serviceChecks(
  list: string[],
  ready: { metrics: string[]; changed: ChangedFiles | undefined; environment: CliEnvironment | undefined },
  scope: ReviewScope,
  invocation: ReviewInvocation,
  io: MainIo,
): Promise<ServiceChecks> {
  const env = io.env ?? {};
  const client = clientFromEnvironment(env);
  const { environment } = ready;
  try {
    const inputs = planInputs(list, invocation, ready.metrics, environment);
    const made = await planFiles(client, inputs, targetOf(env), io, invocation.concurrency, environment?.plan);
    const matchByName = invocation.matchByName === true;
    const deleted =
      ready.changed === undefined
        ? new Set<string>()
        : await deletedTriggers(ready.changed, io, matchByName, environment);
    const fromChange = (made?.plan.changes ?? []).flatMap((c, i) =>
      isFromChange(c, scope.touches, deleted) ? [i] : [],
    );
    const session = cliNoiseSession(client, io);
    const noiseOptions = { mode: 'exact' as const, days: invocation.days, maxBytes: invocation.maxBytes };
    const noise =
      made === undefined || !invocation.noise
        ? undefined
        : { days: invocation.days, entries: await noiseDiffOf(ownPlan(made, fromChange), session, io, noiseOptions) };
    const tests = await runTests(scope.tests, session, client, io, invocation.maxBytes, environment);
    const problems = [
      ...(made === undefined ? ['no plan could be made (said above)'] : []),
      ...(made !== undefined && !made.complete ? ['the plan is not of every file and dataset (said above)'] : []),
      ...tests.problems,
    ];
    return {
      ...(made === undefined ? {} : { plan: made.plan }),
      fromChange,
      ...(noise === undefined ? {} : { noise }),
      tests,
      problems,
    };
  } finally {
    await client.close();
  }
}

/**
 * The lint of the files in scope; with --env each as the environment sees it, and the environment's own findings
 * in a report of the environments file. Overrides naming no trigger are looked for only over files a folder's walk
 * found whole: with --changed-since only some are linted (the plan's gate still blocks such an override).
 */
async function lintScope(
  scope: ReviewScope,
  ready: { metrics: string[]; changed: ChangedFiles | undefined; environment: CliEnvironment | undefined },
  invocation: ReviewInvocation,
  io: MainIo,
): Promise<FileReport[]> {
  const options = lintOptions(invocation, ready.metrics);
  const envLint = ready.environment === undefined ? undefined : new EnvironmentLint(ready.environment);
  if (envLint === undefined) return lintFiles(scope.lint, options, io, invocation.maxBytes);
  const named = new Set(ready.changed === undefined ? scope.named : scope.lint);
  const linted = await lintFiles(scope.lint, options, io, invocation.maxBytes, { lint: envLint, named });
  return envLint.withEnvironmentsFile(linted, io.cwd);
}

/** The review of the files under the paths; undefined (each problem said) when nothing could be reviewed. */
async function makeReview(
  paths: readonly string[],
  invocation: ReviewInvocation,
  given: MainIo,
): Promise<{ report: ReviewReport; jsonOut: string | undefined; io: MainIo } | undefined> {
  const list = paths.length === 0 ? ['.'] : [...paths];
  const environment = await environmentOf(invocation, list, given);
  if (!environment.ok) {
    warn(given, `${environment.reason}; nothing was reviewed`);
    return undefined;
  }
  // With --env the service is the one the environment's variables name.
  const io = environment.value === undefined ? given : { ...given, env: environment.value.serviceEnv };
  const preflown = await preflight(invocation, io);
  if (preflown === undefined) return undefined;
  const ready = { ...preflown, environment: environment.value };
  const seenOtherwise = await overlayTouches(ready.environment, ready.changed, io.cwd);
  const scope = await reviewScope(list, ready.changed, io, invocation.maxBytes, seenOtherwise);
  for (const p of scope.problems) warn(io, p);
  if (scope.problems.length > 0) return undefined;
  const lint = await lintScope(scope, ready, invocation, io);
  for (const f of lint) if (f.error !== undefined) warn(io, `cannot read ${f.file}: ${f.error}`);
  const named = lint.map((f) => repoPath(io.cwd, f.file));
  const lines = ready.changed === undefined ? undefined : await changedLines(io.cwd, ready.changed, named);
  const checks = await serviceChecks(list, ready, scope, invocation, io);
  const report: ReviewReport = {
    format: 'obs-review',
    version: 1,
    ...(ready.environment === undefined ? {} : { environment: ready.environment.plan.name }),
    ...changedPart(invocation, ready.changed),
    lint,
    ...(lines === undefined ? {} : { changedLines: linesByFile(lint, lines, io.cwd) }),
    ...checks,
  };
  return { report, jsonOut: ready.jsonOut, io };
}

export async function runReview(
  paths: readonly string[],
  invocation: ReviewInvocation,
  given: MainIo,
): Promise<number> {
  const made = await makeReview(paths, invocation, given);
  if (made === undefined) return EXIT_TROUBLE;
  const { report, jsonOut, io } = made;
  const json = `${visibleJson(reviewJson(report))}\n`;
  const markdown = reviewMarkdown(report);
  if (invocation.format === 'json') writeData(io, json);
  else io.stdout(markdown);
  const unsaved = jsonOut === undefined ? undefined : await writeOutFile(jsonOut, json);
  if (unsaved !== undefined)
    warn(io, `--json-out ${invocation.jsonOut ?? ''}: the report could not be saved: ${unsaved}`);
  const posted = invocation.comment === true ? await comment(markdown, report, invocation, io) : true;
  return unsaved !== undefined || !posted ? EXIT_TROUBLE : reviewExit(report, invocation.failOn);
}

const POSTED = {
  created: 'the review is posted to the pull request',
  updated: "the pull request's review comment is brought up to date",
  unchanged: "the pull request's review comment already says this",
  none: 'nothing to say and no earlier comment: nothing was posted',
} as const;

/** The Markdown posted to the pull request (said on stderr); false when it could not be. */
async function comment(markdown: string, report: ReviewReport, invocation: ReviewInvocation, io: MainIo) {
  const { postReviewComment } = await import('./github/comment');
  const key = invocation.commentKey ?? report.environment;
  const posted = await postReviewComment({
    markdown,
    nothingChanged: saysNothing(report),
    env: io.env ?? {},
    cwd: io.cwd,
    // Reviews of staging and production keep a comment each: the environment names its own unless a key is given.
    ...(key === undefined ? {} : { key }),
  });
  if (!posted.ok) {
    warn(io, `--comment: ${posted.reason.message}`);
    return false;
  }
  warn(io, `${POSTED[posted.action]}${posted.url === undefined ? '' : `: ${posted.url}`}`);
  return true;
}
