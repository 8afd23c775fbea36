// The run of `obs noise` (declared in noise.ts, loaded when the command runs): the trigger files under the
// paths, each with the test files that test it, evaluated one after the other as one run over the run's query
// results (a test's `fires` window that the report's queries cover creates none), printed noisiest first.
import { resolve } from 'node:path';
import { noiseJson } from '../backtest/noiseJson';
import {
  evaluateAll,
  noisiestFirst,
  prepareNoise,
  type NoiseEntry,
  type NoiseTarget,
  type PreparedNoise,
} from '../backtest/noiseReport';
import { TRIGGER_FILE_SUFFIX } from '../triggerFiles/paths';
import { expandPaths } from './files';
import { EXIT_FOUND, EXIT_OK, EXIT_TROUBLE, warn, writeData, type MainIo } from './io';
import { noiseMarkdown, noiseText } from './noiseText';
import { clientFromEnvironment } from './service';
import { cliNoiseSession, readText, testsByTrigger } from './triggerTestFiles';
import { visibleJson } from './visible';
import { effectiveText, environmentOf, type CliEnvironment, type EnvironmentInvocation } from './environment';

/** The options of `obs noise` as commander parses them (noise.ts declares them). */
export interface NoiseInvocation extends EnvironmentInvocation {
  days: number;
  budget: number;
  format: 'text' | 'json' | 'markdown';
  maxBytes: number;
}

/**
 * The trigger files under the paths with their tests, and whether every path and file could be read (each problem
 * said); none when a path names nothing.
 */
async function targetsOf(
  paths: readonly string[],
  io: MainIo,
  maxBytes: number,
  environment: CliEnvironment | undefined,
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
    targets.push({ key, label: file, text: effectiveText(read.text, environment), tests: tests.get(key) ?? [] });
  }
  return { targets, ok };
}

export async function runNoise(paths: readonly string[], invocation: NoiseInvocation, given: MainIo): Promise<number> {
  const environment = await environmentOf(invocation, paths, given);
  if (!environment.ok) {
    warn(given, `${environment.reason}; nothing was evaluated`);
    return EXIT_TROUBLE;
  }
  // With --env the service is the one the environment's variables name, and each trigger is as it sees it.
  const io = environment.value === undefined ? given : { ...given, env: environment.value.serviceEnv };
  const { targets, ok } = await targetsOf(
    paths.length === 0 ? ['.'] : paths,
    io,
    invocation.maxBytes,
    environment.value,
  );
  if (targets.length === 0) {
    if (ok)
      warn(
        io,
        `no trigger file (*${TRIGGER_FILE_SUFFIX}) under ${paths.length === 0 ? 'the current folder' : paths.join(', ')}`,
      );
    return EXIT_TROUBLE;
  }
  const client = clientFromEnvironment(io.env ?? {});
  const session = cliNoiseSession(client, io);
  const { signal } = session;
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
  if (invocation.format === 'json') writeData(io, `${visibleJson(noiseJson(entries, report))}\n`);
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
