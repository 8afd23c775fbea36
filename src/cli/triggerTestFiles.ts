// What `obs noise` and the noise diff of `obs plan --noise` share: the test files that test the trigger files under
// the command's paths, read, and the session their queries run in (the service of the environment, the pacer,
// the run's query results and saved queries, the waits said once each on stderr).
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ServiceClient } from '../api/client';
import { errorText } from '../api/errors';
import {
  CreationPacer,
  parseTestFile,
  ResultCache,
  systemClock,
  triggerPathFor,
  TRIGGER_TEST_SUFFIX,
} from '../backtest';
import type { NoiseSession } from '../backtest/noiseReport';
import { SavedQueryCache } from '../backtest/savedQueryCache';
import { expandPaths, isGlob } from './files';
import { warn, type MainIo } from './io';
import { decodeStrict, readCommandLineFile, ReadProblem } from './read';
import { onceEachWait } from './testWaits';
import type { Outcome } from '../result';

/** A session of its own for one run of the command: nothing is kept after it. */
export function cliNoiseSession(client: ServiceClient, io: MainIo): NoiseSession {
  return {
    api: client,
    pacer: new CreationPacer(systemClock),
    clock: systemClock,
    cache: new ResultCache(),
    queries: new SavedQueryCache(),
    signal: io.signal ?? new AbortController().signal,
    report: onceEachWait((m) => warn(io, m)),
    nowSeconds: Math.floor(systemClock.now() / 1000),
  };
}

/** A file's text, read inside the current folder as every command reads, or why not. */
export async function readText(file: string, io: MainIo, maxBytes: number): Promise<Outcome<{ text: string }>> {
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
export async function testsByTrigger(
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
