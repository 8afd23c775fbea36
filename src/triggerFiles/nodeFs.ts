// The pull's file operations on the local disk (node:fs): the CLI's, and the editor's for `file:`
// workspaces. A file is written to a temporary name beside it and renamed over it, so a reader (or a
// crash) never sees half of it. No vscode import.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { PullFileSystem } from './pull';

const code = (err: unknown) => (typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined);

export const nodeFileSystem: PullFileSystem = {
  async list(dir) {
    try {
      return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    } catch (err) {
      if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return undefined;
      throw err;
    }
  },
  async read(path) {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      if (code(err) === 'ENOENT') return undefined;
      throw err;
    }
  },
  async write(path, text) {
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, 'utf8');
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  },
};
