// The files `obs apply` reads and writes: the trigger files a plan names (read as obs reads any file:
// regular files only, bounded, real paths inside the folder apply runs in), the id of a created trigger
// written back into its file, and the lock that keeps two applies in one folder from racing.
import { randomBytes } from 'node:crypto';
import { lstat, open, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errorText } from '../api/errors';
import { readTriggerFile, sha256, withId, type Plan, type PlanFile, type PlannedChange } from '../triggerFiles';
import { placeIn } from '../triggerFiles/contained';
import { LOCK_FILE } from './applyLock';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';

export interface PlannedFiles {
  /** The files as they are now, each read once. */
  files: Map<string, PlanFile>;
  /** Why the plan cannot be applied to them. */
  problems: string[];
}

/** Reads every file the plan read, and says which lie outside `cwd`, are gone, unreadable or changed. */
export async function readPlannedFiles(plan: Plan, cwd: string): Promise<PlannedFiles> {
  const files = new Map<string, PlanFile>();
  const problems: string[] = [];
  const named = [...new Set([...plan.files.map((f) => f.file), ...plan.changes.flatMap((c) => (c.action === 'delete' ? [] : [c.file]))])];
  for (const file of named) if ((await placeIn(cwd, file)) !== 'inside') problems.push(`it names ${file}, which is not inside the current folder: run obs apply where obs plan ran`);
  if (problems.length > 0) return { files, problems };
  const recorded = new Set(plan.files.map((f) => f.file));
  for (const file of named) if (!recorded.has(file)) problems.push(`a change names ${file}, which the plan did not read`);
  for (const f of plan.files) {
    let bytes: Uint8Array;
    try {
      bytes = await readCommandLineFile(f.file, cwd);
    } catch (e) {
      problems.push(e instanceof ReadProblem && e.reason === 'missing' ? `${f.file} is gone since the plan` : `cannot read ${f.file}: ${errorText(e)}`);
      continue;
    }
    const text = decodeStrict(bytes);
    if (text === undefined || sha256(text) !== f.sha256) problems.push(`${f.file} changed since the plan`);
    else files.set(f.file, { file: f.file, text, read: readTriggerFile(text) });
  }
  return { files, problems };
}

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

  /** The note said after the create: the id written, or why it was not (and what to add by hand). */
  readonly write = async (change: Create, id: string): Promise<string> => {
    const not = (why: string) => {
      this.missed.add(change.file);
      return `its id was not written into ${change.file}: ${why}; add "id": ${JSON.stringify(id)} yourself`;
    };
    const path = resolve(this.cwd, change.file);
    try {
      // A link is never replaced by a regular file (the rename below would do that).
      if (!(await lstat(path)).isFile()) return not('it is not a regular file');
      const text = decodeStrict(await readCommandLineFile(change.file, this.cwd));
      if (text === undefined || sha256(text) !== this.expected.get(change.file)) return not('the file changed meanwhile');
      const next = withId(text, change.index, id);
      if (next === text) return not('the file holds no such trigger, or one with two id members');
      await replaceWhole(path, next);
      this.expected.set(change.file, sha256(next));
      return `id written into ${change.file}`;
    } catch (e) {
      return not(errorText(e));
    }
  };
}

async function replaceWhole(path: string, text: string): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { flag: 'wx' });
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}

export { LOCK_FILE };

/**
 * Takes the folder's apply lock (an exclusive create): two applies of one plan at once would both see no
 * trigger of a new name and both create it. Answers the release, or undefined when another apply holds it.
 */
export async function takeApplyLock(cwd: string): Promise<(() => Promise<void>) | undefined> {
  const path = join(cwd, LOCK_FILE);
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
  } catch (e) {
    if (e instanceof Error && 'code' in e && e.code === 'EEXIST') return undefined;
    throw e;
  }
  return () => rm(path, { force: true });
}
