// The files a command line names: paths as written, globs expanded by tinyglobby (picomatch's
// dialect: `*`, `**`, `?`, `[abc]`, `[!abc]`, `{a,b}`; wildcards skip dot files, as in shells), and
// folders (every trigger file under them; for obs test, every test file). A path that names nothing (it
// does not exist, a glob that matches no file, a folder without such a file) is one of `nothing`: every
// command stops on it before it reads a file or asks the service anything.
// node_modules and dot folders are never searched (triggerFiles/searchRules.ts), and a glob never takes a
// trigger test file (`*.trigger-test.json`) or its recording (`*.trigger-test.recording.json`) for a trigger
// file: `triggers/**/*.json` holds the tests kept beside them. A walk never follows a link out of the folder it keeps to (triggerFiles/contained.ts).
// tinyglobby (with picomatch and fdir) is loaded only when a target may be a glob: `obs lint a.json`
// starts without it.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { isTestSideFile, TRIGGER_TEST_SUFFIX } from '../backtest/testPaths';
import { globInside, notReadText, placeIn, type FoundInside } from '../triggerFiles/contained';
import { SKIPPED_BY_GLOBS } from '../triggerFiles/searchRules';

type Globber = typeof import('tinyglobby');
let loaded: Globber | undefined;
const globber = async (): Promise<Globber> => (loaded ??= await import('tinyglobby'));

