// `obs pull`: the service's triggers written as canonical files, <out>/<dataset>/<name>.trigger.json.
// A file that differs from the service's trigger is left alone unless --force.
import type { Command } from 'commander';
import { dirname, join, resolve } from 'node:path';
import { applyPull, collectTriggers, PacedPool, planPull, pullSummary, scanExisting, type PullAction, type PullReport } from '../triggerFiles';
import { nodeFileSystem } from '../triggerFiles/nodeFs';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { CliUsageError, EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, parseConcurrency, warn, type MainIo } from './io';
import { checkOutFolder, makeFolder, OutFolderError } from './outFolder';
import { visible } from './visible';

interface PullInvocation {
  dataset?: string[];
  all?: boolean;
  out: string;
  force?: boolean;
  concurrency: number;
}

export function definePull(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('pull')
    .summary("write the service's triggers as canonical trigger files")
    .description(
      "Writes every trigger of the datasets named as a canonical trigger file (docs/TRIGGER-FILES.md): DIR/<dataset>/<name>.trigger.json. A file that already holds the trigger (its id) is updated where it lies; one that differs from the service's trigger is left alone unless --force.",
    )
    .allowExcessArguments()
    .option('--dataset <slug>', 'a dataset to pull; repeat for several (__all__: the environment-wide triggers)', (value: string, previous: string[] = []) => {
      const slug = value.trim();
      if (slug === '' || /[/?#\s]/.test(slug)) throw new CliUsageError('--dataset needs a dataset slug');
      return [...previous, slug];
    })
    .option('--all', 'every trigger the service lists for the environment (GET /1/triggers/__all__), and those of every --dataset given')
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
      if (extra.length > 0) throw new CliUsageError(`pull takes no file names (got ${extra.join(' ')}); choose the folder with --out`);
      if ((options.dataset ?? []).length === 0 && options.all !== true) throw new CliUsageError('name the datasets to pull with --dataset SLUG, or pull everything with --all');
      if (options.out.trim() === '') throw new CliUsageError('--out needs a folder');
      finish(await runPull(options, io));
    });
}

function printReport(io: MainIo, out: string, r: PullReport): void {
  const shown = (p: string) => `${out.replace(/[\\/]+$/, '')}/${p}`;
  const line = (text: string) => io.stdout(`${visible(text)}\n`);
  for (const p of r.created) line(`wrote ${shown(p)} (new)`);
  for (const p of r.updated) line(`wrote ${shown(p)}`);
  for (const s of r.skipped) line(`skipped ${shown(s.path)}: ${s.reason}${s.reason === 'it differs from the service' ? ' (--force overwrites it)' : ''}`);
  for (const f of r.failed) warn(io, `could not write ${shown(f.path)}: ${f.message}`);
  line(`${pullSummary(r)}${r.cancelled ? ' (cancelled)' : ''}`);
}

/** Makes the folders the new files go into, before any is written (so a folder that cannot be made leaves every file as it was). */
async function makeFolders(root: string, plan: readonly PullAction[]): Promise<void> {
  const folders = new Set(plan.filter((a) => a.kind === 'create').map((a) => dirname(join(root, a.path))));
  for (const folder of [...folders].sort()) await makeFolder(folder);
}

/** Runs a step on the --out folder; false (said on stderr) when the folder cannot be made. */
async function folderReady(io: MainIo, out: string, step: () => Promise<void>): Promise<boolean> {
  try {
    await step();
    return true;
  } catch (e) {
    if (!(e instanceof OutFolderError)) throw e;
    warn(io, `--out ${out}: ${e.message}; nothing was written`);
    return false;
  }
}

async function runPull(invocation: PullInvocation, io: MainIo): Promise<number> {
  const client = clientFromEnvironment(io.env ?? {});
  try {
    const root = resolve(io.cwd, invocation.out);
    // Before asking the service anything: a folder that cannot be made fails the pull at once.
    if (!(await folderReady(io, invocation.out, () => checkOutFolder(root)))) return EXIT_TROUBLE;
    const pool = new PacedPool({ concurrency: invocation.concurrency, onPause: (ms) => warn(io, `waiting ${Math.ceil(ms / 1000)} s for the service's rate limit`) });
    const collected = await collectTriggers(client, { datasets: invocation.dataset ?? [], everything: invocation.all === true }, pool, io.signal, (dataset, listing) => {
      if (listing.state === 'listed') warn(io, `listed ${listing.triggers.length} trigger${listing.triggers.length === 1 ? '' : 's'} of ${dataset === '__all__' ? 'the environment' : dataset}`);
    });
    for (const f of collected.failures) warn(io, `could not list the triggers of ${f.dataset}: ${f.message}`);
    const plan = planPull(collected.items, await scanExisting(nodeFileSystem, root, collected.items, io.signal));
    if (!(await folderReady(io, invocation.out, () => makeFolders(root, plan)))) return EXIT_TROUBLE;
    const report = await applyPull(nodeFileSystem, root, plan, {
      approve: (updates) => Promise.resolve(new Set(invocation.force === true ? updates.map((u) => u.path) : [])),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    printReport(io, invocation.out, report);
    if (collected.failures.length > 0 || report.failed.length > 0 || report.cancelled) return EXIT_TROUBLE;
    return report.skipped.length > 0 ? EXIT_FOUND : EXIT_OK;
  } finally {
    await client.close();
  }
}
