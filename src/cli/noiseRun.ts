// The run of `obs noise` (declared in noise.ts, loaded when the command runs): the trigger files under the
// paths, each with the test files that test it, evaluated one after the other as one run over the run's query
// results (a test's `fires` window that the report's queries cover creates none), printed noisiest first.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errorText } from '../api/errors';
import {
  CreationPacer,
  parseTestFile,
  ResultCache,
  systemClock,
  triggerPathFor,
  TRIGGER_TEST_SUFFIX,
} from '../backtest';
import { noiseJson } from '../backtest/noiseJson';
import {
  evaluateAll,
  noisiestFirst,
  prepareNoise,
  type NoiseEntry,
  type NoiseSession,
  type NoiseTarget,
  type PreparedNoise,
} from '../backtest/noiseReport';
import { SavedQueryCache } from '../backtest/savedQueryCache';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { expandPaths, isGlob } from './files';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, type MainIo } from './io';
import { noiseMarkdown, noiseText } from './noiseText';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';
import { clientFromEnvironment } from './service';
import { onceEachWait } from './testWaits';
import type { Outcome } from '../result';

/** The options of `obs noise` as commander parses them (noise.ts declares them). */
export interface NoiseInvocation {
  days: number;
  budget: number;
  format: 'text' | 'json' | 'markdown';
  maxBytes: number;
}

async function readText(file: string, io: MainIo, maxBytes: number): Promise<Outcome<{ text: string }>> {
  try {
    const text = decodeStrict(await readCommandLineFile(file, io.cwd, maxBytes));
    return text === undefined ? { ok: false, reason: 'the file is not UTF-8' } : { ok: true, text };
  } catch (e) {
    return { ok: false, reason: e instanceof ReadProblem ? e.message : errorText(e) };
  }
}

/** Where the test files of the paths' trigger files are looked for: a file's folder, a folder, the current folder for a glob. */
export async function testFolders(paths: readonly string[], cwd: string): Promise<string[]> {
  const out = new Set<string>();
  for (const p of paths) {
    const full = resolve(cwd, p);
    if (existsSync(full)) out.add(statSync(full).isDirectory() ? p : dirname(p));
    else out.add(!(await isGlob(p)) ? dirname(p) : '.');
  }
  return [...out];
}

/** The test files under the folders, by the resolved path of the trigger file each tests; unreadable ones are left out (obs test says why). */
async function testsByTrigger(
  paths: readonly string[],
  io: MainIo,
  maxBytes: number,
): Promise<Map<string, { label: string; text: string }[]>> {
  const { files } = await expandPaths(await testFolders(paths, io.cwd), io.cwd, TRIGGER_TEST_SUFFIX);
  const out = new Map<string, { label: string; text: string }[]>();
  for (const file of files) {
    const read = await readText(file, io, maxBytes);
    const parsed = read.ok ? parseTestFile(read.text) : undefined;
    const path = triggerPathFor(file, parsed?.ok === true ? parsed.file.trigger : undefined);
    if (!read.ok || path === undefined) continue;
    const key = resolve(io.cwd, path);
    out.set(key, [...(out.get(key) ?? []), { label: file, text: read.text }]);
  }
  return out;
}

/**
 * The trigger files under the paths with their tests, and whether every path and file could be read (each problem
 * said); none when a path names nothing.
 */
async function targetsOf(
  paths: readonly string[],
  io: MainIo,
  maxBytes: number,
): Promise<{ targets: NoiseTarget[]; ok: boolean }> {
  const { files, problems, nothing } = await expandPaths(paths, io.cwd, TRIGGER_FILE_SUFFIX);
  for (const p of problems) warn(io, p);
  // A path that names nothing stops the report before any query: said once, no ranking of the others.
  if (nothing.length > 0) return { targets: [], ok: false };
  const tests = await testsByTrigger(paths, io, maxBytes);
  const targets: NoiseTarget[] = [];
  let ok = problems.length === 0;
  for (const file of files) {
    const read = await readText(file, io, maxBytes);
    if (!read.ok) {
      warn(io, `cannot read ${file}: ${read.reason}`);
      ok = false;
      continue;
    }
    const key = resolve(io.cwd, file);
    targets.push({ key, label: file, text: read.text, tests: tests.get(key) ?? [] });
  }
  return { targets, ok };
}

export async function runNoise(paths: readonly string[], invocation: NoiseInvocation, io: MainIo): Promise<number> {
  const { targets, ok } = await targetsOf(paths.length === 0 ? ['.'] : paths, io, invocation.maxBytes);
  if (targets.length === 0) {
    if (ok)
      warn(
        io,
        `no trigger file (*${TRIGGER_FILE_SUFFIX}) under ${paths.length === 0 ? 'the current folder' : paths.join(', ')}`,
      );
    return EXIT_TROUBLE;
  }
  const client = clientFromEnvironment(io.env ?? {});
  const signal = io.signal ?? new AbortController().signal;
  const session: NoiseSession = {
    api: client,
    pacer: new CreationPacer(systemClock),
    clock: systemClock,
    cache: new ResultCache(),
    queries: new SavedQueryCache(),
    signal,
    report: onceEachWait((m) => warn(io, m)),
    nowSeconds: Math.floor(systemClock.now() / 1000),
  };
  const options = { mode: 'exact' as const, days: invocation.days, budget: invocation.budget };
  let entries: NoiseEntry[];
  try {
    const prepared: (PreparedNoise | NoiseEntry)[] = [];
    for (const t of targets) if (!signal.aborted) prepared.push(await prepareNoise(t, session));
    const ready = prepared.filter((p): p is PreparedNoise => 'tested' in p);
    const left = prepared.filter((p): p is NoiseEntry => !('tested' in p));
    entries = noisiestFirst([...left, ...(await evaluateAll(ready, session, options))]);
  } finally {
    await client.close();
  }
  const report = { days: invocation.days, budget: invocation.budget };
  if (invocation.format === 'json') io.stdout(`${JSON.stringify(noiseJson(entries, report), null, 2)}\n`);
  else io.stdout(invocation.format === 'markdown' ? noiseMarkdown(entries, report) : noiseText(entries, report));
  if (signal.aborted) {
    warn(io, 'stopped: the triggers not evaluated are listed as such');
    return EXIT_TROUBLE;
  }
  if (!ok || entries.some((e) => e.kind === 'skipped')) return EXIT_TROUBLE;
  return entries.some((e) => e.kind === 'evaluated' && e.counts.notifications > invocation.budget)
    ? EXIT_FOUND
    : EXIT_OK;
}
