import { randomBytes } from 'node:crypto';
import { link, open, readdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DataFileError, removeLeftoverTempFiles } from './persistence';

// One sandbox per data file: `<file>.lock` names the process using it. Files are only ever created
// exclusively (the one atomic test-and-set a file system offers), never replaced, so two sandboxes
// starting at once cannot both believe they hold the lock:
// - a lock (or a claim, below) appears whole: written to a private file, then hard-linked into place,
//   which fails when the name exists;
// - a stale lock (its process is gone) is removed only by the process that created the claim
//   `<file>.lock.takeover-<id of that lock>`, and only while the lock still holds that id; whoever loses
//   the claim lets the winner finish. Removed, the lock is created again exclusively, by whoever is first.
// - a claim whose process died mid-takeover is stale in turn and removed the same way (a claim on the
//   claim), so a crash at any step leaves nothing that blocks the next start.

/** The data file's lock, held until released. */
export interface DataFileLock {
  release(): Promise<void>;
}

/** What a lock or claim file says: the process that made it, and an id new for every file made. */
interface Entry {
  pid: number | undefined;
  id: string;
}

/** Rounds of "create, else inspect and remove the stale one" before giving up (each round removes one). */
const MAX_ROUNDS = 16;
/** Where hard links are not supported (FAT, some shares), a lock is written in place instead. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP', 'EXDEV']);

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;
const newId = (): string => randomBytes(8).toString('hex');

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return codeOf(err) === 'EPERM';
  }
}

const isLive = (entry: Entry): boolean => entry.pid !== undefined && processAlive(entry.pid);

/** Creates `path` holding this process and `id`, whole, unless it exists: true when created. */
async function createEntry(path: string, id: string): Promise<boolean> {
  const text = `${JSON.stringify({ pid: process.pid, id })}\n`;
  const temp = `${path}.${process.pid}.${id}.new`;
  await writeFile(temp, text, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, path);
    return true;
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return false;
    if (!NO_LINKS.has(codeOf(err) ?? '')) throw err;
    // Without links the file is empty for the moment between create and write.
    const written = await writeFile(path, text, { mode: 0o600, flag: 'wx' }).then(
      () => true,
      (e: unknown) => (codeOf(e) === 'EEXIST' ? false : Promise.reject(e)),
    );
    return written;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * The entry at `path`, or undefined when there is none. A file without an id (a lock written by an
 * earlier version, or a damaged one) is named by its inode and modification time, which stay the same
 * for as long as that file does.
 */
async function readEntry(path: string): Promise<Entry | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const info = await handle.stat();
    const text = await handle.readFile('utf8');
    let parsed: { pid?: unknown; id?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // Damaged: no process named, so it is stale.
    }
    const pid = typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) ? parsed.pid : undefined;
    const id =
      typeof parsed.id === 'string' && /^[0-9a-f]{16}$/.test(parsed.id)
        ? parsed.id
        : `f${info.ino}-${Math.round(info.mtimeMs * 1000)}`;
    return { pid, id };
  } finally {
    await handle.close();
  }
}

/** Removes `path` if it is still the file `id` names (nobody else may remove that file meanwhile). */
async function removeIfStill(path: string, id: string): Promise<void> {
  if ((await readEntry(path))?.id !== id) return;
  await unlink(path).catch((err: unknown) => (codeOf(err) === 'ENOENT' ? undefined : Promise.reject(err)));
}

/**
 * Removes the stale entry `stale` found at `path`, under its claim. Answers the pid of a live process
 * that is taking it over already (the caller then stands down), else undefined: the entry is gone.
 */
async function removeStale(lock: string, path: string, stale: Entry, depth: number): Promise<number | undefined> {
  if (depth > MAX_ROUNDS) throw new Error(`too many abandoned takeovers of ${lock}`);
  const claim = `${lock}.takeover-${stale.id}`;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const id = newId();
    if (await createEntry(claim, id)) {
      try {
        await removeIfStill(path, stale.id);
      } finally {
        await removeIfStill(claim, id);
      }
      return undefined;
    }
    const holder = await readEntry(claim);
    if (holder === undefined) continue;
    if (holder.pid !== undefined && isLive(holder)) return holder.pid;
    const busy = await removeStale(lock, claim, holder, depth + 1);
    if (busy !== undefined) return busy;
  }
  throw new Error(`${claim} kept changing`);
}

function inUse(file: string, pid: number): DataFileError {
  return new DataFileError(
    'data-file-in-use',
    file,
    `data file ${file} is in use by another sandbox (process ${pid}); stop it, or give another --data file`,
  );
}

/** Creates the lock, taking over a stale one: the id of the lock made. */
async function acquire(file: string, lock: string): Promise<string> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const id = newId();
    if (await createEntry(lock, id)) return id;
    const holder = await readEntry(lock);
    if (holder === undefined) continue;
    if (holder.pid !== undefined && isLive(holder)) throw inUse(file, holder.pid);
    const busy = await removeStale(lock, lock, holder, 0);
    if (busy !== undefined) throw inUse(file, busy);
  }
  throw new Error(`${lock} kept changing`);
}

/**
 * Files a killed process left beside the lock: its private copies (`<lock>.<pid>.<id>.new`) and claims
 * of a takeover it did not finish. With the lock held, a claim whose process is gone names a lock that
 * no longer exists, so removing it cannot let anyone remove a live lock.
 */
async function removeLeftovers(lock: string): Promise<void> {
  const dir = dirname(lock);
  const prefix = `${basename(lock)}.`;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dir, name);
    const copy = /\.(\d+)\.[0-9a-f]{16}\.new$/.exec(name);
    if (copy) {
      if (Number(copy[1]) !== process.pid && !processAlive(Number(copy[1]))) await unlink(path).catch(() => undefined);
      continue;
    }
    if (!name.startsWith(`${prefix}takeover-`)) continue;
    const holder = await readEntry(path).catch(() => undefined);
    if (holder?.pid !== undefined && !isLive(holder)) await removeIfStill(path, holder.id).catch(() => undefined);
  }
}

/**
 * Takes the data file for this process. Two sandboxes saving one file would each overwrite the other's
 * writes, so a file whose lock names a live process is refused; a lock left by a process that no longer
 * runs (a killed sandbox) is taken over, by one of the sandboxes starting at once. With the lock held,
 * any temporary file of the data file was left by a killed sandbox, and is removed.
 */
export async function lockDataFile(file: string): Promise<DataFileLock> {
  const lock = `${file}.lock`;
  let id: string;
  try {
    id = await acquire(file, lock);
  } catch (err) {
    if (err instanceof DataFileError) throw err;
    throw new DataFileError(
      'data-file-unwritable',
      file,
      `cannot lock data file ${file} (${lock}): ${(err as Error).message}`,
    );
  }
  await removeLeftovers(lock);
  await removeLeftoverTempFiles(file);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      await removeIfStill(lock, id).catch(() => undefined);
    },
  };
}
