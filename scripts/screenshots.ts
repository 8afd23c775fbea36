// `npm run screenshots`: refreshes the README's pictures in docs/images on purpose. It runs the UI suite
// (code-server + Chromium) with OBS_SCREENSHOTS_DIR pointing there; an ordinary test run writes its
// pictures to test-results/screenshots and leaves tracked files alone.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
// The walkthrough's picture shows docs/images/sidebar.png as the suite packages it: its suite runs last,
// after the one that takes the sidebar's picture, so one run leaves both current.
const last = (name: string): number => (name === 'ui-walkthrough.e2e.ts' ? 1 : 0);
const files = readdirSync(join(root, 'test', 'e2e'))
  .filter((name) => /^ui.*\.e2e\.ts$/.test(name))
  .sort((a, b) => last(a) - last(b) || a.localeCompare(b))
  .map((name) => join('test', 'e2e', name));
const run = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, OBS_SCREENSHOTS_DIR: join(root, 'docs', 'images') },
  },
);
console.log(
  run.status === 0
    ? 'docs/images refreshed; review with git diff --stat docs/images before committing'
    : 'the UI suite failed: docs/images may be partly refreshed (git checkout docs/images to undo)',
);
process.exit(run.status ?? 1);
