// `obs lint`: checks trigger files against the rules, for CI.
import { Option, type Command } from 'commander';
import { errorText } from '../api/errors';
import { decodeTriggerFile, DEFAULT_MAX_DIAGNOSTICS, lintReport, type DatasetColumns, type LintOptions, type MetricsDatasetHint } from '../lint';
import { datasetsNamed } from '../lint/columns';
import { readColumns } from './columns';
import { expandTargets } from './files';
import { CliUsageError, EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, wholeNumber, type MainIo } from './io';
import { toJson, toText } from './lintReport';
import { toSarif, type FileReport } from './lintSarif';
import { DEFAULT_MAX_BYTES, readCommandLineFile, ReadProblem } from './read';
import { clientFromEnvironment, ENV_BASE_URL, ENV_CONFIG_KEY } from './service';
import { visibleJson } from './visible';

const FORMATS = ['text', 'json', 'sarif'] as const;
type Format = (typeof FORMATS)[number];
/** Highest --max-problems: each problem shown costs memory and output. */
const MAX_PROBLEMS_LIMIT = 100_000;

/** How obs lint's messages tell to declare a metrics dataset: its flag, and the editor setting that feeds the same option. */
export const CLI_METRICS_DATASET_HINT: MetricsDatasetHint = (slug) =>
  `name it with --metrics-dataset${slug === undefined ? '' : ` ${slug}`} (editor setting obs.metricsDatasets)`;

/** `--format`, shared by lint and drift. */
export function formatOption(): Option {
  return new Option('--format <format>', 'output format: text, json or sarif').default('text').argParser((value: string): Format => {
    if (!(FORMATS as readonly string[]).includes(value)) throw new CliUsageError(`unknown format "${value}"; use text, json or sarif`);
    return value as Format;
  });
}

/** `--max-bytes`, shared by lint and drift. */
export function maxBytesOption(): Option {
  return new Option('--max-bytes <n>', 'read at most N bytes of a file: a larger file, a device or a FIFO is not read (exit 2)')
    .default(DEFAULT_MAX_BYTES, '64 MiB')
    .argParser((value: string) => {
      const n = Number(value);
      if (!/^\d+$/.test(value) || n < 1 || !Number.isSafeInteger(n)) throw new CliUsageError(`--max-bytes needs a whole number of bytes, 1 or more, got "${value}"`);
      return n;
    });
}

interface LintInvocation {
  format: Format;
  metricsDataset?: string[];
  maxProblems: number;
  maxBytes: number;
  columnsFromService?: boolean;
}

export function defineLint(parent: Command, io: MainIo, finish: (code: number) => void): void {
  parent
    .command('lint')
    .summary('check trigger files against the rules (docs/rules.md)')
    .description(
      'Checks trigger files (one trigger object, or an array of triggers as GET /1/triggers returns them) against the rules of spec 2.6 and 2.6.1. Rules and examples: docs/rules.md.',
    )
    .usage('[options] <FILE|GLOB...>')
    .argument('[FILE|GLOB...]')
    .addOption(formatOption())
    .option('--metrics-dataset <slug>', 'a metrics dataset; repeat for several (every other dataset is standard)', (value: string, previous: string[] = []) => {
      if (value.trim() === '') throw new CliUsageError('--metrics-dataset needs a dataset slug');
      return [...previous, value];
    })
    .addOption(
      new Option('--max-problems <n>', `report at most N problems per file, then one that counts the rest (1 to ${MAX_PROBLEMS_LIMIT})`)
        .default(DEFAULT_MAX_DIAGNOSTICS)
        .argParser((value: string) => wholeNumber('--max-problems', value, 1, MAX_PROBLEMS_LIMIT)),
    )
    .addOption(maxBytesOption())
    .option('--columns-from-service', `check the columns each query names against its dataset's columns, read from the service named by ${ENV_BASE_URL} and ${ENV_CONFIG_KEY} (environment only)`)
    .addHelpText(
      'after',
      `
json is one array with {file, diagnostics} per file in the order given (and error for a file that
cannot be read).
Globs are expanded by obs (quote them): *, **, ?, [abc], {a,b}; node_modules and .git are skipped.
Example: obs lint --format sarif '**/*.trigger.json' > lint.sarif

Exit status: 0 no errors (warnings and infos allowed), 1 a file has an error, 2 a usage or I/O
problem: a file that cannot be read (a directory, a device or FIFO, a file over --max-bytes), a glob
that matches no file, or (with --columns-from-service) the service's columns could not be read.
`,
    )
    .action(async (files: string[], options: LintInvocation) => {
      if (files.length === 0) throw new CliUsageError('no files given; name trigger files or globs');
      finish(await runLint(files, options, io));
    });
}

