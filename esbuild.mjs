// Bundles every entry point. `--production` minifies with external source maps; `--watch` rebuilds.
import * as esbuild from 'esbuild';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? 'external' : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  // Prefer ES module builds: jsonc-parser's UMD main loads its parts with a require() esbuild cannot follow.
  mainFields: ['module', 'main'],
  // What each bundle was built from, written to dist/.build-meta.json: tests check the built bundles by it.
  metafile: true,
};

// Bundles that run in VS Code's extension host. Since Node 21 `navigator` is a global, and the extension host
// logs a PendingMigrationError for every extension that reads it; zod reads navigator.userAgent once (to detect
// Cloudflare Workers). A module-scope `var` shadows the global for everything in our bundle, so nothing logs.
const extensionHostBanner = { js: '"use strict"; var navigator = undefined; // see esbuild.mjs' };

// The CLI's bundles: CommonJS for Node, starting with the bundle's own URL for import.meta.url (see cli below).
const cliOptions = {
  outdir: 'dist',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { 'import.meta.url': 'importMetaUrl' },
  banner: { js: "#!/usr/bin/env node\nconst importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

// Where obs finds what it loads when it needs it: `await import('./lintRun')` in dist/cli.js becomes a
// require of dist/cli-lint.js at run time, so obs starts without the linter, the client or undici; the
// lint run loads the client the same way for --columns-from-service, and the environments file's reader
// for --env. (Tests import the sources as they are.)
const CLI_PARTS = {
  cli: {
    './lintRun': './cli-lint.js',
    './pullRun': './cli-service.js',
    './driftRun': './cli-service.js',
    './planRun': './cli-service.js',
    './applyRun': './cli-service.js',
    './testRun': './cli-service.js',
    './noiseRun': './cli-service.js',
    './reviewRun': './cli-service.js',
    './mcpRun': './cli-mcp.js',
  },
  lint: {
    './service': './cli-service.js',
    './columns': './cli-service.js',
    './environment': './cli-service.js',
    './lintEnvironment': './cli-service.js',
  },
};
/** @returns {import('esbuild').Plugin} */
const cliParts = (parts) => ({
  name: 'cli-parts',
  setup(build) {
    build.onResolve({ filter: /^\.\/\w+$/ }, (args) => {
      const bundle = parts[args.path];
      if (bundle === undefined || args.kind !== 'dynamic-import') return undefined;
      return { path: bundle, namespace: 'cli-part' };
    });
    // A module that requires the bundle when it is first imported: esbuild keeps the require for run time.
    build.onLoad({ filter: /.*/, namespace: 'cli-part' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
    build.onResolve({ filter: /^\.\/cli-[\w-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
});

// Libraries every Node bundle loads from one file of its own beside it (dist/lib-*.js), instead of a copy in
// each: esbuild splits shared code into chunks only for ES modules, and these bundles are CommonJS (the
// extension host, its worker thread and obs require them). An import of a library becomes a require of its
// file when first needed; `pick` takes a part of its exports ('zod/v4/core' is zod's `core`).
const LIBS = {
  zod: { file: 'lib-zod.js', entry: 'node_modules/zod/index.js' },
  'zod/v4': { file: 'lib-zod.js' },
  'zod/v4/core': { file: 'lib-zod.js', pick: 'core' },
  undici: { file: 'lib-undici.js', entry: 'node_modules/undici/index.js' },
  'jsonc-parser': { file: 'lib-jsonc.js', entry: 'node_modules/jsonc-parser/lib/esm/main.js' },
  tinyglobby: { file: 'lib-glob.js', entry: 'node_modules/tinyglobby/dist/index.mjs' },
};
/** @returns {import('esbuild').Plugin} */
const sharedLibs = () => ({
  name: 'shared-libs',
  setup(build) {
    const names = Object.keys(LIBS).map((n) => n.replace(/[/-]/g, '\\$&'));
    build.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: args.path,
      namespace: 'shared-lib',
    }));
    build.onLoad({ filter: /.*/, namespace: 'shared-lib' }, (args) => {
      const lib = LIBS[args.path];
      const pick = lib.pick === undefined ? '' : `.${lib.pick}`;
      return { contents: `module.exports = require(${JSON.stringify(`./${lib.file}`)})${pick};`, loader: 'js' };
    });
    build.onResolve({ filter: /^\.\/lib-[\w-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
});
// zod's translations of its messages into other languages (264 KB): nothing here configures another language
// (z.config), so the shared zod keeps its English messages only and `z.locales` is empty.
/** @returns {import('esbuild').Plugin} */
const noZodLocales = () => ({
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /node_modules\/zod\//.test(args.importer) ? { path: 'locales', namespace: 'no-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-locales' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
});
const libEntries = Object.fromEntries(
  Object.values(LIBS)
    .filter((l) => l.entry !== undefined)
    .map((l) => [l.file.replace(/\.js$/, ''), l.entry]),
);

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // The sandbox is loaded only when the user asks for it, from its own file.
    splitting: false,
    banner: extensionHostBanner,
    plugins: [sharedLibs()],
  },
  {
    ...common,
    // client-host: the service client and undici, loaded by the extension on first use (keeps activation small).
    // lint-worker: the linter, run in a worker thread started on the first lint.
    entryPoints: {
      'sandbox-host': 'src/sandbox/index.ts',
      'client-host': 'src/api/index.ts',
      'lint-worker': 'src/extension/diagnostics/lintWorker.ts',
    },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: extensionHostBanner,
    plugins: [sharedLibs()],
  },
  {
    ...common,
    // The forms (controllers, message schemas), the queries (runner, preview, results panel), triggers as code
    // (drift, pull), the environments file's reader, the agent tools (language model tools), the trigger tests of the Test Explorer and the noise
    // report, each loaded by dist/extension.js when first used.
    entryPoints: {
      'forms-host': 'src/extension/forms/formsHost.ts',
      'queries-host': 'src/extension/queries/queriesHost.ts',
      'sync-host': 'src/extension/sync/syncHost.ts',
      'environments-host': 'src/extension/core/environmentsReader.ts',
      'backtest-host': 'src/extension/backtestHost.ts',
      'agents-host': 'src/extension/agents/agentsHost.ts',
    },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    banner: extensionHostBanner,
    plugins: [sharedLibs()],
  },
  {
    ...common,
    // cli: the obs program, which declares its commands (commander) and loads a command's run from its own
    // bundle when the command runs (CLI_PARTS). tinyglobby's ES module build (the one esbuild picks for an
    // import) reaches fdir's, which calls createRequire(import.meta.url) when loaded: in a CommonJS bundle
    // import.meta is empty, so import.meta.url is given the bundle's own URL.
    entryPoints: { cli: 'src/cli/obs.ts' },
    ...cliOptions,
    plugins: [cliParts(CLI_PARTS.cli), sharedLibs()],
  },
  {
    ...common,
    // The runs of obs's commands, each bundle loaded by dist/cli.js when one of its commands runs: the linter
    // without the client (lint); the client with triggers as code and the backtest engine (pull, drift, plan,
    // apply, test, noise); the MCP server (mcp).
    entryPoints: { 'cli-lint': 'src/cli/lintRun.ts' },
    ...cliOptions,
    plugins: [cliParts(CLI_PARTS.lint), sharedLibs()],
  },
  {
    ...common,
    entryPoints: { 'cli-service': 'src/cli/serviceRuns.ts' },
    ...cliOptions,
    plugins: [sharedLibs()],
  },
  {
    ...common,
    // obs mcp's server: the MCP SDK and the ajv it brings load only when that command runs.
    entryPoints: { 'cli-mcp': 'src/cli/mcpRun.ts' },
    ...cliOptions,
    plugins: [sharedLibs()],
  },
  {
    ...common,
    entryPoints: { sandbox: 'src/cli/sandbox.ts' },
    ...cliOptions,
    plugins: [sharedLibs()],
  },
  {
    ...common,
    // The shared libraries (LIBS), loaded by the bundles above from the extension host, its worker thread and
    // obs alike: the extension host's banner, and import.meta.url as the CLI's (tinyglobby's fdir reads it).
    entryPoints: libEntries,
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: cliOptions.define,
    banner: { js: `${extensionHostBanner.js}\n${cliOptions.banner.js.split('\n')[1]}` },
    plugins: [noZodLocales()],
  },
];

const webviewEntries = await listWebviewEntries();
if (webviewEntries.length > 0) {
  builds.push({
    ...common,
    entryPoints: webviewEntries,
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // What the pages share (zod, @vscode-elements/elements, the shared form code) goes into chunks they
    // import, instead of a copy in each page. The pages' strict CSP admits them: a module script's
    // imports are fetched with its nonce.
    splitting: true,
    chunkNames: 'chunk-[hash]',
  });
}

async function listWebviewEntries() {
  const { readdir } = await import('node:fs/promises');
  try {
    // Every top-level script and stylesheet of src/webview is a page asset; protocol/ and shared/ are imported by them.
    const names = await readdir('src/webview');
    return names.filter((n) => /\.(ts|css)$/.test(n) && !n.endsWith('.d.ts')).map((n) => `src/webview/${n}`);
  } catch {
    return [];
  }
}

// schemas/trigger.schema.json is generated from the zod schemas: bundle the generator in memory and run it.
async function generateTriggerSchema() {
  const gen = await esbuild.build({
    entryPoints: ['scripts/gen-trigger-schema.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // The schemas' messages go through @vscode/l10n, a CommonJS module that requires node:fs; an ES module
    // imported from a data: URL has no `require` of its own, so it gets one (resolving from the project).
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/');" },
  });
  const { writeTriggerSchema } = await import(`data:text/javascript,${encodeURIComponent(gen.outputFiles[0].text)}`);
  // Paths here are relative to the working directory, like every entry point above.
  if (writeTriggerSchema(process.cwd())) console.log('wrote schemas/trigger*.schema.json');
}

await mkdir('dist', { recursive: true });
// Chunk names change with their content: drop the old ones, or they would be shipped too.
for (const f of await readdir('dist/webview').catch(() => [])) {
  if (f.startsWith('chunk-')) await rm(`dist/webview/${f}`);
}
await generateTriggerSchema();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching for changes...');
} else {
  const results = await Promise.all(builds.map((b) => esbuild.build(b)));
  await writeFile('dist/.build-info.json', JSON.stringify({ production }) + '\n');
  // esbuild's metafile of every build merged: { inputs, outputs } keyed by paths from the repository root.
  const meta = { inputs: {}, outputs: {} };
  for (const r of results) {
    Object.assign(meta.inputs, r.metafile.inputs);
    Object.assign(meta.outputs, r.metafile.outputs);
  }
  // Written whole and then renamed, so a test reading it never sees half a file.
  await writeFile('dist/.build-meta.json.tmp', JSON.stringify(meta) + '\n');
  await rename('dist/.build-meta.json.tmp', 'dist/.build-meta.json');
}
