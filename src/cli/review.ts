// `obs review`: one report of what a change to the trigger files would do, for a pull request: the lint of the
// files it touches, the plan of every file (what an apply after the merge would write), the changes' own apart
// from differences the service already had, and the trigger tests of what it touches. Markdown for a pull
// request comment, or JSON. This module declares the command; the run (reviewRun.ts) loads when it runs.
import type { Command } from 'commander';
import { Option } from 'commander';
import { TRIGGER_TEST_SUFFIX } from '../backtest/testPaths';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { CliUsageError, parseConcurrency, wholeNumber, type MainIo } from './io';
import { maxBytesOption, maxProblemsOption, settingsOption } from './lint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import { envOption, environmentsOption } from './environmentOptions';
import type { ReviewInvocation } from './reviewRun';

export function defineReview(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('review')
    .summary('report what a change to the trigger files would do, for a pull request')
    .description(
      `Lints the trigger files, plans every trigger file under the paths against the service as obs plan does (what an apply after the merge would write), evaluates what each of the change's own creates, updates and deletes would have notified over the last days with the service's version and the file's, and runs the trigger tests (*${TRIGGER_TEST_SUFFIX}) of the files; prints it all as one report, counts first. With --changed-since, only the files the change touches since that git ref are linted and tested (and the tests of the trigger files it touches), and the plan's changes are split into the change's own and those the service already differed by.

PATH: trigger files or folders (every *${TRIGGER_FILE_SUFFIX} under them); default: the current folder.`,
    )
    .argument('[PATH...]')
    .option(
      '--changed-since <REF>',
      'review only what changed since where the branch left this git ref (a branch, tag or commit)',
    )
    .addOption(
      new Option('--format <format>', 'output format: markdown or json')
        .choices(['markdown', 'json'])
        .default('markdown'),
    )
    .option('--json-out <FILE>', 'also save the whole report as JSON (its missing folders made)')
    .option(
      '--comment',
      'post the Markdown report to the pull request the GitHub Actions job runs for, editing its earlier one',
    )
    .option(
      '--comment-key <NAME>',
      'with --comment: which review of the pull request this is (staging, production...), one comment each (default: --env)',
      (v: string) => {
        if (!/^[A-Za-z0-9._-]{1,64}$/.test(v))
          throw new CliUsageError(`--comment-key needs letters, digits, ".", "_" or "-" (at most 64), got "${v}"`);
        return v;
      },
    )
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 for a lint finding of this severity or worse')
        .choices(['error', 'warning'])
        .default('error'),
    )
    .option(
      '--days <N>',
      'the days the noise diff evaluates, 1 to 7 (the service keeps 7 days of data)',
      (v: string) => wholeNumber('--days', v, 1, 7),
      7,
    )
    .option('--no-noise', 'leave out what each change would have notified (it creates query results, paced)')
    .option('--prune', "plan deletes of the service's triggers of the files' datasets that no file holds")
    .option('--match-by-name', "match each trigger by dataset and name, not by the files' ids")
    .option('--allow-unknown-columns', 'do not block a trigger naming a column the service does not list')
    .option('--metrics-dataset <SLUG>', 'a metrics dataset; repeat for several', (v: string, all: string[] = []) => [
      ...all,
      v,
    ])
    .addOption(settingsOption())
    .addOption(maxProblemsOption())
    .addOption(envOption('review'))
    .addOption(environmentsOption())
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `
--comment reads GITHUB_TOKEN (with pull-requests: write), GITHUB_REPOSITORY, GITHUB_API_URL and the pull request
from GITHUB_EVENT_PATH, as GitHub Actions sets them; a report with nothing to say creates no comment.

The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
a key that can only read is enough: review writes nothing to the service. With --env, the service is the one
the environment's two variables name, and each trigger file is linted, planned and tested as the environment sees
it (obs lint, plan and test --env); an edit of the environments file is the change's own change of every trigger
it makes the environment see otherwise. With --comment, the environment's name is the comment's key unless
--comment-key names another.

Exit status: 0 nothing to fix (planned changes are what a pull request is for); 1 a lint finding at --fail-on,
a trigger the plan blocks, or a test that fails or cannot be tested; 2 a usage problem, a file, git or the
service could not be read, or a test could not run.
`,
    )
    .action(async (paths: string[], options: ReviewInvocation) => {
      const { runReview } = await import('./reviewRun');
      finish(await runReview(paths, options, io));
    });
}
