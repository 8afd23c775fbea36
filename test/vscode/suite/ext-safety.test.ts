// In-host tests of what keeps users from acting on the wrong connection: the view names the active
// connection, removing it never activates another, and item actions go to the item's own connection.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../src/extension/connections/profiles';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { suite, test } from './harness';
import { obsSeam, waitFor } from './helpers';

/** A saved connection on a loopback port nobody listens on: a request to it can only fail. */
const elsewhere = (id: string, name: string): ConnectionProfile => ({
  id,
  name,
  baseUrl: 'http://127.0.0.1:9',
  uiUrl: 'http://127.0.0.1:9',
  team: 't',
  environmentId: 'e',
});

suite('connection safety', () => {
  test('the view header names the active connection; stopping the sandbox leaves none active, not another', async () => {
    const seam = await obsSeam();
    const { connections } = seam;
    const production = elsewhere('conn-safety-prod', 'production');
    await connections.save(production);
    try {
      await vscode.commands.executeCommand('obs.sandbox.start');
      assert.deepEqual([seam.view.title, seam.view.description], ['Datasets', 'Sandbox']);
      await vscode.commands.executeCommand('obs.sandbox.stop');
      assert.equal(connections.activeProfile(), undefined, 'production must not become active by itself');
      assert.deepEqual([seam.view.title, seam.view.description], ['Datasets', undefined]);
      await connections.setActive(production.id);
      assert.deepEqual([seam.view.title, seam.view.description], ['Datasets', 'production']);
    } finally {
      await connections.remove(production.id);
    }
    assert.equal(connections.activeProfile(), undefined);
  });

  test(
    "Run Saved Query goes to the trigger's own connection even after another one became active",
    async () => {
      const seam = await obsSeam();
      const { connections } = seam;
      await vscode.commands.executeCommand('obs.sandbox.start');
      const handle = seam.sandbox.running;
      assert.ok(handle, 'the sandbox runs');
      const group: TreeNode = { kind: 'group', connectionId: 'sandbox', dataset: 'api-gateway', group: 'triggers' };
      const node = (await seam.tree.getChildren(group)).find(
        (t) => t.kind === 'trigger' && typeof t.trigger.query_id === 'string',
      );
      assert.ok(node?.kind === 'trigger', 'a demo trigger with a saved query');
      const other = elsewhere('conn-safety-other', 'other');
      await connections.save(other);
      await connections.setActive(other.id);
      const seen = handle.requests.length;
      const running = vscode.commands.executeCommand('obs.trigger.runQuery', node);
      try {
        const request = await waitFor('the query result request at the sandbox', async () => {
          // Accept the request-flags QuickPick with its defaults (a no-op until it shows).
          await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
          return handle.requests.slice(seen).find((r) => r.method === 'POST' && r.path.startsWith('/1/query_results/'));
        });
        assert.equal(request.path, '/1/query_results/api-gateway');
        assert.equal((request.body as { query_id?: string }).query_id, node.trigger.query_id);
        assert.equal(connections.activeProfile()?.id, other.id, 'the active connection is left as it was');
      } finally {
        await vscode.commands.executeCommand('notifications.clearAll');
        await Promise.race([running, new Promise((resolve) => setTimeout(resolve, 2000))]);
        await connections.remove(other.id);
        await vscode.commands.executeCommand('obs.sandbox.stop');
      }
    },
    { timeoutMs: 30_000 },
  );
});
