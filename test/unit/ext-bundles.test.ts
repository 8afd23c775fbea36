// The bundles as built (dist/, read through the build's metafile): each one the extension loads exists, holds
// what it is for and none of what another bundle loads later, and nothing is built that no test describes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { builtFiles, loadedAtRunTime, root } from './bundle-inputs';

const read = (file: string): string => readFileSync(join(root, file), 'utf8');

type Runs = 'extension host' | 'worker thread' | 'command line' | 'library';

interface Never {
  what: string;
  inputs: RegExp;
  /** Inputs matching `inputs` that this bundle may hold all the same. */
  except?: RegExp;
}

interface Intent {
  entry: string;
  runs: Runs;
  /** Each matched by at least one input: the bundle holds what it is for. */
  holds: RegExp[];
  never: Never[];
}

// A library is in a bundle either as its code or, for the shared ones (esbuild.mjs, LIBS), as the require of
// its file, an input named `shared-lib:<library>`: each pattern below matches both.
const UNDICI: Never = {
  what: 'the client transport (undici)',
  inputs: /node_modules\/undici\/|^shared-lib:undici$|src\/api\/(client|transport|pipeline)\.ts$/,
};
/** What only `obs mcp` needs: the MCP SDK, the JSON schema validator it brings (ajv) and zod's version 3. */
const MCP_SERVER: Never[] = [
  { what: 'the MCP SDK', inputs: /node_modules\/@modelcontextprotocol\// },
  { what: 'ajv', inputs: /node_modules\/ajv(-formats)?\// },
  { what: 'zod v3', inputs: /node_modules\/zod\/v3\// },
  { what: 'the MCP server', inputs: /src\/cli\/mcp(Run|Host|Stdio|Tools)\.ts$/ },
];
const ZOD: Never = { what: 'zod', inputs: /node_modules\/zod\/|^shared-lib:zod/ };
const SANDBOX: Never = { what: 'the sandbox', inputs: /src\/sandbox\// };
const LINTER: Never = { what: 'the linter', inputs: /src\/lint\// };
const EXTENSION: Never = { what: 'extension code', inputs: /src\/extension\// };
const FORMS: Never = {
  what: 'the forms',
  inputs: /src\/extension\/forms\/|src\/webview\/protocol\/(messages|\w+Form)\.ts$/,
};
const QUERIES: Never = { what: 'the queries', inputs: /src\/extension\/queries\// };
// searchRules.ts (which folders no search enters, no imports) is shared by every bundle that searches.
const SYNC: Never = {
  what: 'drift and pull',
  inputs: /src\/extension\/sync\/|src\/triggerFiles\/(?!searchRules\.ts$)/,
};
const BACKTEST: Never = { what: 'the backtest engine (preview and trigger tests)', inputs: /src\/backtest\// };
const AGENTS: Never = { what: 'the agent tools', inputs: /src\/agentTools\/|src\/extension\/agents\// };

/** A shared library's bundle: built from `entry`, holding `holds` and nothing but inputs matching `only`. */
function library(entry: string, holds: RegExp, only: RegExp): Intent {
  return {
    entry,
    runs: 'library',
    holds: [holds],
    never: [{ what: 'anything but the library', inputs: /.*/, except: new RegExp(`${only.source}|^no-locales:`) }],
  };
}

const BUNDLES: Record<string, Intent> = {
  'dist/extension.js': {
    entry: 'src/extension/extension.ts',
    runs: 'extension host',
    holds: [/src\/extension\/tree\/datasetTree\.ts$/, /src\/extension\/connections\//],
    never: [
      UNDICI,
      SANDBOX,
      // The linter runs in dist/lint-worker.js; the extension needs only its rule registry and positions.
      { ...LINTER, except: /src\/lint\/(rules|text)\.ts$/ },
      // Nor the JSONC parser: what the activation reads is read with JSON.parse.
      { what: 'jsonc-parser', inputs: /node_modules\/jsonc-parser\/|^shared-lib:jsonc-parser$/ },
      // The forms and their message schemas are in dist/forms-host.js (the tree shares only the words of a moment and of a duration).
      // The plan view's messages are checked here with zod (protocol/planView.ts): dist/sync-host.js holds no zod.
      {
        what: 'the forms',
        inputs: /src\/webview\/|src\/extension\/forms\//,
        except:
          /forms\/(registerForms|reviewDocuments|formIds)\.ts$|webview\/protocol\/text\/(when|duration)\.ts$|webview\/protocol\/planView\.ts$/,
      },
      { ...QUERIES, except: /queries\/(registerQueries|queryIds)\.ts$/ },
      // The preview and the trigger tests load with the queries; the activation only tells a test file by its name.
      { ...BACKTEST, except: /backtest\/testPaths\.ts$/ },
      // Drift and pull (and the trigger file format) are in dist/sync-host.js, loaded when first needed. The
      // activation bundle registers them (registerSync, the view and scheme ids in syncIds) and reads the pull
      // commands' arguments (pullScope, with the tree's parsers). A trigger file's path is shared with export.
      { ...SYNC, except: /(sync\/(registerSync|syncIds|pullScope)|triggerFiles\/paths)\.ts$/ },
      // The agent tools run from dist/agents-host.js; the activation registers them by name, lists the MCP server and
      // registers the command that opens an agent's kept plan (agentIds).
      {
        ...AGENTS,
        except: /agentTools\/names\.ts$|extension\/agents\/(registerAgents|mcpServers|mcpLaunch|agentIds)\.ts$/,
      },
    ],
  },
  'dist/client-host.js': {
    entry: 'src/api/index.ts',
    runs: 'extension host',
    holds: [/^shared-lib:undici$/, /src\/api\/transport\.ts$/, /src\/api\/redact\.ts$/],
    never: [EXTENSION, SANDBOX, LINTER],
  },
  'dist/sandbox-host.js': {
    entry: 'src/sandbox/index.ts',
    runs: 'extension host',
    holds: [/src\/sandbox\/server\.ts$/, /src\/sandbox\/demoData\.ts$/],
    // The sandbox is written from the spec, not from the client it is there to test.
    never: [{ what: 'the client', inputs: /src\/api\/|node_modules\/undici\// }, EXTENSION, LINTER],
  },
  'dist/lint-worker.js': {
    entry: 'src/extension/diagnostics/lintWorker.ts',
    runs: 'worker thread',
    holds: [/src\/lint\/lint\.ts$/, /src\/lint\/schema\/relations\.ts$/, /^shared-lib:jsonc-parser$/],
    never: [UNDICI, SANDBOX, FORMS, QUERIES, SYNC, BACKTEST],
  },
  'dist/forms-host.js': {
    entry: 'src/extension/forms/formsHost.ts',
    runs: 'extension host',
    holds: [/src\/extension\/forms\/controller\.ts$/, /src\/webview\/protocol\/messages\.ts$/],
    never: [UNDICI, SANDBOX, LINTER, QUERIES, SYNC, BACKTEST],
  },
  'dist/queries-host.js': {
    entry: 'src/extension/queries/queriesHost.ts',
    runs: 'extension host',
    holds: [/src\/backtest\/runner\.ts$/, /src\/backtest\/evaluate\.ts$/, /src\/webview\/protocol\/queryResults\.ts$/],
    // Of the linter only its nearest-name search, to name the dataset a 404 probably meant.
    never: [UNDICI, SANDBOX, { ...LINTER, except: /src\/lint\/nearest\.ts$/ }, FORMS, SYNC],
  },
  'dist/sync-host.js': {
    entry: 'src/extension/sync/syncHost.ts',
    runs: 'extension host',
    holds: [
      /src\/extension\/sync\/driftModel\.ts$/,
      /src\/triggerFiles\/pull\.ts$/,
      /src\/triggerFiles\/normalize\.ts$/,
    ],
    // No zod: loaded beside the activation bundle, it would bring a second copy. An apply lints in the lint
    // worker; the bundle holds only the gate that reads its diagnostics.
    never: [UNDICI, SANDBOX, { ...LINTER, except: /src\/lint\/gate\.ts$/ }, FORMS, QUERIES, BACKTEST, ZOD],
  },
  'dist/environments-host.js': {
    entry: 'src/extension/core/environmentsReader.ts',
    runs: 'extension host',
    // The environments file read with its schema and placed with the JSON parser, loaded when a workspace has one.
    holds: [/src\/triggerFiles\/environments\.ts$/, /src\/triggerFiles\/environmentsLint\.ts$/],
    never: [UNDICI, SANDBOX, { ...LINTER, except: /src\/lint\/types\.ts$/ }, FORMS, QUERIES, BACKTEST, AGENTS],
  },
  'dist/backtest-host.js': {
    entry: 'src/extension/backtestHost.ts',
    runs: 'extension host',
    holds: [
      /src\/extension\/triggerTests\/testRuns\.ts$/,
      /src\/backtest\/noiseReport\.ts$/,
      /src\/backtest\/backtest\.ts$/,
      /src\/backtest\/suggest\.ts$/,
      /^shared-lib:jsonc-parser$/,
    ],
    // The queries' pacer, results and panel are reached through the services handed over at activation. Of
    // triggers as code, only the one check of what lies inside a folder (a test's trigger file must), and the
    // local file operations a test's recording is read and written with, whole through a temporary file.
    never: [
      UNDICI,
      SANDBOX,
      { ...LINTER, except: /src\/lint\/nearest\.ts$/ },
      FORMS,
      QUERIES,
      { ...SYNC, except: /src\/triggerFiles\/(contained|nodeFs|regularFile|pullFs)\.ts$/ },
    ],
  },
  'dist/agents-host.js': {
    entry: 'src/extension/agents/agentsHost.ts',
    runs: 'extension host',
    // The shared tools, the backtest engine they preview with, the editor's plan and apply; the linter runs in
    // the lint worker (only the gate's words and the nearest-name search are here).
    holds: [
      /src\/agentTools\/tools\.ts$/,
      /src\/backtest\/evaluate\.ts$/,
      /src\/extension\/sync\/applyPlan\.ts$/,
      /src\/triggerFiles\/apply\.ts$/,
    ],
    never: [
      UNDICI,
      SANDBOX,
      FORMS,
      { ...LINTER, except: /src\/lint\/(gate|rules|text|nearest)\.ts$/ },
      { what: 'the MCP SDK', inputs: /node_modules\/@modelcontextprotocol\// },
    ],
  },
  'dist/cli.js': {
    entry: 'src/cli/obs.ts',
    runs: 'command line',
    // obs starts with its commands' declarations only: each command's run is in a bundle of its own, loaded when it runs.
    holds: [
      /node_modules\/commander\//,
      /src\/cli\/main\.ts$/,
      /src\/cli\/pull\.ts$/,
      /src\/cli\/drift\.ts$/,
      /src\/cli\/test\.ts$/,
      /src\/cli\/mcp\.ts$/,
    ],
    // Of the linter and triggers as code, only the defaults its options show (lint/defaults.ts, paths.ts, regularFile.ts).
    never: [
      EXTENSION,
      UNDICI,
      { ...LINTER, except: /src\/lint\/defaults\.ts$/ },
      { ...SYNC, except: /src\/triggerFiles\/(paths|regularFile)\.ts$/ },
      ZOD,
      { what: 'tinyglobby', inputs: /node_modules\/(tinyglobby|fdir|picomatch)\/|^shared-lib:tinyglobby$/ },
      { what: "a command's run", inputs: /src\/cli\/\w+Run\.ts$/ },
      { what: 'the backtest engine', inputs: /src\/backtest\//, except: /src\/backtest\/testPaths\.ts$/ },
      { what: 'the MCP SDK', inputs: /node_modules\/@modelcontextprotocol\// },
    ],
  },
  'dist/cli-lint.js': {
    entry: 'src/cli/lintRun.ts',
    runs: 'command line',
    // The client loads from dist/cli-service.js only for --columns-from-service.
    holds: [/src\/lint\/lint\.ts$/, /src\/cli\/readAhead\.ts$/],
    never: [
      EXTENSION,
      UNDICI,
      { what: 'commander', inputs: /node_modules\/commander\// },
      { what: 'the runs of the service commands', inputs: /src\/cli\/(pull|drift|plan|apply)Run\.ts$/ },
    ],
  },
  'dist/cli-service.js': {
    entry: 'src/cli/serviceRuns.ts',
    runs: 'command line',
    holds: [
      /^shared-lib:undici$/,
      /src\/cli\/pullRun\.ts$/,
      /src\/cli\/driftRun\.ts$/,
      /src\/cli\/planRun\.ts$/,
      /src\/cli\/applyRun\.ts$/,
      /src\/cli\/testRun\.ts$/,
      /src\/cli\/noiseRun\.ts$/,
      /src\/backtest\/backtest\.ts$/,
    ],
    // obs mcp runs from dist/cli-mcp.js: pull, drift, plan, apply, test and noise load none of its server.
    never: [
      EXTENSION,
      { what: 'commander', inputs: /node_modules\/commander\// },
      { what: 'the lint run', inputs: /src\/cli\/lintRun\.ts$/ },
      ...MCP_SERVER,
    ],
  },
  'dist/cli-mcp.js': {
    entry: 'src/cli/mcpRun.ts',
    runs: 'command line',
    holds: [
      /node_modules\/@modelcontextprotocol\//,
      /src\/cli\/mcpRun\.ts$/,
      /src\/agentTools\/tools\.ts$/,
      /^shared-lib:undici$/,
    ],
    never: [
      EXTENSION,
      { what: 'commander', inputs: /node_modules\/commander\// },
      { what: "another command's run", inputs: /src\/cli\/(lint|pull|drift|plan|apply|test|noise)Run\.ts$/ },
    ],
  },
  'dist/sandbox.js': {
    entry: 'src/cli/sandbox.ts',
    runs: 'command line',
    holds: [/src\/sandbox\/server\.ts$/],
    never: [{ what: 'the client', inputs: /src\/api\/|node_modules\/undici\// }, EXTENSION, LINTER],
  },
  // The libraries the bundles above load from one file each (esbuild.mjs, LIBS): each the library alone.
  'dist/lib-zod.js': library('node_modules/zod/index.js', /node_modules\/zod\/v4\/classic\//, /node_modules\/zod\//),
  'dist/lib-undici.js': library(
    'node_modules/undici/index.js',
    /node_modules\/undici\/lib\//,
    /node_modules\/undici\//,
  ),
  'dist/lib-jsonc.js': library(
    'node_modules/jsonc-parser/lib/esm/main.js',
    /node_modules\/jsonc-parser\/lib\/esm\/impl\/parser\.js$/,
    /node_modules\/jsonc-parser\//,
  ),
  'dist/lib-glob.js': library(
    'node_modules/tinyglobby/dist/index.mjs',
    /node_modules\/fdir\//,
    /node_modules\/(tinyglobby|fdir|picomatch)\//,
  ),
};

/** Node's own modules: bare names of this Node, and any `node:` name (undici asks for node:sqlite, which Node 22 has). */
const isNodeBuiltin = (m: string): boolean => m.startsWith('node:') || builtinModules.includes(m);
const PAGE_INPUTS = /^src\/webview\/|^src\/api\/schemas\/|node_modules\//;

/** What an intent finds wrong with a built bundle: an empty list when it is as meant. */
function problems(file: string, intent: Intent): string[] {
  const b = builtFiles().get(file);
  if (b === undefined) return ['not built'];
  const out: string[] = [];
  // A library's entry is read where node_modules is: a worktree may link it from elsewhere (../x/node_modules/).
  const entry = b.entryPoint?.replace(/^(\.\.\/)+([^/]+\/)*(?=node_modules\/)/, '');
  if (entry !== intent.entry) out.push(`built from ${String(b.entryPoint)}, not ${intent.entry}`);
  if (!existsSync(join(root, b.file))) out.push('not on disk');
  for (const h of intent.holds) if (!b.inputs.some((i) => h.test(i))) out.push(`holds nothing matching ${h}`);
  for (const n of intent.never) {
    const found = b.inputs.filter((i) => n.inputs.test(i) && !(n.except?.test(i) ?? false));
    if (found.length > 0) out.push(`holds ${n.what}: ${found.slice(0, 3).join(', ')}`);
  }
  // A bundle may require another of this build beside it (dist/cli.js loads a command's run when it runs).
  const sibling = (m: string): boolean => m.startsWith('./') && builtFiles().has(`dist/${m.slice(2)}`);
  const allowed = (m: string): boolean =>
    isNodeBuiltin(m) || (m === 'vscode' && intent.runs === 'extension host') || sibling(m);
  const external = b.external.filter((m) => !allowed(m));
  if (external.length > 0) out.push(`leaves ${external.join(', ')} to a ${intent.runs} that has none`);
  return out;
}

test('each bundle the build makes holds what it is for and nothing another bundle loads later', () => {
  const found = Object.entries(BUNDLES).flatMap(([file, intent]) => problems(file, intent).map((p) => `${file}: ${p}`));
  assert.deepEqual(found, []);
});

test('every file the build makes is a bundle described above or a webview page asset', () => {
  const undescribed = [...builtFiles().keys()].filter(
    (f) => BUNDLES[f] === undefined && !f.startsWith('dist/webview/'),
  );
  assert.deepEqual(undescribed, [], 'describe each new bundle in BUNDLES (what it holds, what it must not)');
});

test('the webview pages hold only page code, the service schemas and browser libraries, and load nothing from outside', () => {
  const pages = [...builtFiles().values()].filter((b) => b.file.startsWith('dist/webview/'));
  const entries = pages.flatMap((p) => (p.entryPoint ? [p.entryPoint] : [])).sort();
  const sources = readdirSync(join(root, 'src', 'webview'))
    .filter((n) => /\.(ts|css)$/.test(n) && !n.endsWith('.d.ts'))
    .map((n) => `src/webview/${n}`)
    .sort();
  assert.deepEqual(entries, sources, 'one built page asset per top-level script and stylesheet of src/webview');
  for (const p of pages) {
    assert.ok(existsSync(join(root, p.file)), `${p.file} is not on disk`);
    assert.deepEqual(
      p.inputs.filter((i) => !PAGE_INPUTS.test(i)),
      [],
      `${p.file} holds code that is not a page's`,
    );
    assert.deepEqual(
      p.inputs.filter((i) => /node_modules\/(undici|jsonc-parser)\//.test(i)),
      [],
      p.file,
    );
    assert.deepEqual(p.external, [], `${p.file} imports what a webview cannot load`);
  }
});

test('every file the extension loads at run time is built, and each bundle among them is described above', () => {
  const loaded = loadedAtRunTime();
  // The scan of the sources finds the bundles and page assets (a scan that found nothing would pass vacuously).
  for (const known of [
    'dist/client-host.js',
    'dist/lint-worker.js',
    'dist/queries-host.js',
    'dist/sync-host.js',
    'dist/webview/apiKeyForm.js',
    'dist/webview/forms.css',
  ]) {
    assert.ok(loaded.includes(known), `the scan missed ${known}`);
  }
  const missing = loaded.filter((f) => !builtFiles().has(f) || !existsSync(join(root, f)));
  assert.deepEqual(missing, []);
  assert.deepEqual(
    loaded.filter((f) => !f.startsWith('dist/webview/') && BUNDLES[f] === undefined),
    [],
  );
});

test("the webview types restored at activation are the manifest's: every form and the results panel", async () => {
  const { FORM_COMMANDS, FORM_VIEW_TYPES } = await import('../../src/extension/forms/formIds');
  const { VIEW_TYPES } = await import('../../src/webview/protocol/messages');
  const { RESULTS_VIEW_TYPE } = await import('../../src/webview/protocol/queryResults');
  const { RESULTS_PANEL_VIEW_TYPE } = await import('../../src/extension/queries/queryIds');
  const manifest = JSON.parse(read('package.json')) as {
    activationEvents: string[];
    contributes: { commands: { command: string }[] };
  };
  assert.deepEqual([...FORM_VIEW_TYPES].sort(), Object.values(VIEW_TYPES).sort());
  assert.equal(RESULTS_PANEL_VIEW_TYPE, RESULTS_VIEW_TYPE);
  assert.deepEqual(
    manifest.activationEvents
      .filter((e) => e.startsWith('onWebviewPanel:'))
      .map((e) => e.slice('onWebviewPanel:'.length))
      .sort(),
    [...FORM_VIEW_TYPES, RESULTS_VIEW_TYPE].sort(),
  );
  const declared = new Set(manifest.contributes.commands.map((c) => c.command));
  assert.deepEqual(
    FORM_COMMANDS.filter((c) => !declared.has(c.id)),
    [],
  );
});

test('the bundles the extension host loads never read the global navigator (VS Code logs an error for it)', () => {
  // `npm test` builds dist/ first. A getter that throws turns any read into a failed require.
  const probe = [
    '"use strict";',
    'Object.defineProperty(globalThis, "navigator", { get() { throw new Error("navigator was read"); } });',
    'const Module = require("node:module");',
    'const load = Module._load;',
    'Module._load = function (request, ...rest) { return request === "vscode" ? {} : load.call(this, request, ...rest); };',
    `for (const f of ["client-host.js", "sandbox-host.js", "lint-worker.js"]) require(${JSON.stringify(join(root, 'dist'))} + "/" + f);`,
    'const { ServiceClient } = require(' + JSON.stringify(join(root, 'dist', 'client-host.js')) + ');',
    'new ServiceClient({ baseUrl: "http://127.0.0.1:9" }).close();',
    'process.stdout.write("ok");',
  ].join('\n');
  const out = execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
  assert.equal(out, 'ok');
});

test('the extension host bundles start with "use strict" before the navigator shadow; the commands with a shebang', () => {
  const first = (file: string): string => read(file).split('\n', 1)[0] ?? '';
  const host = Object.entries(BUNDLES).filter(([, i]) => i.runs !== 'command line');
  assert.deepEqual(
    host.map(([file]) => file).filter((f) => !first(f).startsWith('"use strict"; var navigator = undefined;')),
    [],
  );
  const commands = Object.entries(BUNDLES).filter(([, i]) => i.runs === 'command line');
  assert.deepEqual(
    commands.map(([file]) => file).filter((f) => first(f) !== '#!/usr/bin/env node'),
    [],
  );
});
