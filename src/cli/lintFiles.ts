// What `obs lint` and `obs review` lint with: each file read ahead of its use (bounded, inside the rules of
// read.ts), decoded, its bytes let go of before the lint, and linted by its name (a trigger, burn alert or
// definitions file). No command's run lives here.
import { errorText } from '../api/errors';
import {
  decodeTriggerFile,
  DEFAULT_MAX_DIAGNOSTICS,
  lintNamedDecoded,
  type DatasetColumns,
  type DecodedFile,
  type LintOptions,
  sloFileKind,
} from '../lint';
import { collectGarbage } from './collect';
import type { MainIo } from './io';
import type { FileReport } from './lintSarif';
import { CLI_METRICS_DATASET_HINT } from './metricsHint';
import { READ_AHEAD, readAhead } from './readAhead';
import { readCommandLineFile, readSmallCommandLineFile, ReadProblem } from './read';
import type { Outcome } from '../result';
import { plainDiagnostic } from '../lint/build';
import { LineIndex } from '../lint/text';
import { isEnvironmentsFile, lintEnvironmentsText } from '../triggerFiles/environmentsLint';
import type { EnvironmentLint } from './lintEnvironment';

/** With --env: the run's environment lint, and the files named on their own (not found by a walk). */
export interface LintFilesEnvironment {
  lint: EnvironmentLint;
  named: ReadonlySet<string>;
}

export function lintOptions(
  invocation: { maxProblems: number },
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
    // A small file (most trigger files) is read at once; a larger one through the read-ahead's budget.
    const small = readSmallCommandLineFile(file, io.cwd, maxBytes);
    return { ok: true, bytes: small ?? (await readCommandLineFile(file, io.cwd, maxBytes, admit)) };
  } catch (e) {
    return { ok: false, reason: e instanceof ReadProblem ? e.message : errorText(e) };
  }
}

/** Reads the files ahead of their use (readAhead.ts), handing each to `use` in the order given. */
export function readFiles(
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
const COLLECT_FROM_BYTES = 16 * 1024 * 1024;

/** A file read, decoded: its bytes are let go of here, in a frame of their own that ends before the lint. */
function decodeRead(read: { bytes?: Uint8Array }, limit: number): { decoded: DecodedFile; size: number } {
  const bytes = read.bytes ?? new Uint8Array();
  delete read.bytes;
  return { decoded: decodeTriggerFile(bytes, limit), size: bytes.length };
}

/**
 * Lints a file read, by its name (a trigger, burn alert or definitions file); its bytes are let go of once
 * decoded (and collected when large), so a large file is not held twice; nor is a large file's value that
 * JSON.parse built before refusing the text held while the recovering parser reads it.
 */
function lintRead(
  file: string,
  read: { bytes?: Uint8Array },
  options: LintOptions,
  environment?: LintFilesEnvironment,
): ReturnType<typeof lintNamedDecoded> {
  const { decoded, size } = decodeRead(read, options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS);
  // The environments file (docs/ENVIRONMENTS.md) by its own rule; bytes that are not UTF-8 are said as in any file.
  if (isEnvironmentsFile(file)) {
    const lines = new LineIndex(decoded.text);
    const encoding = decoded.problems.map((p) => plainDiagnostic('file/encoding', p.message, p.offset, 1, lines));
    const diagnostics = [...encoding, ...lintEnvironmentsText(decoded.text)];
    return { diagnostics, hidden: { error: decoded.more, warning: 0, info: 0 }, datasets: [] };
  }
  if (environment !== undefined && sloFileKind(file) === undefined)
    return environment.lint.lintTriggerFile(decoded, !environment.named.has(file), (d) =>
      lintNamedDecoded(file, d, options),
    );
  if (size < COLLECT_FROM_BYTES) return lintNamedDecoded(file, decoded, options);
  collectGarbage();
  // What JSON.parse built of a broken file before it refused it (most of its value, when it is broken near the end).
  return lintNamedDecoded(file, decoded, { ...options, afterRefusedParse: () => collectGarbage() });
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
  environment?: LintFilesEnvironment,
): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  await readFiles(files, io, maxBytes, (r, file) => {
    if (!r.ok) {
      reports.push({ file, diagnostics: [], error: r.reason });
      return;
    }
    const { diagnostics, hidden } = lintRead(file, r, options, environment);
    reports.push({ file, diagnostics, hidden });
  });
  return reports;
}
