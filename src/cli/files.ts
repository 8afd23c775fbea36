// The files a command line names: paths as written, globs expanded by tinyglobby (picomatch's
// dialect: `*`, `**`, `?`, `[abc]`, `[!abc]`, `{a,b}`; wildcards skip dot files, as in shells), and,
// for drift, folders. node_modules and .git are never searched, and a glob never takes a trigger test
// file (`*.trigger-test.json`) for a trigger file: `triggers/**/*.json` holds the tests kept beside them.
// tinyglobby (with picomatch and fdir) is loaded only when a target may be a glob: `obs lint a.json`
// starts without it.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isTriggerTestFile, TRIGGER_TEST_SUFFIX } from '../backtest/testPaths';

const SKIPPED = ['**/node_modules/**', '**/.git/**'];

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

/** Files under `cwd/base` matching `pattern`, sorted, each as `base/<path>` (the base as written). */
async function globUnder(base: string, pattern: string, cwd: string): Promise<string[]> {
  const dir = base === '' ? cwd : isAbsolute(base) ? base : join(cwd, base);
  const found = (await globber()).globSync(pattern, { cwd: dir, ignore: SKIPPED, onlyFiles: true, expandDirectories: false, dot: false });
  const prefix = base === '' ? '' : `${base.replace(/\/+$/, '')}/`;
  return found.map((f) => `${prefix}${f}`).sort();
}

/** Files under `cwd` matching the glob, sorted; paths keep the glob's static prefix as written. */
export async function expandGlob(pattern: string, cwd: string, keepTests = false): Promise<string[]> {
  const { isDynamicPattern } = await globber();
  const segments = slashed(pattern).split('/');
  let firstMagic = segments.findIndex((s) => isDynamicPattern(s));
  if (firstMagic < 0) firstMagic = segments.length - 1;
  const base = segments.slice(0, firstMagic).join('/');
  const found = await globUnder(isAbsolute(pattern) && base === '' ? '/' : base, segments.slice(firstMagic).join('/'), cwd);
  return keepTests ? found : found.filter((f) => !isTriggerTestFile(f));
}

/** The files of a command line, each once in order, and what named none (a glob that matched nothing). */
export interface Targets {
  files: string[];
  problems: string[];
}

function collector(cwd: string): Targets & { add(file: string): void } {
  const seen = new Set<string>();
  const out = {
    files: [] as string[],
    problems: [] as string[],
    add(file: string) {
      const key = resolve(cwd, file);
      if (seen.has(key)) return;
      seen.add(key);
      out.files.push(file);
    },
  };
  return out;
}

/**
 * Files named by the targets (lint), in the order given; globs expand sorted. Unmatched globs are problems.
 * A target that names an existing path is taken as written, even with glob characters (`a[1].json`).
 */
export async function expandTargets(targets: readonly string[], cwd: string): Promise<Targets> {
  const out = collector(cwd);
  for (const target of targets) {
    if (!(await isGlob(target)) || existsSync(resolve(cwd, target))) {
      out.add(target);
      continue;
    }
    const matches = await expandGlob(target, cwd);
    if (matches.length === 0) out.problems.push(`no file matches ${target}`);
    matches.forEach(out.add);
  }
  return { files: out.files, problems: out.problems };
}

/** As expandTargets, and a folder stands for every `*<suffix>` file under it (drift). */
export async function expandPaths(paths: readonly string[], cwd: string, suffix: string): Promise<Targets> {
  const out = collector(cwd);
  for (const p of paths) {
    const full = resolve(cwd, p);
    if (existsSync(full) && statSync(full).isDirectory()) {
      const base = p.split('\\').join('/').replace(/\/+$/, '');
      const found = await globUnder(base === '.' ? '' : base, `**/*${suffix}`, cwd);
      if (found.length === 0) out.problems.push(`no *${suffix} file under ${p}`);
      found.forEach(out.add);
    } else if ((await isGlob(p)) && !existsSync(full)) {
      // Globs of `obs test` are for test files; those of drift and plan never take one.
      const found = await expandGlob(p, cwd, suffix === TRIGGER_TEST_SUFFIX);
      if (found.length === 0) out.problems.push(`no file matches ${p}`);
      found.forEach(out.add);
    } else {
      out.add(p);
    }
  }
  return { files: out.files, problems: out.problems };
}
