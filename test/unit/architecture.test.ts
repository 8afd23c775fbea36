// The layout of docs/ARCHITECTURE.md, checked on the imports of every source file: which files may import
// vscode, which layer may import which, features that reach each other only through their index.ts,
// cores that load in plain Node, no cycles, no oversized modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** The adapters: the only files that import vscode or load a module that does (the activation, and the entry points of bundles loaded on first use). */
const VSCODE_ADAPTERS = [
  'src/extension/extension.ts',
  'src/extension/backtestHost.ts',
  'src/extension/agents/agentsHost.ts',
  'src/extension/agents/mcpServers.ts',
  'src/extension/agents/registerAgents.ts',
  'src/extension/agents/workspaceFiles.ts',
  'src/extension/connections/connectionCommands.ts',
  'src/extension/connections/connectionManager.ts',
  'src/extension/connections/quickInputPrompter.ts',
  'src/extension/connections/statusBar.ts',
  'src/extension/core/configuration.ts',
  'src/extension/core/environmentsWatcher.ts',
  'src/extension/core/triggerFileAccess.ts',
  'src/extension/core/feedback.ts',
  'src/extension/core/readOnlyDocuments.ts',
  'src/extension/core/l10nSetup.ts',
  'src/extension/core/pageL10nSetup.ts',
  'src/extension/core/workspaceText.ts',
  'src/extension/diagnostics/asSeenLint.ts',
  'src/extension/diagnostics/fileRemovals.ts',
  'src/extension/diagnostics/lintCodeActions.ts',
  'src/extension/diagnostics/lintCollection.ts',
  'src/extension/diagnostics/recipientProviders.ts',
  'src/extension/diagnostics/registerLint.ts',
  'src/extension/diagnostics/triggerDiagnostics.ts',
  'src/extension/diagnostics/triggerFiles.ts',
  'src/extension/noise/noiseHost.ts',
  'src/extension/noise/registerNoise.ts',
  'src/extension/forms/apiKeyPanels.ts',
  'src/extension/forms/burnAlertPanel.ts',
  'src/extension/forms/definitionsPanel.ts',
  'src/extension/forms/formFiles.ts',
  'src/extension/forms/formsHost.ts',
  'src/extension/forms/panels.ts',
  'src/extension/forms/registerForms.ts',
  'src/extension/forms/reviewDocuments.ts',
  'src/extension/queries/previewCommands.ts',
  'src/extension/queries/queryCommands.ts',
  'src/extension/queries/queriesHost.ts',
  'src/extension/queries/registerQueries.ts',
  'src/extension/queries/resultsPanel.ts',
  'src/extension/queries/savedQueryPicker.ts',
  'src/extension/sandbox/sandboxController.ts',
  'src/extension/sync/applyCommands.ts',
  'src/extension/sync/applyDestination.ts',
  'src/extension/sync/applyTargets.ts',
  'src/extension/sync/asSeenDocuments.ts',
  'src/extension/sync/driftViews.ts',
  'src/extension/sync/planPanel.ts',
  'src/extension/sync/pullCommands.ts',
  'src/extension/sync/registerSync.ts',
  'src/extension/sync/sloCompare.ts',
  'src/extension/sync/sloPullCommands.ts',
  'src/extension/sync/syncHost.ts',
  // Type imports only (it loads without vscode): the seam names the internals it publishes.
  'src/extension/testSeam.ts',
  'src/extension/tree/columnCommands.ts',
  'src/extension/tree/datasetCommands.ts',
  'src/extension/tree/datasetPicker.ts',
  'src/extension/tree/datasetsView.ts',
  'src/extension/tree/registerTree.ts',
  'src/extension/tree/viewCommands.ts',
  'src/extension/triggers/triggerCommands.ts',
  'src/extension/triggerTests/recordingCommands.ts',
  'src/extension/triggerTests/registerTriggerTests.ts',
  'src/extension/triggerTests/testDiscovery.ts',
  'src/extension/triggerTests/testRuns.ts',
  'src/extension/triggerTests/testsHost.ts',
  'src/extension/triggers/triggerDocuments.ts',
];

/** Data tables may be longer than the 450 lines a module is held to. */
const LONG_DATA_FILES = ['src/sandbox/demoData.ts'];
const MAX_LINES = 450;

