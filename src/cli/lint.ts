// `obs lint`: checks trigger files against the rules, for CI. This module declares the command; the
// linter and everything the run needs load only when it runs (lintRun.ts): obs starts without them.
import { Option, type Command } from 'commander';
import { DEFAULT_MAX_DIAGNOSTICS } from '../lint/defaults';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { DEFAULT_MAX_BYTES } from '../triggerFiles/regularFile';
import { envOption, environmentsOption } from './environmentOptions';
import { CliUsageError, wholeNumber, type MainIo } from './io';
import type { LintInvocation } from './lintRun';
import { METRICS_SETTING, WORKSPACE_SETTINGS } from './metricsHint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';

const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
type Format = (typeof FORMATS)[number];
/** Highest --max-problems: each problem shown costs memory and output. */
const MAX_PROBLEMS_LIMIT = 100_000;

export { CLI_METRICS_DATASET_HINT } from './metricsHint';

/** `--format`, shared by lint and drift. */
export function formatOption(): Option {
  return new Option(
    '--format <format>',
    'output format: text, json, sarif or github (annotations, and the summary appended to GITHUB_STEP_SUMMARY)',
  )
    .default('text')
    .argParser((value: string): Format => {
      if (!(FORMATS as readonly string[]).includes(value))
        throw new CliUsageError(`unknown format "${value}"; use text, json, sarif or github`);
      return value as Format;
    });
}

/** `--settings`, shared by lint and plan: where the workspace's metrics datasets are read. */
export function settingsOption(): Option {
  return new Option(
    '--settings <FILE>',
    `the editor's settings file whose ${METRICS_SETTING} names metrics datasets, with those of --metrics-dataset ` +
      `(default: ${WORKSPACE_SETTINGS} of the current folder, when it is there)`,
  );
}

/** `--max-bytes`, shared by lint and drift. */
export function maxBytesOption(): Option {
  return new Option(
    '--max-bytes <n>',
    'read at most N bytes of a file: a larger file, a device or a FIFO is not read (exit 2)',
  )
    .default(DEFAULT_MAX_BYTES, '64 MiB')
    .argParser((value: string) => {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n))
        throw new CliUsageError(`--max-bytes needs a whole number of bytes, 1 or more, got "${value}"`);
      return n;
    });
}

/** `--max-problems`, shared by lint and review. */
export function maxProblemsOption(): Option {
  return new Option(
    '--max-problems <n>',
    `report at most N problems per file, then one that counts the rest (1 to ${MAX_PROBLEMS_LIMIT})`,
  )
    .default(DEFAULT_MAX_DIAGNOSTICS)
    .argParser((value: string) => wholeNumber('--max-problems', value, 1, MAX_PROBLEMS_LIMIT));
}

export function defineLint(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('lint')
    .summary('check trigger files against the rules (docs/rules.md)')
    .description(
      'Checks trigger files (one trigger object, or an array of triggers as GET /1/triggers returns them) against the rules the service holds triggers to. Rules and examples: docs/rules.md.',
    )
    .usage('[options] <FILE|FOLDER|GLOB...>')
    .argument('[FILE|FOLDER|GLOB...]')
    .addOption(formatOption())
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a problem of this severity or a worse one is found')
        .choices(['error', 'warning'])
        .default('error'),
    )
    .option(
      '--metrics-dataset <slug>',
      'a metrics dataset; repeat for several (every other dataset is standard)',
      (value: string, previous: string[] = []) => {
        if (value.trim() === '') throw new CliUsageError('--metrics-dataset needs a dataset slug');
        return [...previous, value];
      },
    )
    .addOption(settingsOption())
    .addOption(maxProblemsOption())
    .addOption(maxBytesOption())
    .option(
      '--columns-from-service',
      `check the columns each query names against its dataset's columns, read from the service named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} (environment only)`,
    )
    .addOption(envOption('check the files'))
    .addOption(environmentsOption())
    .addHelpText(
      'after',
      `
With --env each trigger file is checked as that environment sees it (its overrides, dataset slugs, saved
queries and recipients mapped; docs/ENVIRONMENTS.md): a problem with a member the environment's override
sets is reported at that override in the environments file, any other at the member in the trigger file, and
an override naming no trigger of the files found in a folder at its place. With --columns-from-service the
service is the one the environment's variables name.
json is one array with {file, diagnostics} per file in the order given (and error for a file that
cannot be read).
A folder stands for every *${TRIGGER_FILE_SUFFIX} file under it, as for drift and plan. Globs are
expanded by obs (quote them): *, **, ?, [abc], {a,b}. node_modules and dot folders (.git) are skipped.
A path that names nothing (no such file or folder, a glob that matches no file, a folder without a
trigger file) stops obs before it lints anything.
Example: obs lint --format sarif triggers > lint.sarif

--format github writes one GitHub Actions annotation per problem (at most 10 a run, the last one
counting those left out) and the counts, and appends the report in Markdown to the file GITHUB_STEP_SUMMARY
names, when set.

Exit status: 0 no errors (warnings and infos allowed; with --fail-on warning, no warnings either), 1 a
file has an error (with --fail-on warning, an error or a warning), 2 a usage or I/O problem: a path that names nothing, a file that cannot be read (a device or FIFO, a file over
--max-bytes), or (with --columns-from-service) the service's columns could not be read.
`,
    )
    .action(async (files: string[], options: LintInvocation) => {
      if (files.length === 0) throw new CliUsageError('no files given; name trigger files, folders or globs');
      const { runLint } = await import('./lintRun');
      finish(await runLint(files, options, io));
    });
}
