// The source files esbuild puts into a Node bundle of the extension, for tests of what a bundle carries.
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** The inputs of the bundle of `entry` (a path from the repository root), `vscode` left external as in the build. */
export async function bundleInputs(entry: string): Promise<string[]> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['vscode'],
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    outfile: 'out.js',
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}
