// Pull: the service's triggers written as canonical files, `<folder>/<dataset>/<name>.trigger.json` (and burn
// alerts, by the same planner: pullKinds.ts). A trigger's file is the one that links its id (wherever the user
// moved it in the dataset's folder), else the file of its dataset and name without an id, else a new file, whose
// name no other file has in any letter case. A file that differs from the service's trigger is overwritten only
// when the caller approves; one that differs only in its formatting is left alone; what pull cannot read at a
// path (a link leading nowhere or outside, a folder) is never written. No vscode import.
import { compareTriggers, type Difference } from './compare';
import { nestingProblem } from './depth';
import type { PullItem } from './listing';
import { readTriggerFile } from './localFiles';
import { triggerFileText } from './normalize';
import { datasetFolder, pathKey, triggerFileName, TRIGGER_FILE_SUFFIX } from './paths';
import { within } from './contained';
import { errorMessage, isAlreadyThere, type PullFileSystem } from './pullFs';
import type { ExistingFile } from './scan';

export type PullAction<I = PullItem> =
  | { kind: 'create'; path: string; text: string; item: I }
  /** The file differs from the service's value: written only when approved. `linkTo`: the file is a link to that path, which is written. */
  | { kind: 'update'; path: string; text: string; item: I; differences: Difference[]; linkTo?: string }
  | { kind: 'unchanged'; path: string; item: I }
  /** Pull may not write the item's file, and why (reported as failed). */
  | { kind: 'refused'; path: string; item: I; reason: string };

/** What a file of some kind says of itself: its value, and what links it to the service's object. */
export interface LocalEntry {
  value: Record<string, unknown>;
  id?: string;
  /** What matches it by name when it has no id (a trigger's name). */
  name?: string;
  dataset?: string;
}

/** One kind of file pull writes with this planner: where an item's file lies, its text, and how files are read. */
export interface PullKind<I> {
  suffix: string;
  /** The item's dataset folder, relative to the pull folder (no `/`). */
  folderOf(item: I): string;
  /** Its file name: `n` 0 the plain name, 1 with the id, 2 and more with the id and `-n`. */
  fileName(item: I, n: number): string;
  idOf(item: I): string;
  /** What a file without an id must name to be this item's (compared with LocalEntry.name). */
  nameOf(item: I): string;
  datasetOf(item: I): string;
  /** A file's entry when it holds one object of this kind. */
  read(text: string): LocalEntry | undefined;
  compare(local: Record<string, unknown>, item: I): Difference[];
  text(item: I): string;
  /** The service's value, measured against the nesting limit before anything else. */
  serviceValue(item: I): unknown;
  /** `the service's trigger`: how a nesting refusal names it. */
  serviceLabel: string;
}

/** Trigger files: `<dataset>/<name>.trigger.json`. */
const TRIGGER_PULL: PullKind<PullItem> = {
  suffix: TRIGGER_FILE_SUFFIX,
  folderOf: (item) => datasetFolder(item.dataset),
  fileName: (item, n) =>
    n === 0
      ? triggerFileName(item.trigger)
      : triggerFileName(n === 1 ? item.trigger : { ...item.trigger, id: `${item.trigger.id}-${n}` }, true),
  idOf: (item) => item.trigger.id,
  nameOf: (item) => item.trigger.name,
  datasetOf: (item) => item.dataset,
  read: (text) => {
    const read = readTriggerFile(text);
    // Only a file of one trigger is some trigger's file; an array file just occupies its name.
    return read.ok && read.triggers.length === 1 ? read.triggers[0] : undefined;
  },
  compare: (local, item) => compareTriggers(local, item.trigger),
  text: (item) => triggerFileText(item.trigger),
  serviceValue: (item) => item.trigger,
  serviceLabel: "the service's trigger",
};

