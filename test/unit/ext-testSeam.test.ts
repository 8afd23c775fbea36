// The extension exports nothing, and its internals reach the in-host tests only through the test seam,
// which opens in a test run alone (src/extension/testSeam.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { publishTestSeam, TEST_SEAM_KEY, TEST_SEAM_VARIABLE, testSeamOpen } from '../../src/extension/testSeam';

const root = join(import.meta.dirname, '..', '..');
const registry = globalThis as Record<symbol, unknown>;

test('the test seam is closed without its variable set to 1 and outside a test runner', () => {
  assert.equal(testSeamOpen({ env: {}, testMode: false }), false);
  for (const value of ['', '0', 'true', 'yes', ' 1']) {
    assert.equal(testSeamOpen({ env: { [TEST_SEAM_VARIABLE]: value }, testMode: false }), false, JSON.stringify(value));
  }
  assert.equal(testSeamOpen({ env: { [TEST_SEAM_VARIABLE]: '1' }, testMode: false }), true);
  assert.equal(testSeamOpen({ env: {}, testMode: true }), true);
});

test('a closed seam publishes nothing and builds nothing; an open one publishes until it is disposed', () => {
  let built = 0;
  const internals = () => {
    built++;
    return { marker: 'internals' };
  };
  const closed = publishTestSeam({ env: {}, testMode: false }, internals);
  assert.equal(registry[TEST_SEAM_KEY], undefined);
  assert.equal(built, 0);
  closed.dispose();

  const open = publishTestSeam({ env: { [TEST_SEAM_VARIABLE]: '1' }, testMode: false }, internals);
  try {
    assert.deepEqual(registry[TEST_SEAM_KEY], { marker: 'internals' });
  } finally {
    open.dispose();
  }
  assert.equal(registry[TEST_SEAM_KEY], undefined);
  assert.equal(built, 1);
});

/** activate() of the built bundle in a stub extension host (a fresh process), as bench/children/activate.cjs reports it. */
function activateBundle(env: NodeJS.ProcessEnv): { returned: string; seam: string[] | null } {
  const result = spawnSync(
    process.execPath,
    [join(root, 'bench', 'children', 'activate.cjs'), root, join(root, 'dist', 'extension.js')],
    { encoding: 'utf8', env },
  );
  assert.equal(result.status, 0, result.stderr);
  const { returned, seam } = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as {
    returned: string;
    seam: string[] | null;
  };
  return { returned, seam };
}

test('activate() of dist/extension.js returns nothing and publishes no seam outside a test run', () => {
  // `npm test` builds dist/ first.
  const env = { ...process.env };
  delete env[TEST_SEAM_VARIABLE];
  assert.deepEqual(activateBundle(env), { returned: 'undefined', seam: null });
});

test('with OBS_VSCODE_TEST_SEAM=1 the same activation publishes the seam, still returning nothing', () => {
  const opened = activateBundle({ ...process.env, [TEST_SEAM_VARIABLE]: '1' });
  assert.deepEqual(opened, {
    returned: 'undefined',
    seam: [
      'agents',
      'connections',
      'context',
      'diagnostics',
      'formPanels',
      'keys',
      'log',
      'mcpServers',
      'sandbox',
      'tree',
      'view',
    ],
  });
});
