// In-host tests of running a trigger's query without cluttering the service (queries/queryCommands.ts):
// the saved query the service lists with a trigger runs as it is, and an inline query alone is saved once
// per session, however often it runs.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeNode } from '../../../src/extension/tree/nodes';
import { suite, test } from './harness';
import { obsSeam, waitFor } from './helpers';

suite('trigger queries', () => {
  test(
    'a listed trigger runs the query_id the service lists with it; an inline query alone is saved once for two runs',
    async () => {
      const seam = await obsSeam();
      await vscode.commands.executeCommand('obs.sandbox.start');
      const handle = seam.sandbox.running;
      assert.ok(handle, 'the sandbox runs');
      try {
        const group: TreeNode = { kind: 'group', connectionId: 'sandbox', dataset: 'api-gateway', group: 'triggers' };
        const node = (await seam.tree.getChildren(group)).find(
          (t) => t.kind === 'trigger' && t.trigger.query !== undefined && typeof t.trigger.query_id === 'string',
        );
        assert.ok(
          node?.kind === 'trigger',
          'a demo trigger listed with its inline query and the query_id it was saved as',
        );
        const posts = (path: string) => handle.requests.filter((r) => r.method === 'POST' && r.path === path);
        const runs = async (arg: TreeNode, count: number) => {
          const before = posts('/1/query_results/api-gateway').length;
          await vscode.commands.executeCommand('obs.trigger.runQuery', arg);
          await waitFor(
            'the query result request',
            () => posts('/1/query_results/api-gateway').length >= before + count || undefined,
          );
        };

        await runs(node, 1);
        assert.deepEqual(posts('/1/queries/api-gateway'), [], 'nothing saved: the listed query_id runs');
        assert.equal(
          (posts('/1/query_results/api-gateway').at(-1)?.body as { query_id?: string }).query_id,
          node.trigger.query_id,
        );

        const inlineOnly: TreeNode = { ...node, trigger: { ...node.trigger, query_id: undefined } };
        await runs(inlineOnly, 1);
        await runs(inlineOnly, 1);
        assert.equal(posts('/1/queries/api-gateway').length, 1, 'the inline query was saved once for both runs');
        const [first, second] = posts('/1/query_results/api-gateway')
          .slice(-2)
          .map((r) => (r.body as { query_id?: string }).query_id);
        assert.equal(first, second);
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        await vscode.commands.executeCommand('notifications.clearAll');
        await vscode.commands.executeCommand('obs.sandbox.stop');
      }
    },
    { timeoutMs: 60_000 },
  );
});
