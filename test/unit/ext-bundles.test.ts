// The extension loads two bundles at run time (require of a computed path): they must be built and shipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleInputs } from './bundle-inputs';

const root = join(import.meta.dirname, '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

test('esbuild builds the run-time loaded bundles from their sources', () => {
  const build = read('esbuild.mjs');
  assert.match(build, /'sandbox-host': 'src\/sandbox\/index\.ts'/);
  assert.match(build, /'client-host': 'src\/api\/index\.ts'/);
  assert.match(build, /'lint-worker': 'src\/extension\/diagnostics\/lintWorker\.ts'/);
  assert.match(build, /'forms-host': 'src\/extension\/forms\/formsHost\.ts'/);
  assert.match(build, /'sync-host': 'src\/extension\/sync\/syncHost\.ts'/);
});

test('.vscodeignore ships the run-time loaded bundles', () => {
  const lines = read('.vscodeignore').split(/\r?\n/).map((l) => l.trim());
  assert.ok(lines.includes('!dist/sandbox-host.js'), 'dist/sandbox-host.js is not shipped');
  assert.ok(lines.includes('!dist/client-host.js'), 'dist/client-host.js is not shipped');
  assert.ok(lines.includes('!dist/lint-worker.js'), 'dist/lint-worker.js is not shipped');
  assert.ok(lines.includes('!dist/forms-host.js'), 'dist/forms-host.js is not shipped');
  assert.ok(lines.includes('!dist/sync-host.js'), 'dist/sync-host.js is not shipped');
});

test('dist/extension.js bundles neither the sandbox, the client transport (undici) nor the linter and its schemas', async () => {
  const inputs = await bundleInputs('src/extension/extension.ts');
  assert.deepEqual(inputs.filter((f) => /node_modules\/undici\/|src\/sandbox\/|src\/api\/(client|transport)\.ts$/.test(f)), []);
  // The linter runs in dist/lint-worker.js; the extension needs only its rule registry and positions.
  assert.deepEqual(inputs.filter((f) => /node_modules\/jsonc-parser\/|src\/lint\//.test(f) && !/src\/lint\/(rules|text)\.ts$/.test(f)), []);
  // The forms and their message schemas are in dist/forms-host.js, loaded when a form first opens (the tree
  // shares only the words of a moment with the pages).
  assert.deepEqual(inputs.filter((f) => /src\/webview\/|src\/extension\/forms\//.test(f) && !/forms\/(registerForms|reviewDocuments|formIds)\.ts$|webview\/protocol\/text\/when\.ts$/.test(f)), []);
  // Running queries, previews and the results panel are in dist/queries-host.js, loaded on first use.
  assert.deepEqual(inputs.filter((f) => /src\/extension\/queries\//.test(f) && !/queries\/(registerQueries|queryIds)\.ts$/.test(f)), []);
  // Drift and pull (and the trigger file format) are in dist/sync-host.js, loaded when first needed. The
  // activation bundle registers them (registerSync, the view and scheme ids in syncIds) and reads the pull
  // commands' arguments (pullScope, with the tree's parsers). (A trigger file's path is shared with export.)
  assert.deepEqual(inputs.filter((f) => /src\/extension\/sync\/|src\/triggerFiles\//.test(f) && !/(sync\/(registerSync|syncIds|pullScope)|triggerFiles\/paths)\.ts$/.test(f)), []);
});

test('dist/sync-host.js holds no zod: drift loaded beside the activation bundle brings no second copy', async () => {
  const inputs = await bundleInputs('src/extension/sync/syncHost.ts');
  assert.deepEqual(inputs.filter((f) => /node_modules\/zod\//.test(f)), []);
  assert.ok(inputs.some((f) => f.endsWith('src/triggerFiles/normalize.ts')), 'the bundle holds the trigger file format');
});

test('the webview types restored at activation are the manifest\'s: every form and the results panel', async () => {
  const { FORM_COMMANDS, FORM_VIEW_TYPES } = await import('../../src/extension/forms/formIds');
  const { VIEW_TYPES } = await import('../../src/webview/protocol/messages');
  const { RESULTS_VIEW_TYPE } = await import('../../src/webview/protocol/queryResults');
  const { RESULTS_PANEL_VIEW_TYPE } = await import('../../src/extension/queries/queryIds');
  const manifest = JSON.parse(read('package.json')) as { activationEvents: string[]; contributes: { commands: { command: string }[] } };
  assert.deepEqual([...FORM_VIEW_TYPES].sort(), Object.values(VIEW_TYPES).sort());
  assert.equal(RESULTS_PANEL_VIEW_TYPE, RESULTS_VIEW_TYPE);
  assert.deepEqual(
    manifest.activationEvents.filter((e) => e.startsWith('onWebviewPanel:')).map((e) => e.slice('onWebviewPanel:'.length)).sort(),
    [...FORM_VIEW_TYPES, RESULTS_VIEW_TYPE].sort(),
  );
  const declared = new Set(manifest.contributes.commands.map((c) => c.command));
  assert.deepEqual(FORM_COMMANDS.filter((c) => !declared.has(c.id)), []);
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

test('the extension host bundles start with "use strict" before the navigator shadow', () => {
  for (const file of ['dist/extension.js', 'dist/client-host.js', 'dist/sandbox-host.js', 'dist/lint-worker.js', 'dist/forms-host.js', 'dist/sync-host.js']) {
    assert.ok(read(file).startsWith('"use strict"; var navigator = undefined;'), file);
  }
});
