// In-host tests of the extension engineer's parts: tree over the sandbox, secrets, trigger-file lint.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { secretStorageKey } from '../../../src/extension/connections/secretStore';
import { ruleDocsAnchor } from '../../../src/lint/rules';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { suite, test } from './harness';
import { obsSeam, waitFor } from './helpers';

const labelOf = (n: TreeNode): string =>
  n.kind === 'dataset' ? n.slug : n.kind === 'group' ? n.group : n.kind === 'action' ? n.label : n.kind;

// `triggered` is the read-only member: `id` links a file to its trigger and is no problem in a file.
const BAD_TRIGGER = `{
  "triggered": true,
  "name": "Bad trigger",
  "frequency": 100,
  "threshold": { "op": ">", "value": 5 },
  "recipients": [{ "type": "email", "target": "oncall@example.com" }],
  "query": { "calculations": [{ "op": "COUNT" }], "time_range": 300 }
}
`;

function lintDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'obs-lint');
}

function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

async function writeBadTrigger(name: string): Promise<vscode.Uri> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the test workspace has a folder');
  const uri = vscode.Uri.joinPath(folder, 'ext-test', name);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(BAD_TRIGGER));
  return uri;
}

async function closeAndDelete(uri: vscode.Uri): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
}

suite('extension', () => {
  test(
    'the local sandbox becomes the active connection and fills the tree',
    async () => {
      const seam = await obsSeam();
      const baseUrl = await vscode.commands.executeCommand<string>('obs.sandbox.start');
      assert.match(baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(seam.connections.activeProfile()?.name, 'Sandbox');
      assert.equal(seam.sandbox.state, 'running');
      const root = await waitFor('the sandbox datasets at the root', async () => {
        const nodes = await seam.tree.getChildren();
        return nodes.some((n) => n.kind === 'dataset' && n.slug === 'api-gateway') ? nodes : undefined;
      });
      assert.deepEqual(root.map(labelOf), [
        '__all__',
        'api-gateway',
        'bench-wide',
        'checkout-service',
        'empty-dataset',
        'metrics-hosts',
        'zz-hostile-strings',
        'apiKeys',
      ]);
      const gateway = root[1] as TreeNode;
      const groups = await seam.tree.getChildren(gateway);
      assert.deepEqual(groups.map(labelOf), ['columns', 'triggers', 'burnAlerts']);
      const columns = await seam.tree.getChildren(groups[0]);
      assert.ok(
        columns.length > 10 && columns.every((c) => c.kind === 'column'),
        `columns: ${columns.map(labelOf).join(', ')}`,
      );
      const slos = await seam.tree.getChildren(groups[2]);
      assert.deepEqual(
        slos.map((s) => (s.kind === 'slo' ? s.sloId : s.kind)),
        ['slo_gw_availability'],
      );
      const alerts = await seam.tree.getChildren(slos[0]);
      assert.deepEqual(
        alerts.map((a) => (a.kind === 'burnAlert' ? a.alert.id : a.kind)),
        ['ba_gw_budget_rate', 'ba_gw_exhaustion'],
      );
    },
    { timeoutMs: 40_000 },
  );

  test('the sandbox keys stay in memory: neither SecretStorage, settings nor globalState hold them', async () => {
    const seam = await obsSeam();
    await vscode.commands.executeCommand('obs.sandbox.start');
    const info = seam.sandbox.running?.info;
    assert.ok(info, 'the sandbox runs');
    const { secrets, globalState } = seam.context;
    assert.equal(await secrets.get(secretStorageKey('sandbox', 'configKey')), undefined);
    assert.equal(await secrets.get(secretStorageKey('sandbox', 'managementKey')), undefined);
    const managementSecret = info.managementKey.split(':')[1] ?? '';
    const state = JSON.stringify(globalState.keys().map((k) => [k, globalState.get(k)]));
    const settings = JSON.stringify(vscode.workspace.getConfiguration());
    for (const [where, text] of [
      ['globalState', state],
      ['settings', settings],
    ] as const) {
      assert.ok(!text.includes(info.configKey), `configuration key found in ${where}`);
      assert.ok(!text.includes(managementSecret), `management secret found in ${where}`);
      assert.ok(!text.includes(info.baseUrl), `the window-only sandbox profile found in ${where}`);
    }
  });

  test('a saved connection keeps its keys in SecretStorage only, and removing it deletes them', async () => {
    const seam = await obsSeam();
    const { connections, context } = seam;
    const profile = {
      id: 'conn-secret-test',
      name: 'secret test',
      baseUrl: 'https://api.example.invalid',
      uiUrl: 'https://ui.example.invalid',
      team: 't',
      environmentId: 'e',
    };
    const keys = { configKey: 'CK-secret-test-7f3a', managementKey: 'kid:MK-secret-test-9b1c' };
    await connections.setSecrets(profile.id, keys);
    await connections.save(profile);
    try {
      assert.equal(await context.secrets.get(secretStorageKey(profile.id, 'configKey')), keys.configKey);
      assert.equal(await context.secrets.get(secretStorageKey(profile.id, 'managementKey')), keys.managementKey);
      const state = JSON.stringify(context.globalState.keys().map((k) => [k, context.globalState.get(k)]));
      assert.ok(state.includes(profile.baseUrl), 'the profile itself is in globalState');
      assert.ok(!state.includes('CK-secret-test') && !state.includes('MK-secret-test'), 'a key found in globalState');
      assert.ok(
        !JSON.stringify(vscode.workspace.getConfiguration()).includes('secret-test-'),
        'a key found in settings',
      );
    } finally {
      await connections.remove(profile.id);
    }
    assert.equal(await context.secrets.get(secretStorageKey(profile.id, 'configKey')), undefined);
    assert.equal(await context.secrets.get(secretStorageKey(profile.id, 'managementKey')), undefined);
  });

  test('a bad trigger file gets diagnostics with rule codes, doc links, tags and exact ranges', async () => {
    const uri = await writeBadTrigger('bad.trigger.json');
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const diagnostics = await waitFor('3 obs-lint diagnostics', () => {
        const ds = lintDiagnostics(uri);
        return ds.length === 3 ? ds : undefined;
      });
      const S = vscode.DiagnosticSeverity;
      assert.deepEqual(
        diagnostics.map((d) => [
          codeOf(d),
          d.severity,
          d.range.start.line,
          d.range.start.character,
          d.range.end.line,
          d.range.end.character,
        ]),
        [
          ['trigger/read-only-member', S.Information, 1, 2, 1, 19],
          ['trigger/frequency', S.Error, 3, 2, 3, 18],
          ['trigger/recipient-deprecated', S.Warning, 5, 17, 5, 68],
        ],
      );
      // Each code links to the rule's section of the docs/rules.md shipped in the extension, by line.
      for (const d of diagnostics) {
        assert.ok(typeof d.code === 'object', `code of ${codeOf(d)}`);
        const target = d.code.target;
        assert.equal(target.scheme, 'file');
        assert.ok(target.path.endsWith('/docs/rules.md'), target.toString());
        const line = Number(/^L(\d+)$/.exec(target.fragment)?.[1]);
        const docs = new TextDecoder().decode(await vscode.workspace.fs.readFile(target.with({ fragment: '' })));
        const anchor = `<a id="${ruleDocsAnchor(codeOf(d))}"></a>`;
        assert.ok(docs.split(/\r?\n/)[line - 1]?.includes(anchor), `line ${line} of docs/rules.md has ${anchor}`);
      }
      // Opening a code link (as the Problems view does, through the opener) shows rules.md at that line.
      const first = diagnostics[1]?.code;
      assert.ok(typeof first === 'object');
      await vscode.commands.executeCommand('vscode.open', first.target);
      const docsEditor = await waitFor('rules.md in an editor', () => {
        const e = vscode.window.activeTextEditor;
        return e?.document.uri.path.endsWith('/docs/rules.md') ? e : undefined;
      });
      const wanted = Number(/^L(\d+)$/.exec(first.target.fragment)?.[1]) - 1;
      assert.equal(docsEditor.selection.active.line, wanted, 'the cursor is on the rule section');
      assert.ok(
        docsEditor.visibleRanges.some((r) => r.start.line <= wanted + 1 && wanted + 1 <= r.end.line),
        'the heading is in view',
      );
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      assert.deepEqual(diagnostics[0]?.tags, [vscode.DiagnosticTag.Unnecessary]);
      assert.deepEqual(diagnostics[2]?.tags, [vscode.DiagnosticTag.Deprecated]);
    } finally {
      await closeAndDelete(uri);
    }
    await waitFor('diagnostics cleared after delete', () => lintDiagnostics(uri).length === 0 || undefined);
  });

  test('a quick fix and "fix all" repair the file', async () => {
    const uri = await writeBadTrigger('fixme.trigger.json');
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      await waitFor('diagnostics', () => lintDiagnostics(uri).length === 3 || undefined);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        new vscode.Range(3, 2, 3, 18),
      );
      const fix = actions.find((a) => a.title === 'Set frequency to 120');
      assert.ok(fix?.edit, `quick fixes: ${actions.map((a) => a.title).join(', ')}`);
      assert.equal(fix.isPreferred, true);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      assert.match(doc.getText(), /"frequency": 120,/);
      await waitFor('the frequency error gone', () =>
        lintDiagnostics(uri).some((d) => codeOf(d) === 'trigger/frequency') ? undefined : true,
      );

      const whole = new vscode.Range(0, 0, doc.lineCount, 0);
      const fixAll = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        whole,
        'source.fixAll.obs',
      );
      assert.deepEqual(
        fixAll.map((a) => [a.title, a.kind?.value]),
        [['Fix all auto-fixable problems', 'source.fixAll.obs']],
      );
      const edit = fixAll[0]?.edit;
      assert.ok(edit);
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.equal((JSON.parse(doc.getText()) as { triggered?: boolean }).triggered, undefined);
      await waitFor('only the deprecation left', () => {
        const codes = lintDiagnostics(uri).map(codeOf);
        return codes.length === 1 && codes[0] === 'trigger/recipient-deprecated' ? true : undefined;
      });
    } finally {
      await closeAndDelete(uri);
    }
  });

  test('a trigger opened from the tree is a read-only obs-trigger: document linted as listed (its own problems, not its read-only members)', async () => {
    const seam = await obsSeam();
    await vscode.commands.executeCommand('obs.sandbox.start');
    const group: TreeNode = { kind: 'group', connectionId: 'sandbox', dataset: 'api-gateway', group: 'triggers' };
    const triggers = await seam.tree.getChildren(group);
    const node = triggers.find((t) => t.kind === 'trigger' && t.trigger.id === 'trig_gw_legacy');
    assert.ok(node, 'the demo trigger is in the tree');
    await vscode.commands.executeCommand('obs.trigger.open', node);
    const editor = await waitFor('the trigger editor', () => vscode.window.activeTextEditor);
    const uri = editor.document.uri;
    assert.equal(uri.scheme, 'obs-trigger');
    const codes = await waitFor('the deprecated recipient diagnostic', () => {
      const c = lintDiagnostics(uri).map(codeOf);
      return c.includes('trigger/recipient-deprecated') ? c : undefined;
    });
    assert.ok(codes.every((c) => c.startsWith('trigger/') || c.startsWith('query/')));
    assert.ok(!codes.includes('trigger/read-only-member'), `listed form: ${codes.join(', ')}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('starting and stopping the sandbox re-lints open trigger files for its metrics datasets', async () => {
    await vscode.commands.executeCommand('obs.sandbox.stop');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test workspace has a folder');
    const uri = vscode.Uri.joinPath(folder, 'ext-test', 'metrics.trigger.json');
    const text = {
      name: 'Host samples',
      dataset_slug: 'metrics-hosts',
      frequency: 300,
      threshold: { op: '<', value: 1 },
      query: { calculations: [{ op: 'COUNT_DATAPOINTS' }], time_range: 600 },
    };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(text, null, 2)}\n`));
    const metricsOnly = (): boolean =>
      lintDiagnostics(uri).some((d) => codeOf(d) === 'query/calculation-op-metrics-only');
    // The demo workspace names metrics-hosts a metrics dataset in its settings: not for this test.
    const obs = vscode.workspace.getConfiguration('obs');
    const declared = obs.inspect<string[]>('metricsDatasets')?.workspaceValue;
    await obs.update('metricsDatasets', undefined, vscode.ConfigurationTarget.Workspace);
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await waitFor('the metrics-only error while metrics-hosts is not known as a metrics dataset', () =>
        metricsOnly(),
      );
      await vscode.commands.executeCommand('obs.sandbox.start');
      await waitFor('the error gone once the sandbox reports metrics-hosts as a metrics dataset', () => !metricsOnly());
      await vscode.commands.executeCommand('obs.sandbox.stop');
      await waitFor('the error back after the sandbox stopped', () => metricsOnly());
    } finally {
      await closeAndDelete(uri);
      await obs.update('metricsDatasets', declared, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('stopping the sandbox removes its connection and empties the tree', async () => {
    const seam = await obsSeam();
    await vscode.commands.executeCommand('obs.sandbox.stop');
    assert.equal(seam.sandbox.running, undefined);
    assert.equal(seam.sandbox.state, 'stopped');
    assert.ok(!seam.connections.list().some((p) => p.id === 'sandbox'));
    assert.equal(seam.connections.activeProfile(), undefined, 'no other connection was made active');
    seam.tree.refresh();
    assert.deepEqual(await seam.tree.getChildren(), []);
  });
});