function lintOptions(invocation: LintInvocation, columns?: Record<string, DatasetColumns>): LintOptions {
  const options: LintOptions = { metricsDatasets: invocation.metricsDataset ?? [], metricsDatasetHint: CLI_METRICS_DATASET_HINT, maxDiagnostics: invocation.maxProblems };
  if (columns !== undefined) options.columns = columns;
  return options;
}

async function readTarget(file: string, io: MainIo, maxBytes: number): Promise<{ bytes: Uint8Array } | { error: string }> {
  try {
    return { bytes: await readCommandLineFile(file, io.cwd, maxBytes) };
  } catch (e) {
    return { error: e instanceof ReadProblem ? e.message : errorText(e) };
  }
}

/** The datasets a file's triggers name, when it is JSON (the columns to read for it). */
function datasetsOf(bytes: Uint8Array): string[] {
  try {
    return datasetsNamed(JSON.parse(decodeTriggerFile(bytes, 0).text));
  } catch {
    return [];
  }
}

/** The columns of the datasets the files name, read from the service; undefined (said on stderr) when they could not be read. */
async function serviceColumns(files: readonly string[], io: MainIo, maxBytes: number): Promise<Record<string, DatasetColumns> | undefined> {
  // A first read for the datasets the files name (the bytes are not kept: files may be large).
  const named = new Set<string>();
  for (const file of files) {
    const r = await readTarget(file, io, maxBytes);
    if ('bytes' in r) for (const d of datasetsOf(r.bytes)) named.add(d);
  }
  try {
    const client = clientFromEnvironment(io.env ?? {});
    try {
      const found = await readColumns(client, [...named].sort());
      for (const d of found.missing) warn(io, `the service has no dataset ${d}: its columns are not checked`);
      return found.columns;
    } finally {
      await client.close();
    }
  } catch (e) {
    warn(io, `could not read the columns from the service: ${errorText(e)}`);
    return undefined;
  }
}

async function runLint(targets: readonly string[], invocation: LintInvocation, io: MainIo): Promise<number> {
  const { files, problems } = expandTargets(targets, io.cwd);
  let columns: Record<string, DatasetColumns> | undefined;
  if (invocation.columnsFromService === true) {
    columns = await serviceColumns(files, io, invocation.maxBytes);
    if (columns === undefined) return EXIT_TROUBLE;
  }
  // Decoding drops a byte order mark (editors hide it, so columns match what people see) and reports bytes that are not UTF-8.
  const options = lintOptions(invocation, columns);
  const reports: FileReport[] = [];
  for (const file of files) {
    const r = await readTarget(file, io, invocation.maxBytes);
    if ('bytes' in r) {
      const { diagnostics, hidden } = lintReport(r.bytes, options);
      reports.push({ file, diagnostics, hidden });
    } else {
      reports.push({ file, diagnostics: [], error: r.error });
    }
  }

  for (const problem of problems) warn(io, problem);
  for (const r of reports) if (r.error !== undefined) warn(io, `cannot read ${r.file}: ${r.error}`);

  switch (invocation.format) {
    case 'json':
      io.stdout(toJson(reports));
      break;
    case 'sarif':
      io.stdout(`${visibleJson(toSarif(reports, io.cwd, problems))}\n`);
      break;
    default:
      io.stdout(toText(reports.filter((r) => r.error === undefined)));
  }
  if (problems.length > 0 || reports.some((r) => r.error !== undefined)) return EXIT_TROUBLE;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? EXIT_FOUND : EXIT_OK;
}
