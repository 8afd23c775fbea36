// `npm run demo`: the packaged extension in code-server on 127.0.0.1 with a fresh copy of demo/workspace
// open (the demo's edits, such as Fix all, never change the repository's files, so every demo starts with
// the same problems to show). Installs code-server first (test/e2e/setup) when the cache is missing.
// Ctrl-C stops it.
// OBS_DEMO_PORT picks the port (default: 8080 when free, else any free port).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { copyWorkspace, findInstall, freePort, repoRoot, startCodeServer } from './codeServer';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Seconds since `from`, as the demo prints them: a newcomer sees where the wait went on their machine. */
const secondsSince = (from: number): string => `${((Date.now() - from) / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const started = Date.now();
  if (!findInstall()) {
    console.log('code-server is not installed yet: running test/e2e/setup');
    const setup = spawnSync('bash', [join(repoRoot, 'test', 'e2e', 'setup')], { stdio: 'inherit' });
    if (setup.status !== 0) throw new Error(`test/e2e/setup failed (exit ${setup.status})`);
    console.log(`setup done in ${secondsSince(started)}`);
  }
  const launching = Date.now();
  const requested = Number(process.env['OBS_DEMO_PORT'] ?? '');
  const port = requested > 0 ? requested : (await portIsFree(8080)) ? 8080 : await freePort();
  // code-server and a fresh copy of demo/workspace in one temporary folder, removed when it stops.
  const demoDir = mkdtempSync(join(tmpdir(), 'obs-demo-'));
  const removeDemoDir = (): void => rmSync(demoDir, { recursive: true, force: true });
  const workspace = copyWorkspace(join(repoRoot, 'demo', 'workspace'), demoDir);
  console.log('building and packaging the extension...');
  const server = await startCodeServer({ workspace, port, tmpDir: join(demoDir, 'code-server') }).catch(
    (error: unknown) => {
      removeDemoDir();
      throw error;
    },
  );
  console.log(
    `\nready in ${secondsSince(started)} (building, packaging, installing and starting: ${secondsSince(launching)})`,
  );
  console.log(`code-server with obs-vscode installed, workspace ${workspace} (a fresh copy of demo/workspace)`);
  console.log(`\n  open ${server.workbenchUrl}\n`);
  console.log(`(loopback only; from another machine: ssh -L ${port}:127.0.0.1:${port} <this host>)`);
  console.log(`logs: ${join(server.tmpDir, 'code-server.log')}; Ctrl-C to stop`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    console.log('\nstopping code-server...');
    void server.stop().then(() => {
      removeDemoDir();
      process.exit(0);
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const code = await server.exited;
  if (!stopping) {
    console.error(`code-server exited unexpectedly (${code}):\n${server.output().slice(-4000)}`);
    await server.stop();
    removeDemoDir();
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
