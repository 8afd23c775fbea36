// Ctrl+C or SIGTERM during `obs apply` (the real process, dist/cli.js): the write in flight finishes, a created
// trigger's id goes into its file, the changes not begun are skipped and said, the lock is released, and the
// exit status says not everything was applied. The service answers slowly so the signal lands mid-apply.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMain } from '../../src/cli/main';
import { DEMO } from '../../src/sandbox';
import { startTestSandbox, type TestSandbox } from './sandbox-helpers';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'dist', 'cli.js');
const skip = existsSync(bundle) ? false : 'dist/cli.js is not built (npm test builds it)';
const dataset = DEMO.datasets.gateway;

let sandbox: TestSandbox;
let dir = '';
let env: Record<string, string>;

before(async () => {
  sandbox = await startTestSandbox();
  env = { OBS_BASE_URL: sandbox.base, OBS_CONFIG_KEY: sandbox.handle.info.configKey };
});
after(async () => {
  await sandbox.handle.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const NAMES = ['Interrupted one', 'Interrupted two', 'Interrupted three'];
const fileOf = (i: number) => join(dir, 't', dataset, `interrupted-${i}.trigger.json`);

/** The outcome of the child, once it exits. */
function exited(child: ReturnType<typeof spawn>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves once the sandbox has received a create of a trigger (the first write is in flight). */
async function firstCreateSent(): Promise<void> {
  for (;;) {
    if (sandbox.handle.requests.some((r) => r.method === 'POST' && r.path === `/1/triggers/${dataset}`)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  test(
    `${signal} during obs apply finishes the write in flight, writes its id, skips the rest, releases the lock (exit 1)`,
    { skip },
    async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = mkdtempSync(join(tmpdir(), 'obs-interrupt-'));
      const quiet = { cwd: dir, env, stdout: () => undefined, stderr: () => undefined };
      assert.equal(await runMain(['pull', '--dataset', dataset, '--out', 't'], quiet), 0);
      const names = NAMES.map((n) => `${n} (${signal})`);
      names.forEach((name, i) =>
        writeFileSync(
          fileOf(i),
          `${JSON.stringify({ dataset_slug: dataset, name, threshold: { op: '>', value: 1 }, frequency: 300, query: { calculations: [{ op: 'COUNT' }], time_range: 600 } }, null, 2)}\n`,
        ),
      );
      assert.equal(await runMain(['plan', '--out', 'plan.json', 't'], quiet), 1);
      // Every answer now takes a while: the signal lands while the first create is in flight.
      assert.equal((await sandbox.control('POST', 'faults', { kind: 'latency', ms: 400 })).status, 200);
      sandbox.handle.requests.length = 0;
      const child = spawn(process.execPath, [bundle, 'apply', 'plan.json'], {
        cwd: dir,
        env: { ...env, PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const done = exited(child);
      await firstCreateSent();
      child.kill(signal);
      const r = await done;
      assert.equal((await sandbox.control('POST', 'faults', { kind: 'latency', ms: 0 })).status, 200);
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.equal(
        r.stderr,
        `obs: stopping after the write in flight (${signal === 'SIGINT' ? 'Ctrl+C' : 'SIGTERM'} again to quit at once)\n`,
      );
      const listed = (await sandbox.v1('GET', `/1/triggers/${dataset}`)).json() as { id: string; name: string }[];
      const made = listed.filter((t) => names.includes(t.name));
      assert.deepEqual(
        made.map((t) => t.name),
        [names[0]],
        'the write in flight was made, the others not begun',
      );
      assert.equal(
        (JSON.parse(readFileSync(fileOf(0), 'utf8')) as { id?: string }).id,
        made[0]?.id,
        'its id is in its file',
      );
      assert.ok(
        r.stdout.includes(
          `\nskipped  + ${dataset} "${names[1]}": the apply was stopped before it\nskipped  + ${dataset} "${names[2]}": the apply was stopped before it\n`,
        ),
        r.stdout,
      );
      assert.match(r.stdout, /\n1 applied, 2 skipped, 0 refused, 0 failed\n$/);
      assert.equal(existsSync(join(dir, '.obs-apply.lock')), false, 'the lock is released');
    },
  );
}
