// `obs plan`: what applying the trigger files would change on the service, for a pull request. Reads the
// files and the service's lists, checks every trigger that would be written (the linter with the
// dataset's real columns, the team's recipients) and prints the plan; --out saves it for `obs apply`.
// Exit 0 nothing to change, 1 changes planned, 2 trouble or a trigger that cannot be planned. This module
// declares the command; the run (planRun.ts) loads when it runs.
import type { Command } from 'commander';
import { Option } from 'commander';
import { BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX, TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { parseConcurrency, wholeNumber, type MainIo } from './io';
import { maxBytesOption, settingsOption } from './lint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import { envOption, environmentsOption } from './environmentOptions';
import type { PlanInvocation } from './planRun';

export function definePlan(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('plan')
    .summary('show what applying the trigger files would change on the service')
    .description(
      `Compares each trigger file with the service as drift does and lists the changes an apply would make: a create for a file without an id, an update (each member, service value -> file value) for one that differs, and with --prune a delete for each service trigger of the files' datasets that no file holds. A trigger with a lint error, an unknown dataset, a column its dataset does not have or a recipient the team does not have is blocked: named with the reason, never written.

Burn alert files (*${BURN_ALERT_FILE_SUFFIX}) and definitions files (*${DEFINITIONS_FILE_SUFFIX}) are planned beside them, updates only (the service cannot create or delete them; --prune never touches them): a burn alert by its id, or with --match-by-name by its SLO's name, alert type and threshold; a dataset's definitions by its dataset, only the types that differ.

PATH: files, folders (every *${TRIGGER_FILE_SUFFIX}, *${BURN_ALERT_FILE_SUFFIX} and *${DEFINITIONS_FILE_SUFFIX} under them) or globs; a file named is taken by its name; default: the current folder.`,
    )
    .argument('[PATH...]')
    .option('--out <FILE>', 'save the plan as JSON for obs apply (its missing folders made); checked before planning')
    .addOption(
      new Option(
        '--format <format>',
        'output format: text, json or github (annotations, and the summary appended to GITHUB_STEP_SUMMARY)',
      )
        .choices(['text', 'json', 'github'])
        .default('text'),
    )
    .option('--prune', "also delete the service's triggers of the files' datasets that no file holds")
    .option('--metrics-dataset <SLUG>', 'a metrics dataset; repeat for several', (v: string, all: string[] = []) => [
      ...all,
      v,
    ])
    .addOption(settingsOption())
    .option(
      '--allow-unknown-columns',
      'do not block a trigger naming a column the service does not list (derived columns are not listed)',
    )
    .option(
      '--match-by-name',
      "match each trigger by dataset and name, not by the files' ids (files pulled from another environment); no created id is written back",
    )
    .option(
      '--noise',
      "also show what each change would have notified over the last days, with the service's version and the file's",
    )
    .option(
      '--noise-days <N>',
      'the days --noise evaluates, 1 to 7 (the service keeps 7 days of data)',
      (v: string) => wholeNumber('--noise-days', v, 1, 7),
      7,
    )
    .addOption(envOption())
    .addOption(environmentsOption())
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
with --env, by the two variables the environment's entry names. With --env each trigger is planned as that
environment sees it (its overrides, dataset slugs, saved queries and recipients mapped); an environment other
than the home one is matched by name, as with --match-by-name. The plan records the environment and the hash of
the environments file: obs apply refuses it for another environment or once that file changed.
The saved plan holds no key: only a salted hash of it, so that obs apply can refuse another environment, and
a seal (an HMAC keyed with the key) over the rest, so that obs apply refuses a plan edited after it was saved.
obs apply plans again with the same paths and options and writes only when the changes are the same.

With --noise each change's trigger is evaluated over the last days as the service would have evaluated it,
with the service's version and with the file's (and its test files run with each): about 3 query results
per version over 7 days, paced to the service's 10 a minute; a query both versions share is created once.
It changes neither the plan saved nor the exit status (Ctrl+C while it runs: exit 2).

Exit status: 0 nothing to change; 1 changes planned; 2 a usage problem, a file or the service could not
be read, or a trigger that would be written is blocked.
`,
    )
    .action(async (paths: string[], options: PlanInvocation) => {
      const { runPlan } = await import('./planRun');
      finish(await runPlan(paths, options, io));
    });
}
