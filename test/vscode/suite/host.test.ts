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
    const triggers = await vscode.workspace.findFiles('triggers/**/*.trigger.json');
    assert.ok(triggers.length >= 2, `found ${triggers.length} trigger files`);
  });

  // The probes go into the workspace root, which the workspace watcher already watches. A file made in
  // a brand-new folder races the Linux watcher (@parcel/watcher's inotify backend starts watching a new
  // folder only after it sees it, so a file written into it at once can go unreported:
  // parcel-bundler/watcher#243); under load that race was lost and the create event never came.
  // A new probe is written every 2 s until one is seen, in case the watcher is still starting.
  test(
    'file watchers see files created and deleted in the workspace',
    async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder, 'no workspace folder');
      const seen: string[] = [];
      const probes: vscode.Uri[] = [];
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(folder, 'host-watch-probe-*.txt'),
      );
      try {
        watcher.onDidCreate((u) => seen.push(`create ${u.path}`));
        watcher.onDidDelete((u) => seen.push(`delete ${u.path}`));
        let nextProbeAt = 0;
        const created = await waitFor(
          'a create event for a probe file',
          async () => {
            const hit = probes.find((p) => seen.includes(`create ${p.path}`));
            if (hit || Date.now() < nextProbeAt) return hit;
            const probe = vscode.Uri.joinPath(folder.uri, `host-watch-probe-${probes.length + 1}.txt`);
            probes.push(probe);
            nextProbeAt = Date.now() + 2000;
            await vscode.workspace.fs.writeFile(probe, new TextEncoder().encode('probe'));
            return undefined;
          },
          30_000,
        );
        await vscode.workspace.fs.delete(created, { useTrash: false });
        await waitFor(
          'a delete event for the probe file',
          () => seen.includes(`delete ${created.path}`) || undefined,
          30_000,
        );
      } finally {
        watcher.dispose();
        for (const probe of probes)
          await vscode.workspace.fs.delete(probe, { useTrash: false }).then(undefined, () => undefined);
      }
    },
    { timeoutMs: 70_000 },
  );
});
