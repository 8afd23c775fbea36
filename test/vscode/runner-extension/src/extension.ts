// Entry of the in-host test runner. The bundle (built by test/e2e/inHostBundle.ts) holds this file
// plus every test/vscode/suite/*.test.ts, and serves two hosts:
//  - code-server: installed as the extension obs-tools.obs-vscode-test-runner; activate() runs the
//    tests when a run configuration is found (env OBS_E2E_CONFIG naming a JSON file, or the file
//    .obs-e2e.json at the root of a workspace folder) and writes the results JSON it names.
//  - @vscode/test-electron: used as extensionTestsPath; run() runs the tests and rejects on failure.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { runTests, type TestResult } from '../../suite/harness';

export const MARKER_FILE = '.obs-e2e.json';

export interface RunConfig {
  /** Absolute path the results JSON is written to. */
  readonly resultsFile: string;
  /** Run only tests whose full name contains this text. */
  readonly grep?: string;
}

export interface RunReport {
  readonly vscodeVersion: string;
  readonly appHost: string;
  readonly results: readonly TestResult[];
  /** Set when the runner itself failed (then results may be empty). */
  readonly fatal: string | null;
}

function parseConfig(file: string): RunConfig {
  const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!value || typeof value !== 'object' || !('resultsFile' in value) || typeof value.resultsFile !== 'string') {
    throw new Error(`${file}: expected {"resultsFile": "<absolute path>", "grep"?: "<text>"}`);
  }
  const grep = 'grep' in value && typeof value.grep === 'string' ? value.grep : '';
  return { resultsFile: value.resultsFile, grep };
}

function findConfig(): RunConfig | undefined {
  const fromEnv = process.env['OBS_E2E_CONFIG'];
  if (fromEnv) return parseConfig(fromEnv);
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const marker = join(folder.uri.fsPath, MARKER_FILE);
    if (existsSync(marker)) return parseConfig(marker);
  }
  return undefined;
}

function writeReport(file: string, report: RunReport): void {
  // Write then rename, so the outer runner never reads a half-written file.
  const partial = `${file}.partial`;
  writeFileSync(partial, JSON.stringify(report, null, 2) + '\n');
  renameSync(partial, file);
}

async function runAndReport(config: RunConfig | undefined): Promise<RunReport> {
  let report: RunReport;
  try {
    const results = await runTests(config?.grep ?? '');
    report = { vscodeVersion: vscode.version, appHost: vscode.env.appHost, results, fatal: null };
  } catch (error) {
    const fatal = error instanceof Error ? (error.stack ?? error.message) : String(error);
    report = { vscodeVersion: vscode.version, appHost: vscode.env.appHost, results: [], fatal };
  }
  if (config) writeReport(config.resultsFile, report);
  return report;
}

/** code-server route: runs only when a run configuration is present. */
export function activate(): void {
  let config: RunConfig | undefined;
  try {
    config = findConfig();
  } catch (error) {
    console.error('[obs-e2e] bad run configuration', error);
    return;
  }
  if (!config) return;
  const found = config;
  // Do not hold up activation; the outer runner waits for the results file.
  setTimeout(() => void runAndReport(found), 0);
}

export function deactivate(): void {}

/** @vscode/test-electron route (extensionTestsPath). OBS_E2E_RESULTS optionally names a results file. */
export async function run(): Promise<void> {
  const resultsFile = process.env['OBS_E2E_RESULTS'];
  const report = await runAndReport(resultsFile ? { resultsFile, grep: process.env['OBS_E2E_GREP'] ?? '' } : undefined);
  for (const r of report.results) {
    console.log(`${r.passed ? 'ok  ' : 'FAIL'} ${r.name} (${r.durationMs} ms)${r.error ? `\n${r.error}` : ''}`);
  }
  const failed = report.results.filter((r) => !r.passed).length;
  if (report.fatal) throw new Error(`in-host runner failed: ${report.fatal}`);
  if (report.results.length === 0) throw new Error('no in-host tests ran');
  if (failed > 0) throw new Error(`${failed} of ${report.results.length} in-host tests failed`);
}
