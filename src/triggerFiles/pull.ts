// Pull: the service's triggers written as canonical files, `<folder>/<dataset>/<name>.trigger.json`.
// A trigger's file is the one that links its id (wherever the user moved it in the dataset's folder),
// else the file of its dataset and name without an id, else a new file. A file that differs from the
// service's trigger is overwritten only when the caller approves; one that differs only in its
// formatting is left alone. No vscode import.
import { compareTriggers, type Difference } from './compare';
import type { PullItem } from './listing';
import { readTriggerFile } from './localFiles';
import { triggerFileText } from './normalize';
import { datasetFolder, triggerFileName, TRIGGER_FILE_SUFFIX } from './paths';
import { PullCancelled } from './pool';

/** The file operations a pull needs, on paths joined with `/` (node's fs in the CLI, the workspace's in the editor). */
export interface PullFileSystem {
  /** Names of the files directly in `dir`; undefined when `dir` does not exist. */
  list(dir: string): Promise<string[] | undefined>;
  /** The file's text; undefined when it does not exist. */
  read(path: string): Promise<string | undefined>;
  /** Writes the whole text (never half of it), creating the folders on the way. */
  write(path: string, text: string): Promise<void>;
}

/** A trigger file found in a dataset's folder, by its path relative to the pull folder (`api/x.trigger.json`). */
export interface ExistingFile {
  path: string;
  text: string;
}

export type PullAction =
  | { kind: 'create'; path: string; text: string; item: PullItem }
  /** The file differs from the service's trigger: written only when approved. */
  | { kind: 'update'; path: string; text: string; item: PullItem; differences: Difference[] }
  | { kind: 'unchanged'; path: string; item: PullItem };

interface Known {
  path: string;
  value: Record<string, unknown> | undefined;
  id?: string;
  name?: string;
  dataset?: string;
}

const join = (...parts: string[]) => parts.filter((p) => p !== '').join('/');

/** Reads the `*.trigger.json` files of each dataset folder under `root` (the folders the items go to). */
export async function scanExisting(fs: PullFileSystem, root: string, items: readonly PullItem[], signal?: AbortSignal): Promise<ExistingFile[]> {
  const folders = [...new Set(items.map((i) => datasetFolder(i.dataset)))].sort();
  const out: ExistingFile[] = [];
  for (const folder of folders) {
    if (signal?.aborted === true) throw new PullCancelled();
    const names = (await fs.list(join(root, folder))) ?? [];
    for (const name of names.filter((n) => n.endsWith(TRIGGER_FILE_SUFFIX)).sort()) {
      const text = await fs.read(join(root, folder, name));
      if (text !== undefined) out.push({ path: `${folder}/${name}`, text });
    }
  }
  return out;
}

