// The extension host of the activation figures, in a fresh process (cold, as VS Code starts an extension):
// a stub of the `vscode` module with what activate() touches (unknown members are inert proxies),
// then require(bundle) and activate(context), timed. Usage: node activate.cjs <root> <bundle>. Prints one JSON line,
// which also says what activate() returned and whether the test seam was published (test/unit/ext-testSeam.test.ts).
'use strict';
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const [root, bundle] = process.argv.slice(2);
const inert = () => new Proxy(function () {}, {
  get: (_t, key) => key === 'then' ? undefined : key === Symbol.iterator ? function* () {} : key === Symbol.toPrimitive ? () => 0 : key === 'dispose' ? () => undefined : inert(),
  set: () => true,
  apply: () => inert(),
  construct: () => inert(),
});
class EventEmitter {
  constructor() { this.listeners = []; this.event = (l) => { this.listeners.push(l); return { dispose() {} }; }; }
  fire(e) { this.listeners.forEach((l) => l(e)); }
  dispose() { this.listeners = []; }
}
class Disposable {
  constructor(fn) { this.fn = fn; }
  static from(...ds) { return new Disposable(() => ds.forEach((d) => d.dispose())); }
  dispose() { this.fn(); }
}
const config = { get: (_k, d) => d, inspect: () => undefined, update: async () => undefined };
const workspace = new Proxy({ textDocuments: [], workspaceFolders: undefined, getConfiguration: () => config }, {
  get: (t, k) => (k in t ? t[k] : String(k).startsWith('on') ? () => ({ dispose() {} }) : inert()),
});
const vscode = { EventEmitter, Disposable, workspace };
// esbuild's interop copies the module's own keys once, so every name the bundle may use must exist.
for (const name of ['CancellationTokenSource', 'CodeAction', 'CodeActionKind', 'ConfigurationTarget', 'Diagnostic', 'DiagnosticRelatedInformation', 'ExtensionMode',
  'DiagnosticSeverity', 'DiagnosticTag', 'EndOfLine', 'FileType', 'InputBoxValidationSeverity', 'Location', 'MarkdownString',
  'Position', 'ProgressLocation', 'QuickPickItemKind', 'Range', 'RelativePattern', 'Selection', 'StatusBarAlignment', 'TextEdit',
  'TestRunProfileKind', 'ThemeColor', 'ThemeIcon', 'TreeItem', 'TreeItemCollapsibleState', 'Uri', 'ViewColumn', 'WorkspaceEdit', 'commands', 'env',
  'extensions', 'l10n', 'languages', 'tests', 'window',]) if (!(name in vscode)) vscode[name] = inert();
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
const memento = new Map();
const context = {
  subscriptions: [],
  extensionPath: root,
  extensionUri: { fsPath: root, scheme: 'file', path: root, toString: () => 'file://' + root },
  extension: { packageJSON: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) },
  globalState: { get: (k) => memento.get(k), update: async (k, v) => void memento.set(k, v), keys: () => [...memento.keys()] },
  secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) },
};
const t0 = performance.now();
const ext = require(bundle);
const t1 = performance.now();
const returned = ext.activate(context);
const t2 = performance.now();
const seam = globalThis[Symbol.for('obs-vscode.testSeam')];
process.stdout.write(JSON.stringify({
  require: t1 - t0,
  activate: t2 - t1,
  subscriptions: context.subscriptions.length,
  returned: returned === undefined ? 'undefined' : typeof returned,
  seam: seam === undefined ? null : Object.keys(seam).sort(),
}) + '\n');
