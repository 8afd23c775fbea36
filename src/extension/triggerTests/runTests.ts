// A Test Explorer run without vscode: the test files asked for, each with the expectations asked for, run
// against the active connection's query session (its pacer shared with every other query of the connection,
// its results reused: a run again after an edit that changes no query creates none), each outcome handed on
// as soon as it is known. Without a connection every test errors with one sentence, said once.
import { errorText } from '../../api/errors';
import { parseTestFile, prepareTrigger, runTriggerTests, triggerPathFor, TRIGGER_TEST_SUFFIX, type ExpectationOutcome, type QueryApi, type ResultStore, type TriggerTestFile } from '../../backtest';
import type { QuerySession } from '../queries';
import { noConnectionText } from './testResults';
import * as l10n from '@vscode/l10n';

export interface FileToRun {
  /** The test file's URI as text. */
  key: string;
  /** Its path, '/'-separated, from which the trigger's path is found. */
  path: string;
  /** Its text (the editor's when open: unsaved edits included), or why it cannot be read. */
  text: string;
  unreadable?: string;
  /** The expectations to run, by their Test Explorer ids (the name, unique in a valid file). */
  tests: readonly { id: string; name: string }[];
}

export type TriggerRead = { ok: true; text: string; label: string } | { ok: false; reason: string };

export interface RunConnection {
  api: QueryApi;
  session: QuerySession;
  /** Its name, for the preview's subtitle. */
  name: string;
}

/** What a finished expectation ran against, for opening its window in the preview later. */
export interface RanAgainst {
  triggerName: string;
  /** The trigger file, as the user knows it. */
  triggerLabel: string;
  connection: string;
}

export interface RunHooks {
  started(file: string, id: string): void;
  finished(file: string, id: string, outcome: ExpectationOutcome, against: RanAgainst | undefined): void;
  /** A line for the run's output. */
  output(line: string): void;
  /** Progress, the waits for the rate limit included ("Waiting 23 s: ..."). */
  progress(message: string): void;
}

export interface RunRequest {
  files: readonly FileToRun[];
  connection: RunConnection | undefined;
  /** Reads the trigger file at a path for a test file, or says why it is not read. */
  readTrigger(file: FileToRun, path: string): Promise<TriggerRead>;
  hooks: RunHooks;
  signal: AbortSignal;
  /** Relative times are read at this time, once for the run (epoch seconds, whole minutes). */
  nowSeconds: number;
}

/** Runs the files in order; stops between queries when the signal aborts (then `cancelled`). */
export async function runTestFiles(req: RunRequest): Promise<{ cancelled: boolean }> {
  const { connection, hooks } = req;
  if (!connection) {
    const reason = noConnectionText();
    hooks.output(reason);
    for (const f of req.files) for (const t of f.tests) hooks.finished(f.key, t.id, errored(t, reason), undefined);
    return { cancelled: false };
  }
  try {
    // One run over the session's results: none it used is dropped before it ends, and the next run finds them all.
    await connection.session.cache.inRun(async (cache) => {
      for (const f of req.files) {
        req.signal.throwIfAborted();
        await runFile(f, connection, cache, req);
      }
    });
    return { cancelled: false };
  } catch (err) {
    if (req.signal.aborted) return { cancelled: true };
    throw err;
  }
}

const errored = (t: { id: string; name: string }, message: string): ExpectationOutcome => ({ index: -1, name: t.name, expect: 'fires', status: 'error', message, notes: [] });

async function runFile(f: FileToRun, conn: RunConnection, cache: ResultStore, req: RunRequest): Promise<void> {
  const { hooks } = req;
  const done = new Set<string>();
  // Every test of the file not finished yet errors with the reason.
  const fail = (reason: string) => {
    for (const t of f.tests) if (!done.has(t.id)) hooks.finished(f.key, t.id, errored(t, reason), undefined);
  };
  if (f.unreadable !== undefined) return fail(l10n.t('The test file cannot be read: {0}', f.unreadable));
  const parsed = parseTestFile(f.text);
  if (!parsed.ok) return fail(l10n.t('The test file is not valid: {0}', parsed.problems.map((p) => p.message).join('; ')));
  const path = triggerPathFor(f.path, parsed.file.trigger);
  if (path === undefined) return fail(l10n.t('Name the trigger file in its "trigger" member: the name of the test file does not end with {0}', TRIGGER_TEST_SUFFIX));
  const trigger = await req.readTrigger(f, path);
  if (!trigger.ok) return fail(trigger.reason);
  const prepared = await prepareTrigger(trigger.text, parsed.file, conn.api, req.signal);
  if (!prepared.ok) return fail(l10n.t('{0}: {1}', trigger.label, prepared.reason));
  const against: RanAgainst = { triggerName: prepared.tested.trigger.name, triggerLabel: trigger.label, connection: conn.name };
  const byName = new Map(f.tests.map((t) => [t.name, t.id]));
  const order = inFileOrder(parsed.file, byName);
  let next = 0;
  const start = () => {
    const id = order[next++];
    if (id !== undefined) hooks.started(f.key, id);
  };
  start();
  try {
    await runTriggerTests(parsed.file, prepared.tested, {
      api: conn.api,
      pacer: conn.session.pacer,
      clock: conn.session.clock,
      cache,
      queries: conn.session.queries,
      signal: req.signal,
      report: hooks.progress,
      nowSeconds: req.nowSeconds,
      only: new Set(byName.keys()),
      onOutcome: (o) => {
        const id = byName.get(o.name) ?? o.name;
        done.add(id);
        hooks.finished(f.key, id, o, against);
        start();
      },
    });
  } catch (err) {
    if (req.signal.aborted) throw err;
    // The engine turns what the service says into outcomes; anything else is said for the tests not yet done.
    fail(errorText(err));
  }
}

/** The ids asked for, in the order the file lists their expectations (the order they run in). */
function inFileOrder(file: TriggerTestFile, byName: ReadonlyMap<string, string>): string[] {
  return file.expectations.flatMap((e) => {
    const id = byName.get(e.name);
    return id === undefined ? [] : [id];
  });
}
