import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { builtFiles, loadedAtRunTime, NOT_SHIPPED, root } from './bundle-inputs';

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

test('npm run package produces a .vsix holding only what runs, under 2.6 MB', { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'obs-vsix-'));
  try {
    const out = join(dir, 'obs.vsix');
    execFileSync('npm', ['run', '--silent', 'package', '--', '--out', out], { cwd: root, stdio: 'pipe' });
    // 2 MB until the MCP server (obs mcp, with the MCP SDK, in dist/cli.js) and the agent tools shipped: 2.2 MB then;
    // 2.4 MB with the Test Explorer and the noise report (dist/backtest-host.js, 60 KB compressed, and their two
    // README pictures, 157 KB); 2.6 MB since obs's linter is a bundle of its own beside the service commands'
    // (dist/cli-lint.js, about 75 KB compressed, a second copy of zod and the linter), so that obs lint starts
    // without the client.
    assert.ok(statSync(out).size < 2.6 * 1024 * 1024, `vsix is ${statSync(out).size} bytes`);
    const names = await listZip(out);
    const files = names.filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));

    // What must ship is computed, not listed: every file this build made (read after packaging, so it is the
    // packaged build), every file the extension loads at run time and every file the manifest names.
    const built = [...builtFiles().keys()];
    const expected = [
      ...built.filter((f) => NOT_SHIPPED[f] === undefined),
      ...loadedAtRunTime(),
      ...manifestFiles(),
      ...['package.json', 'readme.md', 'changelog.md', 'LICENSE.txt', 'docs/rules.md', 'schemas/trigger.schema.json'],
    ];
    assert.ok(
      built.includes('dist/extension.js') && expected.includes('media/icon.png'),
      'the expected list is computed from the build and the manifest',
    );
    const has = (f: string): boolean => files.some((g) => g.toLowerCase() === f.toLowerCase());
    assert.deepEqual(
      [...new Set(expected)].filter((f) => !has(f)),
      [],
      `the .vsix holds ${files.join(', ')}`,
    );
    assert.deepEqual(Object.keys(NOT_SHIPPED).filter(has), [], 'a file the extension does not use is shipped');
    // A file left in dist/ by an older build (a bundle since renamed, an old chunk) is not shipped.
    assert.deepEqual(
      files.filter((f) => f.startsWith('dist/') && !built.includes(f)),
      [],
    );
    // docs/rules.md ships so the Problems view can open a rule's documentation offline; the other docs and
    // the pictures because the README (the extension's page in VS Code) links to them.
    const allowed =
      /^(dist\/|media\/|schemas\/|docs\/[^/]+\.md$|docs\/images\/[^/]+\.png$|l10n\/bundle\.l10n(\.[a-z-]+)?\.json$|package(\.nls(\.[a-z-]+)?)?\.json$|readme\.md$|changelog\.md$|license(\.txt)?$)/i;
    assert.deepEqual(
      files.filter((f) => !allowed.test(f)),
      [],
    );
    assert.deepEqual(
      files.filter((f) => /\.ts$/.test(f) && !f.endsWith('.d.ts')),
      [],
    );
    assert.deepEqual(
      files.filter((f) => /^(src|test|bench|node_modules)\//.test(f)),
      [],
    );
    // Every relative link and picture of the packaged README resolves to a file in the package.
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] ?? '')
      .filter((t) => !/^[a-z]+:|^#/i.test(t));
    assert.ok(targets.length > 0, 'the README links to files');
    const unresolved = targets.map((t) => t.replace(/#.*$/, '').replace(/^\.\//, '')).filter((t) => !files.includes(t));
    assert.deepEqual(unresolved, [], 'README links to files the .vsix does not hold');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Files the manifest names: main, bin, icons, schemas, walkthrough pictures, the string bundles. */
function manifestFiles(): string[] {
  const m = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    main: string;
    icon: string;
    l10n: string;
    bin: Record<string, string>;
    contributes: {
      viewsContainers: Record<string, { icon: string }[]>;
      jsonValidation: { url: string }[];
      walkthroughs: { steps: { media: { image?: string } }[] }[];
    };
  };
  const c = m.contributes;
  return [
    m.main,
    m.icon,
    ...Object.values(m.bin),
    ...Object.values(c.viewsContainers).flatMap((list) => list.map((v) => v.icon)),
    ...c.jsonValidation.map((j) => j.url),
    ...c.walkthroughs.flatMap((w) => w.steps.flatMap((s) => (s.media.image ? [s.media.image] : []))),
    `${m.l10n}/bundle.l10n.json`,
    'package.nls.json',
  ].map((f) => f.replace(/^\.\//, ''));
}
