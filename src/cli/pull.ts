// `obs pull`: the service's triggers written as canonical files, <out>/<dataset>/<name>.trigger.json.
// A file that differs from the service's trigger is left alone unless --force. This module declares the
// command; the run (pullRun.ts, with the client) loads only when it runs.
import type { Command } from 'commander';
import { CliUsageError, parseConcurrency, type MainIo } from './io';
import { ENV_BASE_URL, ENV_CONFIG_KEY } from './serviceEnv';
import type { PullInvocation, PullKind } from './pullRun';
import type { PullRecipients } from '../triggerFiles/pullRecipients';

const KINDS = ['triggers', 'burn-alerts', 'definitions'] as const;

/** `--kinds triggers,burn-alerts`: each kind known, each once, in the order of KINDS. */
function parseKinds(value: string): PullKind[] {
  const named = value.split(',').map((k) => k.trim());
  const unknown = named.filter((k) => !(KINDS as readonly string[]).includes(k));
  if (unknown.length > 0 || named.length === 0)
    throw new CliUsageError(`--kinds takes ${KINDS.join(', ')} (got ${value})`);
  return KINDS.filter((k) => named.includes(k));
}

/** `--recipients-by id|target`. */
function parseRecipientsBy(value: string): PullRecipients {
  if (value === 'id' || value === 'target') return value;
  throw new CliUsageError(`--recipients-by takes id or target (got ${value})`);
}

export function definePull(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('pull')
    .summary("write the service's triggers (burn alerts, dataset definitions) as canonical files")
    .description(
      "Writes every trigger of the datasets named as a canonical trigger file (docs/TRIGGER-FILES.md): DIR/<dataset>/<name>.trigger.json. A file that already holds the trigger (its id) is updated where it lies; one that differs from the service's trigger is left alone unless --force. With --kinds, also the burn alerts of every SLO of the datasets (<dataset>/<slo name>.<kind>.burn-alert.json) and each dataset's definitions (<dataset>.definitions.json), see docs/SLO-FILES.md.",
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
    .option('--out <dir>', 'the folder to write trigger files into', 'triggers')
    .option(
      '--kinds <list>',
      'what to pull, comma-separated: triggers, burn-alerts, definitions (default: triggers)',
      parseKinds,
      ['triggers'],
    )
    .option('--burn-alerts-out <dir>', 'the folder to write burn alert files into', 'burn-alerts')
    .option('--definitions-out <dir>', 'the folder to write dataset definitions files into', 'definitions')
    .option(
      '--recipients-by <form>',
      "how files name recipients: id (the team's id), or target (type and target, the same in every environment)",
      parseRecipientsBy,
      'id',
    )
    .option('--force', 'overwrite files that differ from the service')
    .option('--concurrency <n>', 'list calls made at once (1 to 16)', parseConcurrency, 4)
    .addHelpText(
      'after',
      `
The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files).

Exit status: 0 every file written or unchanged; 1 files that differ from the service were left
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
      for (const [flag, dir] of [
        ['--out', options.out],
        ['--burn-alerts-out', options.burnAlertsOut],
        ['--definitions-out', options.definitionsOut],
      ] as const)
        if (dir.trim() === '') throw new CliUsageError(`${flag} needs a folder`);
      const { runPull } = await import('./pullRun');
      finish(await runPull(options, io));
    });
}
