// Two sandboxes standing for the demo workspace's two environments (demo/workspace/obs.environments.json):
// staging, the home, with the demo's data, and production, with its own ids, recipients and slugs. Registers the
// file's hooks and answers the variables the environments file names for each.
import { after, before } from 'node:test';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRODUCTION_CREDENTIALS } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

export interface EnvironmentSandboxes {
  readonly staging: TestSandbox;
  readonly production: TestSandbox;
  /** OBS_STAGING_BASE_URL, OBS_STAGING_CONFIG_KEY, and production's two. */
  readonly env: Record<string, string>;
}

export function environmentSandboxes(): EnvironmentSandboxes {
  let started: { staging: TestSandbox; production: TestSandbox } | undefined;
  before(async () => {
    const [staging, production] = await Promise.all([
      startTestSandbox({ rateLimit: 100_000 }),
      startTestSandbox({ rateLimit: 100_000, demoEnvironment: 'production' }),
    ]);
    started = { staging, production };
  });
  after(async () => {
    await Promise.all([started?.staging.handle.close(), started?.production.handle.close()]);
  });
  const get = () => {
    if (started === undefined) throw new Error('the sandboxes start before the first test');
    return started;
  };
  return {
    get staging() {
      return get().staging;
    },
    get production() {
      return get().production;
    },
    get env() {
      const { staging, production } = get();
      return {
        OBS_STAGING_BASE_URL: staging.base,
        OBS_STAGING_CONFIG_KEY: staging.handle.info.configKey,
        OBS_PRODUCTION_BASE_URL: production.base,
        OBS_PRODUCTION_CONFIG_KEY: PRODUCTION_CREDENTIALS.configKey,
      };
    },
  };
}

const DEMO_WORKSPACE = join(import.meta.dirname, '..', '..', 'demo', 'workspace');

/**
 * A fresh copy of the demo workspace (`<tmp>/<prefix>...`) but its draft trigger, which is on neither service
 * and has lint errors on purpose: the folder the environments' tests plan, apply and compare.
 */
export function demoWorkspaceCopy(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(DEMO_WORKSPACE, dir, { recursive: true });
  rmSync(join(dir, 'triggers', 'error-burst.trigger.json'));
  return dir;
}