interface Known {
  path: string;
  /** Case-folded keys of the path and of where it really is (a link's target). */
  keys: string[];
  value: Record<string, unknown> | undefined;
  linkTo?: string;
  refused?: string;
  id?: string;
  name?: string;
  dataset?: string;
}

const join = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

function knownOf<I>(kind: PullKind<I>, f: ExistingFile): Known {
  const keys = [pathKey(f.path), ...(f.linkTo === undefined ? [] : [pathKey(f.linkTo)])];
  const base: Known = { path: f.path, keys, value: undefined, ...(f.linkTo === undefined ? {} : { linkTo: f.linkTo }) };
  if (f.text === undefined) return { ...base, refused: f.refused ?? 'it could not be read' };
  const t = kind.read(f.text);
  return t === undefined ? base : { ...base, value: t.value, id: t.id, name: t.name, dataset: t.dataset };
}

/** The files found and the paths this pull's items took so far, compared by pathKey. */
class Planner<I> {
  readonly actions: PullAction<I>[] = [];
  private readonly refusedFolders: Map<string, string>;
  private readonly known: Known[];
  private readonly byId = new Map<string, Known>();
  /** The file found at each path key (the first, when several names meet). */
  private readonly occupant = new Map<string, Known>();
  /** Keys of the paths taken by an item of this pull (a link counts for its target too). */
  private readonly claimed = new Set<string>();

  constructor(
    private readonly kind: PullKind<I>,
    existing: readonly ExistingFile[],
  ) {
    this.refusedFolders = new Map(
      existing
        .filter((f) => !f.path.includes('/') && f.refused !== undefined)
        .map((f) => [pathKey(f.path), f.refused ?? '']),
    );
    this.known = existing.filter((f) => f.path.includes('/')).map((f) => knownOf(kind, f));
    for (const k of this.known) {
      if (k.id !== undefined && !this.byId.has(k.id)) this.byId.set(k.id, k);
      if (!this.occupant.has(pathKey(k.path))) this.occupant.set(pathKey(k.path), k);
    }
  }

  private free(k: Known): boolean {
    return k.keys.every((key) => !this.claimed.has(key));
  }

  private decide(item: I, file: Known, value: Record<string, unknown>): void {
    for (const key of file.keys) this.claimed.add(key);
    const tooDeep = nestingProblem(value, `the file ${file.path}`);
    if (tooDeep !== undefined)
      return void this.actions.push({ kind: 'refused', path: file.path, item, reason: tooDeep });
    const differences = this.kind.compare(value, item);
    if (differences.length === 0) this.actions.push({ kind: 'unchanged', path: file.path, item });
    else
      this.actions.push({
        kind: 'update',
        path: file.path,
        text: this.kind.text(item),
        item,
        differences,
        ...(file.linkTo === undefined ? {} : { linkTo: file.linkTo }),
      });
  }

  private refuse(item: I, path: string, reason: string): void {
    this.claimed.add(pathKey(path));
    this.actions.push({ kind: 'refused', path, item, reason });
  }

  /** The item's file when one links its id (or its refusal when it is nested too deep); false to place it later. */
  placeLinked(item: I): boolean {
    const folder = this.kind.folderOf(item);
    const linked = this.byId.get(this.kind.idOf(item));
    const inFolder = linked !== undefined && linked.path.startsWith(`${folder}/`);
    const tooDeep = nestingProblem(this.kind.serviceValue(item), this.kind.serviceLabel);
    if (tooDeep !== undefined)
      this.refuse(item, inFolder ? linked.path : `${folder}/${this.kind.fileName(item, 0)}`, tooDeep);
    else if (inFolder && linked.value !== undefined && this.free(linked)) this.decide(item, linked, linked.value);
    else return false;
    return true;
  }

