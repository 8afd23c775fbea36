// The files a pull request changes, for `obs review --changed-since REF`: what git says differs between the
// commit where the branch left REF (their merge base) and the working tree, plus the files git does not track
// yet, each relative to the current folder. Renames are a delete and an add, as a plan sees them.
import { execFile } from 'node:child_process';
import type { Outcome } from '../result';

export interface ChangedFiles {
  /** The commit compared with: where the current branch left the ref. */
  base: string;
  /** Files added or modified since the merge base (untracked ones included), relative to the current folder. */
  changed: Set<string>;
  /** Files that existed at the merge base and no longer do. */
  deleted: Set<string>;
}

/** git's output, or why it failed in its own words (first line); a missing git is said as such. */
function git(cwd: string, args: readonly string[]): Promise<Outcome<{ out: string }>> {
  return new Promise((done) => {
    execFile('git', [...args], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) return done({ ok: true, out: stdout });
      const code = (error as NodeJS.ErrnoException).code;
      const said = stderr.split('\n').find((l) => l.trim() !== '') ?? error.message;
      done({ ok: false, reason: code === 'ENOENT' ? 'git is not installed' : said.trim() });
    });
  });
}

/** NUL-separated fields, the last one empty. */
const fields = (out: string) => out.split('\0').filter((f) => f !== '');

/**
 * What changed since `ref`, or why it cannot be told: not a git repository, or a ref git does not know (a
 * shallow clone lacks the base: fetch it, for example with fetch-depth: 0).
 */
export async function changedSince(ref: string, cwd: string): Promise<Outcome<ChangedFiles>> {
  // A ref that looks like an option would be read as one by git.
  if (ref.startsWith('-')) return { ok: false, reason: `"${ref}" is not a git ref` };
  const known = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (!known.ok)
    return {
      ok: false,
      reason: `git does not know the commit "${ref}" here (${known.reason || 'no such ref'}); in a shallow clone, fetch it first`,
    };
  const base = await git(cwd, ['merge-base', '--end-of-options', ref, 'HEAD']);
  if (!base.ok) return { ok: false, reason: `git finds no common commit of "${ref}" and HEAD (${base.reason})` };
  const diff = await git(cwd, ['diff', '--name-status', '-z', '--no-renames', '--relative', base.out.trim()]);
  if (!diff.ok) return { ok: false, reason: `git could not compare with "${ref}": ${diff.reason}` };
  const untracked = await git(cwd, ['ls-files', '--others', '--exclude-standard', '-z']);
  if (!untracked.ok) return { ok: false, reason: `git could not list the untracked files: ${untracked.reason}` };
  const changed = new Set(fields(untracked.out));
  const deleted = new Set<string>();
  const parts = fields(diff.out);
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [status, path] = [parts[i] ?? '', parts[i + 1] ?? ''];
    (status === 'D' ? deleted : changed).add(path);
  }
  return { ok: true, base: base.out.trim(), changed, deleted };
}

/** A file's text at a commit (its path relative to the current folder), or undefined when git cannot show it. */
export async function textAt(cwd: string, commit: string, file: string): Promise<string | undefined> {
  const shown = await git(cwd, ['show', `${commit}:./${file}`]);
  return shown.ok ? shown.out : undefined;
}

/** The lines (1-based) of each file that a change adds or edits; a file git does not know yet is changed whole. */
export type ChangedLines = ReadonlyMap<string, ReadonlySet<number> | 'whole'>;

/** `@@ -a,b +c,d @@`: the new side's first line and count (a count of 0 is a deletion after line c). */
const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/**
 * The lines of `files` (relative to the current folder) that differ from the base, by git's diff without
 * context; a deletion marks the lines either side of it. Undefined when git cannot tell.
 */
export async function changedLines(cwd: string, changed: ChangedFiles, files: readonly string[]) {
  const out = new Map<string, Set<number> | 'whole'>();
  if (files.length === 0) return out;
  const args = ['-c', 'core.quotePath=false', 'diff', '-U0', '--no-renames', '--relative', '--no-color', changed.base];
  const diff = await git(cwd, [...args, '--', ...files]);
  if (!diff.ok) return undefined;
  let current: Set<number> | undefined;
  for (const line of diff.out.split('\n')) {
    if (line.startsWith('+++ ')) {
      const path = line.startsWith('+++ b/') ? line.slice('+++ b/'.length) : undefined;
      current = path === undefined ? undefined : new Set<number>();
      if (path !== undefined && current !== undefined) out.set(path, current);
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk === null || current === undefined) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (count === 0) [start, start + 1].forEach((n) => current?.add(n));
    for (let n = start; n < start + count; n++) current.add(n);
  }
  // What git does not track yet has no lines at the base: all of it is the change's.
  for (const f of files) if (!out.has(f) && changed.changed.has(f)) out.set(f, 'whole');
  return out;
}
