// obs-lint: lints trigger files for CI. The entry point (src/cli/lint.ts) only wires process I/O.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { version } from '../../package.json';
import { toJson, toText } from './format';
import { expandGlob, isGlob } from './glob';
import { decodeTriggerFile, lintBytes } from './decode';
import { datasetsNamed } from './columns';
import { DEFAULT_MAX_DIAGNOSTICS } from './lint';
import { toSarif, type FileReport } from './sarif';
import type { DatasetColumns, LintOptions, MetricsDatasetHint } from './types';
import { errorText } from '../api/errors';

export const EXIT_OK = 0;
export const EXIT_ERRORS = 1;
export const EXIT_USAGE = 2;

const FORMATS = ['text', 'json', 'sarif'] as const;
/** Highest --max-problems: each problem shown costs memory and output. */
const MAX_PROBLEMS_LIMIT = 100_000;
type Format = (typeof FORMATS)[number];

export const USAGE = `Usage: obs-lint lint [options] FILE|GLOB...
       obs-lint pull [options]              (obs-lint pull --help)
       obs-lint drift [options] [PATH...]   (obs-lint drift --help)

Checks trigger files (one trigger object, or an array of triggers as GET /1/triggers returns them)
against the rules of spec 2.6 and 2.6.1. Rules and examples: docs/rules.md.

Options:
  --format text|json|sarif   output format (default: text); json is one array with {file, diagnostics}
                             per file in the order given (and error for a file that cannot be read)
  --metrics-dataset SLUG     a metrics dataset; repeat for several (every other dataset is standard)
  --max-problems N           report at most N problems per file, then one that counts the rest
                             (default ${DEFAULT_MAX_DIAGNOSTICS}; 1 to ${MAX_PROBLEMS_LIMIT})
  --columns-from-service     check the columns each query names against its dataset's columns, read
                             from the service named by OBS_BASE_URL and OBS_CONFIG_KEY (environment only)
  -h, --help                 show this help
  --version                  show the version

Globs are expanded by obs-lint (quote them): *, **, ?, [abc], {a,b}; node_modules and .git are skipped.
Example: obs-lint lint --format sarif '**/*.trigger.json' > lint.sarif

Exit status: 0 no errors (warnings and infos allowed), 1 a file has an error, 2 a usage or I/O
problem: a file that cannot be read, a directory, a glob that matches no file, or (with
--columns-from-service) the service's columns could not be read.
`;

/** How obs-lint's messages tell to declare a metrics dataset: its flag, and the editor setting that feeds the same option. */
export const CLI_METRICS_DATASET_HINT: MetricsDatasetHint = (slug) =>
  `name it with --metrics-dataset${slug === undefined ? '' : ` ${slug}`} (editor setting obs.metricsDatasets)`;

export interface CliIo {
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A problem with the command line itself. */
export class UsageError extends Error {
  readonly kind = 'usage';
}

interface Invocation {
  format: Format;
  metricsDatasets: string[];
  maxProblems: number;
  columnsFromService: boolean;
  targets: string[];
}

/** What the lint command is given beyond its arguments: how to read the datasets' columns from the service. */
export interface LintCliDeps {
  /** The columns of the datasets named (`__all__` for environment-wide), and the datasets the service does not know. */
  columns?: (datasets: string[]) => Promise<{ columns: Record<string, DatasetColumns>; missing: string[] }>;
}

function parseInvocation(argv: string[]): Invocation | 'help' | 'version' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', default: 'text' },
        'metrics-dataset': { type: 'string', multiple: true, default: [] },
        'max-problems': { type: 'string', default: String(DEFAULT_MAX_DIAGNOSTICS) },
        'columns-from-service': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    throw new UsageError(errorText(e));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (values.version) return 'version';
  const [command, ...targets] = positionals;
  if (command === undefined) throw new UsageError('no command given; the commands are lint, pull and drift');
  if (command !== 'lint') throw new UsageError(`unknown command "${command}"; the commands are lint, pull and drift`);
  if (targets.length === 0) throw new UsageError('no files given; name trigger files or globs');
  const format = values.format;
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`unknown format "${format}"; use text, json or sarif`);
  const metricsDatasets = values['metrics-dataset'];
  const empty = metricsDatasets.find((s) => s.trim() === '');
  if (empty !== undefined) throw new UsageError('--metrics-dataset needs a dataset slug');
  const maxProblems = Number(values['max-problems']);
  if (!/^\d+$/.test(values['max-problems']) || maxProblems < 1 || maxProblems > MAX_PROBLEMS_LIMIT) {
    throw new UsageError(`--max-problems needs a whole number from 1 to ${MAX_PROBLEMS_LIMIT}, got "${values['max-problems']}"`);
  }
  return { format: format as Format, metricsDatasets, maxProblems, columnsFromService: values['columns-from-service'], targets };
}