/** A character without which picomatch sees no glob (a pattern, an extglob or a negation). */
const GLOB_CHARACTER = /[*?[{(!+@]/;

const slashed = (target: string) => target.split('\\').join('/');

/** Whether a target is a glob, as tinyglobby reads one. */
export async function isGlob(target: string): Promise<boolean> {
  const path = slashed(target);
  return GLOB_CHARACTER.test(path) && (await globber()).isDynamicPattern(path);
}

/** Files under `cwd/base` matching `pattern`, sorted, each as `base/<path>` (the base as written), found inside `root`. */
async function globUnder(base: string, pattern: string, cwd: string, root: string): Promise<FoundInside> {
  const dir = base === '' ? cwd : resolve(cwd, base);
  const found = await globInside((await globber()).globSync, root, dir, pattern, {
    ignore: SKIPPED_BY_GLOBS,
    expandDirectories: false,
    dot: false,
  });
  const prefix = base === '' ? '' : `${base.replace(/\/+$/, '')}/`;
  return {
    files: found.files.map((f) => `${prefix}${f}`),
    outside: found.outside.map((f) => `${prefix}${f}`),
    unreadable: found.unreadable.map((u) => ({ ...u, path: `${prefix}${u.path}` })),
  };
}

/** A glob split at its first dynamic segment: the folder it searches (as written) and the pattern under it. */
async function splitGlob(pattern: string): Promise<{ base: string; rest: string }> {
  const { isDynamicPattern } = await globber();
  const segments = slashed(pattern).split('/');
  let firstMagic = segments.findIndex((s) => isDynamicPattern(s));
  if (firstMagic < 0) firstMagic = segments.length - 1;
  const base = segments.slice(0, firstMagic).join('/');
  return { base: isAbsolute(pattern) && base === '' ? '/' : base, rest: segments.slice(firstMagic).join('/') };
}

/**
 * Files under `cwd` matching the glob, sorted; paths keep the glob's static prefix as written. The walk keeps
 * inside `root` (default: the folder the glob searches): links leading out of it are in `outside`.
 */
export async function expandGlob(
  pattern: string,
  cwd: string,
  options: { keepTests?: boolean; root?: string } = {},
): Promise<FoundInside> {
  const { base, rest } = await splitGlob(pattern);
  const found = await globUnder(base, rest, cwd, options.root ?? resolve(cwd, base));
  return options.keepTests === true ? found : { ...found, files: found.files.filter((f) => !isTestSideFile(f)) };
}

/** The files of a command line, each once in order, and what named none (a glob that matched nothing). */
export interface Targets {
  files: string[];
  /** Everything wrong with the paths, one line each, `nothing` among them. */
  problems: string[];
  /** What each path that names no file says: `x: no such file or folder`, `no file matches x`, `no *.x file under x`. */
  nothing: string[];
  /** Paths not read because they lie outside the folder read (links resolved); each is also a problem. */
  outside: string[];
  /** The files named on their own (a file path), not also found by a folder's or a glob's walk. */
  named: string[];
  /** What a walk could not read, with why: a folder it could not list, an entry like its files that is not a file. */
  unreadable: { path: string; reason: string }[];
}

type Collector = Targets & {
  add(file: string, how?: 'named' | 'walked'): void;
  refuse(path: string, problem: string): void;
  none(problem: string): void;
};

function collector(cwd: string): Collector {
  const seen = new Set<string>();
  const walked = new Set<string>();
  const named = new Map<string, string>();
  const out = {
    files: [] as string[],
    problems: [] as string[],
    nothing: [] as string[],
    outside: [] as string[],
    unreadable: [] as { path: string; reason: string }[],
    get named(): string[] {
      return [...named].filter(([key]) => !walked.has(key)).map(([, file]) => file);
    },
    add(file: string, how: 'named' | 'walked' = 'walked') {
      const key = resolve(cwd, file);
      if (how === 'walked') walked.add(key);
      else if (!named.has(key)) named.set(key, file);
      if (seen.has(key)) return;
      seen.add(key);
      out.files.push(file);
    },
    refuse(path: string, problem: string) {
      out.outside.push(path);
      out.problems.push(problem);
    },
    none(problem: string) {
      out.nothing.push(problem);
      out.problems.push(problem);
    },
  };
  return out;
}

const result = (out: Targets): Targets => ({
  files: out.files,
  problems: out.problems,
  nothing: out.nothing,
  outside: out.outside,
  named: out.named,
  unreadable: out.unreadable,
});

/** What obs says of a path that is not there. */
const missingText = (path: string) => `${path}: no such file or folder`;

/** Whether `full` is a folder (a link to one counts). */
const isFolder = (full: string) => statSync(full, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * Files named by the targets (lint), in the order given; globs expand sorted, and a folder stands for every
 * `*<suffix>` file under it, as for drift and plan. A target that names an existing path is taken as written,
 * even with glob characters (`a[1].json`), and wherever it lies (the user named it); the walk of a glob or a
 * folder keeps inside the folder it searches.
 */
export async function expandTargets(targets: readonly string[], cwd: string, suffix: string): Promise<Targets> {
  const out = collector(cwd);
  for (const target of targets) {
    const full = resolve(cwd, target);
    const exists = existsSync(full);
    if (exists && isFolder(full)) {
      const base = folderBase(target);
      walkInto(out, await globUnder(base, `**/*${suffix}`, cwd, full), base, `no *${suffix} file under ${target}`);
    } else if (exists) {
      out.add(target, 'named');
    } else if (await isGlob(target)) {
      walkInto(out, await expandGlob(target, cwd), (await splitGlob(target)).base, `no file matches ${target}`);
    } else {
      out.none(missingText(target));
    }
  }
  return result(out);
}

/** Adds what lint's walk of a glob or a folder (`base`: where it searched) found; `none` when it found nothing. */
function walkInto(out: Collector, found: FoundInside, base: string, none: string): void {
  const folder = base === '' ? 'the current folder' : base;
  for (const o of found.outside) out.refuse(o, notReadText(o, 'through-link', folder));
  for (const u of found.unreadable) out.problems.push(`cannot read ${u.path}: ${u.reason}`);
  if (found.files.length === 0 && found.outside.length === 0 && found.unreadable.length === 0) out.none(none);
  found.files.forEach((f) => out.add(f));
}

/**
 * As expandTargets, and a folder stands for every `*<suffix>` file under it (drift, plan, test); only what lies
 * inside `cwd`, links resolved, is taken: a path outside it is refused, and no walk follows a link out of it.
 */
export async function expandPaths(
  paths: readonly string[],
  cwd: string,
  suffix: string,
  also: readonly string[] = [],
): Promise<Targets> {
  const out = collector(cwd);
  // A folder stands for the files of every suffix given (obs plan: trigger, burn alert and definitions files).
  const walks = [suffix, ...also].map((x) => `**/*${x}`);
  const kinds = [suffix, ...also].map((x) => `*${x}`);
  const noneUnder =
    kinds.length === 1
      ? `no ${kinds[0] ?? ''} file`
      : `no ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1) ?? ''} file`;
  for (const p of paths) {
    const full = resolve(cwd, p);
    const glob = (await isGlob(p)) && !existsSync(full);
    const { base, rest } = glob ? await splitGlob(p) : { base: p, rest: '' };
    const placement = await placeIn(cwd, base === '' ? '.' : base);
    if (placement !== 'inside') {
      out.refuse(p, notReadText(p, placement));
      continue;
    }
    if (!glob && !existsSync(full)) {
      out.none(missingText(p));
      continue;
    }
    if (!glob && !isFolder(full)) {
      out.add(p, 'named');
      continue;
    }
    const found = await globEach(glob ? base : folderBase(p), glob ? [rest] : walks, cwd);
    for (const o of found.outside) out.refuse(o, notReadText(o, 'through-link'));
    out.unreadable.push(...found.unreadable);
    // Globs of `obs test` are for test files; those of drift and plan never take one.
    const files = !glob || suffix === TRIGGER_TEST_SUFFIX ? found.files : found.files.filter((f) => !isTestSideFile(f));
    if (files.length === 0 && found.outside.length === 0 && found.unreadable.length === 0)
      out.none(glob ? `no file matches ${p}` : `${noneUnder} under ${p}`);
    // A glob's files are targeted as named ones are: a prune deletes nothing on their account, as it cannot
    // tell the triggers of the files the glob left out from those no file holds.
    files.forEach((f) => out.add(f, glob ? 'named' : 'walked'));
  }
  return result(out);
}

/** The files under `base` matching any of the patterns, each walk inside `cwd`, found once and sorted. */
async function globEach(base: string, patterns: readonly string[], cwd: string): Promise<FoundInside> {
  const each = await Promise.all(patterns.map((pattern) => globUnder(base, pattern, cwd, cwd)));
  if (each.length === 1 && each[0] !== undefined) return each[0];
  const once = (lists: string[][]) => [...new Set(lists.flat())].sort();
  return {
    files: once(each.map((f) => f.files)),
    outside: once(each.map((f) => f.outside)),
    unreadable: each.flatMap((f) => f.unreadable).sort((a, b) => a.path.localeCompare(b.path)),
  };
}

/** A folder as the base of its walk: `/` separators, no trailing slash, none for `.`. */
function folderBase(p: string): string {
  const base = slashed(p).replace(/\/+$/, '');
  return base === '.' ? '' : base;
}
