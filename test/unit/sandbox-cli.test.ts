import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DataFileError,
  DEMO,
  PRODUCTION,
  SANDBOX_CREDENTIALS,
  startSandbox,
  type SandboxInfo,
} from '../../src/sandbox';
import { CliUsageError } from '../../src/cli/io';
import { parseSandboxArgs, shellExports } from '../../src/cli/sandboxArgs';
import { saveDataFile } from '../../src/sandbox/persistence';
import { demoData } from '../../src/sandbox/demoData';
import { call } from './sandbox-helpers';

// The CLI (spawned as `node --import tsx src/cli/sandbox.ts`) and the --data file.

const root = join(import.meta.dirname, '..', '..');
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'obs-sandbox-test-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  info: SandboxInfo;
  stdout: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnCli(args: string[]): {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Running['exit'];
} {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/sandbox.ts'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exit };
}

async function startCli(args: string[]): Promise<Running> {
  const p = spawnCli(args);
  const deadline = Date.now() + 20_000;
  while (!p.stdout().includes('\n')) {
    if (Date.now() > deadline || p.child.exitCode !== null) assert.fail(`no ready line; stderr: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    child: p.child,
    info: JSON.parse(p.stdout().split('\n')[0] ?? '') as SandboxInfo,
    stdout: p.stdout,
    exit: p.exit,
  };
}

interface Exported {
  url: string;
  key: string;
}

/** The values a shell gets from sourcing what `--print-env` printed. */
async function exportedBy(p: ReturnType<typeof spawnCli>): Promise<Exported> {
  const deadline = Date.now() + 20_000;
  while (!p.stdout().includes('OBS_CONFIG_KEY')) {
    if (Date.now() > deadline || p.child.exitCode !== null) assert.fail(`no export lines; stderr: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  const script = `${p.stdout()}printf '%s\\n' "$OBS_BASE_URL" "$OBS_CONFIG_KEY"`;
  const [url = '', key = ''] = spawnSync('sh', ['-c', script], { encoding: 'utf8' }).stdout.split('\n');
  return { url, key };
}

const putBurnAlert = (info: SandboxInfo, description: string) =>
  call(`${info.baseUrl}/1/burn_alerts/${DEMO.datasets.gateway}/${DEMO.burnAlerts.gwExhaustion}`, {
    method: 'PUT',
    headers: { 'X-Service-Team': info.configKey, 'Content-Type': 'application/json' },
    body: {
      alert_type: 'exhaustion_time',
      exhaustion_minutes: 15,
      description,
      recipients: [{ id: DEMO.recipients.emailOncall }],
    },
  });

describe('sandbox CLI', () => {
  test('prints one JSON line, keeps --data across a restart, and exits 0 on SIGTERM and SIGINT', async () => {
    const file = join(dir, 'restart.json');
    const first = await startCli(['--port', '0', '--data', file]);
    assert.match(first.info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(Object.keys(first.info).sort(), [
      'baseUrl',
      'configKey',
      'controlToken',
      'datasets',
      'environmentId',
      'managementKey',
      'slos',
      'team',
      'uiUrl',
    ]);
    assert.equal((await putBurnAlert(first.info, 'survives a restart')).status, 200);
    // A second sandbox on the same file would overwrite the first one's writes: it is refused.
    const twin = spawnCli(['--port', '0', '--data', file]);
    assert.deepEqual(await twin.exit, { code: 2, signal: null });
    assert.match(twin.stderr(), /--data: data file .*restart\.json is in use by another sandbox \(process \d+\)/);
    first.child.kill('SIGTERM');
    assert.deepEqual(await first.exit, { code: 0, signal: null });
    assert.equal(first.stdout().split('\n').length, 2, 'exactly one line, newline-terminated');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('restart')),
      ['restart.json'],
      'the lock is gone after a clean stop',
    );

    const second = await startCli(['--port', '0', '--data', file]);
    const res = await call(
      `${second.info.baseUrl}/1/burn_alerts/${DEMO.datasets.gateway}?slo_id=${DEMO.slos.gwAvailability}`,
      {
        headers: { 'X-Service-Team': second.info.configKey },
      },
    );
    const alert = (res.json() as { id: string; description: string }[]).find(
      (a) => a.id === DEMO.burnAlerts.gwExhaustion,
    );
    assert.equal(alert?.description, 'survives a restart');
    second.child.kill('SIGINT');
    assert.deepEqual(await second.exit, { code: 0, signal: null });
  });

  test('--print-env prints the two export lines a CI job sources, and they reach the sandbox', async () => {
    const p = spawnCli(['--port', '0', '--print-env']);
    const deadline = Date.now() + 20_000;
    while (!p.stdout().includes('OBS_CONFIG_KEY')) {
      if (Date.now() > deadline || p.child.exitCode !== null) assert.fail(`no export lines; stderr: ${p.stderr()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const lines = p.stdout().split('\n');
    assert.equal(lines.length, 3, 'two lines, newline-terminated');
    assert.match(lines[0] ?? '', /^export OBS_BASE_URL='http:\/\/127\.0\.0\.1:\d+'$/);
    assert.equal(lines[1], `export OBS_CONFIG_KEY='${SANDBOX_CREDENTIALS.configKey}'`);
    const env = spawnSync('sh', ['-c', `${p.stdout()}printf '%s\\n' "$OBS_BASE_URL" "$OBS_CONFIG_KEY"`], {
      encoding: 'utf8',
    }).stdout.split('\n');
    const res = await call(`${env[0] ?? ''}/1/columns/${DEMO.datasets.gateway}`, {
      headers: { 'X-Service-Team': env[1] ?? '' },
    });
    assert.equal(res.status, 200);
    p.child.kill('SIGTERM');
    assert.deepEqual(await p.exit, { code: 0, signal: null });
  });

  test('staging and production run side by side, each on its port with its own keys and data', async () => {
    const started = [spawnCli(['--print-env']), spawnCli(['--demo', 'production', '--print-env'])];
    try {
      const [staging, production] = await Promise.all(started.map(exportedBy));
      const triggers = (env: Exported, slug: string, key = env.key) =>
        call(`${env.url}/1/triggers/${slug}`, { headers: { 'X-Service-Team': key } });
      const ids = (res: { json(): unknown }) => (res.json() as { id: string }[]).map((t) => t.id);
      assert.ok(staging && production);
      assert.notEqual(new URL(staging.url).port, new URL(production.url).port);
      assert.deepEqual(ids(await triggers(staging, DEMO.datasets.checkout)), [
        DEMO.triggers.coFormula,
        DEMO.triggers.coTenTags,
      ]);
      assert.deepEqual(ids(await triggers(production, PRODUCTION.datasets.checkout)), [
        PRODUCTION.triggers.coFormula,
        PRODUCTION.triggers.coTenTags,
      ]);
      assert.deepEqual(
        [
          (await triggers(staging, DEMO.datasets.checkout, production.key)).status,
          (await triggers(production, PRODUCTION.datasets.checkout, staging.key)).status,
        ],
        [401, 401],
      );
    } finally {
      for (const p of started) p.child.kill('SIGTERM');
    }
    assert.deepEqual(await Promise.all(started.map((p) => p.exit)), [
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  test('an unknown flag exits 2 naming the flag on stderr', async () => {
    const p = spawnCli(['--prot', '8080']);
    assert.deepEqual(await p.exit, { code: 2, signal: null });
    assert.match(p.stderr(), /--prot/);
    assert.equal(p.stdout(), '');
  });

  test('a corrupt data file exits 2 with a clear error and is left untouched', async () => {
    const file = join(dir, 'corrupt.json');
    writeFileSync(file, '{"format": "obs-sandbox-data", "version": 1, "data": {');
    const before = readFileSync(file);
    const p = spawnCli(['--data', file]);
    assert.deepEqual(await p.exit, { code: 2, signal: null });
    assert.match(p.stderr(), /--data: data file .*corrupt\.json is not valid JSON/);
    assert.deepEqual(readFileSync(file), before);
  });
});

describe('sandbox CLI flags', () => {
  test('defaults: no options, so port 0 on 127.0.0.1 with the demo data', () => {
    assert.deepEqual(parseSandboxArgs([]), { kind: 'serve', options: {}, print: 'json' });
  });

  test('every flag maps to its option', () => {
    assert.deepEqual(
      parseSandboxArgs(['--port', '0', '--host', '::1', '--rate-limit', '5', '--data', 'x.json', '--empty']),
      {
        kind: 'serve',
        options: { port: 0, host: '::1', rateLimit: 5, dataFile: 'x.json', demo: false },
        print: 'json',
      },
    );
  });

  test('--demo names the environment of the demo to serve: staging (the default) or production', () => {
    assert.deepEqual(
      [parseSandboxArgs(['--demo', 'staging']), parseSandboxArgs(['--demo', 'production'])].map((c) =>
        c.kind === 'serve' ? c.options : c,
      ),
      [{ demoEnvironment: 'staging' }, { demoEnvironment: 'production' }],
    );
  });

  test('--demo with another name is a usage error listing the environments', () => {
    assert.throws(
      () => parseSandboxArgs(['--demo', 'qa']),
      (err: unknown) =>
        err instanceof CliUsageError &&
        err.message === "option '--demo <ENV>' argument 'qa' is invalid. Allowed choices are staging, production.",
    );
  });

  test('--demo with --empty is a usage error naming both', () => {
    assert.throws(
      () => parseSandboxArgs(['--empty', '--demo', 'production']),
      (err: unknown) =>
        err instanceof CliUsageError && err.message === "option '--demo <ENV>' cannot be used with option '--empty'",
    );
  });

  test('--print-env asks for shell lines instead of the JSON line', () => {
    assert.deepEqual(parseSandboxArgs(['--print-env']), { kind: 'serve', options: {}, print: 'env' });
  });

  test('the exported values are single-quoted, a quote in them included, so a shell reads them back exactly', () => {
    const text = shellExports({ baseUrl: "http://127.0.0.1:1/it's", configKey: 'k $HOME `x`' });
    assert.equal(text, "export OBS_BASE_URL='http://127.0.0.1:1/it'\\''s'\nexport OBS_CONFIG_KEY='k $HOME `x`'\n");
    const read = spawnSync('sh', ['-c', `${text}printf '%s\\n' "$OBS_BASE_URL" "$OBS_CONFIG_KEY"`], {
      encoding: 'utf8',
    });
    assert.equal(read.stdout, "http://127.0.0.1:1/it's\nk $HOME `x`\n");
  });

  for (const [args, flag] of [
    [['--port', '65536'], '--port'],
    [['--port', '-1'], '--port'],
    [['--port', '8x'], '--port'],
    [['--rate-limit', '0'], '--rate-limit'],
    [['--host', ' '], '--host'],
    [['--data', ''], '--data'],
    [['--port'], '--port'],
    [['extra'], 'extra'],
  ] as const) {
    test(`${args.join(' ') || '(empty)'} is a usage error naming ${flag}`, () => {
      assert.throws(
        () => parseSandboxArgs([...args]),
        (err: unknown) => err instanceof CliUsageError && err.kind === 'usage' && err.message.includes(flag),
      );
    });
  }
});

describe('--data file', () => {
  test('a fresh file is written at start, saved after every write, with no temp files and no credentials', async () => {
    const sub = mkdtempSync(join(dir, 'fresh-'));
    const file = join(sub, 'data.json');
    const handle = await startSandbox({ dataFile: file, rateLimit: 1000 });
    try {
      // The lock beside the file says which process uses it (one sandbox per data file).
      assert.deepEqual(readdirSync(sub).sort(), ['data.json', 'data.json.lock']);
      const writes = Array.from({ length: 8 }, (_, i) => putBurnAlert(handle.info, `write ${i}`));
      const statuses = (await Promise.all(writes)).map((r) => r.status);
      assert.deepEqual(statuses, Array(8).fill(200));
      assert.deepEqual(readdirSync(sub).sort(), ['data.json', 'data.json.lock']);
      const text = readFileSync(file, 'utf8');
      const saved = JSON.parse(text) as { data: { burnAlerts: { id: string; description: string }[] } };
      assert.equal(saved.data.burnAlerts.find((a) => a.id === DEMO.burnAlerts.gwExhaustion)?.description, 'write 7');
      for (const secret of Object.values(SANDBOX_CREDENTIALS)) assert.equal(text.includes(secret), false, secret);
    } finally {
      await handle.close();
    }
  });

  test('a write whose save fails answers 500 and is undone, so memory and file agree', async () => {
    const sub = mkdtempSync(join(dir, 'vanishing-'));
    const handle = await startSandbox({ dataFile: join(sub, 'data.json'), rateLimit: 1000 });
    try {
      const before = JSON.stringify(handle.state.burnAlerts);
      rmSync(sub, { recursive: true, force: true });
      const res = await putBurnAlert(handle.info, 'never saved');
      assert.equal(res.status, 500, res.text);
      assert.match((res.json() as { detail: string }).detail, /could not save its data, so the change was undone/);
      assert.equal(JSON.stringify(handle.state.burnAlerts), before);
    } finally {
      await handle.close();
    }
  });

  test('server-assigned ids continue after a restart', async () => {
    const file = join(dir, 'ids.json');
    const create = async (baseUrl: string) => {
      const res = await call(`${baseUrl}/1/query_results/${DEMO.datasets.gateway}`, {
        method: 'POST',
        headers: { 'X-Service-Team': SANDBOX_CREDENTIALS.configKey, 'Content-Type': 'application/json' },
        body: { query_id: DEMO.savedQueries.gw5xx },
      });
      return (res.json() as { id: string }).id;
    };
    const a = await startSandbox({ dataFile: file });
    const first = await create(a.info.baseUrl);
    await a.close();
    const b = await startSandbox({ dataFile: file });
    const second = await create(b.info.baseUrl);
    await b.close();
    assert.deepEqual([first, second], ['qr_000001', 'qr_000002']);
  });

  test('a file of the wrong shape is refused with the path of the bad member', async () => {
    const file = join(dir, 'shape.json');
    const data = demoData() as unknown as Record<string, unknown>;
    data.nextId = 'one';
    writeFileSync(file, JSON.stringify({ format: 'obs-sandbox-data', version: 1, data }));
    await assert.rejects(startSandbox({ dataFile: file }), (err: unknown) => {
      return err instanceof DataFileError && err.kind === 'data-file-corrupt' && /data\.nextId/.test(err.message);
    });
  });

  test('a failed atomic write leaves no temp file and names the file', async () => {
    const file = join(dir, 'missing-dir', 'data.json');
    await assert.rejects(
      saveDataFile(file, demoData()),
      (err: unknown) => err instanceof DataFileError && err.kind === 'data-file-unwritable',
    );
    assert.equal(
      readdirSync(dir).some((n) => n.endsWith('.tmp')),
      false,
    );
  });
});
