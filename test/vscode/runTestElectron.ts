// `npm run test:vscode`: the in-host suite (test/vscode/suite) under @vscode/test-electron, in
// desktop VS Code. For machines with VS Code; not run in CI (CI uses code-server: npm run test:e2e).
//   VSCODE_EXECUTABLE_PATH=/path/to/code npm run test:vscode   use an installed VS Code
//   npm run test:vscode                                        download VS Code (needs internet)
// VSCODE_VERSION picks the downloaded version (default 1.106.3, what code-server runs).
// OBS_E2E_GREP runs only tests whose name contains it; OBS_E2E_RESULTS writes the results JSON.
import { runTests } from '@vscode/test-electron';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUIET_SETTINGS, repoRoot } from '../../scripts/codeServer';
import { TEST_SEAM_VARIABLE } from '../../src/extension/testSeam';
import { buildRunnerExtension } from './buildRunner';

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'obs-test-electron-'));
  try {
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    const runner = await buildRunnerExtension(join(tmp, 'runner'));
    const workspace = join(tmp, 'workspace');
    cpSync(join(repoRoot, 'demo', 'workspace'), workspace, { recursive: true });
    const userDataDir = join(tmp, 'user-data');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(QUIET_SETTINGS, null, 2));
    const executable = process.env['VSCODE_EXECUTABLE_PATH'];
    await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : { version: process.env['VSCODE_VERSION'] ?? '1.106.3' }),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: join(runner, 'dist', 'extension.js'),
      extensionTestsEnv: {
        // The extension runs in ExtensionMode.Test here, which opens the test seam already; the variable says so too.
        [TEST_SEAM_VARIABLE]: '1',
        OBS_E2E_RESULTS: process.env['OBS_E2E_RESULTS'] ?? '',
        OBS_E2E_GREP: process.env['OBS_E2E_GREP'] ?? '',
      },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${userDataDir}`,
        `--extensions-dir=${join(tmp, 'extensions')}`,
      ],
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error('in-host suite under @vscode/test-electron failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
