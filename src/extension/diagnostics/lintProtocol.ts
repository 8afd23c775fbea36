// The messages between the extension host and the lint worker. A dataset's live columns cross once per change
// of them, as a versioned update; a lint job carries only the version of the columns it was made with, and the
// worker lints it with the columns of that version, kept until no job still to come can name an older one. So a
// file costs its own text in messages, however many datasets and columns the connection has. No vscode import.
import type { DatasetColumns } from '../../lint';
import type { Outcome } from '../../result';
import type { LintJob, LintJobOptions, LintJobResult } from './lintJobs';

/** A dataset's columns from `version` on; undefined: no longer known. */
export interface ColumnsUpdate {
  dataset: string;
  version: number;
  columns: DatasetColumns | undefined;
}

/** Columns that changed; no job still to come names a version older than `keepFrom`. */
export interface ColumnsMessage {
  updates: ColumnsUpdate[];
  keepFrom: number;
}

/** A job's options as posted: the version of its columns instead of the columns (none: no columns checked). */
type WorkerJobOptions = Omit<LintJobOptions, 'columns'> & { columnsVersion?: number };

export type WorkerJob =
  | { kind: 'lint'; input: string | Uint8Array; options: WorkerJobOptions }
  | { kind: 'fixAll'; text: string; options: WorkerJobOptions }
  | Extract<LintJob, { kind: 'recipientAt' }>;

/** A job (its id comes back with the result), or columns that changed (no answer). */
export type WorkerRequest = { id: number; job: WorkerJob } | { columns: ColumnsMessage };

export type WorkerResponse = { id: number } & Outcome<{ result: LintJobResult }>;

type Entry = { version: number; columns: DatasetColumns | undefined };

/**
 * Each dataset's columns by version, oldest first: a version is dropped once a newer one is at or below
 * `keepFrom` (no job still to come can need it). Both sides keep one: the host to send a new worker what the
 * queued jobs need, the worker to lint each job with its own version.
 */
export class ColumnsHistory {
  private readonly byDataset = new Map<string, Entry[]>();
  /** Datasets with more than one version kept: the only ones pruning looks at. */
  private readonly several = new Set<string>();
  /** The record of the newest version of every dataset, made once per change. */
  private newest: { version: number; record: Readonly<Record<string, DatasetColumns>> } | undefined;
  private latest = 0;

  add(update: ColumnsUpdate): void {
    const entries = this.byDataset.get(update.dataset);
    const entry = { version: update.version, columns: update.columns };
    if (entries === undefined) this.byDataset.set(update.dataset, [entry]);
    else {
      entries.push(entry);
      this.several.add(update.dataset);
    }
    this.latest = Math.max(this.latest, update.version);
    this.newest = undefined;
  }

  /** Drops the versions no job of `keepFrom` or later can need. */
  prune(keepFrom: number): void {
    for (const dataset of this.several) {
      const entries = this.byDataset.get(dataset) ?? [];
      let first = 0;
      while (first + 1 < entries.length && (entries[first + 1]?.version ?? Infinity) <= keepFrom) first++;
      if (first > 0) entries.splice(0, first);
      if (entries.length < 2) this.several.delete(dataset);
      if (entries.length === 1 && entries[0]?.columns === undefined && (entries[0]?.version ?? 0) <= keepFrom)
        this.byDataset.delete(dataset);
    }
  }

  /** Every version kept, as updates (for a new worker). */
  updates(): ColumnsUpdate[] {
    const out: ColumnsUpdate[] = [];
    for (const [dataset, entries] of this.byDataset) for (const e of entries) out.push({ dataset, ...e });
    return out;
  }

  /** The columns of every dataset as of `version`. */
  at(version: number): Readonly<Record<string, DatasetColumns>> {
    if (version >= this.latest && this.newest !== undefined) return this.newest.record;
    const record: Record<string, DatasetColumns> = {};
    for (const [dataset, entries] of this.byDataset) {
      let columns: DatasetColumns | undefined;
      for (const e of entries) if (e.version <= version) columns = e.columns;
      if (columns !== undefined) record[dataset] = columns;
    }
    if (version >= this.latest) this.newest = { version, record };
    return record;
  }
}

/** The job as the linter takes it: its columns those of its version. */
function jobWithColumns(job: WorkerJob, history: ColumnsHistory): LintJob {
  if (job.kind === 'recipientAt') return job;
  const { columnsVersion, ...rest } = job.options;
  const options: LintJobOptions =
    columnsVersion === undefined ? rest : { ...rest, columns: history.at(columnsVersion) };
  return job.kind === 'lint' ? { ...job, options } : { ...job, options };
}

/** What the worker does with each message: columns kept, jobs run with the columns of their version. */
export function requestHandler(
  run: (job: LintJob) => LintJobResult,
): (request: WorkerRequest) => WorkerResponse | undefined {
  const history = new ColumnsHistory();
  return (request) => {
    if ('columns' in request) {
      for (const u of request.columns.updates) history.add(u);
      history.prune(request.columns.keepFrom);
      return undefined;
    }
    try {
      return { id: request.id, ok: true, result: run(jobWithColumns(request.job, history)) };
    } catch (err) {
      // The linter never throws on any text; should it anyway, the host logs it instead of waiting forever.
      return { id: request.id, ok: false, reason: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
  };
}
