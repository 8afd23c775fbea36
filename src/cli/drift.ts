// `obs drift`: each trigger file against the service's trigger of the same id (or dataset and
// name), for CI. Exit 0 when everything is in sync, 1 when anything differs, 2 when a file or the
// service could not be read. This module declares the command; the run (driftRun.ts) loads when it runs.
import type { Command } from 'commander';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { parseConcurrency, type MainIo } from './io';
import { formatOption, maxBytesOption } from './lint';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import type { DriftInvocation } from './driftRun';

export function defineDrift(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('drift')
    .summary("compare trigger files with the service's triggers")
    .description(
      `Compares each trigger file with the service's trigger of the same id (or, for a file without an id, of the same dataset and name), member by member, after both are brought to the canonical form (docs/TRIGGER-FILES.md): in sync, differs (which members, service value -> file value), only local, or only on the service (a trigger of a dataset the files are about that no file holds).

PATH: trigger files, folders (every *${TRIGGER_FILE_SUFFIX} under them) or globs; default: the current folder.`,
    )
    .argument('[PATH...]')
    .addOption(formatOption())
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addOption(maxBytesOption())
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files).

Exit status: 0 everything in sync; 1 something differs (the file and member are named); 2 a usage
problem, a file that cannot be read or compared, or the service could not be read.
`,
    )
    .action(async (paths: string[], options: DriftInvocation) => {
      const { runDrift } = await import('./driftRun');
      finish(await runDrift(paths, options, io));
    });
}
