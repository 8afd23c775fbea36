// The npm package (`npm pack` here): the obs CLI without the editor, installable with no registry at all.
// Packed from the dist/ that npm test builds first (--ignore-scripts: the prepack build would rebuild dist/
// under the other tests), installed with --offline into an empty cache and a temporary prefix, and run from
// a folder outside the repository, so nothing of this checkout's node_modules can be found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { trigger } from './lint-helpers';

const root = join(import.meta.dirname, '..', '..');
const { version } = z
  .object({ version: z.string() })
  .parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));

const Packed = z.array(z.object({ filename: z.string(), files: z.array(z.object({ path: z.string() })) }));

/** npm with no user or global configuration, so a developer's .npmrc changes nothing here. */
function npm(args: string[], cwd: string, home: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: home, npm_config_userconfig: join(home, 'npmrc') },
  });
}

test(
  'npm pack yields the obs CLI alone, which installs offline with no dependency and lints',
  { timeout: 120_000 },
  () => {
    assert.ok(existsSync(join(root, 'dist', 'cli.js')), 'dist/cli.js is missing: run node esbuild.mjs first');
    const dir = mkdtempSync(join(tmpdir(), 'obs-npm-package-'));
    try {
      const packed = Packed.parse(
        JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root, dir)),
      );
      assert.equal(packed.length, 1);
      const tarball = join(dir, packed[0]?.filename ?? '');
      assert.equal(packed[0]?.filename, `obs-vscode-${version}.tgz`);
      // The CLI's bundles, the libraries they share, and what npm always adds: the manifest, README, LICENSE and
      // the manifest's "main" (the editor's bundle, which obs never loads).
      assert.deepEqual(packed[0]?.files.map((f) => f.path).sort(), [
        'LICENSE',
        'README.md',
        'dist/cli-lint.js',
        'dist/cli-mcp.js',
        'dist/cli-service.js',
        'dist/cli.js',
        'dist/extension.js',
        'dist/lib-glob.js',
        'dist/lib-jsonc.js',
        'dist/lib-undici.js',
        'dist/lib-zod.js',
        'package.json',
      ]);

      // An empty cache and --offline: any dependency the package declared would fail the install.
      const prefix = join(dir, 'prefix');
      npm(
        [
          'install',
          '--global',
          '--offline',
          '--no-audit',
          '--no-fund',
          '--prefix',
          prefix,
          '--cache',
          join(dir, 'cache'),
          tarball,
        ],
        dir,
        dir,
      );
      const obs = join(prefix, 'bin', 'obs');
      const run = (...args: string[]) =>
        spawnSync(obs, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });

      const shown = run('--version');
      assert.deepEqual([shown.status, shown.stdout, shown.stderr], [0, `${version}\n`, '']);

      writeFileSync(join(dir, 'ok.trigger.json'), trigger());
      writeFileSync(join(dir, 'bad.trigger.json'), trigger('"frequency": 90'));
      const linted = run('lint', 'ok.trigger.json', 'bad.trigger.json');
      assert.deepEqual(
        [linted.status, linted.stdout, linted.stderr],
        [
          1,
          'bad.trigger.json:3:3 error trigger/frequency frequency 90 is not a multiple of 60; expected a whole ' +
            'number of seconds from 60 to 86400, a multiple of 60\n2 files checked: 1 error, 0 warnings, 0 infos\n',
          '',
        ],
      );

      // A command of the service's bundle loads it and the libraries it shares (the client's undici among them).
      writeFileSync(join(dir, 'svc.trigger.json'), '{"dataset_slug": "api-gateway", "name": "x"}');
      const offline = spawnSync(obs, ['drift', 'svc.trigger.json'], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', OBS_BASE_URL: 'http://127.0.0.1:9', OBS_CONFIG_KEY: 'k' },
      });
      assert.deepEqual(
        [offline.status, offline.stderr],
        [
          2,
          'obs: could not list the triggers of api-gateway: list triggers failed: could not reach the service ' +
            '(ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9\n',
        ],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
