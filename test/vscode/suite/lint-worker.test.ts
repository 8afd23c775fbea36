// In-host: the linter runs in a worker thread of the real extension host, and a code action request
// is answered from the lint of the document's version (no lint of its own).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { obsSeam, waitFor } from './helpers';

const TRIGGER = `{
  "id": "trig_w",
  "name": "Linted in a worker",
  "frequency": 100,
  "threshold": { "op": ">", "value": 5 },
  "query": { "calculations": [{ "op": "COUNT" }], "time_range": 300 }
}
`;

suite('lint worker', () => {
  test('a trigger file is linted in a worker thread, and its code actions come from that lint', async () => {
    const seam = await obsSeam();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test workspace has a folder');
    const uri = vscode.Uri.joinPath(folder, 'ext-test', 'worker.trigger.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(TRIGGER));
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      await waitFor('the file linted', () => (vscode.languages.getDiagnostics(uri).some((d) => d.source === 'obs-lint') ? true : undefined));
      const runner = seam.diagnostics.runner;
      const work = seam.lintWork;
      assert.equal(runner.inThread, false, 'the linter fell back to the host thread');
      assert.ok(work.count('worker') >= 1, `workers: ${work.count('worker')}`);
      const whole = new vscode.Range(0, 0, doc.lineCount, 0);
      const fixAll = () => vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, whole, 'source.fixAll.obs');
      // VS Code cancels a request when it reloads the model just written to disk: ask until one is answered.
      const first = await waitFor('a fix-all action', async () => {
        try {
          return await fixAll();
        } catch (err) {
          if (err instanceof Error && err.message === 'Canceled') return undefined;
          throw err;
        }
      });
      assert.deepEqual(
        first.map((a) => a.title),
        ['Fix all auto-fixable problems'],
      );
      // Asked again for the same version: answered from its lint and fix-all, no job of its own.
      const jobs = work.count('lint', 'fixAll');
      const version = doc.version;
      const again = await fixAll();
      assert.equal(doc.version, version);
      assert.deepEqual(
        again.map((a) => a.title),
        ['Fix all auto-fixable problems'],
      );
      assert.equal(work.count('lint', 'fixAll'), jobs);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
    }
  });
});
