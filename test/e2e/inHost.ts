// Runs test/vscode/suite inside code-server's extension host and returns the runner's report.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SEAM_VARIABLE } from '../../src/extension/testSeam';
import { buildRunnerExtension, mapInHostStack, packageRunnerExtension } from '../vscode/buildRunner';
import type { RunConfig, RunReport } from '../vscode/runner-extension/src/extension';
import { copyWorkspace, repoRoot, startCodeServer, type CodeServer } from '../../scripts/codeServer';
import { launchChromium, openWorkbench, resultsDir } from './workbench';

export const demoWorkspace = join(repoRoot, 'demo', 'workspace');

/** Waits until `file` exists; fails early when code-server exits. */
async function waitForFile(file: string, server: CodeServer, timeoutMs: number): Promise<void> {
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (exitCode !== undefined) throw new Error(`code-server exited (${exitCode}) before the in-host suite finished`);
    if (Date.now() > deadline) throw new Error(`no in-host results after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export interface InHostOptions {
  readonly grep?: string;
  readonly timeoutMs?: number;
  readonly log?: (message: string) => void;
}

export async function runInHostSuite(options: InHostOptions = {}): Promise<RunReport> {
  const log = options.log ?? (() => undefined);
  const tmp = mkdtempSync(join(tmpdir(), 'obs-e2e-inhost-'));
  let keep = false;
  let server: CodeServer | undefined;
  const browser = await launchChromium();
  try {
    const runnerFolder = await buildRunnerExtension(join(tmp, 'runner'));
    const runner = await packageRunnerExtension(runnerFolder, join(tmp, 'runner.vsix'));
    const workspace = copyWorkspace(demoWorkspace, tmp);
    const resultsFile = join(tmp, 'results.json');
    const config: RunConfig = { resultsFile, grep: options.grep ?? '' };
    writeFileSync(join(workspace, '.obs-e2e.json'), JSON.stringify(config, null, 2) + '\n');
    const csDir = join(tmp, 'code-server');
    mkdirSync(csDir);
    // code-server installs the .vsix as a normal extension (not ExtensionMode.Test): the variable opens the
    // test seam the in-host tests reach the internals through (src/extension/testSeam.ts).
    server = await startCodeServer({ workspace, extraVsix: [runner], tmpDir: csDir, env: { [TEST_SEAM_VARIABLE]: '1' } });
    log(`code-server at ${server.url}`);
    // The extension host starts only once a window connects.
    const workbench = await openWorkbench(browser, server);
    await waitForFile(resultsFile, server, options.timeoutMs ?? 180_000);
    const raw = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunReport;
    const report: RunReport = {
      ...raw,
      results: raw.results.map((r) => (r.error ? { ...r, error: mapInHostStack(r.error, runnerFolder) } : r)),
    };
    for (const problem of workbench.problems) log(`workbench: ${problem}`);
    if (report.fatal || report.results.some((r) => !r.passed)) keep = true;
    return report;
  } catch (error) {
    keep = true;
    throw error;
  } finally {
    await browser.close().catch(() => undefined);
    await server?.stop();
    if (keep && server) {
      // code-server's log and VS Code's logs (extension host included) for the post-mortem.
      const target = join(resultsDir, 'in-host-logs');
      rmSync(target, { recursive: true, force: true });
      mkdirSync(target, { recursive: true });
      cpSync(join(server.tmpDir, 'code-server.log'), join(target, 'code-server.log'));
      const logs = join(server.userDataDir, 'logs');
      if (existsSync(logs)) cpSync(logs, join(target, 'vscode-logs'), { recursive: true });
      log(`logs kept in ${target}`);
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}