  /** A file of the same dataset and name without an id, else a new file; refused where its folder or name is held by what pull cannot read. */
  place(item: I): void {
    const folder = this.kind.folderOf(item);
    const plain = `${folder}/${this.kind.fileName(item, 0)}`;
    const folderRefused = this.refusedFolders.get(pathKey(folder));
    if (folderRefused !== undefined) return this.refuse(item, plain, folderRefused);
    const sameName = this.known.find(
      (k) =>
        k.id === undefined &&
        this.free(k) &&
        k.name === this.kind.nameOf(item) &&
        k.path.startsWith(`${folder}/`) &&
        (k.dataset === undefined || k.dataset === this.kind.datasetOf(item)),
    );
    if (sameName?.value !== undefined) return this.decide(item, sameName, sameName.value);
    const inTheWay = this.occupant.get(pathKey(plain));
    // Something pull cannot read holds the item's name: it is named, never replaced or sidestepped.
    if (inTheWay?.refused !== undefined && !this.claimed.has(pathKey(plain)))
      return this.refuse(item, inTheWay.path, inTheWay.refused);
    this.actions.push({ kind: 'create', path: this.newPath(item, folder), text: this.kind.text(item), item });
  }

  /** `<name>`, else `<name>-<id>`, else `<name>-<id>-2`...: a name no file has and no other item took, in any letter case. */
  private newPath(item: I, folder: string): string {
    const taken = (p: string) => this.occupant.has(pathKey(p)) || this.claimed.has(pathKey(p));
    let n = 0;
    let path = `${folder}/${this.kind.fileName(item, n)}`;
    while (taken(path)) path = `${folder}/${this.kind.fileName(item, ++n)}`;
    this.claimed.add(pathKey(path));
    return path;
  }
}

/** Decides, for every item of a kind, its file and what to do with it. Deterministic for the same input. */
export function planKindPull<I>(
  kind: PullKind<I>,
  items: readonly I[],
  existing: readonly ExistingFile[],
): PullAction<I>[] {
  const planner = new Planner(kind, existing);
  // First the files that link an item by id, so that a new item never takes a linked file's name.
  const pending: I[] = [];
  for (const item of items) if (!planner.placeLinked(item)) pending.push(item);
  for (const item of pending) planner.place(item);
  return planner.actions.sort((a, b) => a.path.localeCompare(b.path));
}

/** Decides, for every trigger, its file and what to do with it. Deterministic for the same input. */
export function planPull(items: readonly PullItem[], existing: readonly ExistingFile[]): PullAction[] {
  return planKindPull(TRIGGER_PULL, items, existing);
}

export interface PullReport {
  /** Paths written, relative to the pull folder: new files and files overwritten. */
  created: string[];
  updated: string[];
  unchanged: string[];
  /** Files left as they were, and why (they differ locally and were not approved, unsaved edits...). */
  skipped: { path: string; reason: string }[];
  /** Files not written, and why: a write that failed, or one pull refused (a link leading outside, a trigger nested too deep...). */
  failed: { path: string; message: string }[];
  /** Temporary files that interrupted pulls left behind, removed (paths relative to the pull folder). */
  removed: string[];
  /** Set when the pull was cancelled part way: what is listed was done, nothing else. */
  cancelled: boolean;
}

