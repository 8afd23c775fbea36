// The sandbox started in the background as README.md and docs/SANDBOX.md say (`npm run -s sandbox -- --print-env
// > sandbox.env &`) stops as they say (`kill %1; wait`): npm's shell used to die and leave the node server serving.
// Runs the documented lines in bash (job control off, as in CI scripts), the environment file in a temporary folder.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'sandbox.js');
const dir = mkdtempSync(join(tmpdir(), 'obs-sandbox-stop-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The lines of the documentation, with the environment file outside the repository. */
const SCRIPT = `
npm run -s sandbox -- --print-env > "$ENV_FILE" &
until grep -q OBS_CONFIG_KEY "$ENV_FILE" 2>/dev/null; do sleep 0.2; done
. "$ENV_FILE"
node -e 'fetch(process.argv[1], { headers: { "X-Service-Team": process.argv[2] } }).then((r) => console.log("answered " + r.status))' "$OBS_BASE_URL/1/datasets" "$OBS_CONFIG_KEY"
kill %1; wait
`;

/** How a TCP connection to the address ends: `connected`, or the error's code. */
async function connection(address: string): Promise<string> {
  const { hostname, port } = new URL(address);
  const socket = connect(Number(port), hostname);
  const outcome = await new Promise<string>((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
  socket.destroy();
  return outcome;
}

test(
  'npm run -s sandbox -- --print-env > sandbox.env & ... kill %1; wait: the sandbox stops, its port no longer answers',
  { skip: existsSync(bundle) ? false : 'dist/sandbox.js is not built (npm test builds it)' },
  async () => {
    const envFile = join(dir, 'sandbox.env');
    // A process group of its own: whatever the script leaves running is ended after the test, and nothing else.
    const bash = spawn('bash', ['-c', SCRIPT], {
      cwd: root,
      env: { ...process.env, ENV_FILE: envFile },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    bash.stdout.on('data', (b: Buffer) => (output += b.toString()));
    bash.stderr.on('data', (b: Buffer) => (output += b.toString()));
    try {
      const [code] = (await once(bash, 'exit')) as [number | null];
      assert.deepEqual([code, output], [0, 'answered 200\n']);
      const address = /OBS_BASE_URL='([^']+)'/.exec(readFileSync(envFile, 'utf8'))?.[1] ?? '';
      assert.equal(await connection(address), 'ECONNREFUSED');
    } finally {
      endGroup(bash.pid);
    }
  },
);

/** Ends what is left of the script's process group (a server the kill did not stop); none left is fine. */
function endGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}
