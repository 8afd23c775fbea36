// The pull's file operations on the local disk (node:fs): the CLI's, and the editor's for `file:`
// workspaces. Every file is first written whole to a temporary name beside it, `<name>.<8 hex>.tmp`, so
// a reader (or a crash) never sees half of it. A new file is then hard-linked to its name, which fails
// when anything at all is there, so nothing that appeared meanwhile is ever replaced; an approved
// update is renamed over the file. No vscode import.
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Dirent } from 'node:fs';
import { realPathOf } from './contained';
import type { DirEntry, PullFileSystem } from './pullFs';
import { readRegularFile, ReadProblem } from './regularFile';

const code = (err: unknown) => (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined);

/** The temporary files of this module's writes: `<anything>.trigger.json.<8 lower-case hex>.tmp` (or of a burn alert or definitions file). */
const TEMP_NAME = /\.(trigger|burn-alert|definitions)\.json\.[0-9a-f]{8}\.tmp$/;
/** A temporary file lives for the milliseconds of one write; one this old was left by a write that died. */
export const STALE_TEMP_MS = 5 * 60 * 1000;

// File systems without hard links (FAT, some network shares) answer link() so; an exclusive create
// (O_CREAT|O_EXCL, which does not follow a link either) is used there instead.
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

const tempBeside = (path: string) => `${path}.${randomBytes(4).toString('hex')}.tmp`;

/**
 * Writes `text` whole at `path`: to a new temporary file beside it, then renamed over it, so a reader
 * (a CI job reading a report, an apply reading a plan) never sees half of it, and a failed write leaves
 * what was there. The one atomic write of the CLI and of the editor's local files.
 */
export async function writeWhole(path: string, text: string): Promise<void> {
  const temp = tempBeside(path);
  try {
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

function kindOf(e: Dirent): DirEntry['kind'] {
  if (e.isSymbolicLink()) return 'link';
  if (e.isFile()) return 'file';
  return e.isDirectory() ? 'folder' : 'other';
}

export const nodeFileSystem: PullFileSystem & { realPath(path: string): Promise<string> } = {
  async list(dir) {
    try {
      return (await readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, kind: kindOf(e) }));
    } catch (err) {
      if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return undefined;
      throw err;
    }
  },
  async read(path) {
    // A regular file only, and bounded: a link to a FIFO would block the pull, a huge file fill the memory.
    try {
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await readRegularFile(path, '/'));
    } catch (err) {
      if (err instanceof ReadProblem && err.reason === 'missing') return undefined;
      throw err;
    }
  },
  async create(path, text) {
    await mkdir(dirname(path), { recursive: true });
    const temp = tempBeside(path);
    try {
      await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
      await link(temp, path);
    } catch (err) {
      if (!NO_HARD_LINKS.has(String(code(err)))) throw err;
      await writeFile(path, text, { encoding: 'utf8', flag: 'wx' });
    } finally {
      await rm(temp, { force: true });
    }
  },
  async replace(path, text) {
    // Through a link, the file it leads to is replaced and the link stays (pull checked where it leads).
    await writeWhole(await realpath(path), text);
  },
  realPath: realPathOf,
  async removeStale(dir) {
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => TEMP_NAME.test(n));
    const removed: string[] = [];
    for (const name of names.sort()) {
      const full = join(dir, name);
      const info = await lstat(full).catch(() => undefined);
      if (info === undefined || !info.isFile() || Date.now() - info.mtimeMs < STALE_TEMP_MS) continue;
      await rm(full, { force: true });
      removed.push(name);
    }
    return removed;
  },
};