suite('extension: datasets the service has', () => {
  test(
    'with the sandbox active, a trigger file naming a dataset the service lacks gets trigger/unknown-dataset with the slug meant, and its quick fix',
    async () => {
      await vscode.commands.executeCommand('obs.sandbox.start');
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder, 'the test workspace has a folder');
      const uri = vscode.Uri.joinPath(folder, 'ext-test', 'unknown-dataset.trigger.json');
      const text = {
        name: 'Checkout latency',
        dataset_slug: 'checkout',
        threshold: { op: '>', value: 1500 },
        query: { calculations: [{ op: 'COUNT' }], time_range: 900 },
      };
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(text, null, 2)}\n`));
      try {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
        const found = await waitFor(
          'the unknown-dataset warning',
          () => lintDiagnostics(uri).find((d) => codeOf(d) === 'trigger/unknown-dataset'),
          30_000,
        );
        assert.equal(found.severity, vscode.DiagnosticSeverity.Warning);
        assert.equal(
          found.message,
          'The service has no dataset "checkout" (did you mean "checkout-service"?): the trigger cannot be created or previewed there',
        );
        const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          uri,
          found.range,
        );
        assert.ok(
          actions.some((a) => a.title === 'Change to "checkout-service"'),
          actions.map((a) => a.title).join(', '),
        );
      } finally {
        await closeAndDelete(uri);
        await vscode.commands.executeCommand('obs.sandbox.stop');
      }
    },
    { timeoutMs: 60_000 },
  );
});
