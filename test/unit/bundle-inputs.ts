// What the build made, for tests of what a bundle carries: esbuild's metafile of every build, which
// `node esbuild.mjs` writes to dist/.build-meta.json (`npm test` builds first). The tests look at the
// bundles that ship, not at a second build of their own.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');
const META = join(root, 'dist', '.build-meta.json');

interface MetaOutput {
  entryPoint?: string;
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
  imports: { path: string; kind: string; external?: boolean }[];
}
interface Meta {
  inputs: Record<string, unknown>;
  outputs: Record<string, MetaOutput>;
}

export interface BuiltFile {
  /** Path from the repository root, e.g. `dist/extension.js`. */
  file: string;
  /** The source it was built from, e.g. `src/extension/extension.ts`; undefined for a shared chunk. */
  entryPoint: string | undefined;
  /** Every source file in it, and in the chunks it imports. */
  inputs: string[];
  /** Modules it leaves to the runtime (`vscode`, `node:fs`...), each once. */
  external: string[];
  /** Its size as built, in bytes. */
  bytes: number;
  /** The bytes of each npm package's code in this file itself (not in the chunks it imports); `zod/v3` apart. */
  libraries: Map<string, number>;
}

let cached: Map<string, BuiltFile> | undefined;

/** Every file the build wrote but source maps, keyed by its path from the repository root. */
export function builtFiles(): Map<string, BuiltFile> {
  cached ??= readBuild();
  return cached;
}

function readBuild(): Map<string, BuiltFile> {
  if (!existsSync(META))
    throw new Error('dist/.build-meta.json is missing: run "npm run build" (npm test builds first)');
  const meta = JSON.parse(readFileSync(META, 'utf8')) as Meta;
  const builtAt = statSync(META).mtimeMs;
  const newer = Object.keys(meta.inputs).filter(
    (f) => f.startsWith('src/') && existsSync(join(root, f)) && statSync(join(root, f)).mtimeMs > builtAt,
  );
  if (newer.length > 0)
    throw new Error(`dist/ is older than ${newer.slice(0, 3).join(', ')}: run "npm run build" (npm test builds first)`);
  const closure = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const i of meta.outputs[file]?.imports ?? [])
      if (i.external !== true && i.kind === 'import-statement') closure(i.path, seen);
    return seen;
  };
  const out = new Map<string, BuiltFile>();
  for (const [file, o] of Object.entries(meta.outputs)) {
    if (file.endsWith('.map')) continue;
    const parts = [...closure(file)].map((f) => meta.outputs[f]).filter((p): p is MetaOutput => p !== undefined);
    out.set(file, {
      file,
      entryPoint: o.entryPoint,
      inputs: [...new Set(parts.flatMap((p) => Object.keys(p.inputs)))],
      external: [...new Set(parts.flatMap((p) => p.imports.filter((i) => i.external === true).map((i) => i.path)))],
      bytes: o.bytes,
      libraries: librariesIn(o),
    });
  }
  return out;
}

/** The npm packages whose code is in `output` (inputs esbuild left out entirely count for nothing). */
function librariesIn(output: MetaOutput): Map<string, number> {
  const found = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(v3\/)?/.exec(input);
    if (m?.[1] === undefined || bytesInOutput === 0) continue;
    const name = m[1] === 'zod' && m[2] !== undefined ? 'zod/v3' : m[1];
    found.set(name, (found.get(name) ?? 0) + bytesInOutput);
  }
  return found;
}

/** The built bundle of `entry` (a source path from the repository root); fails naming it when the build made none. */
export function bundleOf(entry: string): BuiltFile {
  const found = [...builtFiles().values()].find((b) => b.entryPoint === entry);
  if (!found) throw new Error(`the build made no bundle of ${entry}`);
  return found;
}

/** The source files in the built bundle of `entry` (a path from the repository root). */
export async function bundleInputs(entry: string): Promise<string[]> {
  return bundleOf(entry).inputs;
}

/**
 * The files under dist/ the extension loads at run time, read from its sources: the bundles it requires by
 * path (`path.join(..., 'dist', 'x.js')`), the pages' scripts and stylesheets (`joinPath(assets, 'x.css')`)
 * and every form script (`FormScript`). A new one is found here without anyone listing it.
 */
export function loadedAtRunTime(): string[] {
  const found = new Set<string>();
  for (const file of sourceFiles(join(root, 'src', 'extension'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/'dist',\s*'([\w.-]+\.js)'/g)) found.add(`dist/${m[1] ?? ''}`);
    for (const m of text.matchAll(/joinPath\(assets,\s*'([\w.-]+\.(?:js|css))'\)/g))
      found.add(`dist/webview/${m[1] ?? ''}`);
    const forms = /export type FormScript = ([^;]+);/.exec(text);
    for (const m of forms?.[1]?.matchAll(/'([\w-]+)'/g) ?? []) found.add(`dist/webview/${m[1] ?? ''}.js`);
  }
  return [...found].sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

/** Built files the .vsix leaves out, each with why; every other built file but source maps ships. */
export const NOT_SHIPPED: Readonly<Record<string, string>> = {
  'dist/sandbox.js':
    'the sandbox command (npm run sandbox) runs from a checkout; the extension starts dist/sandbox-host.js',
};
