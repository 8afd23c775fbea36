// `obs pull`: the service's triggers written as canonical files, <out>/<dataset>/<name>.trigger.json.
// A file that differs from the service's trigger is left alone unless --force. This module declares the
// command; the run (pullRun.ts, with the client) loads only when it runs.
import type { Command } from 'commander';
import { CliUsageError, parseConcurrency, type MainIo } from './io';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import type { PullInvocation } from './pullRun';

export function definePull(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('pull')
    .summary("write the service's triggers as canonical trigger files")
    .description(
      "Writes every trigger of the datasets named as a canonical trigger file (docs/TRIGGER-FILES.md): DIR/<dataset>/<name>.trigger.json. A file that already holds the trigger (its id) is updated where it lies; one that differs from the service's trigger is left alone unless --force.",
    )
    .allowExcessArguments()
    .option(
      '--dataset <slug>',
      'a dataset to pull; repeat for several (__all__: the environment-wide triggers)',
      (value: string, previous: string[] = []) => {
        const slug = value.trim();
        if (slug === '' || /[/?#\s]/.test(slug)) throw new CliUsageError('--dataset needs a dataset slug');
        return [...previous, slug];
      },
    )
    .option(
      '--all',
      'every trigger the service lists for the environment (GET /1/triggers/__all__), and those of every --dataset given',
    )
    .option('--out <dir>', 'the folder to write into', 'triggers')
    .option('--force', 'overwrite files that differ from the service')
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files).

Exit status: 0 every trigger written or unchanged; 1 files that differ from the service were left
alone (--force overwrites them); 2 a usage problem, a folder or file that could not be written, or the
service could not be read.
`,
    )
    .action(async (options: PullInvocation, command: Command) => {
      const extra = command.args;
      if (extra.length > 0)
        throw new CliUsageError(`pull takes no file names (got ${extra.join(' ')}); choose the folder with --out`);
      if ((options.dataset ?? []).length === 0 && options.all !== true)
        throw new CliUsageError('name the datasets to pull with --dataset SLUG, or pull everything with --all');
      if (options.out.trim() === '') throw new CliUsageError('--out needs a folder');
      const { runPull } = await import('./pullRun');
      finish(await runPull(options, io));
    });
}
