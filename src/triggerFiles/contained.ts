// Reading only inside a folder. A cloned repository may hold links to `/`, to a secret file or to
// `/proc/self/environ`: a command that works in a folder reads, walks and writes only what lies inside it
// once links are resolved. The one place that decides "inside" (obs's readers and apply, pull, the
// editor's readers and its id write-back), and the walk of a folder or a glob that never leaves it.
// No vscode import.
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import type { GlobOptions } from 'tinyglobby';
import { isSkippedFolder } from './searchRules';

const slashed = (path: string) => path.split('\\').join('/');
const code = (err: unknown) => (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined);

/** Whether `path` is `base` or lies under it (both real paths with `/` separators). */
export function within(base: string, path: string): boolean {
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  return path === b || path.startsWith(`${b}/`);
}

/**
 * Where `path` really is: links resolved, separators `/`; the part that does not exist yet is appended as
 * written. Throws what realpath throws for any other reason (a loop of links, no permission).
 */
export async function realPathOf(path: string): Promise<string> {
  const rest: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return slashed([await realpath(at), ...rest].join('/'));
    } catch (err) {
      const parent = dirname(at);
      if ((code(err) !== 'ENOENT' && code(err) !== 'ENOTDIR') || parent === at) throw err;
      rest.unshift(basename(at));
      at = parent;
    }
  }
}

/**
 * Where a path lies against a folder: inside it (links resolved), outside it as written, outside it through
 * a link (the path or a folder on its way), or unknown because its links could not be resolved.
 */
export type Placement = 'inside' | 'outside' | 'through-link' | 'unresolved';

/** Where `path` (relative to `root`, or absolute) lies against the folder `root`; `root` itself is inside. */
export async function placeIn(root: string, path: string): Promise<Placement> {
  const full = resolve(root, path);
  if (!within(slashed(resolve(root)), slashed(full))) return 'outside';
  try {
    const [base, real] = await Promise.all([realPathOf(root), realPathOf(full)]);
    return within(base, real) ? 'inside' : 'through-link';
  } catch {
    return 'unresolved';
  }
}

/** What obs says of a path it does not read: `<path> is outside the current folder: not read`. */
export function notReadText(
  path: string,
  placement: Exclude<Placement, 'inside'>,
  folder = 'the current folder',
): string {
  switch (placement) {
    case 'outside':
      return `${path} is outside ${folder}: not read`;
    case 'through-link':
      return `${path} leads outside ${folder} through a link: not read`;
    default:
      return `${path}: its links could not be resolved, so it may lead outside ${folder}: not read`;
  }
}

/** tinyglobby's globSync, handed in by the caller that loaded it (obs loads it only for a glob). */
export type GlobSync = (pattern: string, options: GlobOptions) => string[];

/** What a walk found: the files inside, and the links it met that lead outside (neither followed nor read). */
export interface FoundInside {
  /** Relative to the folder walked, `/` separators, sorted. */
  files: string[];
  /** Relative to the folder walked, sorted. */
  outside: string[];
  /**
   * What the walk could not read, by path relative to the folder walked (sorted), with why: folders it could
   * not list (no permission) and entries that look like its files but are not regular files (a FIFO, a
   * socket, a device). Either may hold a trigger.
   */
  unreadable: { path: string; reason: string }[];
}

/** The literal end of a pattern's last segment (`.trigger.json` of `*.trigger.json`): what a file of the walk ends with. */
function literalTail(pattern: string): string {
  const last = pattern.split('/').pop() ?? '';
  const star = Math.max(last.lastIndexOf('*'), last.lastIndexOf('?'), last.lastIndexOf(']'), last.lastIndexOf('}'));
  return last.slice(star + 1);
}

/** A readdirSync that records what the walk could not list, and the entries of its kind that are not files. */
function watchedReaddir(
  list: typeof readdirSync,
  dir: string,
  tail: string,
  unreadable: Map<string, string>,
): typeof readdirSync {
  const watched = (path: string, opts: { withFileTypes: true }): Dirent[] => {
    let entries: Dirent[];
    try {
      entries = list(path, opts);
    } catch (err) {
      const rel = slashed(relative(dir, path));
      // A folder that is not there holds nothing; one that is there and cannot be listed may hold triggers.
      const gone = code(err) === 'ENOENT' || code(err) === 'ENOTDIR';
      if (!gone && !skippedAnyway(rel))
        unreadable.set(
          rel === '' ? '.' : rel,
          `it is a folder that could not be listed (${String(code(err) ?? err)}), and its files may hold triggers`,
        );
      throw err;
    }
    for (const e of entries) {
      if (tail !== '' && e.name.endsWith(tail) && !e.isFile() && !e.isDirectory() && !e.isSymbolicLink()) {
        unreadable.set(
          slashed(relative(dir, resolve(path, e.name))),
          'it is not a regular file (a FIFO, socket or device): only files are read',
        );
      }
    }
    return entries;
  };
  // fdir calls readdirSync(path, { withFileTypes: true }) alone; the cast only names the overloads it never uses.
  return watched as unknown as typeof readdirSync;
}

/** Paths a walk skips anyway (node_modules, .git and other dot folders: searchRules.ts), so a link there is not worth a word. */
const skippedAnyway = (rel: string) => rel.split('/').some(isSkippedFolder);

/**
 * The files under `dir` matching `pattern` (tinyglobby's options apart from those set here; `options.fs.readdirSync`,
 * when given, is how folders are listed), found without leaving `root`. The walk follows a link to a folder only while it leads inside `root`: a link to `/` is
 * never walked. A file whose real path lies outside `root` is not among the files. Both are in `outside`.
 * `dir` must itself lie inside `root` (placeIn).
 */
export async function globInside(
  glob: GlobSync,
  root: string,
  dir: string,
  pattern: string,
  options: GlobOptions = {},
): Promise<FoundInside> {
  const base = await realPathOf(root);
  const links = new Set<string>();
  // The walk asks for a link's real path before it follows one: a folder outside is refused there (the
  // walk then leaves it), a file outside is let through to be matched by name and left out below.
  const guarded = (path: string) => {
    const real = realpathSync(path);
    if (within(base, slashed(real)) || !statSync(real).isDirectory()) return real;
    const rel = slashed(relative(dir, path));
    if (!skippedAnyway(rel)) links.add(rel);
    throw new Error(`${path} leads outside ${root}`);
  };
  // fdir calls realpathSync(path) alone; the cast only names the overloads it never uses.
  const unreadable = new Map<string, string>();
  const fs = {
    realpathSync: Object.assign(guarded, { native: guarded }) as unknown as typeof realpathSync,
    readdirSync: watchedReaddir(options.fs?.readdirSync ?? readdirSync, dir, literalTail(pattern), unreadable),
  };
  const found = glob(pattern, { ...options, cwd: dir, onlyFiles: true, followSymbolicLinks: true, fs });
  const files: string[] = [];
  for (const f of found) {
    if ((await placeIn(root, resolve(dir, f))) === 'inside') files.push(slashed(f));
    else links.add(slashed(f));
  }
  return {
    files: files.sort(),
    outside: [...links].sort(),
    unreadable: [...unreadable].sort(([a], [b]) => a.localeCompare(b)).map(([path, reason]) => ({ path, reason })),
  };
}
