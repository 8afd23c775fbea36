// `obs drift`: each trigger file against the service's trigger of the same id (or dataset and name), each burn
// alert and definitions file against what it updates, for CI; with --applied, only what changed on the service
// since the files last applied (the gate before an apply; every kind of file). Exit 0 when everything is in sync,
// 1 when anything differs, 2 when a file or the service could not be read or compared. This module declares the
// command; the run (driftRun.ts) loads when it runs.
import type { Command } from 'commander';
import { BURN_ALERT_FILE_SUFFIX, DEFINITIONS_FILE_SUFFIX, TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { parseConcurrency, type MainIo } from './io';
import { formatOption, maxBytesOption } from './lint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import { envOption, environmentsOption } from './environmentOptions';
import type { DriftInvocation } from './driftRun';

export function defineDrift(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('drift')
    .summary('compare trigger, burn alert and definitions files with the service')
    .description(
      `Compares each trigger file with the service's trigger of the same id (or, for a file without an id, of the same dataset and name), member by member, after both are brought to the canonical form (docs/TRIGGER-FILES.md): in sync, differs (which members, service value -> file value), only local, or only on the service (a trigger of a dataset the files are about that no file holds). Each burn alert and definitions file is compared as obs plan compares it (docs/SLO-FILES.md), after the triggers: in sync, differs, or cannot be compared (why: the service has no such burn alert, say).

PATH: files, folders (every *${TRIGGER_FILE_SUFFIX}, *${BURN_ALERT_FILE_SUFFIX} and *${DEFINITIONS_FILE_SUFFIX} under them) or globs; default: the current folder. A file named is taken by its name.`,
    )
    .argument('[PATH...]')
    .addOption(formatOption())
    .option(
      '--match-by-name',
      "match each trigger by dataset and name and each burn alert by its SLO's name and type, not by the files' ids (files pulled from another environment)",
    )
    .option(
      '--applied <PATH>',
      'the files last applied to the service (a checkout of the commit applied); repeat for several. Reports only what changed on the service since, other than to what the files under PATH hold: triggers, and burn alerts and definitions (a difference the files under PATH now want is no change)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .addOption(envOption())
    .addOption(environmentsOption())
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files);
with --env, by the two variables the environment's entry names, and each trigger is compared as that
environment sees it (matched by name in an environment other than the home one). With --applied too, the
files last applied are read with the environments file found above them (else the one of PATH).

With --applied, drift is the gate a CI runs before it applies newer files: each trigger has three versions,
as last applied (the files under --applied), as wanted now (the files under PATH) and as the service holds
it. A trigger the service holds as either set of files says is in sync; any other is reported against the
files last applied: changed, deleted or created on the service since (in the UI, say), and an apply of the
files under PATH would overwrite it. The service's triggers of the datasets of both sets are compared.

Exit status: 0 everything in sync; 1 something differs (the file and member are named); 2 a usage
problem, a file that cannot be read or compared, or the service could not be read.
`,
    )
    .action(async (paths: string[], options: DriftInvocation) => {
      const { runDrift } = await import('./driftRun');
      finish(await runDrift(paths, options, io));
    });
}
