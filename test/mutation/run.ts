// The mutation run (npm run test:mutation): proves the key tests can fail. For each known-bad edit of
// mutations.ts it copies the project (the files git knows, as they are in the working tree), runs the named
// test file on the copy (once per file), applies the edit, runs it again, and requires the named tests to have passed
// before and failed after. Exit 0 when every mutation is caught, 1 naming each one that is not.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { MUTATIONS, type Mutation } from './mutations';

const root = resolve(__dirname, '../..');

/** The project's files as git knows them (tracked and new, not ignored), copied with node_modules linked. */
function copyProject(): string {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  const copy = mkdtempSync(join(tmpdir(), 'obs-mutation-'));
  for (const file of listed.stdout.split('\0').filter((f) => f !== '')) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file), { dereference: false, errorOnExist: false });
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** Each test's outcome by title, from node's TAP output of one test file. */
function outcomes(copy: string, testFile: string): Map<string, boolean> {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', testFile], {
    cwd: copy,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const found = new Map<string, boolean>();
  for (const line of run.stdout.split('\n')) {
    const m = /^\s*(not ok|ok) \d+ - (.*)$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined) found.set(m[2].replace(/\\#/g, '#'), m[1] === 'ok');
  }
  return found;
}

/** Each test file's outcomes on the unmutated copy: run once per file, however many mutations name it. */
const unmutated = new Map<string, Map<string, boolean>>();

function unmutatedOutcomes(copy: string, testFile: string): Map<string, boolean> {
  const known = unmutated.get(testFile);
  if (known !== undefined) return known;
  const found = outcomes(copy, testFile);
  unmutated.set(testFile, found);
  return found;
}

/** Why the mutation is not caught, or undefined when every named test passed before and failed after. */
function notCaught(copy: string, mutation: Mutation): string | undefined {
  const path = join(copy, mutation.file);
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf(mutation.find);
  if (at < 0 || text.indexOf(mutation.find, at + 1) >= 0)
    return `its text occurs ${at < 0 ? 'nowhere' : 'more than once'} in ${mutation.file}: update mutations.ts`;
  const before = unmutatedOutcomes(copy, mutation.testFile);
  writeFileSync(path, text.slice(0, at) + mutation.replace + text.slice(at + mutation.find.length));
  try {
    const after = outcomes(copy, mutation.testFile);
    for (const title of mutation.mustFail) {
      if (before.get(title) !== true)
        return `"${title}" did not pass on the unmutated code (${before.has(title) ? 'failed' : 'not found'})`;
      if (after.get(title) !== false)
        return `"${title}" ${after.get(title) === true ? 'still passes' : 'did not run'} with the mutation`;
    }
    return undefined;
  } finally {
    writeFileSync(path, text);
  }
}

function main(): number {
  const copy = copyProject();
  try {
    let missed = 0;
    for (const mutation of MUTATIONS) {
      const why = notCaught(copy, mutation);
      process.stdout.write(
        `${why === undefined ? 'caught' : 'MISSED'}: ${mutation.name}${why === undefined ? '' : `\n  ${why}`}\n`,
      );
      if (why !== undefined) missed++;
    }
    process.stdout.write(`${MUTATIONS.length - missed} of ${MUTATIONS.length} mutations caught by the tests named\n`);
    return missed === 0 ? 0 : 1;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

process.exitCode = main();