/**
 * Files named by the targets, in the order given; globs expand sorted. Unmatched globs are problems.
 * A target that names an existing path is taken as written, even with glob characters (`a[1].json`).
 */
export function expandTargets(targets: readonly string[], cwd: string): { files: string[]; problems: string[] } {
  const files: string[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    const key = resolve(cwd, file);
    if (seen.has(key)) return;
    seen.add(key);
    files.push(file);
  };
  for (const target of targets) {
    if (!isGlob(target) || existsSync(resolve(cwd, target))) {
      add(target);
      continue;
    }
    const matches = expandGlob(target, cwd);
    if (matches.length === 0) problems.push(`no file matches ${target}`);
    matches.forEach(add);
  }
  return { files, problems };
}

function ioMessage(e: unknown, file: string): string {
  if (e instanceof Error && 'code' in e) {
    switch (e.code) {
      case 'ENOENT':
        return 'no such file';
      case 'EISDIR':
        return `is a directory; name trigger files, or a glob such as '${file.replace(/[\\/]+$/, '')}/**/*.json'`;
      case 'EACCES':
        return 'permission denied';
    }
  }
  return errorText(e);
}

async function readTarget(file: string, cwd: string): Promise<{ bytes: Uint8Array } | { error: string }> {
  try {
    return { bytes: await readFile(resolve(cwd, file)) };
  } catch (e) {
    return { error: ioMessage(e, file) };
  }
}

function lintOptions(invocation: Invocation, columns?: Record<string, DatasetColumns>): LintOptions {
  const options: LintOptions = { metricsDatasets: invocation.metricsDatasets, metricsDatasetHint: CLI_METRICS_DATASET_HINT, maxDiagnostics: invocation.maxProblems };
  if (columns !== undefined) options.columns = columns;
  return options;
}

/** The datasets a file's triggers name, when it is JSON (the columns to read for it). */
function datasetsOf(bytes: Uint8Array): string[] {
  try {
    return datasetsNamed(JSON.parse(decodeTriggerFile(bytes, 0).text));
  } catch {
    return [];
  }
}

/** Runs the CLI; returns the exit status. */
export async function runCli(argv: string[], io: CliIo, deps: LintCliDeps = {}): Promise<number> {
  let invocation;
  try {
    invocation = parseInvocation(argv);
    if (invocation !== 'help' && invocation !== 'version' && invocation.columnsFromService && deps.columns === undefined) {
      throw new UsageError('--columns-from-service is not available here: run obs-lint itself');
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`obs-lint: ${e.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (invocation === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  if (invocation === 'version') {
    io.stdout(`${version}\n`);
    return EXIT_OK;
  }
  const { files, problems } = expandTargets(invocation.targets, io.cwd);
  let columns: Record<string, DatasetColumns> | undefined;
  if (invocation.columnsFromService && deps.columns !== undefined) {
    // A first read for the datasets the files name (the bytes are not kept: files may be large).
    const named = new Set<string>();
    for (const file of files) {
      const r = await readTarget(file, io.cwd);
      if ('bytes' in r) for (const d of datasetsOf(r.bytes)) named.add(d);
    }
    const datasets = [...named].sort();
    try {
      const found = await deps.columns(datasets);
      columns = found.columns;
      for (const d of found.missing) io.stderr(`obs-lint: the service has no dataset ${d}: its columns are not checked\n`);
    } catch (e) {
      io.stderr(`obs-lint: could not read the columns from the service: ${errorText(e)}\n`);
      return EXIT_USAGE;
    }
  }
  // Decoding drops a byte order mark (editors hide it, so columns match what people see) and reports bytes that are not UTF-8.
  const options = lintOptions(invocation, columns);
  const reports: FileReport[] = [];
  for (const file of files) {
    const r = await readTarget(file, io.cwd);
    reports.push('bytes' in r ? { file, diagnostics: lintBytes(r.bytes, options) } : { file, diagnostics: [], error: r.error });
  }

  for (const problem of problems) io.stderr(`obs-lint: ${problem}\n`);
  for (const r of reports) if (r.error !== undefined) io.stderr(`obs-lint: cannot read ${r.file}: ${r.error}\n`);

  switch (invocation.format) {
    case 'json':
      io.stdout(toJson(reports));
      break;
    case 'sarif':
      io.stdout(`${JSON.stringify(toSarif(reports, io.cwd, problems), null, 2)}\n`);
      break;
    default:
      io.stdout(toText(reports.filter((r) => r.error === undefined)));
  }
  if (problems.length > 0 || reports.some((r) => r.error !== undefined)) return EXIT_USAGE;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? EXIT_ERRORS : EXIT_OK;
}
