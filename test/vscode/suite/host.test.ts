// Checks of the host environment itself (code-server or desktop VS Code), so a broken install shows
// up as one clear failure instead of as odd failures in feature tests.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { waitFor } from './helpers';

suite('host', () => {
  test('a workspace folder with the demo triggers is open', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const triggers = await vscode.workspace.findFiles('triggers/*.trigger.json');
    assert.ok(triggers.length >= 2, `found ${triggers.length} trigger files`);
  });

  test('file watchers see files created and deleted in the workspace', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder');
    const uri = vscode.Uri.joinPath(folder.uri, 'host-watch', 'probe.txt');
    const seen: string[] = [];
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, 'host-watch/**'));
    try {
      watcher.onDidCreate((u) => seen.push(`create ${u.path}`));
      watcher.onDidDelete((u) => seen.push(`delete ${u.path}`));
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('probe'));
      await waitFor('a create event', () => seen.some((s) => s === `create ${uri.path}`) || undefined);
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder.uri, 'host-watch'), { recursive: true, useTrash: false });
      await waitFor('a delete event', () => seen.some((s) => s.startsWith('delete ')) || undefined);
    } finally {
      watcher.dispose();
    }
  });
});
