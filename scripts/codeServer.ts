// Launches code-server (installed by test/e2e/setup) with the packaged extension, for the e2e
// suites and `npm run demo`. Everything it writes goes under a fresh temporary directory.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const repoRoot = join(import.meta.dirname, '..');
export const EXTENSION_ID = 'obs-tools.obs-vscode';

export interface E2eInstall {
  readonly cache: string;
  /** Node 22 binary that runs code-server. */
  readonly node: string;
  /** code-server's out/node/entry.js. */
  readonly codeServer: string;
  readonly chromium: string;
}

export function cacheDir(): string {
  return process.env['OBS_E2E_CACHE'] || join(homedir(), '.cache', 'obs-vscode');
}

/** Where test/e2e/setup put things, or undefined when it has not run (or did not finish). */
export function findInstall(): E2eInstall | undefined {
  const cache = cacheDir();
  const stampFile = join(cache, 'setup-stamp.json');
  if (!existsSync(stampFile)) return undefined;
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Partial<
    Record<'node' | 'codeServer' | 'chromium', string>
  >;
  const { node, codeServer, chromium } = stamp;
  if (!node || !codeServer || !chromium) return undefined;
  if (![node, codeServer, chromium].every((file) => existsSync(file))) return undefined;
  return { cache, node, codeServer, chromium };
}

export function requireInstall(): E2eInstall {
  const install = findInstall();
  if (!install) throw new Error(`code-server is not installed in ${cacheDir()}: run \`bash test/e2e/setup\` first`);
  return install;
}

/** `npm run package` into `outDir`; returns the .vsix path. Tests the real artifact. */
export async function packageExtension(outDir: string): Promise<string> {
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'obs.vsix');
  try {
    await execFileAsync('npm', ['run', '--silent', 'package', '--', '--out', out], {
      cwd: repoRoot,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const detail =
      error && typeof error === 'object' && 'stderr' in error ? String(error.stderr).trim() : String(error);
    throw new Error(`\`npm run package\` failed (set OBS_E2E_VSIX=<file.vsix> to test a prebuilt package):\n${detail}`);
  }
  return out;
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Settings that keep welcome pages, prompts, notifications about updates/recommendations and AI panels away. */
export const QUIET_SETTINGS: Readonly<Record<string, unknown>> = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'extensions.ignoreRecommendations': true,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'telemetry.telemetryLevel': 'off',
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'typescript.disableAutomaticTypeAcquisition': true,
  'window.restoreWindows': 'none',
};

export interface CodeServerOptions {
  /** Folder opened by the workbench. */
  readonly workspace: string;
  /** The .vsix to install; else env OBS_E2E_VSIX; else packaged fresh (`npm run package`). */
  readonly vsix?: string;
  /** More .vsix files to install next to it (e.g. the in-host test runner). */
  readonly extraVsix?: readonly string[];
  /** Merged over QUIET_SETTINGS. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Extra environment for code-server (inherited by its extension host). */
  readonly env?: Readonly<Record<string, string>>;
  /** Defaults to a free port. */
  readonly port?: number;
  /** Defaults to a fresh directory under the OS temp dir; removed by stop() only when created here. */
  readonly tmpDir?: string;
}

export interface CodeServer {
  readonly port: number;
  /** http://127.0.0.1:<port>/ */
  readonly url: string;
  /** The workbench with `workspace` open. */
  readonly workbenchUrl: string;
  readonly tmpDir: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** code-server's stdout+stderr so far (also in <tmpDir>/code-server.log). */
  output(): string;
  /** Resolves with the exit code when code-server exits. */
  readonly exited: Promise<number | null>;
  /** Stops code-server (its whole process group) and removes the temp dir when it created it. */
  stop(options?: { keepTmp?: boolean }): Promise<void>;
}

function codeServerEnv(tmpDir: string, extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // VSCODE_* (e.g. VSCODE_IPC_HOOK_CLI inside a VS Code terminal) would turn code-server into a
    // client of another instance; npm_* and NODE_OPTIONS come from the outer tooling.
    if (/^(VSCODE_|npm_|NODE_OPTIONS$|NODE_TEST_CONTEXT$|ELECTRON_RUN_AS_NODE$)/.test(key)) continue;
    env[key] = value;
  }
  // Keep code-server's own config and data out of the user's home.
  env['XDG_CONFIG_HOME'] = join(tmpDir, 'xdg-config');
  env['XDG_DATA_HOME'] = join(tmpDir, 'xdg-data');
  return { ...env, ...extra };
}

function commonArgs(dirs: { userDataDir: string; extensionsDir: string; config: string }): string[] {
  return ['--config', dirs.config, '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
}

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const install = requireInstall();
  const ownTmp = options.tmpDir === undefined;
  const tmpDir = options.tmpDir ?? mkdtempSync(join(tmpdir(), 'obs-e2e-'));
  const userDataDir = join(tmpDir, 'user-data');
  const extensionsDir = join(tmpDir, 'extensions');
  const config = join(tmpDir, 'config.yaml');
  const logFile = join(tmpDir, 'code-server.log');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(config, 'auth: none\ncert: false\n');
  writeFileSync(
    join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2) + '\n',
  );
  const env = codeServerEnv(tmpDir, options.env ?? {});
  const dirs = { userDataDir, extensionsDir, config };

  try {
    const vsix = options.vsix ?? (process.env['OBS_E2E_VSIX'] || (await packageExtension(join(tmpDir, 'vsix'))));
    const installs = [vsix, ...(options.extraVsix ?? [])].flatMap((file) => ['--install-extension', file]);
    await execFileAsync(install.node, [install.codeServer, ...commonArgs(dirs), '--force', ...installs], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    if (ownTmp) rmSync(tmpDir, { recursive: true, force: true });
    throw error;
  }

  const port = options.port ?? (await freePort());
  const child: ChildProcess = spawn(
    install.node,
    [
      install.codeServer,
      ...commonArgs(dirs),
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
      options.workspace,
    ],
    // Own process group, so stop() reaches the extension host and every helper it started.
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('code-server did not start');
  const killGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  const onExit = (): void => killGroup('SIGKILL');
  process.on('exit', onExit);

  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      output += text;
      if (output.length > 1_000_000) output = output.slice(-500_000);
      appendFileSync(logFile, text);
      if (output.includes('HTTP server listening')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`code-server exited (${code}) before listening:\n${output}`)));
  });
  const timeout = setTimeout(() => killGroup('SIGKILL'), 60_000);
  try {
    await listening;
  } catch (error) {
    process.off('exit', onExit);
    if (ownTmp) rmSync(tmpDir, { recursive: true, force: true });
    throw error;
  } finally {
    clearTimeout(timeout);
  }

  const url = `http://127.0.0.1:${port}/`;
  let stopped: Promise<void> | undefined;
  return {
    port,
    url,
    workbenchUrl: `${url}?folder=${encodeURIComponent(options.workspace).replaceAll('%2F', '/')}`,
    tmpDir,
    userDataDir,
    extensionsDir,
    output: () => output,
    exited,
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        killGroup('SIGTERM');
        const timer = setTimeout(() => killGroup('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
        // Helpers that ignored SIGTERM (none expected) go now.
        killGroup('SIGKILL');
        process.off('exit', onExit);
        if (ownTmp && !stopOptions.keepTmp) rmSync(tmpDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Copies `source` (e.g. demo/workspace) to a fresh folder so tests never change the repository. */
export function copyWorkspace(source: string, parentDir: string): string {
  const target = join(parentDir, 'workspace');
  cpSync(source, target, { recursive: true });
  return target;
}
