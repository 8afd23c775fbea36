// The run of `obs plan` (declared in plan.ts, loaded when the command runs): the plan of the trigger files
// under the paths (planMaking.ts, the one pipeline), printed, and with --out saved and sealed for obs apply.
import { resolve } from 'node:path';
import { planCounts, type PlanInputs } from '../triggerFiles';
import { unreadableAnnotations, writeGithubReport } from './github/report';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, writeData, type MainIo } from './io';
import { planMarkdown } from './markdown/plan';
import { outFileProblem, writeOutFile } from './outFile';
import { planFileText } from './planFile';
import type { NoiseDiffEntry } from '../backtest/noiseDiff';
import { noiseDiffJson } from './noiseDiffJson';
import { noiseDiffOf } from './noiseDiffPlan';
import { noiseDiffMarkdown, noiseDiffText } from './noiseDiffText';
import { planFiles, targetOf } from './planMaking';
import { planAnnotations } from './planGithub';
import { planCountsText, planText } from './planReport';
import { clientFromEnvironment, ENV_CONFIG_KEY } from './service';
import { cliNoiseSession } from './triggerTestFiles';
import { visibleJson } from './visible';
import { metricsDatasetsOf } from './workspaceSettings';
import { environmentOf, type CliEnvironment, type EnvironmentInvocation } from './environment';

/** The options of `obs plan` as commander parses them (plan.ts declares them). */
export interface PlanInvocation extends EnvironmentInvocation {
  out?: string;
  format: 'text' | 'json' | 'github';
  prune?: boolean;
  metricsDataset?: string[];
  /** The settings file the workspace's metrics datasets are read from (default: the current folder's). */
  settings?: string;
  allowUnknownColumns?: boolean;
  matchByName?: boolean;
  concurrency: number;
  maxBytes: number;
  /** With the noise diff of each change over this many days (--noise, --noise-days). */
  noise?: boolean;
  noiseDays: number;
}

/** What the plan is of: recorded in it, so that obs apply plans again with the same inputs. */
function inputsOf(
  paths: readonly string[],
  invocation: PlanInvocation,
  metricsDatasets: string[],
  environment: CliEnvironment | undefined,
): PlanInputs {
  return {
    scope: { kind: invocation.prune === true ? 'all' : 'files' },
    allowUnknownColumns: invocation.allowUnknownColumns === true,
    // An environment other than the home one finds each trigger by dataset and name: the files' ids are the home's.
    matchByName: invocation.matchByName === true || environment?.plan.overlay !== undefined,
    paths: paths.length === 0 ? ['.'] : [...paths],
    metricsDatasets,
    maxBytes: invocation.maxBytes,
    ...(environment === undefined ? {} : { environment: environment.record }),
  };
}

/** What a plan needs before it reads a file: the metrics datasets and a writable --out; undefined (said) without them. */
async function preflight(
  invocation: PlanInvocation,
  io: MainIo,
): Promise<{ metrics: string[]; out?: string } | undefined> {
  // Recorded in the plan: obs apply lints with the same datasets, whatever the settings say by then.
  const metrics = await metricsDatasetsOf(invocation.metricsDataset, invocation.settings, io);
  if (metrics === undefined) return undefined;
  const out = invocation.out === undefined ? undefined : resolve(io.cwd, invocation.out);
  const outProblem = out === undefined ? undefined : await outFileProblem(out);
  if (outProblem === undefined) return out === undefined ? { metrics } : { metrics, out };
  warn(io, `--out ${invocation.out ?? ''}: ${outProblem}; nothing was planned`);
  return undefined;
}

export async function runPlan(paths: readonly string[], invocation: PlanInvocation, given: MainIo): Promise<number> {
  const environment = await environmentOf(invocation, paths, given);
  if (!environment.ok) {
    warn(given, `${environment.reason}; nothing was planned`);
    return EXIT_TROUBLE;
  }
  // With --env the service is the one the environment's variables name.
  const io = environment.value === undefined ? given : { ...given, env: environment.value.serviceEnv };
  const env = io.env ?? {};
  const client = clientFromEnvironment(env);
  let made: Awaited<ReturnType<typeof planFiles>>;
  let out: string | undefined;
  let noise: NoiseDiffEntry[] | undefined;
  const days = invocation.noiseDays;
  try {
    const ready = await preflight(invocation, io);
    if (ready === undefined) return EXIT_TROUBLE;
    out = ready.out;
    const inputs = inputsOf(paths, invocation, ready.metrics, environment.value);
    made = await planFiles(client, inputs, targetOf(env), io, invocation.concurrency, environment.value?.plan);
    // Only read: the plan printed and saved is the one made above, whatever the diff finds.
    if (made !== undefined && invocation.noise === true)
      noise = await noiseDiffOf(made, cliNoiseSession(client, io), io, {
        mode: 'exact',
        days,
        maxBytes: invocation.maxBytes,
      });
  } finally {
    await client.close();
  }
  if (made === undefined) return EXIT_TROUBLE;
  const plan = made.plan;
  if (invocation.format === 'github') {
    const markdown = planMarkdown(plan);
    const withNoise = noise === undefined ? '' : `\n\n${noiseDiffMarkdown(noise, { days })}`;
    await writeGithubReport(io, {
      command: 'plan',
      annotations: [...unreadableAnnotations('plan', made.unreadable), ...planAnnotations(plan, made.texts)],
      summaryLine: planCountsText(plan),
      markdown: { ...markdown, details: `${markdown.details}${withNoise}` },
      fullReport: 'obs plan (its text report)',
    });
  } else if (invocation.format === 'json')
    writeData(
      io,
      `${visibleJson(noise === undefined ? plan : { ...plan, noise_diff: noiseDiffJson(noise, { days }) })}\n`,
    );
  else io.stdout(noise === undefined ? planText(plan) : `${planText(plan)}\n${noiseDiffText(noise, { days })}`);
  // Written whole, so obs apply never reads half a plan.
  const key = (env[ENV_CONFIG_KEY] ?? '').trim();
  const unsaved = out === undefined ? undefined : await writeOutFile(out, planFileText(plan, key));
  if (unsaved !== undefined) {
    warn(io, `--out ${invocation.out ?? ''}: the plan could not be saved: ${unsaved}`);
    return EXIT_TROUBLE;
  }
  if (noise !== undefined && io.signal?.aborted === true) {
    warn(io, 'stopped: the changes whose noise was not evaluated are listed as such');
    return EXIT_TROUBLE;
  }
  if (!made.complete || plan.blocked.length > 0) return EXIT_TROUBLE;
  const c = planCounts(plan);
  return c.create + c.update + c.delete > 0 ? EXIT_FOUND : EXIT_OK;
}