interface Import {
  /** Repository-relative path of the imported file, or the bare package name. */
  target: string;
  /** `import type` / `export type`: erased at build time, loads nothing. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) ? [full] : [];
  });
}

const rel = (file: string): string => relative(root, file).split(sep).join('/');

function resolveSpecifier(from: string, spec: string): string {
  if (!spec.startsWith('.')) return spec;
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return rel(candidate);
    } catch {
      // try the next form
    }
  }
  return rel(base);
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]|(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4];
    if (spec === undefined) continue;
    out.push({ target: resolveSpecifier(file, spec), typeOnly: m[2] !== undefined });
  }
  return out;
}

const files = sourceFiles(join(root, 'src')).map((f) => ({ path: rel(f), imports: importsOf(f) }));
const byPath = new Map(files.map((f) => [f.path, f]));
const layerOf = (path: string): string | undefined => /^src\/([^/]+)\//.exec(path)?.[1];
/** The feature folder of a file under src/extension (`core` included), or undefined for extension.ts. */
const featureOf = (path: string): string | undefined => /^src\/extension\/([^/]+)\//.exec(path)?.[1];

/** Files a file loads at run time (type-only imports load nothing), followed through the whole graph. */
function loadedBy(path: string): Set<string> {
  const seen = new Set<string>();
  const stack = [path];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) break;
    for (const i of byPath.get(next)?.imports ?? []) {
      if (i.typeOnly || seen.has(i.target) || !byPath.has(i.target)) continue;
      seen.add(i.target);
      stack.push(i.target);
    }
  }
  return seen;
}

test('the import scan recognises every import form', () => {
  const sample = [
    `import * as vscode from 'vscode';`,
    `import type { A } from './a';`,
    `export { b } from "./b";`,
    `export type { C } from './c';`,
    `const v = require("vscode");`,
    `await import('./d')`,
    `import './side-effect';`,
  ].join('\n');
  const found = [...sample.matchAll(IMPORT)].map((m) => [m[3] ?? m[4], m[2] !== undefined]);
  assert.deepEqual(found, [
    ['vscode', false],
    ['./a', true],
    ['./b', false],
    ['./c', true],
    ['vscode', false],
    ['./d', false],
    ['./side-effect', false],
  ]);
});

test('only the listed adapters import vscode, and each of them imports it or loads an adapter that does', () => {
  const importing = files.filter((f) => f.imports.some((i) => i.target === 'vscode')).map((f) => f.path);
  assert.deepEqual(
    importing.filter((f) => !VSCODE_ADAPTERS.includes(f)),
    [],
    'files importing vscode that are not listed',
  );
  const loadsVscode = (f: string): boolean =>
    importing.includes(f) || [...loadedBy(f)].some((t) => importing.includes(t));
  assert.deepEqual(
    VSCODE_ADAPTERS.filter((f) => !loadsVscode(f)),
    [],
    'listed files that need no vscode',
  );
});

/** The one result type for failures as values: types only, usable by every layer with a type import. */
const SHARED_TYPES = 'src/result.ts';

test('the shared result module declares types only and imports nothing, so a type import of it loads nothing', () => {
  const shared = byPath.get(SHARED_TYPES);
  assert.ok(shared, 'the scan found the module');
  assert.deepEqual(shared.imports, []);
  const text = readFileSync(join(root, SHARED_TYPES), 'utf8');
  assert.deepEqual(text.match(/^export (?!type |interface )\S+/gm), null);
});

test('a failure returned as a value has one shape: ok false, then its reason', () => {
  // Literals and types alike: `{ ok: false, reason: ... }`, `{ ok: false; reason: ... }`, never another field first.
  const offenders: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(root, f.path), 'utf8');
    for (const m of text.matchAll(/\{ ok: false(?:[,;] ?(\w+)| \})/g))
      if (m[1] !== 'reason') offenders.push(`${f.path}: ${m[0]}`);
  }
  assert.deepEqual(offenders, []);
});

