// What the drift views read of the model (driftModel.ts): its state and a snapshot whose lists are built
// only when a view reads them; and the files' order, kept between batches so that listing the files after a
// batch merges the files it added instead of sorting them all. No vscode import.
import type { DriftCounts, FileDrift, ServiceTrigger, SloFileDrift } from '../../triggerFiles';

export type DriftState =
  | { kind: 'no-connection' }
  | { kind: 'loading'; connection: string }
  | { kind: 'ready'; connection: string }
  | { kind: 'failed'; connection: string; message: string };

/** The counts of the burn alert and definitions files: `missing`, those whose alert or dataset the service lacks. */
export interface SloDriftCounts {
  inSync: number;
  differs: number;
  missing: number;
  unknown: number;
}

export interface DriftSnapshot {
  readonly state: DriftState;
  readonly files: readonly FileDrift[];
  readonly onlyOnService: readonly ServiceTrigger[];
  readonly counts: DriftCounts;
  /** Triggers only local because they were never created on the service (TriggerDrift.draft). */
  readonly drafts: number;
  /** The burn alert and definitions files, in order, and their counts. */
  readonly sloFiles: readonly SloFileDrift[];
  readonly sloCounts: SloDriftCounts;
}

/** What a snapshot holds of the burn alert and definitions files: the counts now, the files when read. */
export interface SloPart {
  counts: SloDriftCounts;
  files: () => readonly SloFileDrift[];
}

/** A snapshot whose lists are built when first read: a change nobody lists costs nothing here. */
export class LazySnapshot implements DriftSnapshot {
  private filesMade: readonly FileDrift[] | undefined;
  private onlyMade: readonly ServiceTrigger[] | undefined;
  private sloMade: readonly SloFileDrift[] | undefined;
  readonly sloCounts: SloDriftCounts;
  constructor(
    readonly state: DriftState,
    readonly counts: DriftCounts,
    readonly drafts: number,
    private readonly makeFiles: () => readonly FileDrift[],
    private readonly makeOnly: () => readonly ServiceTrigger[],
    private readonly slo: SloPart,
  ) {
    this.sloCounts = slo.counts;
  }
  get files(): readonly FileDrift[] {
    return (this.filesMade ??= this.makeFiles());
  }
  get onlyOnService(): readonly ServiceTrigger[] {
    return (this.onlyMade ??= this.makeOnly());
  }
  get sloFiles(): readonly SloFileDrift[] {
    return (this.sloMade ??= this.slo.files());
  }
}

// What localeCompare does, without building a collator per comparison.
export const byUri = new Intl.Collator().compare;

/** Two sorted lists as one sorted list. */
function merge(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  for (;;) {
    const x = a[i];
    const y = b[j];
    if (x === undefined) return out.concat(b.slice(j));
    if (y === undefined) return out.concat(a.slice(i));
    if (byUri(x, y) <= 0) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
}

/** The files in order: sorted once, then the files added and removed since taken in when next listed. */
export class FileOrder {
  private sorted: string[] | undefined;
  private readonly added = new Set<string>();
  private readonly removed = new Set<string>();

  /** Sorted anew at the next listing (a full comparison). */
  reset(): void {
    this.sorted = undefined;
    this.added.clear();
    this.removed.clear();
  }

  /** A file joined (`present`) or left the files. */
  placed(uri: string, present: boolean): void {
    if (this.sorted === undefined) return;
    if (present) {
      if (!this.removed.delete(uri)) this.added.add(uri);
    } else if (!this.added.delete(uri)) this.removed.add(uri);
  }

  /** The files in order; `all` gives them when they are sorted anew. */
  list(all: () => Iterable<string>): readonly string[] {
    if (this.sorted === undefined) this.sorted = [...all()].sort(byUri);
    else if (this.added.size > 0 || this.removed.size > 0) {
      const kept = this.removed.size === 0 ? this.sorted : this.sorted.filter((u) => !this.removed.has(u));
      this.sorted = merge(kept, [...this.added].sort(byUri));
    }
    this.added.clear();
    this.removed.clear();
    return this.sorted;
  }
}
