// The file `obs test --out` and `obs plan --out` write: checked before the run, so a report that cannot be
// written is known before minutes of queries (not after them, worded as if a test failed), and written whole
// after it, its missing folders made then (one mkdir a level: outFolder.ts).
import { randomBytes } from 'node:crypto';
import { rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeWhole } from '../triggerFiles/nodeFs';
import { makeFolder, OutFolderError, reasonOf } from './outFolder';

/** The folders made for `file`, or why they cannot be. */
async function folderFor(file: string): Promise<{ created: string[] } | { problem: string }> {
  try {
    return { created: await makeFolder(dirname(file)) };
  } catch (e) {
    if (e instanceof OutFolderError) return { problem: e.message };
    throw e;
  }
}

/**
 * Why `file` (absolute) cannot be written, or undefined when it can: a folder in its place, a folder of its
 * path that cannot be made, a folder that takes no new file. Leaves the disk as it was: the folders and the
 * empty file it creates to know, it removes.
 */
export async function outFileProblem(file: string): Promise<string | undefined> {
  if ((await stat(file).catch(() => undefined))?.isDirectory() === true) return `${file} is a folder`;
  const folder = await folderFor(file);
  if ('problem' in folder) return folder.problem;
  // The name writeWhole writes to first: what the check creates is what the write will.
  const probe = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(probe, '', { flag: 'wx' });
    await rm(probe, { force: true });
    return undefined;
  } catch (e) {
    return `cannot create a file in ${dirname(file)}: ${reasonOf(e, 'file')}`;
  } finally {
    for (const d of folder.created.reverse()) await rmdir(d).catch(() => undefined);
  }
}

/** Writes `text` whole at `file` (absolute), making its missing folders; why it could not (nothing left), or undefined. */
export async function writeOutFile(file: string, text: string): Promise<string | undefined> {
  const folder = await folderFor(file);
  if ('problem' in folder) return folder.problem;
  try {
    await writeWhole(file, text);
    return undefined;
  } catch (e) {
    for (const d of folder.created.reverse()) await rmdir(d).catch(() => undefined);
    return reasonOf(e, 'file');
  }
}
