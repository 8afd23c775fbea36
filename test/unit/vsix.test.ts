import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';

const root = join(import.meta.dirname, '..', '..');

function listZip(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

test('npm run package produces a .vsix holding only what runs, under 2 MB', { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-vsix-'));
  try {
    const out = join(dir, 'obs.vsix');
    execFileSync('npm', ['run', '--silent', 'package', '--', '--out', out], { cwd: root, stdio: 'pipe' });
    assert.ok(statSync(out).size < 2 * 1024 * 1024, `vsix is ${statSync(out).size} bytes`);
    const names = await listZip(out);
    const files = names.filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));

    for (const required of ['package.json', 'package.nls.json', 'l10n/bundle.l10n.json', 'readme.md', 'changelog.md', 'LICENSE.txt', 'dist/extension.js', 'dist/client-host.js', 'dist/sandbox-host.js', 'dist/lint-worker.js', 'dist/forms-host.js', 'dist/queries-host.js', 'dist/cli.js', 'docs/rules.md', 'schemas/trigger.schema.json', 'media/icon.png']) {
      assert.ok(
        files.some((f) => f.toLowerCase() === required.toLowerCase()),
        `missing ${required}; got ${files.join(', ')}`,
      );
    }
    // docs/rules.md ships so the Problems view can open a rule's documentation offline; the other docs and
    // the pictures because the README (the extension's page in VS Code) links to them.
    const allowed = /^(dist\/|media\/|schemas\/|docs\/[^/]+\.md$|docs\/images\/[^/]+\.png$|l10n\/bundle\.l10n(\.[a-z-]+)?\.json$|package(\.nls(\.[a-z-]+)?)?\.json$|readme\.md$|changelog\.md$|license(\.txt)?$)/i;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), []);
    assert.deepEqual(files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts')), []);
    assert.deepEqual(files.filter((f) => /^(src|test|bench|node_modules)\//.test(f)), []);
    // Every relative link and picture of the packaged README resolves to a file in the package.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((t) => !/^[a-z]+:|^#/i.test(t));
    assert.ok(targets.length > 0, 'the README links to files');
    const unresolved = targets.map((t) => t.replace(/#.*$/, '').replace(/^\.\//, '')).filter((t) => !files.includes(t));
    assert.deepEqual(unresolved, [], 'README links to files the .vsix does not hold');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
