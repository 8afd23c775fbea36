// `obs-lint pull`: the service's triggers written as canonical files, <out>/<dataset>/<name>.trigger.json.
// A file that differs from the service's trigger is left alone unless --force.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorText } from '../api/errors';
import { applyPull, collectTriggers, PacedPool, planPull, pullSummary, scanExisting, type PullReport } from '../triggerFiles';
import { nodeFileSystem } from '../triggerFiles/nodeFs';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { CliUsageError, EXIT_DIFFERS, EXIT_OK, EXIT_TROUBLE, parseConcurrency, type MainIo } from './io';

export const PULL_USAGE = `Usage: obs-lint pull [--dataset SLUG ...|--all] [--out DIR] [--force]

Writes every trigger of the datasets named as a canonical trigger file (docs/TRIGGER-FILES.md):
DIR/<dataset>/<name>.trigger.json. A file that already holds the trigger (its id) is updated where it
lies; one that differs from the service's trigger is left alone unless --force.

Options:
  --dataset SLUG   a dataset to pull; repeat for several (__all__: the environment-wide triggers)
  --all            every trigger the service lists for the environment (GET /1/triggers/__all__),
                   and those of every --dataset given
  --out DIR        the folder to write into (default: triggers)
  --force          overwrite files that differ from the service
  --concurrency N  list calls made at once (1 to 16, default 4)
  -h, --help       show this help

The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files).

Exit status: 0 every trigger written or unchanged; 1 files that differ from the service were left
alone (--force overwrites them); 2 a usage problem, a file that could not be written, or the service
could not be read.
`;

interface PullInvocation {
  datasets: string[];
  all: boolean;
  out: string;
  force: boolean;
  concurrency: number;
}

function parse(argv: string[]): PullInvocation | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        dataset: { type: 'string', multiple: true, default: [] },
        all: { type: 'boolean', default: false },
        out: { type: 'string', default: 'triggers' },
        force: { type: 'boolean', default: false },
        concurrency: { type: 'string', default: '4' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new CliUsageError(errorText(e));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const extra = positionals.slice(1);
  if (extra.length > 0) throw new CliUsageError(`pull takes no file names (got ${extra.join(' ')}); choose the folder with --out`);
  const datasets = values.dataset.map((d) => d.trim());
  if (datasets.some((d) => d === '' || /[/?#\s]/.test(d))) throw new CliUsageError('--dataset needs a dataset slug');
  if (datasets.length === 0 && !values.all) throw new CliUsageError('name the datasets to pull with --dataset SLUG, or pull everything with --all');
  if (values.out.trim() === '') throw new CliUsageError('--out needs a folder');
  const concurrency = parseConcurrency(values.concurrency);
  return { datasets, all: values.all, out: values.out, force: values.force, concurrency };
}

function printReport(io: MainIo, out: string, r: PullReport): void {
  const shown = (p: string) => `${out.replace(/[\\/]+$/, '')}/${p}`;
  for (const p of r.created) io.stdout(`wrote ${shown(p)} (new)\n`);
  for (const p of r.updated) io.stdout(`wrote ${shown(p)}\n`);
  for (const s of r.skipped) io.stdout(`skipped ${shown(s.path)}: ${s.reason}${s.reason === 'it differs from the service' ? ' (--force overwrites it)' : ''}\n`);
  for (const f of r.failed) io.stderr(`obs-lint: could not write ${shown(f.path)}: ${f.message}\n`);
  io.stdout(`${pullSummary(r)}${r.cancelled ? ' (cancelled)' : ''}\n`);
}

export async function runPull(argv: string[], io: MainIo): Promise<number> {
  const invocation = parse(argv);
  if (invocation === 'help') {
    io.stdout(PULL_USAGE);
    return EXIT_OK;
  }
  const client = clientFromEnvironment(io.env);
  try {
    const pool = new PacedPool({ concurrency: invocation.concurrency, onPause: (ms) => io.stderr(`obs-lint: waiting ${Math.ceil(ms / 1000)} s for the service's rate limit\n`) });
    const collected = await collectTriggers(client, { datasets: invocation.datasets, everything: invocation.all }, pool, io.signal, (dataset, listing) => {
      if (listing.state === 'listed') io.stderr(`obs-lint: listed ${listing.triggers.length} trigger${listing.triggers.length === 1 ? '' : 's'} of ${dataset === '__all__' ? 'the environment' : dataset}\n`);
    });
    for (const f of collected.failures) io.stderr(`obs-lint: could not list the triggers of ${f.dataset}: ${f.message}\n`);
    const root = resolve(io.cwd, invocation.out);
    const plan = planPull(collected.items, await scanExisting(nodeFileSystem, root, collected.items, io.signal));
    const report = await applyPull(nodeFileSystem, root, plan, {
      approve: (updates) => Promise.resolve(new Set(invocation.force ? updates.map((u) => u.path) : [])),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    printReport(io, invocation.out, report);
    if (collected.failures.length > 0 || report.failed.length > 0 || report.cancelled) return EXIT_TROUBLE;
    return report.skipped.length > 0 ? EXIT_DIFFERS : EXIT_OK;
  } finally {
    await client.close();
  }
}
