// The folder `obs pull --out` writes into, made one level at a time. Node's recursive mkdir never
// returns where the file system refuses a new folder with ENOENT under a parent that exists (/proc,
// /sys): it retries the parent and the child forever. Here each level is one mkdir, so any --out
// fails at once with its reason.
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errorText } from '../api/errors';

/** A folder pull cannot write into: exit 2, nothing written. */
export class OutFolderError extends Error {
  readonly kind = 'out-folder';
}

const errnoCode = (e: unknown) => (e instanceof Error && 'code' in e ? e.code : undefined);

/** Why the file system refused a new folder (or file), in words. */
export function reasonOf(e: unknown, what: 'folder' | 'file' = 'folder'): string {
  switch (errnoCode(e)) {
    case 'ENOENT':
      return `the file system allows no new ${what} there`;
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file of that name is in the way';
    default:
      return errorText(e);
  }
}

/** The folders of `dir`'s path that do not exist yet, outermost first (at most one per path segment). */
async function missingFolders(dir: string): Promise<string[]> {
  const missing: string[] = [];
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      if ((await stat(d)).isDirectory()) return missing;
      throw new OutFolderError(`${d} is not a folder`);
    } catch (e) {
      if (e instanceof OutFolderError) throw e;
      // ENOTDIR: a parent is a file; going up finds it and names it.
      if (errnoCode(e) !== 'ENOENT' && errnoCode(e) !== 'ENOTDIR')
        throw new OutFolderError(`cannot use the folder ${d}: ${reasonOf(e)}`);
    }
    missing.unshift(d);
    if (dirname(d) === d) return missing;
  }
}

/** Creates `dir` and its missing parents, one mkdir each; returns those created, outermost first. */
export async function makeFolder(dir: string): Promise<string[]> {
  const created: string[] = [];
  for (const d of await missingFolders(dir)) {
    try {
      await mkdir(d);
    } catch (e) {
      if (errnoCode(e) === 'EEXIST' && (await stat(d).catch(() => undefined))?.isDirectory() === true) continue;
      throw new OutFolderError(`cannot create the folder ${d}: ${reasonOf(e)}`);
    }
    created.push(d);
  }
  return created;
}

/** Fails unless `dir` is a folder or can be created; leaves the disk as it was (what it creates to know, it removes). */
export async function checkOutFolder(dir: string): Promise<void> {
  const created = await makeFolder(dir);
  for (const d of created.reverse()) await rmdir(d).catch(() => undefined);
}
