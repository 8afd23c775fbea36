// obs starts with its commands' declarations only and loads what a command needs when it runs: the
// modules a run of dist/cli.js loaded, read from require.cache and node's list of its own modules at exit
// (the bundles as built: `npm test` builds first). What each bundle holds is checked in ext-bundles.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'dist', 'cli.js');
const skip = existsSync(cli) ? false : 'dist/cli.js is not built (npm test builds it)';

/** What a run of obs loaded: its own files (relative to the repository) and node's modules for the network, TLS, crypto and workers. */
function loadedBy(args: string[]): { files: string[]; heavy: string[]; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'obs-startup-'));
  try {
    const hook = join(dir, 'loaded.cjs');
    const out = join(dir, 'loaded.json');
    writeFileSync(
      join(dir, 'a.trigger.json'),
      JSON.stringify({
        name: 'a',
        threshold: { op: '>', value: 1 },
        frequency: 61,
        query: { calculations: [{ op: 'COUNT' }], time_range: 1800 },
      }),
    );
    writeFileSync(
      hook,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ cache: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`,
    );
    const r = spawnSync(process.execPath, ['-r', hook, cli, ...args], { cwd: dir, encoding: 'utf8' });
    const loaded = JSON.parse(readFileSync(out, 'utf8')) as { cache: string[]; builtins: string[] };
    return {
      files: loaded.cache.filter((f) => f !== hook).map((f) => relative(root, f)),
      heavy: loaded.builtins.filter((m) => /undici|tls|http|crypto|zlib|worker_threads/.test(m)),
      status: r.status,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('obs lint loads the program and the lint run only: no client, undici, TLS, HTTP, crypto or zlib', { skip }, () => {
  const loaded = loadedBy(['lint', 'a.trigger.json']);
  assert.equal(loaded.status, 1, 'the file has an error');
  // With the libraries it shares with the other runs (esbuild.mjs, LIBS): zod and the JSONC parser.
  // (The order of the two libraries is the order the run's modules first name them: not a concern.)
  assert.deepEqual(
    [...loaded.files.slice(0, 2), ...loaded.files.slice(2).sort()],
    ['dist/cli.js', 'dist/cli-lint.js', 'dist/lib-jsonc.js', 'dist/lib-zod.js'],
  );
  assert.deepEqual(loaded.heavy, []);
});

test('obs --version and obs lint --help load the program only', { skip }, () => {
  for (const args of [['--version'], ['lint', '--help']]) {
    const loaded = loadedBy(args);
    assert.equal(loaded.status, 0);
    assert.deepEqual(loaded.files, ['dist/cli.js'], args.join(' '));
    assert.deepEqual(loaded.heavy, [], args.join(' '));
  }
});

test(
  'obs drift loads the runs of the service commands and their libraries, not the lint run nor the MCP server',
  { skip },
  () => {
    // Without OBS_BASE_URL it stops at the setup error (exit 2), once the run is loaded.
    const loaded = loadedBy(['drift', 'a.trigger.json']);
    assert.equal(loaded.status, 2);
    assert.deepEqual(loaded.files, [
      'dist/cli.js',
      'dist/cli-service.js',
      'dist/lib-jsonc.js',
      'dist/lib-zod.js',
      'dist/lib-undici.js',
    ]);
  },
);

test('obs mcp loads its server from dist/cli-mcp.js, not the runs of the other commands', { skip }, () => {
  // Its input closes at once, so the server stops after starting.
  const loaded = loadedBy(['mcp']);
  assert.deepEqual(loaded.files.filter((f) => /^dist\/cli/.test(f)).sort(), ['dist/cli-mcp.js', 'dist/cli.js']);
});
