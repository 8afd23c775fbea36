// The run of `obs lint` (declared in lint.ts, loaded when the command runs): reads the files, lints
// each and prints the report in the order the files were given.
import { errorText } from '../api/errors';
import {
  decodeTriggerFile,
  DEFAULT_MAX_DIAGNOSTICS,
  lintNamedDecoded,
  type DatasetColumns,
  type DecodedFile,
  sloFileKind,
  type LintOptions,
} from '../lint';
import { datasetsNamed } from '../lint/columns';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { collectGarbage } from './collect';
import { expandTargets } from './files';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { CLI_METRICS_DATASET_HINT } from './metricsHint';
import { metricsDatasetsOf } from './workspaceSettings';
import { writeGithubReport } from './github/report';
import { lintAnnotations } from './lintGithub';
import { lintCounts, lintSummary, toJson, toText } from './lintReport';
import { lintMarkdown } from './markdown/lint';
import { toSarif, type FileReport } from './lintSarif';
import { READ_AHEAD, readAhead } from './readAhead';
import { readCommandLineFile, ReadProblem } from './read';
import { visibleJson } from './visible';
import type { Outcome } from '../result';

/** The options of `obs lint` as commander parses them (lint.ts declares them). */
export interface LintInvocation {
  format: 'text' | 'json' | 'sarif' | 'github';
  /** The least severity that exits 1: `error` (the default) or `warning` (a warning too). */
  failOn: 'error' | 'warning';
  metricsDataset?: string[];
  /** The settings file the workspace's metrics datasets are read from (default: the current folder's). */
  settings?: string;
  maxProblems: number;
  maxBytes: number;
  columnsFromService?: boolean;
}

export function lintOptions(
  invocation: Pick<LintInvocation, 'maxProblems'>,
  metricsDatasets: readonly string[],
  columns?: Record<string, DatasetColumns>,
): LintOptions {
  const hint = CLI_METRICS_DATASET_HINT;
  const options: LintOptions = { metricsDatasets, metricsDatasetHint: hint, maxDiagnostics: invocation.maxProblems };
  if (columns !== undefined) options.columns = columns;
  return options;
}

/** A file read, or why it could not be; `bytes` is let go of once decoded (files may be large). */
type Read = Outcome<{ bytes?: Uint8Array }>;

async function readTarget(
  file: string,
  io: MainIo,
  maxBytes: number,
  admit?: (size: number) => Promise<void>,
): Promise<Read> {
  try {
    return { ok: true, bytes: await readCommandLineFile(file, io.cwd, maxBytes, admit) };
  } catch (e) {
    return { ok: false, reason: e instanceof ReadProblem ? e.message : errorText(e) };
  }
}

/** Reads the files ahead of their use (readAhead.ts), handing each to `use` in the order given. */
function readFiles(
  files: readonly string[],
  io: MainIo,
  maxBytes: number,
  use: (read: Read, file: string) => void,
): Promise<void> {
  return readAhead(
    files,
    READ_AHEAD,
    (file, admit) => readTarget(file, io, maxBytes, admit),
    (read, i) => use(read, files[i] ?? ''),
  );
}

/** From this size on, a file's bytes are collected once decoded, before the lint (collect.ts). */
export const COLLECT_FROM_BYTES = 16 * 1024 * 1024;

/** A file read, decoded: its bytes are let go of here, in a frame of their own that ends before the lint. */
function decodeRead(read: { bytes?: Uint8Array }, limit: number): { decoded: DecodedFile; size: number } {
  const bytes = read.bytes ?? new Uint8Array();
  delete read.bytes;
  return { decoded: decodeTriggerFile(bytes, limit), size: bytes.length };
}

/**
 * Lints a file read, by its name (a trigger, burn alert or definitions file); its bytes are let go of once
 * decoded (and collected when large), so a large file is not held twice.
 */
function lintRead(
  file: string,
  read: { bytes?: Uint8Array },
  options: LintOptions,
): ReturnType<typeof lintNamedDecoded> {
  const { decoded, size } = decodeRead(read, options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS);
  if (size >= COLLECT_FROM_BYTES) collectGarbage();
  return lintNamedDecoded(file, decoded, options);
}

