// In-host tests of the workspace's environments file (docs/ENVIRONMENTS.md, "The editor"): a mistake saved into
// the demo's obs.environments.json is shown in it at its place, and goes away when the file is put right; on
// production's connection, a trigger file is linted as production sees it, a problem of an override shown at it.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ConnectionProfile } from '../../../src/extension/connections/profiles';
import { suite, test } from './harness';
import { obsSeam, waitFor } from './helpers';

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

/** The demo's production connection, on a loopback port nobody listens on: nothing is read from a service. */
const PRODUCTION: ConnectionProfile = {
  id: 'conn-env-lint-prod',
  name: 'Sandbox (production)',
  baseUrl: 'http://127.0.0.1:9',
  uiUrl: 'http://127.0.0.1:9',
  team: 't',
  environmentId: 'e',
};

const TRIGGER = 'triggers/api-gateway/High-error-rate.trigger.json';
const OVERRIDE = '"High error rate": { "threshold": { "value": 20 } },';

const linted = (uri: vscode.Uri, source: string) =>
  vscode.languages
    .getDiagnostics(uri)
    .filter((d) => d.source === source)
    .map((d) => ({
      code: typeof d.code === 'object' ? String(d.code.value) : String(d.code),
      line: d.range.start.line,
    }));

suite('environments: lint as an environment sees the files', () => {
  test(
    "on production's connection, a threshold op production's override breaks is shown at the override, not in the trigger file",
    async () => {
      const { connections } = await obsSeam();
      const uri = environmentsFile();
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder);
      const trigger = vscode.Uri.joinPath(folder, TRIGGER);
      const original = await vscode.workspace.fs.readFile(uri);
      const text = new TextDecoder().decode(original);
      assert.ok(text.includes(OVERRIDE), 'the demo overrides the threshold of High error rate for production');
      const wasActive = connections.activeProfile()?.id;
      await connections.save(PRODUCTION);
      try {
        const broken = text.replace(OVERRIDE, OVERRIDE.replace('20 }', '20, "op": "=>" }'));
        await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(broken));
        const line = broken.split('\n').findIndex((l) => l.includes('"op": "=>"'));
        await connections.setActive(PRODUCTION.id);
        await vscode.window.showTextDocument(trigger);
        const there = await waitFor(
          "the override's problem shown in the environments file",
          () => (linted(uri, 'obs-lint (production)').length > 0 ? linted(uri, 'obs-lint (production)') : undefined),
          READ_WAIT_MS,
        );
        assert.deepEqual(there, [{ code: 'trigger/threshold-op', line }]);
        assert.deepEqual(
          [...linted(trigger, 'obs-lint'), ...linted(trigger, 'obs-lint (production)')].filter(
            (d) => d.code === 'trigger/threshold-op',
          ),
          [],
          "the trigger file's own op is fine",
        );
        // Another connection: the files are linted as they are again, and the override's problem goes.
        await connections.setActive(wasActive);
        await waitFor(
          "the override's problem cleared",
          () => linted(uri, 'obs-lint (production)').length === 0,
          READ_WAIT_MS,
        );
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
        await vscode.workspace.fs.writeFile(uri, original);
        await connections.remove(PRODUCTION.id);
        if (wasActive !== undefined && connections.activeProfile()?.id !== wasActive)
          await connections.setActive(wasActive);
      }
    },
    { timeoutMs: 3 * READ_WAIT_MS },
  );
});
