// --out of obs test and obs plan: a file that cannot be written there is said before anything runs, as the output
// path's problem (never as a failed test), exit 2; the check leaves nothing behind when the run is then refused;
// missing folders of a path that can be written are made.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoFolder } from './demo-folder';

const demo = demoFolder('obs-out-');

/** obs run in the demo folder, with how many calls the sandbox received meanwhile. */
async function run(
  argv: string[],
  env = demo.env,
): Promise<{ code: number; stdout: string; stderr: string; calls: number }> {
  const before = demo.sandbox.handle.requests.length;
  const r = await demo.run(argv, { env });
  return { ...r, calls: demo.sandbox.handle.requests.length - before };
}

const PROC = process.platform === 'linux' ? false : 'needs /proc, where no folder can be made';

describe('an --out that cannot be written stops the command before it runs: named as the output path, exit 2', () => {
  test('obs test --out /proc/x/t.xml runs no test', { skip: PROC }, async () => {
    const r = await run(['test', '--reporter', 'junit', '--out', '/proc/x/t.xml']);
    assert.deepEqual(r, {
      code: 2,
      stdout: '',
      stderr:
        'obs: --out /proc/x/t.xml: cannot create the folder /proc/x: the file system allows no new folder there; no test was run\n',
      calls: 0,
    });
  });

  test('obs plan --out /proc/x/plan.json plans nothing', { skip: PROC }, async () => {
    const r = await run(['plan', '--out', '/proc/x/plan.json', 'triggers']);
    assert.deepEqual(r, {
      code: 2,
      stdout: '',
      stderr:
        'obs: --out /proc/x/plan.json: cannot create the folder /proc/x: the file system allows no new folder there; nothing was planned\n',
      calls: 0,
    });
  });

  test('a file in the way of a folder, and a folder where the file goes', async () => {
    writeFileSync(join(demo.dir, 'report'), '');
    mkdirSync(join(demo.dir, 'plan.json'));
    const underFile = await run(['test', '--out', 'report/t.xml']);
    const folder = await run(['plan', '--out', 'plan.json', 'triggers']);
    assert.deepEqual(
      [underFile, folder],
      [
        {
          code: 2,
          stdout: '',
          stderr: `obs: --out report/t.xml: ${join(demo.dir, 'report')} is not a folder; no test was run\n`,
          calls: 0,
        },
        {
          code: 2,
          stdout: '',
          stderr: `obs: --out plan.json: ${join(demo.dir, 'plan.json')} is a folder; nothing was planned\n`,
          calls: 0,
        },
      ],
    );
  });
});

describe('an --out whose folders do not exist yet', () => {
  test('obs test --out reports/ci/t.xml makes them for the report only: a run refused after the check leaves nothing', async () => {
    const before = readdirSync(demo.dir).sort();
    const refused = await run(['test', '--record', '--out', 'reports/ci/t.xml'], {});
    assert.deepEqual(
      [refused.code, refused.stderr],
      [2, 'obs: --record needs the service: set OBS_BASE_URL and OBS_CONFIG_KEY in the environment\n'],
    );
    assert.deepEqual(readdirSync(demo.dir).sort(), before);
    const r = await run(['test', '--reporter', 'junit', '--out', 'reports/ci/t.xml']);
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(readdirSync(join(demo.dir, 'reports', 'ci')), ['t.xml']);
    assert.match(
      readFileSync(join(demo.dir, 'reports', 'ci', 't.xml'), 'utf8'),
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites>\n {2}<testsuite [^>]* tests="3" failures="1" errors="0" skipped="0"/,
    );
  });

  test('obs plan --out plans/main.json makes it and saves the plan', async () => {
    const r = await run(['plan', '--out', 'plans/main.json', 'triggers']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(join(demo.dir, 'plans', 'main.json')));
    assert.equal(
      (JSON.parse(readFileSync(join(demo.dir, 'plans', 'main.json'), 'utf8')) as { format: string }).format,
      'obs-trigger-plan',
    );
  });
});
