// Where each npm library's code is in the build (read from esbuild's metafile, dist/.build-meta.json): one copy
// of each where esbuild allows, so the .vsix stays small and a command loads only what it needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtFiles } from './bundle-inputs';

const WEBVIEW = /^dist\/webview\//;

/**
 * The files each library's code may be in. The Node bundles are CommonJS, which esbuild does not split into
 * shared chunks: their libraries are bundles of their own (dist/lib-*.js) that each bundle requires. The
 * webview pages are ES modules, split into chunks: a library there is in the pages' chunks, once.
 */
const HOMES: Record<string, { files: RegExp; why: string }> = {
  zod: {
    files: /^dist\/(lib-zod\.js|cli-mcp\.js|webview\/chunk-\w+\.js)$/,
    why: "dist/lib-zod.js for Node, a chunk for the pages; in obs mcp, what the SDK's zod/v4-mini reaches",
  },
  undici: { files: /^dist\/lib-undici\.js$/, why: 'one copy for the editor and obs' },
  'jsonc-parser': { files: /^dist\/lib-jsonc\.js$/, why: 'one copy for the editor, the lint worker and obs' },
  tinyglobby: { files: /^dist\/lib-glob\.js$/, why: "obs's file search, one copy for its commands" },
  commander: {
    files: /^dist\/(cli|sandbox)\.js$/,
    why: 'the obs program; dist/sandbox.js (npm run sandbox) is not shipped',
  },
  '@vscode/l10n': {
    files: /./,
    why: 'small (2 KB), and each bundle entry configures its own copy with the bundle it is handed (docs/L10N.md)',
  },
  '@modelcontextprotocol/sdk': { files: /^dist\/cli-mcp\.js$/, why: 'obs mcp only' },
  ajv: { files: /^dist\/cli-mcp\.js$/, why: "the MCP SDK's JSON schema validator, obs mcp only" },
  'ajv-formats': { files: /^dist\/cli-mcp\.js$/, why: 'with ajv' },
  'fast-uri': { files: /^dist\/cli-mcp\.js$/, why: 'with ajv' },
  'fast-deep-equal': { files: /^dist\/cli-mcp\.js$/, why: 'with ajv' },
  'json-schema-traverse': { files: /^dist\/cli-mcp\.js$/, why: 'with ajv' },
  'zod-to-json-schema': { files: /^dist\/cli-mcp\.js$/, why: "the MCP SDK's tool schemas, obs mcp only" },
  '@vscode-elements/elements': { files: /^dist\/webview\/chunk-\w+\.js$/, why: "the forms' elements, shared" },
  lit: { files: WEBVIEW, why: 'with the elements' },
  'lit-html': { files: WEBVIEW, why: 'with the elements; the results page renders with it too' },
  'lit-element': { files: WEBVIEW, why: 'with the elements' },
  '@lit/reactive-element': { files: WEBVIEW, why: 'with the elements' },
  uplot: { files: /^dist\/webview\/queryResults\.(js|css)$/, why: "the results page's chart" },
};

/** Each library, with the files its code is in. */
function placesOfLibraries(): Map<string, string[]> {
  const places = new Map<string, string[]>();
  for (const b of builtFiles().values())
    for (const lib of b.libraries.keys()) places.set(lib, [...(places.get(lib) ?? []), b.file]);
  return places;
}

test('each library is only in the files designed to hold it, and every library the build holds is named here', () => {
  const places = placesOfLibraries();
  assert.ok(places.has('zod') && places.has('undici'), 'the metafile names the libraries in each file');
  const unnamed = [...places.keys()].filter((lib) => HOMES[lib] === undefined);
  assert.deepEqual(unnamed, [], 'a library no entry of HOMES places');
  const elsewhere = [...places].flatMap(([lib, files]) =>
    files.filter((f) => !(HOMES[lib]?.files.test(f) ?? false)).map((f) => `${lib} in ${f}`),
  );
  assert.deepEqual(elsewhere, []);
});

test('undici, jsonc-parser and tinyglobby are in one file each, zod in one for Node and one for the pages', () => {
  const places = placesOfLibraries();
  assert.deepEqual(places.get('undici'), ['dist/lib-undici.js']);
  assert.deepEqual(places.get('jsonc-parser'), ['dist/lib-jsonc.js']);
  assert.deepEqual(places.get('tinyglobby'), ['dist/lib-glob.js']);
  const zod = places.get('zod') ?? [];
  assert.deepEqual(zod.filter((f) => !WEBVIEW.test(f)).sort(), ['dist/cli-mcp.js', 'dist/lib-zod.js']);
  assert.equal(zod.filter((f) => WEBVIEW.test(f)).length, 1, `zod in ${zod.join(', ')}`);
  // obs mcp's share of zod is the few parts of its core that the SDK's zod/v4-mini reaches, not a copy.
  const mcpZod = builtFiles().get('dist/cli-mcp.js')?.libraries.get('zod') ?? 0;
  const libZod = builtFiles().get('dist/lib-zod.js')?.libraries.get('zod') ?? 0;
  assert.ok(mcpZod < libZod / 20, `obs mcp holds ${mcpZod} bytes of zod, the shared copy ${libZod}`);
});

test("obs's commands other than mcp load no MCP SDK, ajv or zod v3, nor the bundle that has them", () => {
  const loads = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const m of builtFiles().get(file)?.external ?? []) if (m.startsWith('./')) loads(`dist/${m.slice(2)}`, seen);
    return seen;
  };
  for (const command of ['dist/cli-lint.js', 'dist/cli-service.js']) {
    const files = [...loads(command)];
    assert.ok(files.includes('dist/lib-zod.js'), `${command} loads the shared zod: ${files.join(', ')}`);
    const mcp = files.flatMap((f) =>
      [...(builtFiles().get(f)?.libraries.keys() ?? [])]
        .filter((lib) => /^(@modelcontextprotocol\/sdk|ajv|ajv-formats|zod\/v3)$/.test(lib))
        .map((lib) => `${lib} in ${f}`),
    );
    assert.deepEqual(mcp, [], command);
    assert.ok(!files.includes('dist/cli-mcp.js'), `${command} loads dist/cli-mcp.js`);
  }
  // dist/cli.js loads the MCP server only for `obs mcp`, from its own bundle.
  assert.ok(builtFiles().get('dist/cli.js')?.external.includes('./cli-mcp.js'));
});
