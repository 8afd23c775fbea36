// One rule for where searches for trigger files do not look (src/triggerFiles/searchRules.ts): the CLI's
// folder walk and the editor's search exclude agree on every path, so a file the editor lints is a file
// drift and plan see, and the other way round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, matchesGlob } from 'node:path';
import { expandPaths } from '../../src/cli/files';
import { SKIPPED_BY_SEARCHES } from '../../src/triggerFiles';

const FILES = [
  'api/a.trigger.json',
  'api/deep/er/b.trigger.json',
  'node_modules/pkg/c.trigger.json',
  'api/node_modules/d.trigger.json',
  '.git/e.trigger.json',
  '.github/triggers/f.trigger.json',
  'api/.cache/g.trigger.json',
];

test('the CLI walks, and the editor searches (VS Code enters dot folders unless excluded), exactly the same files', async () => {
  const root = mkdtempSync(join(tmpdir(), 'obs-search-rules-'));
  try {
    for (const f of FILES) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), '{}');
    }
    const walked = (await expandPaths(['.'], root, '.trigger.json')).files.map((f) => f.replace(/^\.\//, '')).sort();
    // Node's glob reads the pattern as VS Code's does: {a,b} as either, a named dot folder matched by .*
    const searched = FILES.filter((f) => !matchesGlob(f, SKIPPED_BY_SEARCHES)).sort();
    assert.deepEqual(walked, ['api/a.trigger.json', 'api/deep/er/b.trigger.json']);
    assert.deepEqual(searched, walked);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
