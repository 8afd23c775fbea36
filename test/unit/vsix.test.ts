import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { builtFiles, loadedAtRunTime, NOT_SHIPPED, root } from './bundle-inputs';

/** The .vsix's entries: each file's path and its size unpacked, in bytes. */
function listZip(file: string): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, number>();
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry.uncompressedSize);
        zip.readEntry();
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** One text file of the .vsix, as packaged. */
function readZipText(file: string, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in ${file}`)));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/**
 * The most each shipped bundle may weigh, in KiB as minified by `npm run package` (about 10% above its size
 * when measured; docs/PERFORMANCE.md has the sizes). A bundle that grows past it says so here first.
 */
const BUDGET_KIB: Readonly<Record<string, number>> = {
  'dist/extension.js': 184,
  'dist/client-host.js': 60,
  // Raised with the burn alert and definitions rules (lint-worker, cli-lint) and obs review's noise diff and
  // GitHub output (cli-service).
  'dist/lint-worker.js': 117,
  'dist/forms-host.js': 87,
  'dist/queries-host.js': 80,
  // Raised with the editor's pull and Compare, and the plan and apply, of burn alert and definitions files, and
  // with the editor's Apply of them and its plan grouped by kind (136.5 KiB measured); again with recipients
  // named by type and target resolved in drift, plan and pull (150.8 KiB measured).
  'dist/sync-host.js': 166,
  'dist/backtest-host.js': 115,
  // The environments file's reader (the schema's checks, each mistake placed), and a trigger file as an environment
  // sees it (the effective trigger, the placing of its lint's findings) for the editor: 13.5 KiB measured.
  'dist/environments-host.js': 15,
  // Raised with recipients named by type and target resolved in the agents' drift and plan (187.1 KiB measured).
  'dist/agents-host.js': 206,
  'dist/sandbox-host.js': 121,
  'dist/cli.js': 75,
  'dist/cli-lint.js': 133,
  'dist/cli-service.js': 395,
  'dist/cli-mcp.js': 500,
  'dist/lib-zod.js': 220,
  'dist/lib-undici.js': 588,
  'dist/lib-jsonc.js': 23,
  'dist/lib-glob.js': 42,
};
const VSIX_LIMIT = 1.5 * 1024 * 1024;
/** Where the README's and the walkthrough's pictures are: the repository's files (`npm run package`). */
const IMAGES_BASE = 'https://example.invalid/obs-vscode/raw/HEAD/';

test(
  'npm run package produces a .vsix under 1.5 MB holding only what runs, no picture but the icon',
  { timeout: 240_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'obs-vsix-'));
    try {
      const out = join(dir, 'obs.vsix');
      execFileSync('npm', ['run', '--silent', 'package', '--', '--out', out], { cwd: root, stdio: 'pipe' });
      // 2.6 MB with the README's pictures inside and a copy of zod in each bundle; the pictures load from the
      // repository, and the Node bundles share one copy of each library (dist/lib-*.js).
      assert.ok(statSync(out).size < VSIX_LIMIT, `vsix is ${statSync(out).size} bytes`);
      const entries = await listZip(out);
      const sizes = new Map(
        [...entries]
          .filter(([n]) => n.startsWith('extension/'))
          .map(([n, size]) => [n.slice('extension/'.length), size]),
      );
      const files = [...sizes.keys()];
      const overBudget = Object.entries(BUDGET_KIB).flatMap(([f, kib]) => {
        const size = sizes.get(f);
        return size === undefined || size > kib * 1024 ? [`${f}: ${String(size)} bytes, budget ${kib} KiB`] : [];
      });
      assert.deepEqual(overBudget, []);
      assert.deepEqual(
        files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/webview/') && BUDGET_KIB[f] === undefined),
        [],
        'each shipped bundle has a budget',
      );
      assert.deepEqual(
        files.filter((f) => /\.(png|jpe?g|gif|webp)$/i.test(f) && f !== 'media/icon.png'),
        [],
        'pictures ship only as links (the icon aside: the marketplace wants a PNG)',
      );

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
      // docs/rules.md ships so the Problems view can open a rule's documentation offline; the other docs because
      // the README (the extension's page in VS Code) links to them.
      const allowed =
        /^(dist\/[\w-]+\.js$|dist\/webview\/[\w-]+\.(js|css)$|media\/(icon\.png|activity\.svg)$|schemas\/[\w.-]+\.json$|docs\/[^/]+\.md$|l10n\/bundle\.l10n(\.[a-z-]+)?\.json$|package(\.nls(\.[a-z-]+)?)?\.json$|readme\.md$|changelog\.md$|license(\.txt)?$)/i;
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
      // Every relative link of the packaged README resolves to a file in the package; every picture is a file of
      // docs/images in the repository, linked by its address there (the marketplace wants HTTPS pictures).
      const readme = await readZipText(out, 'extension/readme.md');
      const targets = [...readme.matchAll(/(!?)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({
        image: m[1] === '!',
        target: m[2] ?? '',
      }));
      const links = targets.filter((t) => !t.image && !/^[a-z]+:|^#/i.test(t.target)).map((t) => t.target);
      assert.ok(links.length > 0, 'the README links to files');
      const unresolved = links.map((t) => t.replace(/#.*$/, '').replace(/^\.\//, '')).filter((t) => !files.includes(t));
      assert.deepEqual(unresolved, [], 'README links to files the .vsix does not hold');
      const images = targets.filter((t) => t.image).map((t) => t.target);
      assert.ok(images.length >= 10, `the README shows its pictures: ${images.join(', ')}`);
      assert.deepEqual(
        images.filter((i) => !isRepositoryPicture(i)),
        [],
        'README pictures not in docs/images',
      );
      // The address is the repository's (package.json), and npm run package links the README's pictures there.
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        repository: { url: string };
        scripts: { package: string };
      };
      assert.equal(IMAGES_BASE, `${manifest.repository.url.replace(/\.git$/, '')}/raw/HEAD/`);
      assert.match(manifest.scripts.package, new RegExp(` --baseImagesUrl ${IMAGES_BASE.replace(/\./g, '\\.')}( |$)`));
      const walkthrough = walkthroughImages();
      assert.ok(walkthrough.length > 0);
      assert.deepEqual(
        walkthrough.filter((i) => !isRepositoryPicture(i)),
        [],
        'walkthrough pictures not in docs/images',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** True when `url` is the repository's address of a picture of docs/images that the checkout holds. */
function isRepositoryPicture(url: string): boolean {
  if (!url.startsWith(IMAGES_BASE)) return false;
  const path = url.slice(IMAGES_BASE.length);
  return /^docs\/images\/[\w-]+\.png$/.test(path) && existsSync(join(root, path));
}

/** The pictures of the walkthrough's steps, as the manifest names them. */
function walkthroughImages(): string[] {
  const m = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { walkthroughs: { steps: { media: { image?: string } }[] }[] };
  };
  return m.contributes.walkthroughs.flatMap((w) => w.steps.flatMap((s) => (s.media.image ? [s.media.image] : [])));
}

/** Files the manifest names: main, bin, icons, schemas, the string bundles. */
function manifestFiles(): string[] {
  const m = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    main: string;
    icon: string;
    l10n: string;
    bin: Record<string, string>;
    contributes: {
      viewsContainers: Record<string, { icon: string }[]>;
      jsonValidation: { url: string }[];
    };
  };
  const c = m.contributes;
  return [
    m.main,
    m.icon,
    ...Object.values(m.bin),
    ...Object.values(c.viewsContainers).flatMap((list) => list.map((v) => v.icon)),
    ...c.jsonValidation.map((j) => j.url),
    `${m.l10n}/bundle.l10n.json`,
    'package.nls.json',
  ].map((f) => f.replace(/^\.\//, ''));
}
