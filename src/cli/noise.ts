// `obs noise`: how many notifications each trigger file's trigger would have sent over the last days, as the
// service would have evaluated it (counted as `obs test` counts an at-most expectation over the same window),
// its resolves and flaps, noisiest first, and for one over the budget the smallest change that would have kept
// it within (checked against the windows its test files say it must fire in). Exit 0 every trigger within the
// budget, 1 one over it, 2 trouble. This module declares the command; the run (noiseRun.ts) loads when it runs.
import type { Command } from 'commander';
import { Option } from 'commander';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { TRIGGER_TEST_SUFFIX } from '../backtest/testPaths';
import { CliUsageError, wholeNumber, type MainIo } from './io';
import { envOption, environmentsOption } from './environmentOptions';
import { maxBytesOption } from './lint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import type { NoiseInvocation } from './noiseRun';

const NOISE_FORMATS = ['text', 'json', 'markdown'] as const;

export function defineNoise(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('noise')
    .summary('rank the trigger files by the notifications they would have sent')
    .description(
      `Evaluates each trigger file's trigger over the last days as the service would have (its time_range, threshold per group, exceeded_limit, alert type, schedule, baseline and havings), from the service's query results, and counts what it would have sent: notifications (on_change: one per firing begun in the window; on_true: one per evaluation firing), resolves and flaps (fired again within an hour of resolving), noisiest first. A firing already under way when the window opens sent its notification before it: it is not counted, as obs test's "at-most" does not count it. For a trigger over the budget, the smallest threshold or exceeded_limit that would have kept it within, while it still fires in every window its test files (*${TRIGGER_TEST_SUFFIX} under PATH) say it must fire in.

PATH: trigger files, folders (every *${TRIGGER_FILE_SUFFIX} under them) or globs; default: the current folder.`,
    )
    .argument('[PATH...]')
    .option(
      '--days <N>',
      'the days evaluated, 1 to 7 (the service keeps 7 days of data)',
      (v: string) => wholeNumber('--days', v, 1, 7),
      7,
    )
    .option(
      '--budget <N>',
      'the notifications a trigger may send in those days',
      (v: string) => wholeNumber('--budget', v, 0, 1_000_000),
      7,
    )
    .addOption(
      new Option('--format <format>', 'output format: text, json or markdown')
        .default('text')
        .argParser((value: string) => {
          if (!(NOISE_FORMATS as readonly string[]).includes(value))
            throw new CliUsageError(`unknown format "${value}"; use text, json or markdown`);
          return value;
        }),
    )
    .addOption(maxBytesOption())
    .addOption(envOption('count'))
    .addOption(environmentsOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
with --env, by the two variables the environment's entry names, and each trigger is evaluated as that
environment sees it (its overrides, dataset slugs and saved queries mapped; docs/ENVIRONMENTS.md).
The window ends at the last quarter-hour with complete data, so a run again within the quarter asks for the
same queries. Each trigger takes about 3 query results over 7 days; the service creates at most 10 a minute:
a long run waits, saying so on the standard error. A query result is created once per run, whoever needs it.

Exit status: 0 every trigger within the budget; 1 one over it; 2 a usage problem, a file that cannot be read,
or a trigger that could not be evaluated (the service, its query, a schedule with too few evaluations).
`,
    )
    .action(async (paths: string[], options: NoiseInvocation) => {
      const { runNoise } = await import('./noiseRun');
      finish(await runNoise(paths, options, io));
    });
}
