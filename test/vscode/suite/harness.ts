// A minimal describe/it runner for tests that run inside the VS Code extension host.
// Test files register tests at import time; runTests() runs them one after another.

export interface TestResult {
  readonly name: string;
  readonly passed: boolean;
  readonly error: string | null;
  readonly durationMs: number;
}

export interface TestOptions {
  /** Per-test limit; the default is 20 s. */
  readonly timeoutMs?: number;
}

type TestFn = () => void | Promise<void>;

interface RegisteredTest {
  readonly name: string;
  readonly fn: TestFn;
  readonly timeoutMs: number;
}

const registered: RegisteredTest[] = [];
const prefixes: string[] = [];

/** Groups tests: the group's name prefixes each test's name ("group > test"). */
export function suite(name: string, body: () => void): void {
  prefixes.push(name);
  try {
    body();
  } finally {
    prefixes.pop();
  }
}

/** Registers a test. Throw (e.g. through node:assert) to fail it. */
export function test(name: string, fn: TestFn, options: TestOptions = {}): void {
  const full = [...prefixes, name].join(' > ');
  if (registered.some((t) => t.name === full)) throw new Error(`duplicate in-host test name: ${full}`);
  registered.push({ name: full, fn, timeoutMs: options.timeoutMs ?? 20_000 });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

async function runOne(t: RegisteredTest): Promise<TestResult> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${t.timeoutMs} ms`)), t.timeoutMs);
    });
    await Promise.race([Promise.resolve().then(t.fn), timeout]);
    return { name: t.name, passed: true, error: null, durationMs: Date.now() - started };
  } catch (error) {
    return { name: t.name, passed: false, error: describeError(error), durationMs: Date.now() - started };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Runs the registered tests whose name contains `grep` (all when empty), in registration order. */
export async function runTests(grep = ''): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const t of registered) {
    if (grep && !t.name.includes(grep)) continue;
    results.push(await runOne(t));
  }
  return results;
}
