// In-host: the linter runs in a worker thread of the real extension host, and a code action request
// is answered from the lint of the document's version (no lint of its own). The jobs are counted where
// they leave the extension: the messages posted to worker threads (the extension asks none of its own).
import * as assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { suite, test } from './harness';
import { obsExtension, waitFor } from './helpers';

const TRIGGER = `{
  "id": "trig_w",
  "name": "Linted in a worker",
  "frequency": 100,
  "threshold": { "op": ">", "value": 5 },
  "query": { "calculations": [{ "op": "COUNT" }], "time_range": 300 }
}
`;

/** A job as the lint runner posts it to its worker: `{ id, job: { kind, input | text } }`. */
function jobOf(message: unknown): { kind: unknown; text: unknown } | undefined {
  if (typeof message !== 'object' || message === null || !('job' in message)) return undefined;
  const job = message.job;
  if (typeof job !== 'object' || job === null || !('kind' in job)) return undefined;
  return { kind: job.kind, text: 'input' in job ? job.input : 'text' in job ? job.text : undefined };
}

/**
 * The kinds of the jobs on `text` posted to any worker thread of this extension host until `stop()`:
 * Worker's postMessage is wrapped on its prototype (the extension's workers, started before or after, share
 * it), then restored. Jobs run in the host's own thread, where no worker could start, are not posted.
 */
function watchWorkerJobs(text: string): { kinds: unknown[]; stop(): void } {
  const kinds: unknown[] = [];
  const original = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>): void {
    const job = jobOf(args[0]);
    if (job?.text === text) kinds.push(job.kind);
    original.apply(this, args);
  };
  return { kinds, stop: () => void (Worker.prototype.postMessage = original) };
}

suite('lint worker', () => {
  test('a trigger file is linted in a worker thread, and its code actions come from that lint', async () => {
    await obsExtension().activate();
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test workspace has a folder');
    const uri = vscode.Uri.joinPath(folder, 'ext-test', 'worker.trigger.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(TRIGGER));
    const posted = watchWorkerJobs(TRIGGER);
    const count = (kind: string) => posted.kinds.filter((k) => k === kind).length;
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      await waitFor('the file linted', () =>
        vscode.languages.getDiagnostics(uri).some((d) => d.source === 'obs-lint') ? true : undefined,
      );
      assert.ok(
        count('lint') >= 1,
        'no lint job of the file was posted to a worker thread: the linter fell back to the host thread',
      );
      const whole = new vscode.Range(0, 0, doc.lineCount, 0);
      const fixAll = () =>
        vscode.commands.executeCommand<vscode.CodeAction[]>(
          'vscode.executeCodeActionProvider',
          uri,
          whole,
          'source.fixAll.obs',
        );
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
      assert.ok(count('fixAll') >= 1, 'the fix-all was not computed in a worker thread');
      // Asked again for the same version: answered from its lint and fix-all, no job of its own.
      const jobs = posted.kinds.length;
      const version = doc.version;
      const again = await fixAll();
      assert.equal(doc.version, version);
      assert.deepEqual(
        again.map((a) => a.title),
        ['Fix all auto-fixable problems'],
      );
      assert.equal(posted.kinds.length, jobs);
    } finally {
      posted.stop();
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await vscode.workspace.fs.delete(uri, { useTrash: false }).then(undefined, () => undefined);
    }
  });
});