/** Decides, for every trigger, its file and what to do with it. Deterministic for the same input. */
export function planPull(items: readonly PullItem[], existing: readonly ExistingFile[]): PullAction[] {
  const known: Known[] = existing.map((f) => {
    const read = readTriggerFile(f.text);
    // Only a file of one trigger is some trigger's file; an array file just occupies its name.
    const t = read.ok && read.triggers.length === 1 ? read.triggers[0] : undefined;
    return { path: f.path, value: t?.value, id: t?.id, name: t?.name, dataset: t?.dataset };
  });
  const byId = new Map<string, Known>();
  for (const k of known) if (k.id !== undefined && !byId.has(k.id)) byId.set(k.id, k);
  const taken = new Set(known.map((k) => k.path));
  const claimed = new Set<string>();
  const actions: PullAction[] = [];
  const pending: PullItem[] = [];

  const decide = (item: PullItem, file: Known & { value: Record<string, unknown> }) => {
    claimed.add(file.path);
    const differences = compareTriggers(file.value, item.trigger);
    if (differences.length === 0) actions.push({ kind: 'unchanged', path: file.path, item });
    else actions.push({ kind: 'update', path: file.path, text: triggerFileText(item.trigger), item, differences });
  };

  // First the files that link a trigger by id, so that a new trigger never takes a linked file's name.
  for (const item of items) {
    const linked = byId.get(item.trigger.id);
    if (linked?.value !== undefined && linked.path.startsWith(`${datasetFolder(item.dataset)}/`) && !claimed.has(linked.path)) decide(item, { ...linked, value: linked.value });
    else pending.push(item);
  }
  for (const item of pending) {
    const folder = datasetFolder(item.dataset);
    const sameName = known.find(
      (k) => k.id === undefined && !claimed.has(k.path) && k.value !== undefined && k.name === item.trigger.name && k.path.startsWith(`${folder}/`) && (k.dataset === undefined || k.dataset === item.dataset),
    );
    if (sameName?.value !== undefined) {
      decide(item, { ...sameName, value: sameName.value });
      continue;
    }
    let path = `${folder}/${triggerFileName(item.trigger)}`;
    if (taken.has(path) || claimed.has(path)) path = `${folder}/${triggerFileName(item.trigger, true)}`;
    for (let n = 2; taken.has(path) || claimed.has(path); n++) path = `${folder}/${triggerFileName({ ...item.trigger, id: `${item.trigger.id}-${n}` }, true)}`;
    claimed.add(path);
    actions.push({ kind: 'create', path, text: triggerFileText(item.trigger), item });
  }
  return actions.sort((a, b) => a.path.localeCompare(b.path));
}

export interface PullReport {
  /** Paths written, relative to the pull folder: new files and files overwritten. */
  created: string[];
  updated: string[];
  unchanged: string[];
  /** Files left as they were, and why (they differ locally and were not approved, unsaved edits...). */
  skipped: { path: string; reason: string }[];
  failed: { path: string; message: string }[];
  /** Set when the pull was cancelled part way: what is listed was done, nothing else. */
  cancelled: boolean;
}

export interface ApplyOptions {
  /** The files that differ locally to overwrite (their paths); the others are skipped. */
  approve: (updates: Extract<PullAction, { kind: 'update' }>[]) => Promise<ReadonlySet<string>>;
  /** A reason to leave a file alone whatever was approved (e.g. unsaved edits in the editor). */
  hold?: (path: string) => string | undefined;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Carries out a plan under `root`. Writes are whole-file; a failed write is reported and the rest go on. */
export async function applyPull(fs: PullFileSystem, root: string, actions: readonly PullAction[], o: ApplyOptions): Promise<PullReport> {
  const report: PullReport = { created: [], updated: [], unchanged: [], skipped: [], failed: [], cancelled: false };
  const updates = actions.filter((a): a is Extract<PullAction, { kind: 'update' }> => a.kind === 'update' && o.hold?.(a.path) === undefined);
  const approved = updates.length === 0 ? new Set<string>() : await o.approve(updates);
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

  async function apply(a: PullAction): Promise<void> {
    if (a.kind === 'unchanged') {
      report.unchanged.push(a.path);
      return;
    }
    const held = o.hold?.(a.path);
    if (held !== undefined) {
      report.skipped.push({ path: a.path, reason: held });
      return;
    }
    if (a.kind === 'update' && !approved.has(a.path)) {
      report.skipped.push({ path: a.path, reason: 'it differs from the service' });
      return;
    }
    try {
      await fs.write(join(root, a.path), a.text);
      (a.kind === 'create' ? report.created : report.updated).push(a.path);
    } catch (err) {
      report.failed.push({ path: a.path, message: err instanceof Error ? err.message : String(err) });
    }
  }
}

/** "8 written (2 new), 3 unchanged, 1 skipped": what a pull did, in words. */
export function pullSummary(r: PullReport): string {
  const written = r.created.length + r.updated.length;
  const parts = [`${written} written${r.created.length > 0 && r.updated.length > 0 ? ` (${r.created.length} new)` : ''}`, `${r.unchanged.length} unchanged`, `${r.skipped.length} skipped`];
  if (r.failed.length > 0) parts.push(`${r.failed.length} failed`);
  return parts.join(', ');
}
