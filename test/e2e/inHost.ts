// Runs test/vscode/suite inside code-server's extension host and returns the runner's report.
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SEAM_VARIABLE } from '../../src/extension/testSeam';
import { buildRunnerExtension, mapInHostStack, packageRunnerExtension } from '../vscode/buildRunner';
import type { RunConfig, RunReport } from '../vscode/runner-extension/src/extension';
import { copyWorkspace, repoRoot, startCodeServer, type CodeServer } from '../../scripts/codeServer';
import type { Page } from 'playwright-core';
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

/**
 * Where the run records the modal dialogs it answered, in the workspace (one JSON line each: message, detail).
 * test/vscode/suite/agents.test.ts reads it.
 */
export const DIALOGS_FILE = '.obs-e2e-dialogs.jsonl';

/**
 * The button the next modal dialog is answered with, written into the workspace by an in-host test that wants a
 * yes (one line, the button's label); read and removed when that dialog comes. test/vscode/suite/agents.test.ts
 * writes it.
 */
export const ANSWER_FILE = '.obs-e2e-answer';

/** The label to answer the dialog with: the one the test asked for (once), else Cancel. */
function answerOf(answerFile: string): string {
  if (!existsSync(answerFile)) return 'Cancel';
  const label = readFileSync(answerFile, 'utf8').trim();
  rmSync(answerFile, { force: true });
  return label === '' ? 'Cancel' : label;
}

/**
 * Answers every modal dialog of the workbench while the suite runs, recording what it asked: with Cancel, or
 * with the button an in-host test asked for in ANSWER_FILE. A dialog is VS Code or the extension asking the
 * user (e.g. to confirm an agent's apply), which an in-host test cannot click: this is the user who answers,
 * and the test reads what was asked. Returns the function that stops it.
 */
function answerDialogs(page: Page, file: string, answerFile: string): () => Promise<void> {
  let stopped = false;
  const box = page.locator('.monaco-dialog-box');
  const text = async (part: string) =>
    (
      (await box
        .locator(`.dialog-${part}`)
        .first()
        .textContent({ timeout: 2_000 })
        .catch(() => '')) ?? ''
    ).replace(/\u00a0/g, ' ');
  const loop = (async () => {
    while (!stopped) {
      if (await box.isVisible().catch(() => false)) {
        const answer = answerOf(answerFile);
        appendFileSync(
          file,
          `${JSON.stringify({ message: await text('message-text'), detail: await text('message-detail'), answer })}\n`,
        );
        await box
          .locator('.dialog-buttons .monaco-button', {
            hasText: new RegExp(`^${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
          })
          .first()
          .click({ timeout: 5_000 })
          .catch(() => page.keyboard.press('Escape'));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
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
    server = await startCodeServer({
      workspace,
      extraVsix: [runner],
      tmpDir: csDir,
      env: { [TEST_SEAM_VARIABLE]: '1' },
    });
    log(`code-server at ${server.url}`);
    // The extension host starts only once a window connects.
    const workbench = await openWorkbench(browser, server);
    const stopAnswering = answerDialogs(workbench.page, join(workspace, DIALOGS_FILE), join(workspace, ANSWER_FILE));
    try {
      await waitForFile(resultsFile, server, options.timeoutMs ?? 180_000);
    } finally {
      await stopAnswering();
    }
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
