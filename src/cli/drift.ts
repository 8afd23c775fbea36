// `obs drift`: each trigger file against the service's trigger of the same id (or dataset and
// name), for CI. Exit 0 when everything is in sync, 1 when anything differs, 2 when a file or the
// service could not be read.
import type { Command } from 'commander';
import { driftCounts, driftOfFile, onlyOnService, TRIGGER_FILE_SUFFIX } from '../triggerFiles';
import { driftJson, driftSarif, driftText, type DriftRun } from './driftReport';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, parseConcurrency, type MainIo } from './io';
import { formatOption, maxBytesOption } from './lint';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { readTriggerFiles, serviceIndexFor } from './triggerInputs';
import { visibleJson } from './visible';

interface DriftInvocation {
  format: 'text' | 'json' | 'sarif';
  concurrency: number;
  maxBytes: number;
}

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
    .action(async (paths: string[], options: DriftInvocation) => finish(await runDrift(paths, options, io)));
}

async function runDrift(paths: readonly string[], invocation: DriftInvocation, io: MainIo): Promise<number> {
  const { texts, read, ok } = await readTriggerFiles(paths, io, invocation.maxBytes);
  const client = clientFromEnvironment(io.env ?? {});
  let run: DriftRun;
  let serviceOk: boolean;
  try {
    const found = await serviceIndexFor(client, read.values(), invocation.concurrency, io);
    serviceOk = found.ok;
    const drift = [...read].map(([file, r]) => driftOfFile(file, r, found.index));
    const only = onlyOnService(drift, found.index);
    run = { files: drift, onlyOnService: only, counts: driftCounts(drift, only), texts };
  } finally {
    await client.close();
  }
  switch (invocation.format) {
    case 'json':
      io.stdout(driftJson(run));
      break;
    case 'sarif':
      io.stdout(`${visibleJson(driftSarif(run))}\n`);
      break;
    default:
      io.stdout(driftText(run));
  }
  if (!ok || !serviceOk || run.counts.unknown > 0) return EXIT_TROUBLE;
  const c = run.counts;
  return c.differs + c.localOnly + c.serviceOnly > 0 ? EXIT_FOUND : EXIT_OK;
}
