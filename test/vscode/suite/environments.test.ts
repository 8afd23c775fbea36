// In-host test of the workspace's environments file (docs/ENVIRONMENTS.md, "The editor"): a mistake saved into
// the demo's obs.environments.json is shown in it at its place, and goes away when the file is put right.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { waitFor } from './helpers';

/** The file watcher and the read after it may take a while on a loaded 2-core machine. */
const READ_WAIT_MS = 30_000;

function environmentsFile(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the test workspace has a folder');
  return vscode.Uri.joinPath(folder, 'obs.environments.json');
}

const shown = (uri: vscode.Uri) =>
  vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === 'obs')
    .map((d) => ({ message: d.message, line: d.range.start.line, code: String(d.code) }));

suite('environments file', () => {
  test(
    'a mistake in the environments file is shown at its member, and cleared when the file is put right',
    async () => {
      const uri = environmentsFile();
      const original = await vscode.workspace.fs.readFile(uri);
      const file = JSON.parse(new TextDecoder().decode(original)) as Record<string, unknown>;
      const names = Object.keys(file.environments as Record<string, unknown>).join(', ');
      try {
        const broken = `${JSON.stringify({ ...file, home: 'nowhere' }, null, 2)}\n`;
        await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(broken));
        const homeLine = broken.split('\n').findIndex((l) => l.includes('"home"'));
        const problems = await waitFor(
          'the mistake shown',
          () => (shown(uri).length > 0 ? shown(uri) : undefined),
          READ_WAIT_MS,
        );
        assert.deepEqual(problems, [
          {
            message: `home must name one of the environments (${names})`,
            line: homeLine,
            code: 'environments/file',
          },
        ]);
      } finally {
        await vscode.workspace.fs.writeFile(uri, original);
      }
      await waitFor('the mistake cleared', () => shown(uri).length === 0, READ_WAIT_MS);
    },
    { timeoutMs: 3 * READ_WAIT_MS },
  );
});