export interface ApplyOptions<I = PullItem> {
  /** The files that differ locally to overwrite (their paths); the others are skipped. */
  approve: (updates: Extract<PullAction<I>, { kind: 'update' }>[]) => Promise<ReadonlySet<string>>;
  /** A reason to leave a file alone whatever was approved (e.g. unsaved edits in the editor). */
  hold?: (path: string) => string | undefined;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Said of a new file's path when something appeared there after the pull looked. */
export const APPEARED = 'something appeared at this path while pulling and was left alone; pull again to compare it';

/**
 * Where a write under `root` would land when that is outside `root` (a folder or file swapped for a link
 * since the pull looked), as a reason; undefined when it stays inside or links cannot be resolved.
 */
async function leadsOutside(fs: PullFileSystem, root: string, path: string): Promise<string | undefined> {
  if (fs.realPath === undefined) return undefined;
  const [base, real] = await Promise.all([fs.realPath(root), fs.realPath(join(root, path))]);
  return within(base, real)
    ? undefined
    : `it leads outside the folder pulled into (to ${real}); pull writes only inside it`;
}

/** Removes the stale temporary files of the dataset folders the plan is about (those inside `root` only). */
async function removeStale<I>(fs: PullFileSystem, root: string, actions: readonly PullAction<I>[]): Promise<string[]> {
  const removeIn = fs.removeStale?.bind(fs);
  if (removeIn === undefined) return [];
  const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
  const folders = [...new Set(actions.filter((a) => a.kind !== 'refused').map((a) => folderOf(a.path)))].sort();
  const removed: string[] = [];
  for (const folder of folders) {
    if ((await leadsOutside(fs, root, folder)) !== undefined) continue;
    for (const name of await removeIn(join(root, folder))) removed.push(join(folder, name));
  }
  return removed;
}

/** Carries out a plan under `root`. Writes are whole-file; a failed write is reported and the rest go on. */
export async function applyPull<I = PullItem>(
  fs: PullFileSystem,
  root: string,
  actions: readonly PullAction<I>[],
  o: ApplyOptions<I>,
): Promise<PullReport> {
  const report: PullReport = {
    created: [],
    updated: [],
    unchanged: [],
    skipped: [],
    failed: [],
    removed: [],
    cancelled: false,
  };
  // A link is held for what its target holds too (an unsaved edit of the file it leads to).
  const heldFor = (a: PullAction<I>) =>
    o.hold?.(a.path) ?? (a.kind === 'update' && a.linkTo !== undefined ? o.hold?.(a.linkTo) : undefined);
  const updates = actions.filter(
    (a): a is Extract<PullAction<I>, { kind: 'update' }> => a.kind === 'update' && heldFor(a) === undefined,
  );
  const approved = updates.length === 0 ? new Set<string>() : await o.approve(updates);
  report.removed = await removeStale(fs, root, actions);
  let done = 0;
  for (const a of actions) {
    if (o.signal?.aborted === true) {
      report.cancelled = true;
      break;
    }
    await apply(a);
    o.onProgress?.(++done, actions.length);
  }
  return report;

  async function apply(a: PullAction<I>): Promise<void> {
    if (a.kind === 'unchanged') return void report.unchanged.push(a.path);
    if (a.kind === 'refused') return void report.failed.push({ path: a.path, message: a.reason });
    const held = heldFor(a);
    if (held !== undefined) return void report.skipped.push({ path: a.path, reason: held });
    if (a.kind === 'update' && !approved.has(a.path))
      return void report.skipped.push({ path: a.path, reason: 'it differs from the service' });
    try {
      const outside = await leadsOutside(fs, root, a.path);
      if (outside !== undefined) return void report.failed.push({ path: a.path, message: outside });
      if (a.kind === 'create') await fs.create(join(root, a.path), a.text);
      else await fs.replace(join(root, a.path), a.text);
      (a.kind === 'create' ? report.created : report.updated).push(a.path);
    } catch (err) {
      report.failed.push({
        path: a.path,
        message: a.kind === 'create' && isAlreadyThere(err) ? APPEARED : errorMessage(err),
      });
    }
  }
}

/** "8 written (2 new), 3 unchanged, 1 skipped": what a pull did, in words. */
export function pullSummary(r: PullReport): string {
  const written = r.created.length + r.updated.length;
  const parts = [
    `${written} written${r.created.length > 0 && r.updated.length > 0 ? ` (${r.created.length} new)` : ''}`,
    `${r.unchanged.length} unchanged`,
    `${r.skipped.length} skipped`,
  ];
  if (r.failed.length > 0) parts.push(`${r.failed.length} failed`);
  if (r.removed.length > 0)
    parts.push(`${r.removed.length} stale temporary file${r.removed.length === 1 ? '' : 's'} removed`);
  return parts.join(', ');
}
