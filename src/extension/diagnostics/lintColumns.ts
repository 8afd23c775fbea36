// The host's side of the live columns sent to the lint worker (lintProtocol.ts): each job's columns become a
// version, and only the datasets whose columns changed since the last job cross to the worker, once. Columns
// are compared by identity (LiveColumns hands out the same objects until they change), so a job whose columns
// are the ones of the job before costs nothing here. No vscode import.
import type { DatasetColumns } from '../../lint';
import { ColumnsHistory, type ColumnsMessage, type ColumnsUpdate } from './lintProtocol';

export class ColumnsChannel {
  private version = 0;
  private last: Readonly<Record<string, DatasetColumns>> | undefined;
  private readonly current = new Map<string, DatasetColumns>();
  private readonly history = new ColumnsHistory();
  /** Updates not sent to the worker yet. */
  private unsent: ColumnsUpdate[] = [];

  /** The version of a job's columns; the datasets whose columns differ from the last job's get a new one. */
  versionOf(columns: Readonly<Record<string, DatasetColumns>>): number {
    if (columns === this.last) return this.version;
    this.last = columns;
    for (const [dataset, c] of Object.entries(columns)) if (this.current.get(dataset) !== c) this.note(dataset, c);
    for (const dataset of this.current.keys()) if (!Object.hasOwn(columns, dataset)) this.note(dataset, undefined);
    return this.version;
  }

  /**
   * What a worker must be told before a job of `version` is posted to it: every version kept for a worker that
   * has none (new, or started again), else what changed since its last message; undefined when nothing did.
   */
  messageFor(version: number, fresh: boolean): ColumnsMessage | undefined {
    const updates = fresh ? this.history.updates() : this.unsent;
    this.unsent = [];
    // Jobs are posted in the order their versions were given: none after this one needs an older version.
    this.history.prune(version);
    return updates.length === 0 ? undefined : { updates, keepFrom: version };
  }

  private note(dataset: string, columns: DatasetColumns | undefined): void {
    const update: ColumnsUpdate = { dataset, version: ++this.version, columns };
    if (columns === undefined) this.current.delete(dataset);
    else this.current.set(dataset, columns);
    this.history.add(update);
    this.unsent.push(update);
  }
}
