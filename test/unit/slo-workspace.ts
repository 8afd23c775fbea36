// The workspace the tests of burn alert and definitions files against the sandbox share: a sandbox for the file,
// and before each test the demo data again and a fresh folder holding every trigger, burn alert and definitions
// file pulled from it; and another environment whose SLOs and burn alerts have other ids (for --match-by-name).
import { after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO } from '../../src/sandbox';
import { demoData } from '../../src/sandbox/demoData';
import { saveDataFile } from '../../src/sandbox/persistence';
import type { SandboxData } from '../../src/sandbox/state';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';
import { runObs } from './obs-run';

export const GATEWAY = DEMO.datasets.gateway;
export const EXHAUSTION = `burn-alerts/${GATEWAY}/Gateway-availability.exhaustion-240min.burn-alert.json`;
export const DEFINITIONS = `definitions/${GATEWAY}.definitions.json`;

export interface SloWorkspace {
  sandbox(): TestSandbox;
  /** The folder the files were pulled into (fresh for each test). */
  dir(): string;
  run(argv: string[]): ReturnType<typeof runObs>;
  text(file: string): string;
  readJson(file: string): Record<string, unknown>;
  writeJson(file: string, value: unknown): void;
  /** Runs `use` with a second sandbox whose SLO and burn alert ids are `prod_<id>`; closes it after. */
  withOtherIds(
    use: (other: TestSandbox, run: (argv: string[]) => ReturnType<typeof runObs>) => Promise<void>,
  ): Promise<void>;
}

/** Registers the hooks of the file's tests; `prefix` names its temporary folders. */
export function sloWorkspace(prefix: string): SloWorkspace {
  let sandbox: TestSandbox | undefined;
  let dir = '';
  const current = (): TestSandbox => sandbox ?? assert.fail('the sandbox has not started');
  const envOf = (s: TestSandbox) => ({ OBS_BASE_URL: s.base, OBS_CONFIG_KEY: s.handle.info.configKey });
  const run = (argv: string[]) => runObs(argv, { cwd: dir, env: envOf(current()) });
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(async () => {
    await sandbox?.handle.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await current().control('POST', 'reset');
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), prefix));
    const kinds = ['--kinds', 'triggers,burn-alerts,definitions'];
    const pulled = await run(['pull', '--all', '--dataset', GATEWAY, '--dataset', DEMO.datasets.checkout, ...kinds]);
    assert.equal(pulled.code, 0, pulled.stderr);
  });
  return {
    sandbox: current,
    dir: () => dir,
    run,
    text: (file) => readFileSync(join(dir, file), 'utf8'),
    readJson: (file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>,
    writeJson: (file, value) => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`),
    async withOtherIds(use) {
      const ids = [...Object.values(DEMO.slos), ...Object.values(DEMO.burnAlerts)];
      const text = ids.reduce((t, id) => t.replaceAll(`"${id}"`, `"prod_${id}"`), JSON.stringify(demoData()));
      const file = `${dir}-prod.json`;
      await saveDataFile(file, JSON.parse(text) as SandboxData);
      const other = await startTestSandbox({ dataFile: file });
      try {
        await use(other, (argv) => runObs(argv, { cwd: dir, env: envOf(other) }));
      } finally {
        await other.handle.close();
        rmSync(file, { force: true });
      }
    },
  };
}
