// `obs-lint drift`: each trigger file against the service's trigger of the same id (or dataset and
// name), for CI. Exit 0 when everything is in sync, 1 when anything differs, 2 when a file or the
// service could not be read.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { errorText } from '../api/errors';
import { expandGlob, isGlob } from '../lint/glob';
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
import { CliUsageError, EXIT_DIFFERS, EXIT_OK, EXIT_TROUBLE, parseConcurrency, type MainIo } from './io';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';

export const DRIFT_USAGE = `Usage: obs-lint drift [--format text|json|sarif] [PATH...]

Compares each trigger file with the service's trigger of the same id (or, for a file without an id,
of the same dataset and name), member by member, after both are brought to the canonical form
(docs/TRIGGER-FILES.md): in sync, differs (which members, service value -> file value), only local,
or only on the service (a trigger of a dataset the files are about that no file holds).

PATH: trigger files, folders (every *${TRIGGER_FILE_SUFFIX} under them) or globs; default: the current folder.

Options:
  --format text|json|sarif   output format (default: text)
  --concurrency N            list calls made at once (1 to 16, default 4)
  -h, --help                 show this help

The service is the one named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} in the environment (never flags or files).

Exit status: 0 everything in sync; 1 something differs (the file and member are named); 2 a usage
problem, a file that cannot be read or compared, or the service could not be read.
`;

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];

function parse(argv: string[]): { format: Format; paths: string[]; concurrency: number } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', default: 'text' },
        concurrency: { type: 'string', default: '4' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new CliUsageError(errorText(e));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (!(FORMATS as readonly string[]).includes(values.format)) throw new CliUsageError(`unknown format "${values.format}"; use text, json or sarif`);
  const concurrency = parseConcurrency(values.concurrency);
  const paths = positionals.slice(1);
  return { format: values.format as Format, paths: paths.length === 0 ? ['.'] : paths, concurrency };
}

/** The trigger files the paths name, each once, in order: files as given, folders and globs expanded sorted. */
export function driftFiles(paths: readonly string[], cwd: string): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const add = (f: string) => {
    const key = resolve(cwd, f);
    if (!seen.has(key)) {
      seen.add(key);
      files.push(f);
    }
  };
  for (const p of paths) {
    const full = resolve(cwd, p);
    if (existsSync(full) && statSync(full).isDirectory()) {
      const base = p.replace(/[\\/]+$/, '');
      const found = expandGlob(`${base === '.' ? '' : `${base}/`}**/*${TRIGGER_FILE_SUFFIX}`, cwd);
      if (found.length === 0) problems.push(`no *${TRIGGER_FILE_SUFFIX} file under ${p}`);
      found.forEach(add);
    } else if (isGlob(p) && !existsSync(full)) {
      const found = expandGlob(p, cwd);
      if (found.length === 0) problems.push(`no file matches ${p}`);
      found.forEach(add);
    } else {
      add(p);
    }
  }
  return { files, problems };
}

export async function runDrift(argv: string[], io: MainIo): Promise<number> {
  const invocation = parse(argv);
  if (invocation === 'help') {
    io.stdout(DRIFT_USAGE);
    return EXIT_OK;
  }
  const { files, problems } = driftFiles(invocation.paths, io.cwd);
  for (const p of problems) io.stderr(`obs-lint: ${p}\n`);
  const texts = new Map<string, string>();
  const read = new Map<string, LocalFile>();
  let unreadable = false;
  for (const file of files) {
    try {
      const text = await readFile(resolve(io.cwd, file), 'utf8');
      texts.set(file, text);
      read.set(file, readTriggerFile(text));
    } catch (e) {
      io.stderr(`obs-lint: cannot read ${file}: ${errorText(e)}\n`);
      unreadable = true;
    }
  }
  const client = clientFromEnvironment(io.env);
  let run: DriftRun;
  let serviceFailed = false;
  try {
    const index = new ServiceIndex();
    const listings = await listDatasets(client, [...datasetsOfFiles(read.values())].sort(), new PacedPool({ concurrency: invocation.concurrency }), io.signal);
    for (const [dataset, listing] of listings) {
      index.add(dataset, listing);
      if (listing.state === 'failed') {
        serviceFailed = true;
        io.stderr(`obs-lint: could not list the triggers of ${dataset}: ${listing.message}\n`);
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
      io.stdout(`${JSON.stringify(driftSarif(run), null, 2)}\n`);
      break;
    default:
      io.stdout(driftText(run));
  }
  if (unreadable || serviceFailed || problems.length > 0 || run.counts.unknown > 0) return EXIT_TROUBLE;
  const c = run.counts;
  return c.differs + c.localOnly + c.serviceOnly > 0 ? EXIT_DIFFERS : EXIT_OK;
}