/** The datasets a file names, when it is JSON (the columns to read for it): its triggers', or a definitions file's. */
function datasetsOf(file: string, bytes: Uint8Array): string[] {
  try {
    const value: unknown = JSON.parse(decodeTriggerFile(bytes, 0).text);
    const kind = sloFileKind(file);
    if (kind === undefined) return datasetsNamed(value);
    const slug =
      kind === 'definitions' && typeof value === 'object' && value !== null && 'dataset_slug' in value
        ? value.dataset_slug
        : undefined;
    return typeof slug === 'string' ? [slug] : [];
  } catch {
    return [];
  }
}

/** The columns of the datasets the files name, read from the service; undefined (said on stderr) when they could not be read. */
async function serviceColumns(
  files: readonly string[],
  io: MainIo,
  maxBytes: number,
): Promise<Record<string, DatasetColumns> | undefined> {
  // A first read for the datasets the files name (the bytes are not kept: files may be large).
  const named = new Set<string>();
  await readFiles(files, io, maxBytes, (r, file) => {
    if ('bytes' in r && r.bytes !== undefined) for (const d of datasetsOf(file, r.bytes)) named.add(d);
  });
  try {
    // The client (and undici) load only for this option.
    const [{ clientFromEnvironment }, { readColumns }] = await Promise.all([import('./service'), import('./columns')]);
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

/**
 * Each file read and linted, in the order given; a file that cannot be read is a report with its `error`.
 * Decoding drops a byte order mark (editors hide it, so columns match what people see) and reports bytes that are
 * not UTF-8.
 */
export async function lintFiles(
  files: readonly string[],
  options: LintOptions,
  io: MainIo,
  maxBytes: number,
): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  await readFiles(files, io, maxBytes, (r, file) => {
    if (!r.ok) {
      reports.push({ file, diagnostics: [], error: r.reason });
      return;
    }
    const { diagnostics, hidden } = lintRead(file, r, options);
    reports.push({ file, diagnostics, hidden });
  });
  return reports;
}

export async function runLint(targets: readonly string[], invocation: LintInvocation, io: MainIo): Promise<number> {
  const { files, problems, nothing } = await expandTargets(targets, io.cwd, TRIGGER_FILE_SUFFIX);
  // A path that names nothing (a typo, a glob of the wrong folder) stops the run: no report of the rest.
  if (nothing.length > 0) {
    for (const problem of problems) warn(io, problem);
    return EXIT_TROUBLE;
  }
  const metrics = await metricsDatasetsOf(invocation.metricsDataset, invocation.settings, io);
  if (metrics === undefined) return EXIT_TROUBLE;
  let columns: Record<string, DatasetColumns> | undefined;
  if (invocation.columnsFromService === true) {
    columns = await serviceColumns(files, io, invocation.maxBytes);
    if (columns === undefined) return EXIT_TROUBLE;
  }
  const reports = await lintFiles(files, lintOptions(invocation, metrics, columns), io, invocation.maxBytes);

  for (const problem of problems) warn(io, problem);
  for (const r of reports) if (r.error !== undefined) warn(io, `cannot read ${r.file}: ${r.error}`);

  switch (invocation.format) {
    case 'json':
      io.stdout(toJson(reports));
      break;
    case 'sarif':
      io.stdout(`${visibleJson(toSarif(reports, io.cwd, problems))}\n`);
      break;
    case 'github':
      await writeGithubReport(io, {
        command: 'lint',
        annotations: lintAnnotations(reports, problems),
        summaryLine: lintSummary(reports.filter((r) => r.error === undefined)),
        markdown: lintMarkdown(reports),
        fullReport: 'obs lint --format json',
      });
      break;
    default:
      io.stdout(toText(reports.filter((r) => r.error === undefined)));
  }
  if (problems.length > 0 || reports.some((r) => r.error !== undefined)) return EXIT_TROUBLE;
  const found = lintCounts(reports);
  return found.error + (invocation.failOn === 'warning' ? found.warning : 0) > 0 ? EXIT_FOUND : EXIT_OK;
}
