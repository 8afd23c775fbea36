// What `obs review` checks: the trigger files under its paths, and of them, with --changed-since, only those the
// change touches; the test files beside them that the change touches or that test a trigger file it touches (a
// changed recording counts for its test file). Without --changed-since everything under the paths is checked.
import { relative, resolve } from 'node:path';
import { parseTestFile, recordingPathFor, triggerPathFor, TRIGGER_TEST_SUFFIX } from '../backtest';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { expandPaths } from './files';
import type { MainIo } from './io';
import { testFolders } from './triggerTestFiles';
import { decodeStrict, readCommandLineFile } from './read';
import type { ChangedFiles } from './reviewChanged';

export interface ReviewScope {
  /** The trigger files to lint, as named (relative to the current folder). */
  lint: string[];
  /** Those of them a path names on its own (a file or a glob), not found by a folder's walk. */
  named: string[];
  /** The test files to run. */
  tests: string[];
  /** Whether a trigger file (by its path relative to the current folder) is one the change touches. */
  touches(file: string): boolean;
  /** Problems finding the files (a path that names nothing, a path outside the folder): each said, then exit 2. */
  problems: string[];
}

/** A path as git names it: relative to the current folder, '/'-separated. */
export function repoPath(cwd: string, file: string): string {
  return relative(cwd, resolve(cwd, file)).split('\\').join('/');
}

/** The trigger file a test file tests (relative to the current folder), when its text names one or its name does. */
async function testedBy(test: string, io: MainIo, maxBytes: number): Promise<string | undefined> {
  let named: string | undefined;
  try {
    const text = decodeStrict(await readCommandLineFile(test, io.cwd, maxBytes));
    const parsed = text === undefined ? undefined : parseTestFile(text);
    named = parsed?.ok === true ? parsed.file.trigger : undefined;
  } catch {
    // Unreadable: run anyway, and obs test's own read says why in the report.
  }
  const path = triggerPathFor(test, named);
  return path === undefined ? undefined : repoPath(io.cwd, path);
}

/** The trigger files whose text `seenOtherwise` says an environment now sees otherwise (by their git path). */
async function touchedByOverlay(
  files: readonly string[],
  seenOtherwise: ((text: string) => boolean) | undefined,
  io: MainIo,
  maxBytes: number,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (seenOtherwise === undefined) return out;
  for (const file of files) {
    let text: string | undefined;
    try {
      text = decodeStrict(await readCommandLineFile(file, io.cwd, maxBytes));
    } catch {
      // Unreadable: its lint says why; the plan blocks it whatever the change is.
    }
    if (text === undefined || seenOtherwise(text)) out.add(repoPath(io.cwd, file));
  }
  return out;
}

/**
 * `seenOtherwise`: with --env, for a change that edits the environments file, whether it changes how the
 * environment sees a trigger file's text (such a file is one the change touches).
 */
export async function reviewScope(
  paths: readonly string[],
  changed: ChangedFiles | undefined,
  io: MainIo,
  maxBytes: number,
  seenOtherwise?: (text: string) => boolean,
): Promise<ReviewScope> {
  const triggers = await expandPaths(paths, io.cwd, TRIGGER_FILE_SUFFIX);
  const problems = [...triggers.problems];
  const overlaid = await touchedByOverlay(triggers.files, seenOtherwise, io, maxBytes);
  const touches = (file: string) =>
    changed === undefined || changed.changed.has(repoPath(io.cwd, file)) || overlaid.has(repoPath(io.cwd, file));
  const lint = triggers.files.filter(touches);
  const found = await expandPaths(await testFolders(paths, io.cwd), io.cwd, TRIGGER_TEST_SUFFIX);
  // Folders without tests are no problem of a review: only a path refused or unreadable is.
  problems.push(...found.problems.filter((p) => !found.nothing.includes(p)));
  const tests: string[] = [];
  for (const test of found.files) {
    const own = repoPath(io.cwd, test);
    const mine = changed === undefined || changed.changed.has(own) || changed.changed.has(recordingPathFor(own));
    const tested = mine ? undefined : await testedBy(test, io, maxBytes);
    if (mine || (tested !== undefined && touches(tested))) tests.push(test);
  }
  const named = new Set(triggers.named);
  return { lint, named: lint.filter((f) => named.has(f)), tests, touches, problems };
}
