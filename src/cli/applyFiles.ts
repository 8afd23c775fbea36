// What `obs apply` writes besides the service: the id of a created trigger, back into its file (only while
// the file is as the plan read it, never through a link), and the lock that keeps two applies in one folder
// from racing.
import { lstat, open, readFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorText } from '../api/errors';
import { sha256, withId, type Plan, type PlannedChange } from '../triggerFiles';
import { placeIn } from '../triggerFiles/contained';
import { writeWhole } from '../triggerFiles/nodeFs';
import { LOCK_FILE } from './applyLock';
import { decodeStrict, readCommandLineFile } from './read';

type Create = Extract<PlannedChange, { action: 'create' }>;

/** Writes created triggers' ids into their files, only while a file is as the plan (or an earlier id) left it. */
export class IdWriter {
  private readonly expected: Map<string, string>;
  /** The files a created trigger's id could not be written into: the user must add it (apply exits 1). */
  readonly missed = new Set<string>();

  constructor(
    plan: Plan,
    private readonly cwd: string,
  ) {
    this.expected = new Map(plan.files.map((f) => [f.file, f.sha256]));
  }

  /** The note of a create planned with --match-by-name: the file's ids are another environment's, so none is written. */
  static readonly notWritten = (change: Create, id: string): Promise<string> =>
    Promise.resolve(
      `its id ${JSON.stringify(id)} was not written into ${change.file}: the plan matched triggers by dataset and name (--match-by-name), and the file's ids are another environment's`,
    );

  /** The note of a create planned for an environment other than the home one, whose ids the files hold. */
  static notWrittenFor(environment: string): (change: Create, id: string) => Promise<string> {
    return (change, id) =>
      Promise.resolve(
        `its id ${JSON.stringify(id)} was not written into ${change.file}: ` +
          `the file's ids are the home environment's, and ${environment} is matched by dataset and name`,
      );
  }

  /** The note said after the create: the id written, or why it was not (and what to add by hand). */
  readonly write = async (change: Create, id: string): Promise<string> => {
    const not = (why: string) => {
      this.missed.add(change.file);
      return `its id was not written into ${change.file}: ${why}; add "id": ${JSON.stringify(id)} yourself`;
    };
    const path = resolve(this.cwd, change.file);
    try {
      // A link is never replaced by a regular file (the rename below would do that), and nothing is written
      // outside the folder apply runs in, whatever folder link leads there.
      if (!(await lstat(path)).isFile()) return not('it is not a regular file');
      if ((await placeIn(this.cwd, path)) !== 'inside')
        return not('it lies outside the current folder once links are resolved');
      const text = decodeStrict(await readCommandLineFile(change.file, this.cwd));
      if (text === undefined || sha256(text) !== this.expected.get(change.file))
        return not('the file changed meanwhile');
      const next = withId(text, change.index, id);
      if (next === text) return not('the file holds no such trigger, or one with two id members');
      await writeWhole(path, next);
      this.expected.set(change.file, sha256(next));
      return `id written into ${change.file}`;
    } catch (e) {
      return not(errorText(e));
    }
  };
}

/** Whether a process of this id runs on this machine (a lock's holder). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e instanceof Error && 'code' in e && e.code === 'EPERM';
  }
}

/** Who holds the lock, in words, from the process id written into it. */
async function holder(path: string): Promise<string> {
  const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
  if (!Number.isInteger(pid) || pid <= 0)
    return `another obs apply is running in this folder (or one was killed: then remove ${LOCK_FILE})`;
  return running(pid)
    ? `another obs apply is running in this folder (process ${pid})`
    : `an obs apply that no longer runs (process ${pid}) left ${LOCK_FILE}: make sure no apply runs here, remove it and apply again`;
}

/**
 * Takes the folder's apply lock (an exclusive create): two applies of one plan at once would both see no
 * trigger of a new name and both create it. Answers the release, or who holds the lock. A lock a process that
 * no longer runs left behind is named as such, never taken over: the folder may be shared with another machine.
 */
export async function takeApplyLock(cwd: string): Promise<{ release: () => Promise<void> } | { heldBy: string }> {
  const path = join(cwd, LOCK_FILE);
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
  } catch (e) {
    if (e instanceof Error && 'code' in e && e.code === 'EEXIST') return { heldBy: await holder(path) };
    throw e;
  }
  return { release: () => rm(path, { force: true }) };
}
