// A path on obs's command line that names nothing (no such file or folder, a glob that matches no file, a folder
// without a trigger file or test file) is said in one line, and the command stops there: no report that reads as
// complete ("Nothing to change", "0 files compared"), no file read, no call to the service, exit 2. Every command
// that takes paths: lint, drift, plan, test, noise, and apply (the paths of its saved plan).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { demoFolder } from './demo-folder';

const demo = demoFolder('obs-nothing-');

/** obs run in the demo folder: its exit status and output, and how many calls the sandbox received meanwhile. */
async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string; calls: number }> {
  const before = demo.sandbox.handle.requests.length;
  const r = await demo.run(argv);
  return { ...r, calls: demo.sandbox.handle.requests.length - before };
}

const COMMANDS = ['lint', 'drift', 'plan', 'test', 'noise'] as const;

describe('a path that names nothing stops the command: one line, no report, no call, exit 2', () => {
  for (const command of COMMANDS) {
    test(`obs ${command}: no such folder (beside a path that holds files), a glob that matches no file, a folder without its files`, async () => {
      mkdirSync(join(demo.dir, 'empty'));
      // A folder stands for the files of the command's kinds: plan and drift take burn alert and definitions files too.
      const files =
        command === 'test'
          ? '*.trigger-test.json'
          : command === 'plan' || command === 'drift'
            ? '*.trigger.json, *.burn-alert.json or *.definitions.json'
            : '*.trigger.json';
      const runs = [
        await run([command, 'triggers', 'nomatch/']),
        await run([command, 'nomatch/*.json']),
        await run([command, 'empty']),
      ];
      assert.deepEqual(runs, [
        { code: 2, stdout: '', stderr: 'obs: nomatch/: no such file or folder\n', calls: 0 },
        { code: 2, stdout: '', stderr: 'obs: no file matches nomatch/*.json\n', calls: 0 },
        { code: 2, stdout: '', stderr: `obs: no ${files} file under empty\n`, calls: 0 },
      ]);
    });
  }

  test('obs drift --applied naming nothing stops drift the same way', async () => {
    const r = await run(['drift', '--applied', 'nomatch/', 'triggers']);
    assert.deepEqual(r, { code: 2, stdout: '', stderr: 'obs: nomatch/: no such file or folder\n', calls: 0 });
  });

  test('obs apply of a plan whose folder is gone: named, nothing planned again or written', async () => {
    const planned = await demo.run(['plan', '--out', 'plan.json', 'triggers/api-gateway']);
    assert.equal(planned.code, 0, planned.stderr);
    renameSync(join(demo.dir, 'triggers', 'api-gateway'), join(demo.dir, 'triggers', 'gateway'));
    const r = await run(['apply', 'plan.json']);
    assert.deepEqual(r, {
      code: 2,
      stdout: '',
      stderr:
        'obs: triggers/api-gateway: no such file or folder\nobs: the plan is not applied, nothing was written: its paths cannot be planned again (said above)\n',
      calls: 0,
    });
  });
});