test('each layer imports only the layers below it', () => {
  const allowed: Record<string, (target: string) => boolean> = {
    api: (t) => layerOf(t) === 'api',
    lint: (t) => ['lint', 'api'].includes(layerOf(t) ?? '') || t === 'package.json',
    // The sandbox is the client's peer: it decides from the spec, never from the client's schemas.
    sandbox: (t) => layerOf(t) === 'sandbox' || t === 'package.json',
    // Triggers as code (the canonical file, pull, drift, the one plan pipeline): on the client's schemas and calls,
    // and of the linter only its gate (which triggers its diagnostics keep from being written) and types.
    triggerFiles: (t) =>
      ['triggerFiles', 'api'].includes(layerOf(t) ?? '') || t === 'src/lint/gate.ts' || t === 'src/lint/types.ts',
    // The backtest engine (trigger preview and trigger tests), shared by the editor and the CLI: on the client's
    // schemas and calls, and the linter's types (a type import loads nothing; checked below).
    backtest: (t) => ['backtest', 'api', 'lint'].includes(layerOf(t) ?? ''),
    // The agent tools (shared by obs mcp and the editor's language model tools): on the linter, triggers as code,
    // the backtest engine and the client.
    agentTools: (t) => ['agentTools', 'lint', 'triggerFiles', 'backtest', 'api'].includes(layerOf(t) ?? ''),
    cli: (t) =>
      ['cli', 'agentTools', 'lint', 'triggerFiles', 'backtest', 'sandbox', 'api'].includes(layerOf(t) ?? '') ||
      t === 'package.json',
    // The pages: their own code, the message protocol and the service's schemas, nothing that knows VS Code.
    webview: (t) => t.startsWith('src/webview/') || t.startsWith('src/api/schemas/'),
    extension: (t) =>
      ['extension', 'agentTools', 'api', 'lint', 'triggerFiles', 'backtest'].includes(layerOf(t) ?? '') ||
      t.startsWith('src/webview/protocol/') ||
      t === 'src/sandbox/types.ts',
  };
  const offenders: string[] = [];
  for (const f of files) {
    if (f.path === SHARED_TYPES) continue;
    const layer = layerOf(f.path);
    const ok = layer === undefined ? undefined : allowed[layer];
    assert.ok(ok, `${f.path} lies outside the known layers`);
    for (const i of f.imports) {
      if (!i.target.startsWith('src/') && i.target !== 'package.json') continue;
      if (!ok(i.target) && !(i.target === SHARED_TYPES && i.typeOnly)) offenders.push(`${f.path} -> ${i.target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('the backtest engine loads of the linter only its nearest-name search, and only the editor, the CLI and the agent tools import the engine', () => {
  const backtest = files.filter((f) => f.path.startsWith('src/backtest/'));
  assert.ok(
    backtest.some((f) => f.path === 'src/backtest/evaluate.ts'),
    'the scan found the engine',
  );
  // The nearest-name search names the dataset a 404 probably meant; nothing else of the linter runs here.
  const loadsLinter = backtest.flatMap((f) =>
    f.imports
      .filter((i) => i.target.startsWith('src/lint/') && i.target !== 'src/lint/nearest.ts' && !i.typeOnly)
      .map((i) => `${f.path} -> ${i.target}`),
  );
  assert.deepEqual(loadsLinter, []);
  const importers = new Set(
    files
      .filter((f) => !f.path.startsWith('src/backtest/') && f.imports.some((i) => i.target.startsWith('src/backtest/')))
      .map((f) => layerOf(f.path)),
  );
  assert.deepEqual([...importers].sort(), ['agentTools', 'cli', 'extension']);
});

test('triggers as code loads of the linter only its gate: the linter itself runs where its caller runs it (a worker in the editor)', () => {
  const loaded = files
    .filter((f) => f.path.startsWith('src/triggerFiles/'))
    .flatMap((f) => f.imports.filter((i) => i.target.startsWith('src/lint/') && !i.typeOnly).map((i) => i.target));
  assert.deepEqual([...new Set(loaded)], ['src/lint/gate.ts']);
});

test("the sandbox's router and the modules it loads import nothing from the route groups beneath them (queries/, triggers/): each group extends the router's context itself", () => {
  const reached = [...loadedBy('src/sandbox/router.ts')].filter((p) => /^src\/sandbox\/[^/]+\//.test(p));
  assert.deepEqual(reached, []);
  const typeImports = (byPath.get('src/sandbox/router.ts')?.imports ?? [])
    .filter((i) => /^src\/sandbox\/[^/]+\//.test(i.target))
    .map((i) => i.target);
  assert.deepEqual(typeImports, []);
});

test("no command of the CLI imports another command's run module: what two commands share lives beside them", () => {
  const runs = files.filter((f) => /^src\/cli\/\w+Run\.ts$/.test(f.path)).map((f) => f.path);
  assert.ok(runs.includes('src/cli/planRun.ts') && runs.includes('src/cli/applyRun.ts'), 'the scan found the runs');
  const offenders = files
    .filter((f) => f.path.startsWith('src/cli/') && f.path !== 'src/cli/serviceRuns.ts' && f.path !== 'src/cli/main.ts')
    .flatMap((f) =>
      f.imports
        .filter((i) => runs.includes(i.target) && i.target !== f.path && !isDeclaration(f.path, i.target))
        .map((i) => `${f.path} -> ${i.target}`),
    );
  assert.deepEqual(offenders, []);
});

/** A command's declaration (`plan.ts`) loads its own run (`planRun.ts`) when it runs. */
const isDeclaration = (from: string, run: string): boolean => run === from.replace(/\.ts$/, 'Run.ts');

test('the webview protocol is shared by host and pages and imports only schemas', () => {
  const offenders = files
    .filter((f) => f.path.startsWith('src/webview/protocol/'))
    .flatMap((f) =>
      f.imports
        .filter(
          (i) =>
            i.target.startsWith('src/') &&
            !i.target.startsWith('src/webview/protocol/') &&
            !i.target.startsWith('src/api/schemas/') &&
            !(i.target === SHARED_TYPES && i.typeOnly),
        )
        .map((i) => `${f.path} -> ${i.target}`),
    );
  assert.deepEqual(offenders, []);
});

test('features reach each other only through their index.ts; core reaches no feature', () => {
  const offenders: string[] = [];
  for (const f of files) {
    const from = featureOf(f.path);
    if (from === undefined) continue;
    for (const i of f.imports) {
      const to = featureOf(i.target);
      if (to === undefined || to === from) continue;
      if (from === 'core') offenders.push(`${f.path} -> ${i.target} (core imports no feature)`);
      else if (to !== 'core' && i.target !== `src/extension/${to}/index.ts`) offenders.push(`${f.path} -> ${i.target}`);
    }
  }
  assert.deepEqual(offenders, []);
});

test('every module but the adapters loads without vscode, so the cores run in plain Node', () => {
  const adapters = new Set(VSCODE_ADAPTERS);
  const offenders = files
    .filter((f) => !adapters.has(f.path))
    .flatMap((f) => [...loadedBy(f.path)].filter((t) => adapters.has(t)).map((t) => `${f.path} loads ${t}`));
  assert.deepEqual(offenders, []);
});

test('no import cycles', () => {
  // Tarjan's strongly connected components over every import, type-only ones included.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of byPath.get(v)?.imports ?? []) {
      if (!byPath.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (;;) {
        const w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const f of files) if (!index.has(f.path)) visit(f.path);
  assert.deepEqual(cycles, []);
});

test(`no source module is over ${MAX_LINES} lines, data tables aside`, () => {
  const long = files
    .filter((f) => !LONG_DATA_FILES.includes(f.path))
    .map((f) => ({ path: f.path, lines: readFileSync(join(root, f.path), 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > MAX_LINES)
    .map((f) => `${f.path} (${f.lines})`);
  assert.deepEqual(long, []);
});

test('the product, the scripts and the bench import nothing from test/', () => {
  const outside = ['src', 'scripts', 'bench'].flatMap((dir) => sourceFiles(join(root, dir)));
  assert.ok(
    outside.some((f) => rel(f).startsWith('bench/')) && outside.some((f) => rel(f).startsWith('scripts/')),
    'the scan found the scripts and the bench',
  );
  const found = outside.flatMap((f) =>
    importsOf(f)
      .filter((i) => i.target.startsWith('test/'))
      .map((i) => `${rel(f)} imports ${i.target}`),
  );
  assert.deepEqual(found, []);
});
