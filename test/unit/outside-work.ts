// Work counted from outside the code measured: V8's precise coverage counts how often each function and
// each block (a loop body, a branch) of every script ran while a call ran (or an awaited operation). Nothing in src/
// counts for the tests, so a rescan added to a module raises these counts whatever form it takes (a
// loop, a helper called again, a slice), and a test over them fails when the code does more work.
import { Session } from 'node:inspector';

interface Range {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface FunctionCoverage {
  functionName: string;
  ranges: Range[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

const session = new Session();
session.connect();

/** Posts synchronously: the inspector of the same thread answers before `post` returns. */
function post(method: string, params?: object): unknown {
  let answer: unknown;
  let failure: Error | null = null;
  session.post(method, params, (error, result) => {
    failure = error;
    answer = result;
  });
  if (failure !== null) throw failure;
  return answer;
}

// Started when this module loads: V8 counts blocks only in functions compiled after this, so a test
// imports this module before the code it measures.
post('Profiler.enable');
post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

const take = (): ScriptCoverage[] => (post('Profiler.takePreciseCoverage') as { result: ScriptCoverage[] }).result;

/** What ran during one measured call. */
export interface Work<T> {
  readonly result: T;
  /** Executions of every block of the scripts whose address contains `path` (each function's body is one). */
  blocks(path: string): number;
  /** Calls of the function named `name` in each script whose address contains `path`, summed. */
  calls(path: string, name: string): number;
}

/** What ran in the scripts taken, as `Work` reads it. */
function workOf<T>(result: T, scripts: readonly ScriptCoverage[]): Work<T> {
  const of = (path: string) => scripts.filter((s) => s.url.includes(path));
  return {
    result,
    blocks: (path) =>
      of(path).reduce(
        (sum, s) => sum + s.functions.reduce((n, f) => n + f.ranges.reduce((m, r) => m + r.count, 0), 0),
        0,
      ),
    // The transpiler also names the getter of an export after the function; the getter runs at most as
    // often as the function, so the largest count of a name in a script is the function's own.
    calls: (path, name) =>
      of(path).reduce(
        (sum, s) =>
          sum + Math.max(0, ...s.functions.filter((f) => f.functionName === name).map((f) => f.ranges[0]?.count ?? 0)),
        0,
      ),
  };
}

/** Runs `fn` and counts what ran meanwhile (taking coverage resets V8's counters). */
export function measured<T>(fn: () => T): Work<T> {
  take();
  const result = fn();
  return workOf(result, take());
}

/**
 * Awaits `fn` and counts what ran meanwhile. The tests of a file run one at a time, so what ran is the
 * operation awaited and what it started (timers, callbacks), plus the test runner's own scripts, which are
 * not under src/.
 */
export async function measuredAsync<T>(fn: () => Promise<T>): Promise<Work<T>> {
  take();
  const result = await fn();
  return workOf(result, take());
}

/**
 * Calls `onCall` with the arguments of every call of `owner[key]` (a method of a built-in or of a class's
 * prototype) until the returned function is called, which restores the method.
 */
export function watchCalls<O extends object, K extends keyof O>(
  owner: O,
  key: K,
  onCall: (args: readonly unknown[]) => void,
): () => void {
  const original = owner[key];
  if (typeof original !== 'function') throw new TypeError(`${String(key)} is not a method`);
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    onCall(args);
    return Reflect.apply(original, this, args);
  };
  Object.defineProperty(owner, key, { value: wrapped, configurable: true, writable: true });
  return () => Object.defineProperty(owner, key, { value: original, configurable: true, writable: true });
}

/** Calls of `owner[key]` (a built-in such as JSON.parse) while `fn` runs: the method is wrapped, then restored. */
export function callsOf<O extends object, K extends keyof O, T>(
  owner: O,
  key: K,
  fn: () => T,
): { result: T; calls: number } {
  let calls = 0;
  const restore = watchCalls(owner, key, () => calls++);
  try {
    return { result: fn(), calls };
  } finally {
    restore();
  }
}
