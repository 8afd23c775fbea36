// The fixture every ui*.e2e.ts file shares: one code-server (the packaged extension, a temporary copy
// of demo/workspace) and one headless Chromium for the describe block that calls it. Each test still
// gets a fresh page (a new window, so a new extension host) from uiTest().
import { after, before } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { copyWorkspace, startCodeServer, type CodeServer } from '../../scripts/codeServer';
import { demoWorkspace } from './inHost';
import { SANDBOX_CONTROL_TOKEN } from './uiDriver';
import { launchChromium } from './workbench';

export interface UiFixture {
  readonly server: CodeServer;
  readonly browser: Browser;
  /** The workspace folder code-server opened (a copy of demo/workspace). */
  readonly workspace: string;
}

/** Registers before/after hooks in the calling describe block; call the result inside a test. */
export function useUiFixture(): () => UiFixture {
  let tmp = '';
  let fixture: UiFixture | undefined;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'obs-e2e-ui-'));
    const workspace = copyWorkspace(demoWorkspace, tmp);
    const csDir = join(tmp, 'code-server');
    mkdirSync(csDir);
    server = await startCodeServer({
      workspace,
      tmpDir: csDir,
      env: { OBS_SANDBOX_CONTROL_TOKEN: SANDBOX_CONTROL_TOKEN },
    });
    browser = await launchChromium();
    fixture = { server, browser, workspace };
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  return () => {
    if (!fixture) throw new Error('code-server or Chromium did not start (see the before hook)');
    return fixture;
  };
}
