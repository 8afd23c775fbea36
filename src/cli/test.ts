// `obs test`: runs trigger test files (`*.trigger-test.json`) against the service: each expectation over
// its past window, evaluated as the service would have evaluated the trigger, from query results paced by
// the service's limit of 10 a minute (each query and window run once, whatever the expectations sharing
// it), or from the test file's recording where it holds the window (no service needed); `--record` writes
// the recordings. Text, JUnit XML or GitHub annotations (github/report.ts). Exit 0 every expectation passed, 1 one
// failed or is not testable (unless allowed), 2 trouble.
// This module declares the command; the run (testRun.ts, with the backtest engine and the client) loads
// when it runs.
import type { Command } from 'commander';
import { Option } from 'commander';
import { TRIGGER_RECORDING_SUFFIX, TRIGGER_TEST_SUFFIX } from '../backtest/testPaths';
import { CliUsageError, type MainIo } from './io';
import { envOption, environmentsOption } from './environmentOptions';
import { maxBytesOption } from './lint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import type { TestInvocation } from './testRun';

export { onceEachWait } from './testWaits';

export function defineTest(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('test')
    .summary('run the trigger test files against the service')
    .description(
      `Evaluates each expectation of the trigger test files over its past window, as the service would have evaluated the trigger then (its time_range, threshold per group, exceeded_limit, alert type, schedule, baseline and havings), from the service's query results: "fires" between two times, "does-not-fire" between two times, "at-most" N notifications. A window older than the 7 days the service keeps is NOT TESTABLE, never passed, unless the test file's recording (*${TRIGGER_RECORDING_SUFFIX}, beside it) holds it: an expectation whose window the recording holds runs from it, with no query and no service. docs/TRIGGER-TESTS.md describes both formats.

PATH: test files, folders (every *${TRIGGER_TEST_SUFFIX} under them) or globs; default: the current folder.`,
    )
    .argument('[PATH...]')
    .addOption(
      new Option(
        '--reporter <format>',
        'report format: text, junit or github (annotations, and the summary appended to GITHUB_STEP_SUMMARY)',
      )
        .choices(['text', 'junit', 'github'])
        .default('text'),
    )
    .option(
      '--out <FILE>',
      'write the report to FILE (whole, or not at all; its missing folders made), checked before any test runs; the text report still goes to the standard output (not with --reporter github)',
    )
    .option(
      '--record',
      `record the windows of the expectations (those with times in UTC, over at least 2 minutes ago) that the recording does not hold yet, from the service, into each test file's *${TRIGGER_RECORDING_SUFFIX}`,
    )
    .option(
      '--force',
      'with --record: replace a recorded window whose content differs (another query), or a recording that is not valid',
    )
    .option(
      '--allow-not-testable',
      'skip an expectation whose window is older than the service keeps (JUnit <skipped>, exit 0) instead of failing it',
    )
    .addOption(maxBytesOption())
    .addOption(envOption('test'))
    .addOption(environmentsOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
with --env, by the two variables the environment's entry names, and each trigger is tested as that environment
sees it (docs/ENVIRONMENTS.md): in an environment other than the home one against its service alone, since the
recordings hold the home's query results (--record is refused there). With neither set, only the recordings are used: an expectation no recording holds is NOT TESTABLE ("needs the
service"). A recording never changes unless --record adds a window to it; one whose content would change
otherwise is not written without --force.
Relative times ("now-2h") are read at the start of the run, in whole minutes. The service creates at
most 10 query results a minute: a long run waits, saying so on the standard error.

Exit status: 0 every expectation passed; 1 one failed or is not testable (its window is older than the data
the service keeps, or it needs the service and none is configured; with --allow-not-testable it is skipped
instead); 2 a usage problem, a path refused, a file that cannot be read or is not a valid test file, an
expectation that could not be run (the service, its query, a recording of another query), a recording
--record could not write, or an interrupt. The JUnit report counts the same: a failure for each 1, an error
for each 2.
`,
    )
    .action(async (paths: string[], options: TestInvocation) => {
      if (options.reporter === 'github' && options.out !== undefined)
        throw new CliUsageError(
          '--out goes with --reporter text or junit: --reporter github writes its annotations to the standard output',
        );
      if (options.force === true && options.record !== true)
        throw new CliUsageError('--force goes with --record: it lets a recording whose content differs be replaced');
      const { runTests } = await import('./testRun');
      finish(await runTests(paths, options, io));
    });
}
