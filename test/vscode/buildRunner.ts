// Bundles the in-host test runner: runner-extension/src/extension.ts plus every suite/*.test.ts
// (found at build time, so a new test file needs no registration) into one CommonJS file, and lays
// it out as an extension folder; packageRunnerExtension() turns that into a .vsix for code-server
// (code-server drops unpacked folders it did not install itself: "Marked extension as removed").
import * as esbuild from 'esbuild';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';

const here = import.meta.dirname;
export const RUNNER_EXTENSION_ID = 'obs-tools.obs-vscode-test-runner';

export function suiteFiles(): string[] {
  return readdirSync(join(here, 'suite'))
    .filter((name) => name.endsWith('.test.ts'))
    .sort();
}

/**
 * Builds the runner into `<parentDir>/<publisher>.<name>-<version>/` and returns that folder.
 * Its dist/extension.js is also the extensionTestsPath for @vscode/test-electron.
 */
export async function buildRunnerExtension(parentDir: string): Promise<string> {
  const manifestFile = join(here, 'runner-extension', 'package.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
  };
  const folder = join(parentDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  mkdirSync(join(folder, 'dist'), { recursive: true });
  copyFileSync(manifestFile, join(folder, 'package.json'));
  const contents = [
    `export * from './runner-extension/src/extension';`,
    ...suiteFiles().map((name) => `import './suite/${name}';`),
  ].join('\n');
  await esbuild.build({
    stdin: { contents, resolveDir: here, sourcefile: 'in-host-entry.ts', loader: 'ts' },
    bundle: true,
    outfile: join(folder, 'dist', 'extension.js'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  return folder;
}

/** Packages a folder made by buildRunnerExtension() as `outFile` (.vsix) with vsce. */
export async function packageRunnerExtension(folder: string, outFile: string): Promise<string> {
  const vsce = join(here, '..', '..', 'node_modules', '.bin', 'vsce');
  await promisify(execFile)(
    vsce,
    ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', outFile],
    { cwd: folder, maxBuffer: 16 * 1024 * 1024 },
  );
  return outFile;
}

/**
 * Rewrites `.../dist/extension.js:LINE:COL` frames of an in-host stack to the TypeScript sources,
 * using the inline source map of the bundle that buildRunnerExtension() wrote in `folder`.
 * (The extension host formats stacks itself, so Node's own source-map support does not apply.)
 */
export function mapInHostStack(stack: string, folder: string): string {
  const bundle = join(folder, 'dist', 'extension.js');
  const match = /sourceMappingURL=data:application\/json;base64,(\S+)\s*$/.exec(readFileSync(bundle, 'utf8'));
  if (!match?.[1]) return stack;
  const map = new SourceMap(JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')));
  const repo = join(here, '..', '..');
  return stack.replace(/(?:\/[^\s()]*)?\/dist\/extension\.js:(\d+):(\d+)/g, (frame, line: string, column: string) => {
    const entry = map.findEntry(Number(line) - 1, Number(column) - 1);
    if (!('originalSource' in entry) || !entry.originalSource) return frame;
    const source = entry.originalSource.replace(/^file:\/\//, '');
    const file = isAbsolute(source) ? source : resolve(join(folder, 'dist'), source);
    return `${relative(repo, file)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}
