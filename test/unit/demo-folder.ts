// The demo's "High error rate" trigger and its test file, copied into a fresh folder before each test, and a
// sandbox for the whole file: where the obs test and obs noise tests start from.
import { after, before, beforeEach } from 'node:test';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runObs, type ObsRun } from './obs-run';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'workspace');
export const DEMO_TRIGGER = 'triggers/api-gateway/High-error-rate.trigger.json';
export const DEMO_TESTS = 'triggers/api-gateway/High-error-rate.trigger-test.json';

export interface DemoFolder {
  /** This test's folder. */
  readonly dir: string;
  /** The sandbox's address and key, as obs reads them. */
  readonly env: Record<string, string>;
  readonly sandbox: TestSandbox;
  /** obs run in this test's folder (with the sandbox's environment unless another is given). */
  run(argv: string[], over?: { env?: Record<string, string> }): Promise<ObsRun>;
}

/** Registers the file's hooks (folders named `<prefix>...`) and answers what its tests use. */
export function demoFolder(prefix: string): DemoFolder {
  let sandbox: TestSandbox | undefined;
  let env: Record<string, string> = {};
  let dir = '';
  before(async () => {
    // Every run creates query results: more than the service's 10 a minute would make the tests wait.
    sandbox = await startTestSandbox({ queryResultRateLimit: 1_000 });
    env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
  });
  after(async () => {
    await sandbox?.handle.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), prefix));
    mkdirSync(join(dir, 'triggers', 'api-gateway'), { recursive: true });
    cpSync(join(DEMO, DEMO_TRIGGER), join(dir, DEMO_TRIGGER));
    cpSync(join(DEMO, DEMO_TESTS), join(dir, DEMO_TESTS));
  });
  return {
    get dir() {
      return dir;
    },
    get env() {
      return env;
    },
    get sandbox() {
      if (sandbox === undefined) throw new Error('the sandbox starts before the first test');
      return sandbox;
    },
    run: (argv, over = {}) => runObs(argv, { cwd: dir, env: over.env ?? env }),
  };
}
