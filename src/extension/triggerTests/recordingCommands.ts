// The Test Explorer's recordings: "Record the Window" on a test file or one of its tests (a run on the active
// connection that records what the recording does not hold yet, then writes it beside the test file, asking
// before a recording of other content is replaced), and the lens over each test whose window the recording
// holds, which opens that window in the preview from the recording alone: no connection, no query.
import * as vscode from 'vscode';
import { recordingUpdate, utcSpan } from '../../backtest';
import type { ConnectionManager } from '../connections';
import { readWorkspaceText } from '../core/workspaceText';
import type { QueryServices } from '../queries';
import type { RecordedFile } from './runTests';
import { outlineTestFile } from './testOutline';
import { recordedExpectations, recordedText, replaceQuestion, writeRecording } from './testRecordings';
import { testItemOf, type TestRuns } from './testRuns';

export interface RecordingDeps {
  profile: vscode.TestRunProfile;
  connections: Pick<ConnectionManager, 'getActive'>;
  services: () => QueryServices;
  runs: TestRuns;
  /** The lenses of test files show what the recordings hold now. */
  refreshLenses(): void;
}

export class RecordingCommands {
  constructor(private readonly deps: RecordingDeps) {}

  /** Records the windows of a test file, or of one test, from the active connection. */
  async record(arg: unknown): Promise<void> {
    const item = testItemOf(arg);
    if (!item) return;
    if (!(await this.deps.connections.getActive())) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          'Recording needs a connection: a window is recorded from the service. Add a connection or start the local sandbox (Observability view), then record again.',
        ),
      );
      return;
    }
    const request = new vscode.TestRunRequest([item], undefined, this.deps.profile);
    // The notification's Cancel stops the run between queries (an AbortSignal in the engine): nothing is written.
    const title = vscode.l10n.t('Recording the windows of {0}', item.label);
    const run = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, token) => ({
        recorded: await this.deps.runs.run(request, token, { report: (message) => progress.report({ message }) }),
        cancelled: token.isCancellationRequested,
      }),
    );
    if (run.cancelled) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Recording cancelled: nothing was written.'));
      return;
    }
    // A test file, its trigger or its recording that could not be read ran no test: its tests' errors say why.
    if (run.recorded.length === 0)
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Nothing was recorded: the tests could not run. The Test Results say why.'),
      );
    for (const file of run.recorded) await this.save(file);
    this.deps.refreshLenses();
  }

  private async save(file: RecordedFile): Promise<void> {
    const uri = vscode.Uri.parse(file.key, true);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (uri.scheme !== 'file' || !folder) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('Recordings are kept beside test files in local workspace folders only: nothing was written.'),
      );
      return;
    }
    let update = recordingUpdate(file.before, file.fresh, false);
    if (update.kind === 'refused') {
      const replace = vscode.l10n.t('Replace');
      if (
        (await vscode.window.showWarningMessage(
          replaceQuestion(update.reasons, uri.fsPath),
          { modal: true },
          replace,
        )) !== replace
      )
        return;
      update = recordingUpdate(file.before, file.fresh, true);
    }
    if (update.kind === 'refused') return;
    const failed =
      update.kind === 'write'
        ? await writeRecording(folder.uri.fsPath, uri.fsPath, file.before, update.text)
        : undefined;
    if (failed !== undefined)
      void vscode.window.showErrorMessage(vscode.l10n.t('The recording was not written: {0}', failed));
    else void vscode.window.showInformationMessage(recordedText(update, file, uri.fsPath));
  }

  /** "Preview the Recorded Window" over each test of a test file whose window its recording holds. */
  async lenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const read = await this.deps.runs.readRecording({ key: doc.uri.toString() });
    return recordedExpectations(doc.getText(), read.ok ? read.text : undefined).map((e) => {
      const at = doc.positionAt(e.start);
      return new vscode.CodeLens(new vscode.Range(at, at), {
        title: `$(pulse) ${vscode.l10n.t('Preview the Recorded Window')}`,
        tooltip: vscode.l10n.t(
          'Evaluate this test from its recording, with no connection and no query, and show its window in the Trigger Preview',
        ),
        command: 'obs.triggerTests.previewRecorded',
        arguments: [doc.uri.toString(), e.id],
      });
    });
  }

  /**
   * Opens a test's window in the preview, evaluated from its recording; or says why it cannot be. From the
   * lens (the test file's key and the test's id) or the test's menu (its item).
   */
  async previewRecorded(arg: unknown, id?: unknown): Promise<void> {
    const item = typeof arg === 'string' ? undefined : testItemOf(arg);
    const target =
      typeof arg === 'string' && typeof id === 'string'
        ? { key: arg, id }
        : item?.parent
          ? { key: item.parent.id, id: item.id }
          : undefined;
    if (!target)
      return void vscode.window.showInformationMessage(
        vscode.l10n.t('Choose one test of the file: its window is previewed from the recording.'),
      );
    const { key } = target;
    const uri = vscode.Uri.parse(key, true);
    const read = await readWorkspaceText(uri);
    if (!read.ok)
      return void vscode.window.showWarningMessage(vscode.l10n.t('The test file cannot be read: {0}', read.reason));
    const name = outlineTestFile(read.text).expectations.find((e) => e.id === target.id)?.name;
    if (name === undefined)
      return void vscode.window.showWarningMessage(vscode.l10n.t('The test is no longer in its file.'));
    const found = await this.deps.runs.fromRecording({
      key,
      path: uri.path,
      text: read.text,
      tests: [{ id: target.id, name }],
    });
    const preview = found?.outcome.preview;
    if (!found || !preview)
      return void vscode.window.showWarningMessage(
        vscode.l10n.t('The recorded window cannot be shown: {0}', found?.outcome.message ?? name),
      );
    const span = utcSpan(preview.from, preview.to);
    this.deps.services().showPreviewWindow({
      key: `trigger-test-recording:${key}\u0000${target.id}`,
      name: found.against?.triggerName ?? name,
      subtitle: vscode.l10n.t(
        '{0} · "{1}" · {2} to {3} · {4}, from the recording',
        found.against?.triggerLabel ?? '',
        name,
        span.from,
        span.to,
        preview.dataset,
      ),
      summary: found.outcome.message,
      preview,
    });
  }
}
