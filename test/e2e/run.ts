// `npm run test:e2e`: packages the extension once (`npm run package`, as each suite would on its own) and runs
// the given e2e files with OBS_E2E_VSIX naming that .vsix, so the eleven suites install one artifact instead of
// building and packaging it eleven times. A .vsix already named by OBS_E2E_VSIX is used as it is.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageExtension, repoRoot } from '../../scripts/codeServer';

/** The e2e files run by node's test runner, one at a time, installing `vsix`; the runner's exit status. */
function runSuites(files: readonly string[], vsix: string): number {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
    { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, OBS_E2E_VSIX: vsix } },
  );
  return run.status ?? 1;
}

async function main(files: readonly string[]): Promise<number> {
  const given = process.env['OBS_E2E_VSIX'];
  if (given) return runSuites(files, given);
  const tmp = mkdtempSync(join(tmpdir(), 'obs-e2e-vsix-'));
  try {
    return runSuites(files, await packageExtension(tmp));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(2);
  },
);
