// The file operations a pull needs, on paths joined with `/`: node's fs in the CLI and for local folders
// in the editor (nodeFs.ts), the workspace's file system elsewhere. No vscode import.

/** What a directory entry is, links not followed. */
export type EntryKind = 'file' | 'link' | 'folder' | 'other';

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

export interface PullFileSystem {
  /** The entries directly in `dir`, links not followed; undefined when `dir` does not exist. */
  list(dir: string): Promise<DirEntry[] | undefined>;
  /** The file's text (a link is read through); undefined when there is no file there. */
  read(path: string): Promise<string | undefined>;
  /**
   * Writes a new file whole, creating the folders on the way. Never replaces anything: when anything is
   * at `path` (a file, a folder, a link, even one leading nowhere), including something that appeared
   * a moment ago, it rejects with an error whose `code` is `EEXIST`.
   */
  create(path: string, text: string): Promise<void>;
  /** Replaces an existing file whole (never half of it); through a link, the file the link leads to. */
  replace(path: string, text: string): Promise<void>;
  /**
   * Where `path` really is: links resolved, separators `/`; the part that does not exist yet is appended
   * as it is. Absent where links cannot be resolved: pull then leaves every link alone.
   */
  realPath?(path: string): Promise<string>;
  /**
   * Removes the temporary files this file system's own writes left in `dir` when they were interrupted
   * (only names of its exact pattern, only once old enough to be surely unused); their names.
   */
  removeStale?(dir: string): Promise<string[]>;
}

/** `path` relative to `base` when it lies under it (`api/x.trigger.json`). */
export function relativeTo(base: string, path: string): string {
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  return path === b ? '' : path.slice(b.length + 1);
}

/** The error `create` rejects with when something is already at the path. */
export function isAlreadyThere(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EEXIST';
}

export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));
