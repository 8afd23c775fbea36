// What the lint worker does: plain data in, plain data out (messages between threads carry no
// functions), so the same functions run in the worker (lintWorker.ts) and, in tests, in-process.
import {
  decodeTriggerFile,
  fixAll,
  fixAllSlo,
  lintReport,
  lintSloDecoded,
  lintSloText,
  sloFileKind,
  type SloFileKind,
  type DatasetColumns,
  type Diagnostic as LintDiagnostic,
  type KnownRecipient,
  type LintOptions,
  type TextEdit,
  type TriggerForm,
} from '../../lint';
import { EDITOR_METRICS_DATASET_HINT, minimalEdit } from './lintMapping';
import { recipientFieldAt, type RecipientField } from './recipientField';

/** The options the editor lints with, as data (the worker adds the editor's wording of the metrics hint). */
export interface LintJobOptions {
  metricsDatasets: readonly string[];
  maxDiagnostics?: number;
  /** `listed` for a trigger shown as the service returned it (only its own rule problems). */
  form?: TriggerForm;
  /** The columns known of the active connection's datasets (live columns lint). */
  columns?: Readonly<Record<string, DatasetColumns>>;
  /** The active connection's dataset slugs, when known (a trigger naming another dataset is a warning). */
  datasets?: readonly string[];
  /** The active connection's recipients, when known (unknown recipient ids are reported). */
  recipients?: readonly KnownRecipient[];
  /** The file's name or URI: a burn alert or definitions file (by its name) is linted by its own rules. */
  fileName?: string;
}

export type LintJob =
  /** Lint a document's text, or a file's bytes (which also reports bytes that are not UTF-8). */
  | { kind: 'lint'; input: string | Uint8Array; options: LintJobOptions }
  /** The one edit that applies every fix "fix all" applies to this text; none when nothing is fixable. */
  | { kind: 'fixAll'; text: string; options: LintJobOptions }
  /** The recipient id field at an offset of a trigger file's text (hover and completion). */
  | { kind: 'recipientAt'; text: string; offset: number };

export type LintJobResult =
  /** `datasets`: those the text's triggers name (what columns to fetch for it). */
  | {
      kind: 'lint';
      diagnostics: LintDiagnostic[];
      hidden: { error: number; warning: number; info: number };
      datasets: string[];
    }
  | { kind: 'fixAll'; edit: TextEdit | undefined }
  | { kind: 'recipientAt'; field: RecipientField | undefined };

function lintOptions(o: LintJobOptions): LintOptions {
  const options: LintOptions = { metricsDatasets: o.metricsDatasets, metricsDatasetHint: EDITOR_METRICS_DATASET_HINT };
  if (o.maxDiagnostics !== undefined) options.maxDiagnostics = o.maxDiagnostics;
  if (o.form !== undefined) options.form = o.form;
  if (o.columns !== undefined) options.columns = o.columns;
  if (o.datasets !== undefined) options.datasets = o.datasets;
  if (o.recipients !== undefined) options.recipients = o.recipients;
  return options;
}

/** A lint or fix-all job of a burn alert or definitions file. */
function runSloJob(kind: SloFileKind, job: Exclude<LintJob, { kind: 'recipientAt' }>): LintJobResult {
  const options = lintOptions(job.options);
  if (job.kind === 'fixAll') {
    const fixed = fixAllSlo(kind, job.text, options);
    return { kind: 'fixAll', edit: fixed === job.text ? undefined : minimalEdit(job.text, fixed) };
  }
  if (typeof job.input === 'string') return { kind: 'lint', ...lintSloText(kind, job.input, options) };
  return { kind: 'lint', ...lintSloDecoded(kind, decodeTriggerFile(job.input, options.maxDiagnostics), options) };
}

export function runLintJob(job: LintJob): LintJobResult {
  const fileKind =
    job.kind === 'recipientAt' || job.options.fileName === undefined ? undefined : sloFileKind(job.options.fileName);
  if (fileKind !== undefined && job.kind !== 'recipientAt') return runSloJob(fileKind, job);
  if (job.kind === 'lint') {
    const { diagnostics, hidden, datasets } = lintReport(job.input, lintOptions(job.options));
    return { kind: 'lint', diagnostics, hidden, datasets };
  }
  if (job.kind === 'recipientAt') return { kind: 'recipientAt', field: recipientFieldAt(job.text, job.offset) };
  const result = fixAll(job.text, lintOptions(job.options));
  return { kind: 'fixAll', edit: result.applied === 0 ? undefined : minimalEdit(job.text, result.text) };
}
