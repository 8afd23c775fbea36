// `obs drift`: each trigger file against the service's trigger of the same id (or dataset and
// name), for CI. Exit 0 when everything is in sync, 1 when anything differs, 2 when a file or the
// service could not be read.
import type { Command } from 'commander';
import { errorText } from '../api/errors';
import {
  datasetsOfFiles,
  driftCounts,
  driftOfFile,
  listDatasets,
  onlyOnService,
  PacedPool,
  readTriggerFile,
  ServiceIndex,
  TRIGGER_FILE_SUFFIX,
  type LocalFile,
} from '../triggerFiles';
import { driftJson, driftSarif, driftText, type DriftRun } from './driftReport';
import { expandPaths } from './files';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, parseConcurrency, warn, type MainIo } from './io';
import { formatOption, maxBytesOption } from './lint';
import { readRegularFile, ReadProblem } from './read';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
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
    .action(async (paths: string[], options: DriftInvocation) => finish(await runDrift(paths.length === 0 ? ['.'] : paths, options, io)));
}

/** Each file's text and what it holds; false when one could not be read (said on stderr). */
async function readFiles(files: readonly string[], io: MainIo, maxBytes: number): Promise<{ texts: Map<string, string>; read: Map<string, LocalFile>; ok: boolean }> {
  const texts = new Map<string, string>();
  const read = new Map<string, LocalFile>();
  let ok = true;
  for (const file of files) {
    try {
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await readRegularFile(file, io.cwd, maxBytes));
      texts.set(file, text);
      read.set(file, readTriggerFile(text));
    } catch (e) {
      warn(io, `cannot read ${file}: ${e instanceof ReadProblem ? e.message : errorText(e)}`);
      ok = false;
    }
  }
  return { texts, read, ok };
}

async function runDrift(paths: readonly string[], invocation: DriftInvocation, io: MainIo): Promise<number> {
  const { files, problems } = expandPaths(paths, io.cwd, TRIGGER_FILE_SUFFIX);
  for (const p of problems) warn(io, p);
  const { texts, read, ok } = await readFiles(files, io, invocation.maxBytes);
  const client = clientFromEnvironment(io.env ?? {});
  let run: DriftRun;
  let serviceFailed = false;
  try {
    const index = new ServiceIndex();
    const listings = await listDatasets(client, [...datasetsOfFiles(read.values())].sort(), new PacedPool({ concurrency: invocation.concurrency }), io.signal);
    for (const [dataset, listing] of listings) {
      index.add(dataset, listing);
      if (listing.state === 'failed') {
        serviceFailed = true;
        warn(io, `could not list the triggers of ${dataset}: ${listing.message}`);
      }
    }
    const drift = [...read].map(([file, r]) => driftOfFile(file, r, index));
    const only = onlyOnService(drift, index);
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
  if (!ok || serviceFailed || problems.length > 0 || run.counts.unknown > 0) return EXIT_TROUBLE;
  const c = run.counts;
  return c.differs + c.localOnly + c.serviceOnly > 0 ? EXIT_FOUND : EXIT_OK;
}
